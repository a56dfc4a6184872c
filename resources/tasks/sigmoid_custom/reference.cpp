// Reference for sigmoid_custom: y = 1 / (1 + exp(-x)), in double precision (see ../include/kwb_reference.h).
#include "kwb_reference.h"

void reference(kwb::ref::Case& c) {
  const auto& x = c.in("x");
  auto& y = c.out("y");
  for (int64_t i = 0; i < y.size(); ++i) y[i] = 1.0 / (1.0 + std::exp(-x[i]));
}
