// Reference for leaky_relu_custom: y = x >= 0 ? x : negative_slope * x, in double precision (see
// ../include/kwb_reference.h).
#include "kwb_reference.h"

void reference(kwb::ref::Case& c) {
  const auto& x = c.in("x");
  auto& y = c.out("y");
  const double s = kwb::ref::roundHalf(c.attr("negative_slope"));  // the kernel applies the slope as a half
  for (int64_t i = 0; i < y.size(); ++i) y[i] = x[i] >= 0 ? x[i] : s * x[i];
}
