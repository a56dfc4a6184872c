// Reference for axpy_custom: z = alpha * x + y, in double precision (see ../include/kwb_reference.h).
#include "kwb_reference.h"

void reference(kwb::ref::Case& c) {
  const auto& x = c.in("x");
  const auto& y = c.in("y");
  auto& z = c.out("z");
  const double alpha = c.attr("alpha");
  for (int64_t i = 0; i < z.size(); ++i) z[i] = alpha * x[i] + y[i];
}
