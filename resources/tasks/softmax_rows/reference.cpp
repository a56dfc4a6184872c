// Reference for softmax_rows: z[i, :] = exp(x[i, :] - max x[i, :]) / sum exp(x[i, :] - max x[i, :]), in
// double precision (see ../include/kwb_reference.h).
#include "kwb_reference.h"

void reference(kwb::ref::Case& c) {
  const auto& x = c.in("x");
  auto& z = c.out("z");
  for (int64_t r = 0; r < x.rows(); ++r) {
    double m = x.at(r, 0);
    for (int64_t j = 1; j < x.cols(); ++j) m = std::max(m, x.at(r, j));
    double s = 0;
    for (int64_t j = 0; j < x.cols(); ++j) s += std::exp(x.at(r, j) - m);
    for (int64_t j = 0; j < x.cols(); ++j) z.at(r, j) = std::exp(x.at(r, j) - m) / s;
  }
}
