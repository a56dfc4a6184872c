// Reference for gelu_tanh_custom: y = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), in double precision
// (see ../include/kwb_reference.h).
#include "kwb_reference.h"

void reference(kwb::ref::Case& c) {
  const auto& x = c.in("x");
  auto& y = c.out("y");
  const double k = std::sqrt(2.0 / M_PI);
  for (int64_t i = 0; i < y.size(); ++i) {
    const double v = x[i];
    y[i] = 0.5 * v * (1.0 + std::tanh(k * (v + 0.044715 * v * v * v)));
  }
}
