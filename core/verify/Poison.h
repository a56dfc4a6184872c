// SPDX-License-Identifier: MIT
#pragma once
// What output buffers hold before the kernel runs. Floating outputs get a NaN with a recognisable
// payload (float16 0x7E5A, bfloat16 0x7FA5, float32 0x7FA5A5A5), integer outputs the byte 0xA5
// repeated; an element that still holds it after the run was never written by the kernel.

#include <cstdint>

#include "core/model/DType.h"
#include "core/verify/ElementCodec.h"

namespace kwb::verify {

Bytes poisonBytes(DType t, std::int64_t elements);

}  // namespace kwb::verify
