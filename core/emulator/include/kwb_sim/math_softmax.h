// SPDX-License-Identifier: MIT
#pragma once
// SoftMax and SimpleSoftMax of the math library (ND format), row-wise over an [m, k] source: SoftMax
// writes dst = exp(src - rowmax) / rowsum and, in its full forms, the row max and row sum, each broadcast
// over one 32-byte block per row; SimpleSoftMax takes those two as inputs. The caller's sharedTmpBuffer
// (or the framework's reserved space) must hold at least GetSoftMaxMinTmpSize bytes; the SoftMaxTiling
// the host computed (SoftMaxTilingFunc, math_softmax_tiling.h) must describe the same shape.
// docs/emulator.md, "SoftMax".

#include <cstdint>
#include <type_traits>

#include "kwb_sim/vec_ops.h"
#include "register/tilingdata_base.h"

namespace optiling {
// The library's tiling struct, one class on the host (set_/get_ accessors, SaveToBuffer) and in the
// kernel (fields read directly), in the field order of the reference's SoftMaxTiling.
BEGIN_TILING_DATA_DEF(SoftMaxTiling)
TILING_DATA_FIELD_DEF(uint32_t, srcM);
TILING_DATA_FIELD_DEF(uint32_t, srcK);
TILING_DATA_FIELD_DEF(uint32_t, srcSize);
TILING_DATA_FIELD_DEF(uint32_t, outMaxM);
TILING_DATA_FIELD_DEF(uint32_t, outMaxK);
TILING_DATA_FIELD_DEF(uint32_t, outMaxSize);
TILING_DATA_FIELD_DEF(uint32_t, splitM);
TILING_DATA_FIELD_DEF(uint32_t, splitK);
TILING_DATA_FIELD_DEF(uint32_t, splitSize);
TILING_DATA_FIELD_DEF(uint32_t, reduceM);
TILING_DATA_FIELD_DEF(uint32_t, reduceK);
TILING_DATA_FIELD_DEF(uint32_t, reduceSize);
TILING_DATA_FIELD_DEF(uint32_t, rangeM);
TILING_DATA_FIELD_DEF(uint32_t, tailM);
TILING_DATA_FIELD_DEF(uint32_t, tailSplitSize);
TILING_DATA_FIELD_DEF(uint32_t, tailReduceSize);
END_TILING_DATA_DEF
}  // namespace optiling

// The kernel-side spellings of the same struct (the generated kernel tiling header's global name and the
// AscendC::tiling one).
using SoftMaxTiling = optiling::SoftMaxTiling;

namespace AscendC {
namespace tiling {
using SoftMaxTiling = optiling::SoftMaxTiling;
}  // namespace tiling

struct SoftMaxShapeInfo {
  uint32_t srcM = 0;  // product of the non-last axes
  uint32_t srcK = 0;  // last axis, 32-byte aligned
  uint32_t oriSrcM = 0;
  uint32_t oriSrcK = 0;
};

enum class SoftmaxMode { SOFTMAX_NORMAL = 0, SOFTMAX_OUTPUT_WITHOUT_BRC = 1 };
struct SoftmaxConfig {
  bool isCheckTiling = true;
  uint32_t oriSrcM = 0;
  uint32_t oriSrcK = 0;
  SoftmaxMode mode = SoftmaxMode::SOFTMAX_NORMAL;
};
constexpr SoftmaxConfig SOFTMAX_DEFAULT_CFG = {true, 0, 0, SoftmaxMode::SOFTMAX_NORMAL};

}  // namespace AscendC

