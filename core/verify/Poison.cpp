// SPDX-License-Identifier: MIT
#include "core/verify/Poison.h"

#include <cstring>

namespace kwb::verify {

Bytes poisonBytes(DType t, std::int64_t elements) {
  const std::size_t es = dtypeSize(t);
  Bytes out(static_cast<std::size_t>(elements) * es, 0xA5);
  std::uint8_t pattern[8];
  std::memset(pattern, 0xA5, sizeof pattern);
  switch (t) {
    case DType::Float16: {
      const std::uint16_t v = 0x7E5A;
      std::memcpy(pattern, &v, 2);
      break;
    }
    case DType::BFloat16: {
      const std::uint16_t v = 0x7FA5;
      std::memcpy(pattern, &v, 2);
      break;
    }
    case DType::Float32: {
      const std::uint32_t v = 0x7FA5A5A5u;
      std::memcpy(pattern, &v, 4);
      break;
    }
    case DType::Float64: {
      const std::uint64_t v = 0x7FF4A5A5A5A5A5A5ull;
      std::memcpy(pattern, &v, 8);
      break;
    }
    default:
      return out;
  }
  for (std::size_t i = 0; i + es <= out.size(); i += es) std::memcpy(&out[i], pattern, es);
  return out;
}

}  // namespace kwb::verify
