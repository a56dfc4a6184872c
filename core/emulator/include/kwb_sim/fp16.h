// SPDX-License-Identifier: MIT
#pragma once
// kwb_sim::half (IEEE-754 binary16) and kwb_sim::bfloat16 (bfloat16: 1 sign, 8 exponent, 7 mantissa bits).
//
// Header-only, no dependencies beyond the standard library, C++17 and C++20. Both types are trivially
// copyable 16-bit values. Conversions from float and double are correctly rounded (IEEE round to
// nearest, ties to even) in ONE step, so double -> half never double-rounds through float. Subnormals
// are produced and consumed, values beyond the range become infinities, NaNs stay NaNs and come out
// quiet (payload kept as far as it fits). Conversions are constexpr where the compiler allows bit casts
// in constant expressions (g++ >= 11 and clang have __builtin_bit_cast in every language mode).
//
// Arithmetic goes through float: for + - * / the float result rounded to half (or bfloat16) equals the
// correctly rounded result, because float carries at least 2p+2 bits for both formats, so half
// arithmetic here is exact IEEE binary16 arithmetic. Mixed expressions (half op float, half op int)
// give the wider type, like the usual arithmetic conversions: half + float is a float.
//
// When the target has F16C (-mf16c, -march=native on x86) float <-> half uses the hardware conversion
// instructions; otherwise a branch-light integer path does the same thing bit for bit.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#if defined(__F16C__) && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
#define KWB_SIM_FP16_HAVE_F16C 1
#else
#define KWB_SIM_FP16_HAVE_F16C 0
#endif

#if defined(__has_builtin)
#if __has_builtin(__builtin_bit_cast)
#define KWB_SIM_FP16_BIT_CAST_CONSTEXPR 1
#endif
#if __has_builtin(__builtin_is_constant_evaluated)
#define KWB_SIM_FP16_HAVE_IS_CONSTANT_EVALUATED 1
#endif
#endif
#if !defined(KWB_SIM_FP16_BIT_CAST_CONSTEXPR)
#define KWB_SIM_FP16_BIT_CAST_CONSTEXPR 0
#endif
#if !defined(KWB_SIM_FP16_HAVE_IS_CONSTANT_EVALUATED)
#define KWB_SIM_FP16_HAVE_IS_CONSTANT_EVALUATED 0
#endif

#if KWB_SIM_FP16_BIT_CAST_CONSTEXPR
#define KWB_SIM_FP16_CONSTEXPR constexpr
#else
#define KWB_SIM_FP16_CONSTEXPR inline
#endif