namespace kwb_sim {

struct SoftMaxCall {
  const char* api = "";
  bool simple = false;     // SimpleSoftMax: sum and max are inputs
  bool withStats = false;  // sum and max tensors given
  DType dt = DType::None;
  std::uint32_t esize = 0;
  DType statDt = DType::None;
  std::uint32_t statEsize = 0;
  LocalDesc dst{nullptr, {}}, src{nullptr, {}}, sum{nullptr, {}}, max{nullptr, {}};
  bool hasTmp = false;  // false: the framework's reserved space
  LocalDesc tmp{nullptr, {}};
  std::uint64_t tmpBytes = 0;
  AscendC::SoftMaxShapeInfo shape;
  std::uint32_t tilingM = 0, tilingK = 0, tilingSplitM = 0;
  // Operand numbers of the user's call, for diagnostics.
  int tmpOperand = 0, tilingOperand = 0;
};
void mathSoftMax(const SoftMaxCall& c, SrcLoc loc);
// GetSoftMaxMinTmpSize / GetSoftMaxMaxTmpSize on the 910B/310P parts (bytes).
std::uint32_t softMaxMinTmpBytes(std::uint32_t srcK, std::uint32_t statTypeSize);
std::uint32_t softMaxMaxTmpBytes(std::uint32_t srcM, std::uint32_t srcK, std::uint32_t statTypeSize);

template <typename T, typename S>
SoftMaxCall softMaxCall(const char* api, bool simple, const AscendC::LocalTensor<T>& dst,
                        const AscendC::LocalTensor<S>* sum, const AscendC::LocalTensor<S>* max,
                        const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<std::uint8_t>* tmp,
                        const optiling::SoftMaxTiling& tiling, const AscendC::SoftMaxShapeInfo& shape) {
  SoftMaxCall c;
  c.api = api;
  c.simple = simple;
  c.dt = dtypeOf<T>();
  c.esize = sizeof(T);
  c.statDt = dtypeOf<S>();
  c.statEsize = sizeof(S);
  c.dst = localDesc(dst);
  c.src = localDesc(src);
  if (sum && max) {
    c.withStats = true;
    c.sum = localDesc(*sum);
    c.max = localDesc(*max);
  }
  if (tmp) {
    c.hasTmp = true;
    c.tmp = localDesc(*tmp);
    c.tmpBytes = tmp->GetSize();
  }
  c.shape = shape;
  c.tilingM = tiling.srcM;
  c.tilingK = tiling.srcK;
  c.tilingSplitM = tiling.splitM;
  const int first = c.withStats ? 4 : 2;
  c.tmpOperand = tmp ? first : -2;
  c.tilingOperand = tmp ? first + 1 : first;
  return c;
}

}  // namespace kwb_sim

#define KWB_SIM_SOFTMAX_HEAD                                                                                \
  template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false, \
            const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
#define KWB_SIM_SOFTMAX_CHECK(NAME)                                                                   \
  KWB_SIM_REQUIRE_DTYPE(NAME, T, half, float);                                                        \
  static_assert(!isDataFormatNZ, "kwb-sim: unsupported-api: " NAME                                    \
                                 " with isDataFormatNZ = true (NZ format) is not implemented by the " \
                                 "kwb emulator; use the ND format")

namespace AscendC {

// ---- SoftMax: same-type, half data with float sum/max, and without sum/max; each with or without
// the caller's sharedTmpBuffer.
KWB_SIM_SOFTMAX_HEAD
void SoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& sum, const LocalTensor<T>& max,
             const LocalTensor<T>& src, const SoftMaxTiling& tiling, const SoftMaxShapeInfo& shapeInfo = {},
             KWB_SIM_LOC) {
  KWB_SIM_SOFTMAX_CHECK("SoftMax");
  kwb_sim::mathSoftMax(
      kwb_sim::softMaxCall("SoftMax", false, dst, &sum, &max, src, nullptr, tiling, shapeInfo), loc_);
}
KWB_SIM_SOFTMAX_HEAD
void SoftMax(const LocalTensor<half>& dst, const LocalTensor<float>& sum, const LocalTensor<float>& max,
             const LocalTensor<half>& src, const SoftMaxTiling& tiling,
             const SoftMaxShapeInfo& shapeInfo = {}, KWB_SIM_LOC) {
  KWB_SIM_SOFTMAX_CHECK("SoftMax");
  kwb_sim::mathSoftMax(
      kwb_sim::softMaxCall("SoftMax", false, dst, &sum, &max, src, nullptr, tiling, shapeInfo), loc_);
}
KWB_SIM_SOFTMAX_HEAD
void SoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const SoftMaxTiling& tiling,
             const SoftMaxShapeInfo& shapeInfo = {}, KWB_SIM_LOC) {
  KWB_SIM_SOFTMAX_CHECK("SoftMax");
  kwb_sim::mathSoftMax(
      kwb_sim::softMaxCall<T, T>("SoftMax", false, dst, nullptr, nullptr, src, nullptr, tiling, shapeInfo),
      loc_);
}
KWB_SIM_SOFTMAX_HEAD
void SoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& sum, const LocalTensor<T>& max,
             const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,
             const SoftMaxTiling& tiling, const SoftMaxShapeInfo& shapeInfo = {}, KWB_SIM_LOC) {
  KWB_SIM_SOFTMAX_CHECK("SoftMax");
  kwb_sim::mathSoftMax(
      kwb_sim::softMaxCall("SoftMax", false, dst, &sum, &max, src, &sharedTmpBuffer, tiling, shapeInfo),
      loc_);
}
KWB_SIM_SOFTMAX_HEAD
void SoftMax(const LocalTensor<half>& dst, const LocalTensor<float>& sum, const LocalTensor<float>& max,
             const LocalTensor<half>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,
             const SoftMaxTiling& tiling, const SoftMaxShapeInfo& shapeInfo = {}, KWB_SIM_LOC) {
  KWB_SIM_SOFTMAX_CHECK("SoftMax");
  kwb_sim::mathSoftMax(
      kwb_sim::softMaxCall("SoftMax", false, dst, &sum, &max, src, &sharedTmpBuffer, tiling, shapeInfo),
      loc_);
}
KWB_SIM_SOFTMAX_HEAD
void SoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& src,
             const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
             const SoftMaxShapeInfo& shapeInfo = {}, KWB_SIM_LOC) {
  KWB_SIM_SOFTMAX_CHECK("SoftMax");
  kwb_sim::mathSoftMax(kwb_sim::softMaxCall<T, T>("SoftMax", false, dst, nullptr, nullptr, src,
                                                  &sharedTmpBuffer, tiling, shapeInfo),
                       loc_);
}

