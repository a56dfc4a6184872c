// Reference for broadcast_mul_col: z[i, j] = x[i, j] * s[i], in double precision (see
// ../include/kwb_reference.h).
#include "kwb_reference.h"

void reference(kwb::ref::Case& c) {
  const auto& x = c.in("x");
  const auto& s = c.in("s");
  auto& z = c.out("z");
  for (int64_t r = 0; r < x.rows(); ++r)
    for (int64_t j = 0; j < x.cols(); ++j) z.at(r, j) = x.at(r, j) * s[r];
}
