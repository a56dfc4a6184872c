// Reference for reduce_max_rows: y[i] = max_j x[i, j], in double precision (see ../include/kwb_reference.h).
#include "kwb_reference.h"

void reference(kwb::ref::Case& c) {
  const auto& x = c.in("x");
  auto& y = c.out("y");
  for (int64_t r = 0; r < x.rows(); ++r) {
    double m = x.at(r, 0);
    for (int64_t j = 1; j < x.cols(); ++j) m = x.at(r, j) > m ? x.at(r, j) : m;
    y[r] = m;
  }
}
