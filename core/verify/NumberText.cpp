// SPDX-License-Identifier: MIT
#include "core/verify/NumberText.h"

#include <sstream>

namespace kwb::verify {

std::string numberText(double v) {
  std::ostringstream os;
  os.precision(6);
  os << v;
  return os.str();
}

std::string percentText(double ratio) {
  std::ostringstream os;
  os.precision(3);
  os << ratio * 100.0 << "%";
  return os.str();
}

}  // namespace kwb::verify
