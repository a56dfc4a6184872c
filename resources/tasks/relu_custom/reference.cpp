// Reference for relu_custom: y = max(x, 0), in double precision (see ../include/kwb_reference.h).
#include "kwb_reference.h"

void reference(kwb::ref::Case& c) {
  const auto& x = c.in("x");
  auto& y = c.out("y");
  for (int64_t i = 0; i < y.size(); ++i) y[i] = x[i] > 0 ? x[i] : 0.0;
}
