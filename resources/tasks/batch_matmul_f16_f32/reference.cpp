// Reference for batch_matmul_f16_f32: c[i] = a[i] x b[i] for every batch index, in double precision (see
// ../include/kwb_reference.h).
#include "kwb_reference.h"

void reference(kwb::ref::Case& c) {
  const auto& a = c.in("a");
  const auto& b = c.in("b");
  auto& out = c.out("c");
  const int64_t batch = a.dim(0), m = a.dim(1), k = a.dim(2), n = b.dim(2);
  for (int64_t bi = 0; bi < batch; ++bi)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double s = 0;
        for (int64_t kk = 0; kk < k; ++kk) s += a[(bi * m + i) * k + kk] * b[(bi * k + kk) * n + j];
        out[(bi * m + i) * n + j] = s;
      }
}
