// Reference for matmul_bias_relu: c = max(a x b + bias, 0) in double precision (see
// ../include/kwb_reference.h).
#include "kwb_reference.h"

void reference(kwb::ref::Case& c) {
  const auto& a = c.in("a");
  const auto& b = c.in("b");
  const auto& bias = c.in("bias");
  auto& out = c.out("c");
  const int64_t m = a.rows(), k = a.cols(), n = b.cols();
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = bias[j];
      for (int64_t kk = 0; kk < k; ++kk) s += a.at(i, kk) * b.at(kk, j);
      out.at(i, j) = s > 0 ? s : 0.0;
    }
}