namespace kwb_sim {

class half;
class bfloat16;

namespace fp16_detail {

template <typename To, typename From>
KWB_SIM_FP16_CONSTEXPR To bitCast(const From& from) noexcept {
  static_assert(sizeof(To) == sizeof(From), "bitCast needs equal sizes");
#if KWB_SIM_FP16_BIT_CAST_CONSTEXPR
  return __builtin_bit_cast(To, from);
#else
  To to;
  std::memcpy(&to, &from, sizeof(To));
  return to;
#endif
}

constexpr bool inConstantEvaluation() noexcept {
#if KWB_SIM_FP16_HAVE_IS_CONSTANT_EVALUATED
  return __builtin_is_constant_evaluated();
#else
  return false;
#endif
}

// Rounds a binary floating-point value given by its bits (format: 1 sign bit, SrcExp exponent bits,
// SrcMant fraction bits, held in UIn) to the narrower format (DstExp, DstMant), round to nearest, ties
// to even. Returns the destination bits in the low 1 + DstExp + DstMant bits.
template <typename UIn, int SrcExp, int SrcMant, int DstExp, int DstMant>
constexpr std::uint16_t narrowRne(UIn x) noexcept {
  constexpr int kSrcBits = 1 + SrcExp + SrcMant;
  static_assert(kSrcBits == static_cast<int>(sizeof(UIn) * 8), "source layout must fill UIn");
  static_assert(1 + DstExp + DstMant == 16, "destination must be a 16-bit format");
  constexpr int kSrcBias = (1 << (SrcExp - 1)) - 1;
  constexpr int kDstBias = (1 << (DstExp - 1)) - 1;
  constexpr int kShift = SrcMant - DstMant;
  constexpr UIn kOne = 1;
  constexpr UIn kSrcMantMask = (kOne << SrcMant) - 1;
  constexpr UIn kSrcExpMask = ((kOne << SrcExp) - 1) << SrcMant;
  constexpr unsigned kDstInf = ((1u << DstExp) - 1u) << DstMant;
  constexpr unsigned kDstQuiet = 1u << (DstMant - 1);
  // |x| >= 2^(DstBias+1) is beyond the largest finite destination value even before rounding.
  constexpr UIn kOverflow = static_cast<UIn>(kSrcBias + kDstBias + 1) << SrcMant;
  // |x| >= 2^(1-DstBias) is a normal destination number.
  constexpr UIn kMinNormal = static_cast<UIn>(kSrcBias + 1 - kDstBias) << SrcMant;
  constexpr UIn kRebias = static_cast<UIn>(kSrcBias - kDstBias) << SrcMant;
  // For destination subnormals: shift = kSubBase - max(exponent field, 1).
  constexpr int kSubBase = kSrcBias + SrcMant + 1 - kDstBias - DstMant;

  const unsigned sign = static_cast<unsigned>(x >> (kSrcBits - 1)) << (DstExp + DstMant);
  const UIn a = x & ~(kOne << (kSrcBits - 1));
  if (a >= kMinNormal) {
    if (a >= kOverflow) {
      if (a > kSrcExpMask) {  // NaN: keep the top payload bits, force quiet
        return static_cast<std::uint16_t>(sign | kDstInf | kDstQuiet |
                                          static_cast<unsigned>((a & kSrcMantMask) >> kShift));
      }
      return static_cast<std::uint16_t>(sign | kDstInf);
    }
    UIn r = a - kRebias;
    r += (kOne << (kShift - 1)) - 1 + ((r >> kShift) & 1);  // a carry into the exponent is correct
    return static_cast<std::uint16_t>(sign | static_cast<unsigned>(r >> kShift));
  }
  const int e = static_cast<int>(a >> SrcMant);
  const UIn m = (a & kSrcMantMask) | (e != 0 ? (kOne << SrcMant) : UIn{0});
  int s = kSubBase - (e != 0 ? e : 1);
  if (s > kSrcBits - 1) s = kSrcBits - 1;                           // everything that far down rounds to zero
  const UIn r = (m + (kOne << (s - 1)) - 1 + ((m >> s) & 1)) >> s;  // may carry into the min normal
  return static_cast<std::uint16_t>(sign | static_cast<unsigned>(r));
}

// Exact: every half is a float. NaNs come out quiet with their payload.
constexpr std::uint32_t floatBitsFromHalfBits(std::uint16_t h) noexcept {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t em = h & 0x7fffu;
  if (em >= 0x0400u) {
    if (em >= 0x7c00u) {
      const std::uint32_t mant = (em & 0x3ffu) << 13;
      return sign | 0x7f800000u | mant | (mant != 0 ? 0x00400000u : 0u);
    }
    return sign | ((em << 13) + (static_cast<std::uint32_t>(127 - 15) << 23));
  }
  if (em == 0) return sign;
  // Subnormal: em * 2^-24. Normalise: the leading one of em (bit p, 0..9) becomes the implicit bit.
  int p = 9;
  while (((em >> p) & 1u) == 0) --p;
  const std::uint32_t mant = (em << (23 - p)) & 0x007fffffu;
  const std::uint32_t exp = static_cast<std::uint32_t>(127 - 24 + p);
  return sign | (exp << 23) | mant;
}

constexpr std::uint32_t floatBitsFromBf16Bits(std::uint16_t b) noexcept {
  std::uint32_t f = static_cast<std::uint32_t>(b) << 16;
  if ((f & 0x7fffffffu) > 0x7f800000u) f |= 0x00400000u;  // quiet a signalling NaN
  return f;
}

// Integers are converted through a double that keeps a sticky bit for everything below 2^53, which is
// far below either 16-bit format's precision, so the final rounding is still a single correct one.
template <typename I>
constexpr double integerToDoubleSticky(I value) noexcept {
  static_assert(std::is_integral<I>::value, "integral only");
  if constexpr (sizeof(I) < 8) {
    return static_cast<double>(value);
  } else {
    bool negative = false;
    std::uint64_t u = 0;
    if constexpr (std::is_signed<I>::value) {
      negative = value < 0;
      u = negative ? (~static_cast<std::uint64_t>(value) + 1u) : static_cast<std::uint64_t>(value);
    } else {
      u = static_cast<std::uint64_t>(value);
    }
    double scale = 1.0;
    while (u >= (std::uint64_t{1} << 53)) {
      u = (u >> 1) | (u & 1u);
      scale *= 2.0;
    }
    const double d = static_cast<double>(u) * scale;
    return negative ? -d : d;
  }
}

template <typename T>
struct IsArithmeticOperand
    : std::integral_constant<bool, std::is_arithmetic<T>::value && !std::is_same<T, bool>::value> {};

}  // namespace fp16_detail

// ------------------------------------------------------------------------- what both 16-bit types share

namespace fp16_detail {

// Everything half and bfloat16 have in common, over the format (1 sign, ExpBits exponent and MantBits
// fraction bits): the bits, classification, arithmetic through float, compound, increment and
// comparison operators. Derived supplies the constructors and the float conversions
// (static fromFloat(float) -> bits, static toFloat(bits) -> float).
template <typename Derived, int ExpBits, int MantBits>
class Float16 {
  static_assert(1 + ExpBits + MantBits == 16, "a 16-bit format");