// ---- SimpleSoftMax: the row sum and max are inputs.
KWB_SIM_SOFTMAX_HEAD
void SimpleSoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& inSum, const LocalTensor<T>& inMax,
                   const LocalTensor<T>& src, const SoftMaxTiling& tiling,
                   const SoftMaxShapeInfo& shapeInfo = {}, KWB_SIM_LOC) {
  KWB_SIM_SOFTMAX_CHECK("SimpleSoftMax");
  kwb_sim::mathSoftMax(
      kwb_sim::softMaxCall("SimpleSoftMax", true, dst, &inSum, &inMax, src, nullptr, tiling, shapeInfo),
      loc_);
}
KWB_SIM_SOFTMAX_HEAD
void SimpleSoftMax(const LocalTensor<half>& dst, const LocalTensor<float>& inSum,
                   const LocalTensor<float>& inMax, const LocalTensor<half>& src, const SoftMaxTiling& tiling,
                   const SoftMaxShapeInfo& shapeInfo = {}, KWB_SIM_LOC) {
  KWB_SIM_SOFTMAX_CHECK("SimpleSoftMax");
  kwb_sim::mathSoftMax(
      kwb_sim::softMaxCall("SimpleSoftMax", true, dst, &inSum, &inMax, src, nullptr, tiling, shapeInfo),
      loc_);
}
KWB_SIM_SOFTMAX_HEAD
void SimpleSoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& inSum, const LocalTensor<T>& inMax,
                   const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,
                   const SoftMaxTiling& tiling, const SoftMaxShapeInfo& shapeInfo = {}, KWB_SIM_LOC) {
  KWB_SIM_SOFTMAX_CHECK("SimpleSoftMax");
  kwb_sim::mathSoftMax(kwb_sim::softMaxCall("SimpleSoftMax", true, dst, &inSum, &inMax, src, &sharedTmpBuffer,
                                            tiling, shapeInfo),
                       loc_);
}
KWB_SIM_SOFTMAX_HEAD
void SimpleSoftMax(const LocalTensor<half>& dst, const LocalTensor<float>& inSum,
                   const LocalTensor<float>& inMax, const LocalTensor<half>& src,
                   const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                   const SoftMaxShapeInfo& shapeInfo = {}, KWB_SIM_LOC) {
  KWB_SIM_SOFTMAX_CHECK("SimpleSoftMax");
  kwb_sim::mathSoftMax(kwb_sim::softMaxCall("SimpleSoftMax", true, dst, &inSum, &inMax, src, &sharedTmpBuffer,
                                            tiling, shapeInfo),
                       loc_);
}

}  // namespace AscendC

#undef KWB_SIM_SOFTMAX_HEAD
#undef KWB_SIM_SOFTMAX_CHECK
