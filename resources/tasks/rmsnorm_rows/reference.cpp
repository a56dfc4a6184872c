// Reference for rmsnorm_rows: z = x / sqrt(mean(x^2) + eps) * gamma, per row, in double precision (see
// ../include/kwb_reference.h).
#include "kwb_reference.h"

void reference(kwb::ref::Case& c) {
  const auto& x = c.in("x");
  const auto& g = c.in("gamma");
  auto& z = c.out("z");
  const double eps = static_cast<float>(c.attr("eps"));
  const int64_t n = x.cols();
  for (int64_t r = 0; r < x.rows(); ++r) {
    double ms = 0;
    for (int64_t j = 0; j < n; ++j) ms += x.at(r, j) * x.at(r, j);
    ms /= n;
    const double rr = 1.0 / std::sqrt(ms + eps);
    for (int64_t j = 0; j < n; ++j) z.at(r, j) = x.at(r, j) * rr * g[j];
  }
}