 public:
  static constexpr Derived fromBits(std::uint16_t bits) noexcept {
    Derived v{};
    static_cast<Float16&>(v).bits_ = bits;
    return v;
  }
  constexpr std::uint16_t bits() const noexcept { return bits_; }

  KWB_SIM_FP16_CONSTEXPR operator float() const noexcept { return Derived::toFloat(bits_); }

  constexpr bool isNan() const noexcept { return (bits_ & 0x7fffu) > kExpMask; }
  constexpr bool isInf() const noexcept { return (bits_ & 0x7fffu) == kExpMask; }
  constexpr bool isFinite() const noexcept { return (bits_ & kExpMask) != kExpMask; }
  constexpr bool signBit() const noexcept { return (bits_ & 0x8000u) != 0; }

  constexpr Derived operator-() const noexcept {
    return fromBits(static_cast<std::uint16_t>(bits_ ^ 0x8000u));
  }
  constexpr Derived operator+() const noexcept { return fromBits(bits_); }

  friend KWB_SIM_FP16_CONSTEXPR Derived operator+(Derived a, Derived b) noexcept {
    return Derived(float(a) + float(b));
  }
  friend KWB_SIM_FP16_CONSTEXPR Derived operator-(Derived a, Derived b) noexcept {
    return Derived(float(a) - float(b));
  }
  friend KWB_SIM_FP16_CONSTEXPR Derived operator*(Derived a, Derived b) noexcept {
    return Derived(float(a) * float(b));
  }
  friend KWB_SIM_FP16_CONSTEXPR Derived operator/(Derived a, Derived b) noexcept {
    return Derived(float(a) / float(b));
  }

  KWB_SIM_FP16_CONSTEXPR Derived& operator+=(Derived o) noexcept { return self() = self() + o; }
  KWB_SIM_FP16_CONSTEXPR Derived& operator-=(Derived o) noexcept { return self() = self() - o; }
  KWB_SIM_FP16_CONSTEXPR Derived& operator*=(Derived o) noexcept { return self() = self() * o; }
  KWB_SIM_FP16_CONSTEXPR Derived& operator/=(Derived o) noexcept { return self() = self() / o; }
  template <typename T, typename std::enable_if<IsArithmeticOperand<T>::value, int>::type = 0>
  KWB_SIM_FP16_CONSTEXPR Derived& operator+=(T o) noexcept {
    return self() = Derived(self() + o);
  }
  template <typename T, typename std::enable_if<IsArithmeticOperand<T>::value, int>::type = 0>
  KWB_SIM_FP16_CONSTEXPR Derived& operator-=(T o) noexcept {
    return self() = Derived(self() - o);
  }
  template <typename T, typename std::enable_if<IsArithmeticOperand<T>::value, int>::type = 0>
  KWB_SIM_FP16_CONSTEXPR Derived& operator*=(T o) noexcept {
    return self() = Derived(self() * o);
  }
  template <typename T, typename std::enable_if<IsArithmeticOperand<T>::value, int>::type = 0>
  KWB_SIM_FP16_CONSTEXPR Derived& operator/=(T o) noexcept {
    return self() = Derived(self() / o);
  }

