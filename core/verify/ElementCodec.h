// SPDX-License-Identifier: MIT
#pragma once
// Raw little-endian tensor storage <-> double, for every task dtype. float16 and bfloat16 are rounded
// to nearest even on encode (as numpy's astype does), decoded exactly. Used for generated inputs, for
// the kernel's outputs and for poison patterns.

#include <cstdint>
#include <vector>

#include "core/model/DType.h"

namespace kwb::verify {

using Bytes = std::vector<std::uint8_t>;

std::uint16_t doubleToHalfBits(double v);
double halfBitsToDouble(std::uint16_t h);
std::uint16_t doubleToBf16Bits(double v);
double bf16BitsToDouble(std::uint16_t b);

// Value of one element stored at p.
double decodeElement(DType t, const std::uint8_t* p);
// Stores v at p (integers saturate, bool is v != 0).
void encodeElement(DType t, double v, std::uint8_t* p);
// v rounded to what dtype t can hold (float16 rounding, integer truncation/saturation).
double representable(DType t, double v);

std::vector<double> decodeAll(DType t, const Bytes& bytes);
Bytes encodeAll(DType t, const std::vector<double>& values);

// Largest finite magnitude of a floating dtype (65504 for float16); integer dtypes: their max.
double dtypeMaxFinite(DType t);

}  // namespace kwb::verify
