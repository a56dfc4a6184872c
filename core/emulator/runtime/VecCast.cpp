// SPDX-License-Identifier: MIT
// Element conversions: loading any dtype as double, storing a double back (saturating integers, rounding
// floats per the round mode), and Cast. half <-> float in the default rounding runs in bulk on the host's
// F16C unit when it has one (VecSimd.h); every other pair goes element by element through double, which
// holds every source value exactly, so the one rounding is the store's.

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "VecSimd.h"
#include "kwb_sim/runtime.h"

namespace kwb_sim {

double loadAsDouble(DType dt, const void* p) {
  switch (dt) {
    case DType::F16: {
      std::uint16_t b;
      std::memcpy(&b, p, 2);
      return half::toFloat(b);
    }
    case DType::BF16: {
      std::uint16_t b;
      std::memcpy(&b, p, 2);
      return bfloat16::toFloat(b);
    }
    case DType::F32: {
      float v;
      std::memcpy(&v, p, 4);
      return v;
    }
    case DType::F64: {
      double v;
      std::memcpy(&v, p, 8);
      return v;
    }
    case DType::I8:
      return *static_cast<const std::int8_t*>(p);
    case DType::U8:
      return *static_cast<const std::uint8_t*>(p);
    case DType::I16: {
      std::int16_t v;
      std::memcpy(&v, p, 2);
      return v;
    }
    case DType::U16: {
      std::uint16_t v;
      std::memcpy(&v, p, 2);
      return v;
    }
    case DType::I32: {
      std::int32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    case DType::U32: {
      std::uint32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    case DType::I64: {
      std::int64_t v;
      std::memcpy(&v, p, 8);
      return static_cast<double>(v);
    }
    case DType::U64: {
      std::uint64_t v;
      std::memcpy(&v, p, 8);
      return static_cast<double>(v);
    }
    case DType::None:
      break;
  }
  return 0;
}

namespace {
template <typename I>
void storeInt(void* p, double v) {
  I out;
  if (std::isnan(v))
    out = 0;
  else if (v <= static_cast<double>(std::numeric_limits<I>::min()))
    out = std::numeric_limits<I>::min();
  else if (v >= static_cast<double>(std::numeric_limits<I>::max()))
    out = std::numeric_limits<I>::max();
  else
    out = static_cast<I>(v);
  std::memcpy(p, &out, sizeof(I));
}
}  // namespace

void storeFromDouble(DType dt, void* p, double v) {
  switch (dt) {
    case DType::F16: {
      const std::uint16_t b = half(v).bits();
      std::memcpy(p, &b, 2);
      return;
    }
    case DType::BF16: {
      const std::uint16_t b = bfloat16(v).bits();
      std::memcpy(p, &b, 2);
      return;
    }
    case DType::F32: {
      const float f = static_cast<float>(v);
      std::memcpy(p, &f, 4);
      return;
    }
    case DType::F64:
      std::memcpy(p, &v, 8);
      return;
    case DType::I8:
      return storeInt<std::int8_t>(p, v);
    case DType::U8:
      return storeInt<std::uint8_t>(p, v);
    case DType::I16:
      return storeInt<std::int16_t>(p, v);
    case DType::U16:
      return storeInt<std::uint16_t>(p, v);
    case DType::I32:
      return storeInt<std::int32_t>(p, v);
    case DType::U32:
      return storeInt<std::uint32_t>(p, v);
    case DType::I64:
      return storeInt<std::int64_t>(p, v);
    case DType::U64:
      return storeInt<std::uint64_t>(p, v);
    case DType::None:
      return;
  }
}

namespace {
// Neighbours of a 16-bit float value given by its bits (sign-magnitude ordering).
std::uint16_t step16(std::uint16_t b, bool up) {
  const bool neg = (b & 0x8000u) != 0;
  const std::uint16_t mag = b & 0x7fffu;
  if (mag == 0) return up ? 0x0001 : 0x8001;
  if (up != neg) return static_cast<std::uint16_t>(b + 1);
  return static_cast<std::uint16_t>(b - 1);
}

// Rounds v to the float-like dtype dt with the given RoundMode (0 none/1 rint: nearest-even, 2 floor,
// 3 ceil, 4 round: nearest, ties away, 5 trunc, 6 odd) and stores it.
void storeRounded(DType dt, void* p, double v, int mode) {
  if (dt == DType::F32) {
    float c = static_cast<float>(v);
    if (!std::isnan(v) && static_cast<double>(c) != v && mode >= 2) {
      const float lo = static_cast<double>(c) > v ? std::nextafter(c, -INFINITY) : c;
      const float hi = static_cast<double>(c) > v ? c : std::nextafter(c, INFINITY);
      switch (mode) {
        case 2:
          c = lo;
          break;
        case 3:
          c = hi;
          break;
        case 5:
          c = v > 0 ? lo : hi;
          break;
        case 4: {
          const double dl = v - lo, dh = hi - v;
          c = dl < dh ? lo : dh < dl ? hi : (v > 0 ? hi : lo);
          break;
        }
        case 6: {
          std::uint32_t bl;
          std::memcpy(&bl, &lo, 4);
          c = (bl & 1u) ? lo : hi;
          break;
        }
        default:
          break;
      }
    }
    std::memcpy(p, &c, 4);
    return;
  }
  std::uint16_t c = dt == DType::F16 ? half(v).bits() : bfloat16(v).bits();
  auto val = [&](std::uint16_t b) -> double {
    return dt == DType::F16 ? half::toFloat(b) : bfloat16::toFloat(b);
  };
  if (!std::isnan(v) && val(c) != v && mode >= 2 && std::isfinite(val(c))) {
    const std::uint16_t lo = val(c) > v ? step16(c, false) : c;
    const std::uint16_t hi = val(c) > v ? c : step16(c, true);
    switch (mode) {
      case 2:
        c = lo;
        break;
      case 3:
        c = hi;
        break;
      case 5:
        c = v > 0 ? lo : hi;
        break;
      case 4: {
        const double dl = v - val(lo), dh = val(hi) - v;
        c = dl < dh ? lo : dh < dl ? hi : (v > 0 ? hi : lo);
        break;
      }
      case 6:
        c = (lo & 1u) ? lo : hi;
        break;
      default:
        break;
    }
  }
  std::memcpy(p, &c, 2);
}

double roundInteger(double v, int mode) {
  switch (mode) {
    case 2:
      return std::floor(v);
    case 3:
      return std::ceil(v);
    case 4:
      return std::round(v);
    case 5:
      return std::trunc(v);
    default:
      return std::nearbyint(v);  // none / rint / odd: nearest even
  }
}
bool isFloatType(DType d) {
  return d == DType::F16 || d == DType::BF16 || d == DType::F32 || d == DType::F64;
}
}  // namespace

void vecCast(DType dstT, DType srcT, int roundMode, void* dst, const void* src, std::size_t n) {
  const std::size_t ds = dtypeSize(dstT), ss = dtypeSize(srcT);
  if (srcT == DType::F16 && dstT == DType::F32)
    return simd::halfToFloat(simd::simdEnabled(), static_cast<const std::uint16_t*>(src),
                             static_cast<float*>(dst), n);
  if (srcT == DType::F32 && dstT == DType::F16 && roundMode <= 1) {
    return simd::floatToHalf(simd::simdEnabled(), static_cast<const float*>(src),
                             static_cast<std::uint16_t*>(dst), n);
  }
  for (std::size_t i = 0; i < n; ++i) {
    const double v = loadAsDouble(srcT, static_cast<const char*>(src) + i * ss);
    char* out = static_cast<char*>(dst) + i * ds;
    if (isFloatType(dstT)) {
      if (dstT == srcT && dstT == DType::F32) {  // float -> float: round to an integral value
        const float f = static_cast<float>(roundInteger(v, roundMode));
        std::memcpy(out, &f, 4);
      } else {
        storeRounded(dstT, out, v, roundMode);
      }
    } else {
      storeFromDouble(dstT, out, isFloatType(srcT) ? roundInteger(v, roundMode) : v);
    }
  }
}

}  // namespace kwb_sim