  KWB_SIM_FP16_CONSTEXPR Derived& operator++() noexcept { return self() += fromBits(kOneBits); }
  KWB_SIM_FP16_CONSTEXPR Derived& operator--() noexcept { return self() -= fromBits(kOneBits); }
  KWB_SIM_FP16_CONSTEXPR Derived operator++(int) noexcept {
    Derived old = self();
    ++self();
    return old;
  }
  KWB_SIM_FP16_CONSTEXPR Derived operator--(int) noexcept {
    Derived old = self();
    --self();
    return old;
  }

  friend KWB_SIM_FP16_CONSTEXPR bool operator==(Derived a, Derived b) noexcept {
    return float(a) == float(b);
  }
  friend KWB_SIM_FP16_CONSTEXPR bool operator!=(Derived a, Derived b) noexcept {
    return float(a) != float(b);
  }
  friend KWB_SIM_FP16_CONSTEXPR bool operator<(Derived a, Derived b) noexcept { return float(a) < float(b); }
  friend KWB_SIM_FP16_CONSTEXPR bool operator<=(Derived a, Derived b) noexcept {
    return float(a) <= float(b);
  }
  friend KWB_SIM_FP16_CONSTEXPR bool operator>(Derived a, Derived b) noexcept { return float(a) > float(b); }
  friend KWB_SIM_FP16_CONSTEXPR bool operator>=(Derived a, Derived b) noexcept {
    return float(a) >= float(b);
  }

  // Correctly rounded (one step) from the bits of a float or a double.
  static constexpr std::uint16_t bitsFromFloatBits(std::uint32_t x) noexcept {
    return narrowRne<std::uint32_t, 8, 23, ExpBits, MantBits>(x);
  }
  static constexpr std::uint16_t bitsFromDoubleBits(std::uint64_t x) noexcept {
    return narrowRne<std::uint64_t, 11, 52, ExpBits, MantBits>(x);
  }

 protected:
  Float16() = default;
  struct FromBits {};
  constexpr Float16(std::uint16_t bits, FromBits) noexcept : bits_(bits) {}

 private:
  static constexpr unsigned kExpMask = ((1u << ExpBits) - 1u) << MantBits;  // also the infinity
  static constexpr std::uint16_t kOneBits =
      static_cast<std::uint16_t>(((1u << (ExpBits - 1)) - 1u) << MantBits);

  constexpr Derived& self() noexcept { return static_cast<Derived&>(*this); }
  std::uint16_t bits_;
};

}  // namespace fp16_detail

// ------------------------------------------------------------------------------------------------ half

class half : public fp16_detail::Float16<half, 5, 10> {
 public:
  half() = default;
  KWB_SIM_FP16_CONSTEXPR half(float f) noexcept : Float16(fromFloat(f), FromBits{}) {}
  KWB_SIM_FP16_CONSTEXPR half(double d) noexcept
      : Float16(bitsFromDoubleBits(fp16_detail::bitCast<std::uint64_t>(d)), FromBits{}) {}
  template <typename I, typename std::enable_if<std::is_integral<I>::value, int>::type = 0>
  KWB_SIM_FP16_CONSTEXPR half(I i) noexcept : half(fp16_detail::integerToDoubleSticky(i)) {}
  explicit KWB_SIM_FP16_CONSTEXPR half(bfloat16 b) noexcept;

