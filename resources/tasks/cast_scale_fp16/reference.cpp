// Reference for cast_scale_fp16: y = half(float(x) * scale), in double precision (see
// ../include/kwb_reference.h).
#include "kwb_reference.h"

void reference(kwb::ref::Case& c) {
  const auto& x = c.in("x");
  auto& y = c.out("y");
  const double s = static_cast<float>(c.attr("scale"));
  for (int64_t i = 0; i < y.size(); ++i) y[i] = static_cast<float>(x[i]) * s;
}
