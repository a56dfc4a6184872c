// Reference for add_custom: z = x + y, in double precision (see ../include/kwb_reference.h).
#include "kwb_reference.h"

void reference(kwb::ref::Case& c) {
  const auto& x = c.in("x");
  const auto& y = c.in("y");
  auto& z = c.out("z");
  for (int64_t i = 0; i < z.size(); ++i) z[i] = x[i] + y[i];
}