  // Bit-level conversions, usable directly by vector loops.
  static KWB_SIM_FP16_CONSTEXPR std::uint16_t fromFloat(float f) noexcept {
#if KWB_SIM_FP16_HAVE_F16C
    if (!fp16_detail::inConstantEvaluation()) {
      return static_cast<std::uint16_t>(_cvtss_sh(f, _MM_FROUND_TO_NEAREST_INT));
    }
#endif
    return bitsFromFloatBits(fp16_detail::bitCast<std::uint32_t>(f));
  }
  static KWB_SIM_FP16_CONSTEXPR float toFloat(std::uint16_t h) noexcept {
#if KWB_SIM_FP16_HAVE_F16C
    if (!fp16_detail::inConstantEvaluation()) return _cvtsh_ss(h);
#endif
    return fp16_detail::bitCast<float>(fp16_detail::floatBitsFromHalfBits(h));
  }
};

// ------------------------------------------------------------------------------------------- bfloat16

class bfloat16 : public fp16_detail::Float16<bfloat16, 8, 7> {
 public:
  bfloat16() = default;
  KWB_SIM_FP16_CONSTEXPR bfloat16(float f) noexcept : Float16(fromFloat(f), FromBits{}) {}
  KWB_SIM_FP16_CONSTEXPR bfloat16(double d) noexcept
      : Float16(bitsFromDoubleBits(fp16_detail::bitCast<std::uint64_t>(d)), FromBits{}) {}
  template <typename I, typename std::enable_if<std::is_integral<I>::value, int>::type = 0>
  KWB_SIM_FP16_CONSTEXPR bfloat16(I i) noexcept : bfloat16(fp16_detail::integerToDoubleSticky(i)) {}
  explicit KWB_SIM_FP16_CONSTEXPR bfloat16(half h) noexcept : bfloat16(float(h)) {}

