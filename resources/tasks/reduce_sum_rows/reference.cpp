// Reference for reduce_sum_rows: y[i] = sum_j x[i, j], in double precision (see ../include/kwb_reference.h).
#include "kwb_reference.h"

void reference(kwb::ref::Case& c) {
  const auto& x = c.in("x");
  auto& y = c.out("y");
  for (int64_t r = 0; r < x.rows(); ++r) {
    double s = 0;
    for (int64_t j = 0; j < x.cols(); ++j) s += x.at(r, j);
    y[r] = s;
  }
}
