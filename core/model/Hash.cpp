// SPDX-License-Identifier: MIT
#include "core/model/Hash.h"

namespace kwb {

std::uint64_t fnv1a64(std::string_view data, std::uint64_t seed) {
  std::uint64_t h = seed;
  for (unsigned char c : data) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

std::string hashHex(std::string_view data) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::uint64_t h = fnv1a64(data);
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i) {
    out[static_cast<std::size_t>(i)] = kDigits[h & 0xF];
    h >>= 4;
  }
  return out;
}

}  // namespace kwb