  static KWB_SIM_FP16_CONSTEXPR std::uint16_t fromFloat(float f) noexcept {
    return bitsFromFloatBits(fp16_detail::bitCast<std::uint32_t>(f));
  }
  static KWB_SIM_FP16_CONSTEXPR float toFloat(std::uint16_t b) noexcept {
    return fp16_detail::bitCast<float>(fp16_detail::floatBitsFromBf16Bits(b));
  }
};

KWB_SIM_FP16_CONSTEXPR half::half(bfloat16 b) noexcept : half(float(b)) {}

namespace fp16_detail {
// The type a mixed expression computes in: float for integers and float, else the wider operand type.
template <typename T>
using MixedType = decltype(float{} + T{});
template <typename T, typename V>
KWB_SIM_FP16_CONSTEXPR MixedType<T> widen(V v) noexcept {
  if constexpr (std::is_same<V, half>::value || std::is_same<V, bfloat16>::value) {
    return static_cast<MixedType<T>>(float(v));
  } else {
    return static_cast<MixedType<T>>(v);
  }
}
}  // namespace fp16_detail

// Mixed arithmetic and comparisons: the 16-bit operand widens, the result has the other operand's type
// (float, or double; integers meet a float). Without these, half + 1.0f would be ambiguous between the
// built-in float + float and half + half.
#define KWB_SIM_FP16_MIXED_OPS(T16)                                                                         \
  template <typename T, typename std::enable_if<fp16_detail::IsArithmeticOperand<T>::value, int>::type = 0> \
  KWB_SIM_FP16_CONSTEXPR auto operator+(T16 a, T b) noexcept {                                              \
    return fp16_detail::widen<T>(a) + fp16_detail::widen<T>(b);                                             \
  }                                                                                                         \
  template <typename T, typename std::enable_if<fp16_detail::IsArithmeticOperand<T>::value, int>::type = 0> \
  KWB_SIM_FP16_CONSTEXPR auto operator+(T a, T16 b) noexcept {                                              \
    return fp16_detail::widen<T>(a) + fp16_detail::widen<T>(b);                                             \
  }                                                                                                         \
  template <typename T, typename std::enable_if<fp16_detail::IsArithmeticOperand<T>::value, int>::type = 0> \
  KWB_SIM_FP16_CONSTEXPR auto operator-(T16 a, T b) noexcept {                                              \
    return fp16_detail::widen<T>(a) - fp16_detail::widen<T>(b);                                             \
  }                                                                                                         \
  template <typename T, typename std::enable_if<fp16_detail::IsArithmeticOperand<T>::value, int>::type = 0> \
  KWB_SIM_FP16_CONSTEXPR auto operator-(T a, T16 b) noexcept {                                              \
    return fp16_detail::widen<T>(a) - fp16_detail::widen<T>(b);                                             \
  }                                                                                                         \
  template <typename T, typename std::enable_if<fp16_detail::IsArithmeticOperand<T>::value, int>::type = 0> \
  KWB_SIM_FP16_CONSTEXPR auto operator*(T16 a, T b) noexcept {                                              \
    return fp16_detail::widen<T>(a) * fp16_detail::widen<T>(b);                                             \
  }                                                                                                         \
  template <typename T, typename std::enable_if<fp16_detail::IsArithmeticOperand<T>::value, int>::type = 0> \
  KWB_SIM_FP16_CONSTEXPR auto operator*(T a, T16 b) noexcept {                                              \
    return fp16_detail::widen<T>(a) * fp16_detail::widen<T>(b);                                             \
  }                                                                                                         \
  template <typename T, typename std::enable_if<fp16_detail::IsArithmeticOperand<T>::value, int>::type = 0> \
  KWB_SIM_FP16_CONSTEXPR auto operator/(T16 a, T b) noexcept {                                              \
    return fp16_detail::widen<T>(a) / fp16_detail::widen<T>(b);                                             \
  }                                                                                                         \
  template <typename T, typename std::enable_if<fp16_detail::IsArithmeticOperand<T>::value, int>::type = 0> \
  KWB_SIM_FP16_CONSTEXPR auto operator/(T a, T16 b) noexcept {                                              \
    return fp16_detail::widen<T>(a) / fp16_detail::widen<T>(b);                                             \
  }                                                                                                         \
  template <typename T, typename std::enable_if<fp16_detail::IsArithmeticOperand<T>::value, int>::type = 0> \
  KWB_SIM_FP16_CONSTEXPR bool operator==(T16 a, T b) noexcept {                                             \
    return fp16_detail::widen<T>(a) == fp16_detail::widen<T>(b);                                            \
  }                                                                                                         \
  template <typename T, typename std::enable_if<fp16_detail::IsArithmeticOperand<T>::value, int>::type = 0> \
  KWB_SIM_FP16_CONSTEXPR bool operator==(T a, T16 b) noexcept {                                             \
    return fp16_detail::widen<T>(a) == fp16_detail::widen<T>(b);                                            \
  }                                                                                                         \
  template <typename T, typename std::enable_if<fp16_detail::IsArithmeticOperand<T>::value, int>::type = 0> \
  KWB_SIM_FP16_CONSTEXPR bool operator!=(T16 a, T b) noexcept {                                             \
    return fp16_detail::widen<T>(a) != fp16_detail::widen<T>(b);                                            \
  }                                                                                                         \
  template <typename T, typename std::enable_if<fp16_detail::IsArithmeticOperand<T>::value, int>::type = 0> \
  KWB_SIM_FP16_CONSTEXPR bool operator!=(T a, T16 b) noexcept {                                             \
    return fp16_detail::widen<T>(a) != fp16_detail::widen<T>(b);                                            \
  }                                                                                                         \
  template <typename T, typename std::enable_if<fp16_detail::IsArithmeticOperand<T>::value, int>::type = 0> \
  KWB_SIM_FP16_CONSTEXPR bool operator<(T16 a, T b) noexcept {                                              \
    return fp16_detail::widen<T>(a) < fp16_detail::widen<T>(b);                                             \
  }                                                                                                         \
  template <typename T, typename std::enable_if<fp16_detail::IsArithmeticOperand<T>::value, int>::type = 0> \
  KWB_SIM_FP16_CONSTEXPR bool operator<(T a, T16 b) noexcept {                                              \
    return fp16_detail::widen<T>(a) < fp16_detail::widen<T>(b);                                             \
  }                                                                                                         \
  template <typename T, typename std::enable_if<fp16_detail::IsArithmeticOperand<T>::value, int>::type = 0> \
  KWB_SIM_FP16_CONSTEXPR bool operator<=(T16 a, T b) noexcept {                                             \
    return fp16_detail::widen<T>(a) <= fp16_detail::widen<T>(b);                                            \
  }                                                                                                         \
  template <typename T, typename std::enable_if<fp16_detail::IsArithmeticOperand<T>::value, int>::type = 0> \
  KWB_SIM_FP16_CONSTEXPR bool operator<=(T a, T16 b) noexcept {                                             \
    return fp16_detail::widen<T>(a) <= fp16_detail::widen<T>(b);                                            \
  }                                                                                                         \
  template <typename T, typename std::enable_if<fp16_detail::IsArithmeticOperand<T>::value, int>::type = 0> \
  KWB_SIM_FP16_CONSTEXPR bool operator>(T16 a, T b) noexcept {                                              \
    return fp16_detail::widen<T>(a) > fp16_detail::widen<T>(b);                                             \
  }                                                                                                         \
  template <typename T, typename std::enable_if<fp16_detail::IsArithmeticOperand<T>::value, int>::type = 0> \
  KWB_SIM_FP16_CONSTEXPR bool operator>(T a, T16 b) noexcept {                                              \
    return fp16_detail::widen<T>(a) > fp16_detail::widen<T>(b);                                             \
  }                                                                                                         \
  template <typename T, typename std::enable_if<fp16_detail::IsArithmeticOperand<T>::value, int>::type = 0> \
  KWB_SIM_FP16_CONSTEXPR bool operator>=(T16 a, T b) noexcept {                                             \
    return fp16_detail::widen<T>(a) >= fp16_detail::widen<T>(b);                                            \
  }                                                                                                         \
  template <typename T, typename std::enable_if<fp16_detail::IsArithmeticOperand<T>::value, int>::type = 0> \
  KWB_SIM_FP16_CONSTEXPR bool operator>=(T a, T16 b) noexcept {                                             \
    return fp16_detail::widen<T>(a) >= fp16_detail::widen<T>(b);                                            \
  }

KWB_SIM_FP16_MIXED_OPS(half)
KWB_SIM_FP16_MIXED_OPS(bfloat16)
#undef KWB_SIM_FP16_MIXED_OPS

// Classification helpers, found by argument-dependent lookup: isnan(h), isinf(h), isfinite(h), abs(h).
constexpr bool isnan(half h) noexcept {
  return h.isNan();
}
constexpr bool isinf(half h) noexcept {
  return h.isInf();
}
constexpr bool isfinite(half h) noexcept {
  return h.isFinite();
}
constexpr bool signbit(half h) noexcept {
  return h.signBit();
}
constexpr half abs(half h) noexcept {
  return half::fromBits(static_cast<std::uint16_t>(h.bits() & 0x7fffu));
}
constexpr bool isnan(bfloat16 b) noexcept {
  return b.isNan();
}
constexpr bool isinf(bfloat16 b) noexcept {
  return b.isInf();
}
constexpr bool isfinite(bfloat16 b) noexcept {
  return b.isFinite();
}
constexpr bool signbit(bfloat16 b) noexcept {
  return b.signBit();
}
constexpr bfloat16 abs(bfloat16 b) noexcept {
  return bfloat16::fromBits(static_cast<std::uint16_t>(b.bits() & 0x7fffu));
}

// Bulk conversions for vector loops (8 lanes at a time with F16C).
inline void halfToFloat(const half* src, float* dst, std::size_t n) noexcept {
  std::size_t i = 0;
#if KWB_SIM_FP16_HAVE_F16C && defined(__AVX__)
  for (; i + 8 <= n; i += 8) {
    const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
    _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(h));
  }
#endif
  for (; i < n; ++i) dst[i] = half::toFloat(src[i].bits());
}
inline void floatToHalf(const float* src, half* dst, std::size_t n) noexcept {
  std::size_t i = 0;
#if KWB_SIM_FP16_HAVE_F16C && defined(__AVX__)
  for (; i + 8 <= n; i += 8) {
    const __m128i h = _mm256_cvtps_ph(_mm256_loadu_ps(src + i), _MM_FROUND_TO_NEAREST_INT);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i), h);
  }
