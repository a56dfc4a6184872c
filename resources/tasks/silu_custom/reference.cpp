// Reference for silu_custom: y = x * sigmoid(x) = x / (1 + exp(-x)), in double precision (see
// ../include/kwb_reference.h).
#include "kwb_reference.h"

void reference(kwb::ref::Case& c) {
  const auto& x = c.in("x");
  auto& y = c.out("y");
  for (int64_t i = 0; i < y.size(); ++i) y[i] = x[i] / (1.0 + std::exp(-x[i]));
}
