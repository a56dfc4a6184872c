// Reference for exp_custom: y = exp(x), in double precision (see ../include/kwb_reference.h).
#include "kwb_reference.h"

void reference(kwb::ref::Case& c) {
  const auto& x = c.in("x");
  auto& y = c.out("y");
  for (int64_t i = 0; i < y.size(); ++i) y[i] = std::exp(x[i]);
}
