// Reference for where_lt: z = a < b ? x : y, in double precision (see ../include/kwb_reference.h).
#include "kwb_reference.h"

void reference(kwb::ref::Case& c) {
  const auto& a = c.in("a");
  const auto& b = c.in("b");
  const auto& x = c.in("x");
  const auto& y = c.in("y");
  auto& z = c.out("z");
  for (int64_t i = 0; i < z.size(); ++i) z[i] = a[i] < b[i] ? x[i] : y[i];
}