#endif
  for (; i < n; ++i) dst[i] = half::fromBits(half::fromFloat(src[i]));
}

static_assert(sizeof(half) == 2, "half must be 16 bits");
static_assert(sizeof(bfloat16) == 2, "bfloat16 must be 16 bits");
static_assert(std::is_trivially_copyable<half>::value, "half must be trivially copyable");
static_assert(std::is_trivially_copyable<bfloat16>::value, "bfloat16 must be trivially copyable");
static_assert(std::is_trivially_default_constructible<half>::value, "half must be trivial");
static_assert(std::is_trivially_default_constructible<bfloat16>::value, "bfloat16 must be trivial");
static_assert(std::is_standard_layout<half>::value && std::is_standard_layout<bfloat16>::value,
              "16-bit types must be standard layout");

namespace fp16_detail {
// What numeric_limits says alike for both 16-bit formats (signed, rounded to nearest, with infinities,
// NaNs and subnormals).
struct Float16Limits {
  static constexpr bool is_specialized = true;
  static constexpr bool is_signed = true;
  static constexpr bool is_integer = false;
  static constexpr bool is_exact = false;
  static constexpr bool has_infinity = true;
  static constexpr bool has_quiet_NaN = true;
  static constexpr bool has_signaling_NaN = true;
  static constexpr std::float_denorm_style has_denorm = std::denorm_present;
  static constexpr bool has_denorm_loss = false;
  static constexpr std::float_round_style round_style = std::round_to_nearest;
  static constexpr bool is_bounded = true;
  static constexpr bool is_modulo = false;
  static constexpr int radix = 2;
  static constexpr bool traps = false;
  static constexpr bool tinyness_before = false;
};
}  // namespace fp16_detail

}  // namespace kwb_sim

