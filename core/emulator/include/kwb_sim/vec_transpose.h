// SPDX-License-Identifier: MIT
#pragma once
// Transpose: the 16 x 16 two-byte block transpose, and the enhanced form with TransposeParamsExt that
// also converts [N,C,H,W] <-> [N,H,W,C] through the caller's sharedTmpBuffer, whose minimum size the API
// reference gives per transposeType (checked at the call; docs/emulator.md, "Transpose").

#include <cstdint>

#include "kwb_sim/vec_ops.h"

namespace AscendC {

enum class TransposeType : uint8_t {
  TRANSPOSE_TYPE_NONE,
  TRANSPOSE_NZ2ND_0213,
  TRANSPOSE_NZ2NZ_0213,
  TRANSPOSE_NZ2NZ_012_WITH_N,
  TRANSPOSE_NZ2ND_012_WITH_N,
  TRANSPOSE_NZ2ND_012_WITHOUT_N,
  TRANSPOSE_NZ2NZ_012_WITHOUT_N,
  TRANSPOSE_ND2ND_ONLY,
  TRANSPOSE_ND_UB_GM,
  TRANSPOSE_GRAD_ND_UB_GM,
  TRANSPOSE_ND2ND_B16,
  TRANSPOSE_NCHW2NHWC,
  TRANSPOSE_NHWC2NCHW,
};

struct TransposeParamsExt {
  TransposeParamsExt() = default;
  TransposeParamsExt(const uint16_t nSizeIn, const uint16_t cSizeIn, const uint16_t hSizeIn,
                     const uint16_t wSizeIn, const TransposeType transposeTypeIn)
      : nSize(nSizeIn), cSize(cSizeIn), hSize(hSizeIn), wSize(wSizeIn), transposeType(transposeTypeIn) {}
  uint16_t nSize = 0;
  uint16_t cSize = 0;
  uint16_t hSize = 0;
  uint16_t wSize = 0;
  TransposeType transposeType = TransposeType::TRANSPOSE_ND2ND_B16;
};

}  // namespace AscendC

namespace kwb_sim {

// a.dst, a.src0; tmp: the enhanced form's sharedTmpBuffer (nullptr: the 16 x 16 form).
void vecTranspose(const VecArgs& a, const LocalDesc* tmp, std::uint64_t tmpBytes,
                  const AscendC::TransposeParamsExt& p, SrcLoc loc);
// The smallest sharedTmpBuffer, in bytes, of an [N,C,H,W] <-> [N,H,W,C] conversion (0: none needed).
std::uint64_t transposeMinTmpBytes(AscendC::TransposeType type, std::uint32_t cSize, std::uint32_t typeSize);

}  // namespace kwb_sim

namespace AscendC {

template <typename T>
void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, KWB_SIM_LOC) {
  KWB_SIM_REQUIRE_DTYPE("Transpose", T, int16_t, uint16_t, half);
  kwb_sim::VecArgs a = kwb_sim::vecArgs("Transpose", kwb_sim::VOp::Copy, dst);
  a.src0 = kwb_sim::localDesc(src);
  a.nsrc = 1;
  kwb_sim::vecTranspose(a, nullptr, 0, TransposeParamsExt(0, 0, 16, 16, TransposeType::TRANSPOSE_ND2ND_B16),
                        loc_);
}
template <typename T>
void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
               const LocalTensor<uint8_t>& sharedTmpBuffer, const TransposeParamsExt& transposeParams,
               KWB_SIM_LOC) {
  KWB_SIM_REQUIRE_DTYPE("Transpose", T, int8_t, uint8_t, int16_t, uint16_t, half, int32_t, uint32_t, float);
  kwb_sim::VecArgs a = kwb_sim::vecArgs("Transpose", kwb_sim::VOp::Copy, dst);
  a.src0 = kwb_sim::localDesc(src);
  a.nsrc = 1;
  const kwb_sim::LocalDesc tmp = kwb_sim::localDesc(sharedTmpBuffer);
  kwb_sim::vecTranspose(a, &tmp, sharedTmpBuffer.GetSize(), transposeParams, loc_);
}

}  // namespace AscendC
