// Reference for layernorm_rows: z = (x - mean) / sqrt(var + eps) * gamma + beta, per row, in double precision
// (see ../include/kwb_reference.h).
#include "kwb_reference.h"

void reference(kwb::ref::Case& c) {
  const auto& x = c.in("x");
  const auto& g = c.in("gamma");
  const auto& b = c.in("beta");
  auto& z = c.out("z");
  const double eps = static_cast<float>(c.attr("eps"));
  const int64_t n = x.cols();
  for (int64_t r = 0; r < x.rows(); ++r) {
    double mean = 0, var = 0;
    for (int64_t j = 0; j < n; ++j) mean += x.at(r, j);
    mean /= n;
    for (int64_t j = 0; j < n; ++j) var += (x.at(r, j) - mean) * (x.at(r, j) - mean);
    var /= n;
    const double rstd = 1.0 / std::sqrt(var + eps);
    for (int64_t j = 0; j < n; ++j) z.at(r, j) = (x.at(r, j) - mean) * rstd * g[j] + b[j];
  }
}