namespace std {

template <>
class numeric_limits<kwb_sim::half> : public kwb_sim::fp16_detail::Float16Limits {
 public:
  static constexpr bool is_iec559 = true;
  static constexpr int digits = 11;
  static constexpr int digits10 = 3;
  static constexpr int max_digits10 = 5;
  static constexpr int min_exponent = -13;
  static constexpr int min_exponent10 = -4;
  static constexpr int max_exponent = 16;
  static constexpr int max_exponent10 = 4;

  static constexpr kwb_sim::half min() noexcept { return kwb_sim::half::fromBits(0x0400); }
  static constexpr kwb_sim::half lowest() noexcept { return kwb_sim::half::fromBits(0xfbff); }
  static constexpr kwb_sim::half max() noexcept { return kwb_sim::half::fromBits(0x7bff); }
  static constexpr kwb_sim::half epsilon() noexcept { return kwb_sim::half::fromBits(0x1400); }
  static constexpr kwb_sim::half round_error() noexcept { return kwb_sim::half::fromBits(0x3800); }
  static constexpr kwb_sim::half infinity() noexcept { return kwb_sim::half::fromBits(0x7c00); }
  static constexpr kwb_sim::half quiet_NaN() noexcept { return kwb_sim::half::fromBits(0x7e00); }
  static constexpr kwb_sim::half signaling_NaN() noexcept { return kwb_sim::half::fromBits(0x7d00); }
  static constexpr kwb_sim::half denorm_min() noexcept { return kwb_sim::half::fromBits(0x0001); }
};

template <>
class numeric_limits<kwb_sim::bfloat16> : public kwb_sim::fp16_detail::Float16Limits {
 public:
  static constexpr bool is_iec559 = false;  // not an IEEE-754 interchange format
  static constexpr int digits = 8;
  static constexpr int digits10 = 2;
  static constexpr int max_digits10 = 4;
  static constexpr int min_exponent = -125;
  static constexpr int min_exponent10 = -37;
  static constexpr int max_exponent = 128;
  static constexpr int max_exponent10 = 38;

  static constexpr kwb_sim::bfloat16 min() noexcept { return kwb_sim::bfloat16::fromBits(0x0080); }
  static constexpr kwb_sim::bfloat16 lowest() noexcept { return kwb_sim::bfloat16::fromBits(0xff7f); }
  static constexpr kwb_sim::bfloat16 max() noexcept { return kwb_sim::bfloat16::fromBits(0x7f7f); }
  static constexpr kwb_sim::bfloat16 epsilon() noexcept { return kwb_sim::bfloat16::fromBits(0x3c00); }
  static constexpr kwb_sim::bfloat16 round_error() noexcept { return kwb_sim::bfloat16::fromBits(0x3f00); }
  static constexpr kwb_sim::bfloat16 infinity() noexcept { return kwb_sim::bfloat16::fromBits(0x7f80); }
  static constexpr kwb_sim::bfloat16 quiet_NaN() noexcept { return kwb_sim::bfloat16::fromBits(0x7fc0); }
  static constexpr kwb_sim::bfloat16 signaling_NaN() noexcept { return kwb_sim::bfloat16::fromBits(0x7fa0); }
  static constexpr kwb_sim::bfloat16 denorm_min() noexcept { return kwb_sim::bfloat16::fromBits(0x0001); }
};

}  // namespace std
