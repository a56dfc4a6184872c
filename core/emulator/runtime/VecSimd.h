// SPDX-License-Identifier: MIT
#pragma once
// The element-wise kernels of the vector engine on the host's SIMD unit (AVX2 + F16C, chosen at run time
// from the CPU), each next to its scalar twin. Both paths give the same bits for every input: the
// arithmetic is the same IEEE single-precision operation (+ - * / sqrt, max/min with the operand order of
// `a > b ? a : b`), and half <-> float goes through F16C or through the software conversion, which agree
// on every value (tests/speed/VecSimdTest.cpp checks all 65,536 halves and all 2^32 floats).
// Callers pass `simd` explicitly so that tests can run both paths on one machine; the engine passes
// simdEnabled().

#include <cstddef>
#include <cstdint>

#include "kwb_sim/runtime.h"

namespace kwb_sim::simd {

// The CPU has AVX2 and F16C, and KWB_SIM_SIMD is not "off" (read once per process).
bool simdEnabled();
// The CPU alone (tests skip the SIMD side where it is missing).
bool cpuHasAvx2F16c();

void halfToFloat(bool simd, const std::uint16_t* src, float* dst, std::size_t n);
void floatToHalf(bool simd, const float* src, std::uint16_t* dst, std::size_t n);  // round to nearest even

// dst = a op b for Add, Sub, Mul, Div, Max, Min (half: in float, rounded once to half). dst may equal a or
// b. False when op is not one of these (nothing is written; the caller has a generic path).
bool halfBinary(bool simd, VOp op, std::uint16_t* dst, const std::uint16_t* a, const std::uint16_t* b,
                std::size_t n);
bool floatBinary(bool simd, VOp op, float* dst, const float* a, const float* b, std::size_t n);

// dst = op(a, s) for Adds, Muls, Maxs, Mins, LeakyRelu, Relu, Abs, Neg, Sqrt, Reciprocal, Rsqrt. dst may
// equal a. False for any other op.
bool halfScalar(bool simd, VOp op, std::uint16_t* dst, const std::uint16_t* a, float s, std::size_t n);
bool floatScalar(bool simd, VOp op, float* dst, const float* a, float s, std::size_t n);

}  // namespace kwb_sim::simd
