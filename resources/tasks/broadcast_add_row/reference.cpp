// Reference for broadcast_add_row: z[i, j] = x[i, j] + b[j], in double precision (see
// ../include/kwb_reference.h).
#include "kwb_reference.h"

void reference(kwb::ref::Case& c) {
  const auto& x = c.in("x");
  const auto& b = c.in("b");
  auto& z = c.out("z");
  for (int64_t r = 0; r < x.rows(); ++r)
    for (int64_t j = 0; j < x.cols(); ++j) z.at(r, j) = x.at(r, j) + b[j];
}
