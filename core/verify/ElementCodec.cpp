// SPDX-License-Identifier: MIT
#include "core/verify/ElementCodec.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace kwb::verify {

std::uint16_t doubleToHalfBits(double v) {
  if (std::isnan(v)) return 0x7e00;
  const std::uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  double a = std::fabs(v);
  if (a == 0.0) return sign;
  if (std::isinf(a)) return sign | 0x7c00;
  int e;
  std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
  int q = e - 11;
  if (q < -24) q = -24;
  const double r = std::nearbyint(std::ldexp(a, -q));  // ties to even in the default rounding mode
  const double rounded = std::ldexp(r, q);
  if (rounded > 65504.0) return sign | 0x7c00;
  if (rounded < std::ldexp(1.0, -14)) return sign | static_cast<std::uint16_t>(std::ldexp(rounded, 24));
  int re;
  const double rm = std::frexp(rounded, &re);  // rounded = rm * 2^re
  const int exp = re - 1 + 15;
  const auto man = static_cast<std::uint16_t>(std::ldexp(rm * 2.0 - 1.0, 10));
  return sign | static_cast<std::uint16_t>(exp << 10) | man;
}

double halfBitsToDouble(std::uint16_t h) {
  const int sign = (h >> 15) & 1, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
  double v;
  if (exp == 0)
    v = std::ldexp(static_cast<double>(man), -24);
  else if (exp == 31)
    v = man ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  else
    v = std::ldexp(static_cast<double>(man | 0x400), exp - 25);
  return sign ? -v : v;
}

std::uint16_t doubleToBf16Bits(double v) {
  float f = static_cast<float>(v);
  std::uint32_t bits;
  std::memcpy(&bits, &f, 4);
  if (std::isnan(f)) return 0x7fc0;
  bits += 0x7fffu + ((bits >> 16) & 1u);
  return static_cast<std::uint16_t>(bits >> 16);
}

double bf16BitsToDouble(std::uint16_t b) {
  const std::uint32_t bits = static_cast<std::uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

namespace {
template <typename T>
T saturate(double v) {
  if (std::isnan(v)) return T{0};
  const double lo = static_cast<double>(std::numeric_limits<T>::lowest());
  const double hi = static_cast<double>(std::numeric_limits<T>::max());
  if (v <= lo) return std::numeric_limits<T>::lowest();
  if (v >= hi) return std::numeric_limits<T>::max();
  return static_cast<T>(std::trunc(v));
}
template <typename T>
double load(const std::uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return static_cast<double>(v);
}
template <typename T>
void store(T v, std::uint8_t* p) {
  std::memcpy(p, &v, sizeof(T));
}
}  // namespace

double decodeElement(DType t, const std::uint8_t* p) {
  switch (t) {
    case DType::Float16: {
      std::uint16_t h;
      std::memcpy(&h, p, 2);
      return halfBitsToDouble(h);
    }
    case DType::BFloat16: {
      std::uint16_t h;
      std::memcpy(&h, p, 2);
      return bf16BitsToDouble(h);
    }
    case DType::Float32:
      return load<float>(p);
    case DType::Float64:
      return load<double>(p);
    case DType::Int8:
      return load<std::int8_t>(p);
    case DType::Int16:
      return load<std::int16_t>(p);
    case DType::Int32:
      return load<std::int32_t>(p);
    case DType::Int64:
      return load<std::int64_t>(p);
    case DType::UInt8:
      return load<std::uint8_t>(p);
    case DType::UInt16:
      return load<std::uint16_t>(p);
    case DType::UInt32:
      return load<std::uint32_t>(p);
    case DType::UInt64:
      return load<std::uint64_t>(p);
    case DType::Bool:
      return *p != 0 ? 1.0 : 0.0;
  }
  return 0.0;
}

void encodeElement(DType t, double v, std::uint8_t* p) {
  switch (t) {
    case DType::Float16:
      store(doubleToHalfBits(v), p);
      return;
    case DType::BFloat16:
      store(doubleToBf16Bits(v), p);
      return;
    case DType::Float32:
      store(static_cast<float>(v), p);
      return;
    case DType::Float64:
      store(v, p);
      return;
    case DType::Int8:
      store(saturate<std::int8_t>(v), p);
      return;
    case DType::Int16:
      store(saturate<std::int16_t>(v), p);
      return;
    case DType::Int32:
      store(saturate<std::int32_t>(v), p);
      return;
    case DType::Int64:
      store(saturate<std::int64_t>(v), p);
      return;
    case DType::UInt8:
      store(saturate<std::uint8_t>(v), p);
      return;
    case DType::UInt16:
      store(saturate<std::uint16_t>(v), p);
      return;
    case DType::UInt32:
      store(saturate<std::uint32_t>(v), p);
      return;
    case DType::UInt64:
      store(saturate<std::uint64_t>(v), p);
      return;
    case DType::Bool:
      *p = (v != 0.0 && !std::isnan(v)) ? 1 : 0;
      return;
  }
}

double representable(DType t, double v) {
  std::uint8_t buf[8] = {};
  encodeElement(t, v, buf);
  return decodeElement(t, buf);
}

std::vector<double> decodeAll(DType t, const Bytes& bytes) {
  const std::size_t es = dtypeSize(t);
  std::vector<double> out(bytes.size() / es);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = decodeElement(t, bytes.data() + i * es);
  return out;
}

Bytes encodeAll(DType t, const std::vector<double>& values) {
  const std::size_t es = dtypeSize(t);
  Bytes out(values.size() * es);
  for (std::size_t i = 0; i < values.size(); ++i) encodeElement(t, values[i], out.data() + i * es);
  return out;
}

double dtypeMaxFinite(DType t) {
  switch (t) {
    case DType::Float16:
      return 65504.0;
    case DType::BFloat16:
      return 3.3895313892515355e38;
    case DType::Float32:
      return std::numeric_limits<float>::max();
    case DType::Float64:
      return std::numeric_limits<double>::max();
    case DType::Int8:
      return 127;
    case DType::Int16:
      return 32767;
    case DType::Int32:
      return 2147483647.0;
    case DType::Int64:
      return 9.2233720368547758e18;
    case DType::UInt8:
      return 255;
    case DType::UInt16:
      return 65535;
    case DType::UInt32:
      return 4294967295.0;
    case DType::UInt64:
      return 1.8446744073709552e19;
    case DType::Bool:
      return 1;
  }
  return 0;
}

}  // namespace kwb::verify
