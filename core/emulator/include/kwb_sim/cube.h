// SPDX-License-Identifier: MIT
#pragma once
// The cube unit's basic API (docs/emulator.md, "Cube unit (issue 14)"): DataCopy GM->L1 with ND->NZ
// conversion (Nd2NzParams), LoadData 2D L1->L0A/L0B (LoadData2DParams), Mmad into L0C (MmadParams, with
// an optional bias-table row), Fixpipe L0C->GM (FixpipeParamsV220: NZ->ND, F322F16/F322BF16, ReLU) and
// DataCopy L1->bias table. Memory is laid out in fractals exactly as on the device; the work and every
// check happen in runtime/Cube.cpp.

#include <cstdint>
#include <type_traits>

#include "kwb_sim/data_copy.h"
#include "kwb_sim/runtime.h"
#include "kwb_sim/tensor.h"

namespace AscendC {

struct Nd2NzParams {
  Nd2NzParams() = default;
  Nd2NzParams(uint16_t ndNumIn, uint16_t nValueIn, uint16_t dValueIn, uint16_t srcNdMatrixStrideIn,
              uint16_t srcDValueIn, uint16_t dstNzC0StrideIn, uint16_t dstNzNStrideIn,
              uint16_t dstNzMatrixStrideIn)
      : ndNum(ndNumIn),
        nValue(nValueIn),
        dValue(dValueIn),
        srcNdMatrixStride(srcNdMatrixStrideIn),
        srcDValue(srcDValueIn),
        dstNzC0Stride(dstNzC0StrideIn),
        dstNzNStride(dstNzNStrideIn),
        dstNzMatrixStride(dstNzMatrixStrideIn) {}
  uint16_t ndNum = 0;              // ND matrices
  uint16_t nValue = 0;             // rows of one ND matrix
  uint16_t dValue = 0;             // columns of one ND matrix (elements)
  uint16_t srcNdMatrixStride = 0;  // elements between ND matrices in GM
  uint16_t srcDValue = 0;          // elements per GM row
  uint16_t dstNzC0Stride = 0;      // 32-byte blocks between column groups of C0 elements in L1
  uint16_t dstNzNStride = 0;       // 32-byte blocks between rows in L1
  uint16_t dstNzMatrixStride = 0;  // elements between NZ matrices in L1
};

struct LoadData2DParams {
  LoadData2DParams() = default;
  LoadData2DParams(uint16_t startIndexIn, uint8_t repeatTimesIn, uint16_t srcStrideIn, uint8_t sidIn,
                   uint16_t dstGapIn, bool ifTransposeIn, uint8_t addrModeIn)
      : startIndex(startIndexIn),
        repeatTimes(repeatTimesIn),
        srcStride(srcStrideIn),
        sid(sidIn),
        dstGap(dstGapIn),
        ifTranspose(ifTransposeIn),
        addrMode(addrModeIn) {}
  uint16_t startIndex = 0;  // first fractal (512 B units)
  uint8_t repeatTimes = 0;  // fractals moved
  uint16_t srcStride = 0;   // 512 B units between source fractal starts
  uint8_t sid = 0;
  uint16_t dstGap = 0;  // 512 B units between the end of one destination fractal and the next
  bool ifTranspose = false;
  uint8_t addrMode = 0;
};

struct MmadParams {
  MmadParams() = default;
  MmadParams(uint16_t mIn, uint16_t nIn, uint16_t kIn, bool isBiasIn, int32_t fmOffsetIn, bool enSsparseIn,
             bool enWinogradAIn, bool enWinogradBIn)
      : m(mIn),
        n(nIn),
        k(kIn),
        isBias(isBiasIn),
        fmOffset(fmOffsetIn),
        enSsparse(enSsparseIn),
        enWinogradA(enWinogradAIn),
        enWinogradB(enWinogradBIn) {}
  MmadParams(uint16_t mIn, uint16_t nIn, uint16_t kIn, uint8_t unitFlagIn, bool cmatrixSourceIn,
             bool cmatrixInitValIn)
      : m(mIn),
        n(nIn),
        k(kIn),
        unitFlag(unitFlagIn),
        cmatrixSource(cmatrixSourceIn),
        cmatrixInitVal(cmatrixInitValIn) {}
  uint16_t m = 0;
  uint16_t n = 0;
  uint16_t k = 0;
  bool isBias = false;  // deprecated: accumulate onto L0C (same as cmatrixInitVal = false)
  int32_t fmOffset = 0;
  bool enSsparse = false;
  bool enWinogradA = false;
  bool enWinogradB = false;
  uint8_t unitFlag = 0;
  bool kDirectionAlign = false;
  bool cmatrixSource = false;  // true: C starts from the bias table row (TPosition::C2)
  bool cmatrixInitVal = true;  // true: C starts from zero
};

enum QuantMode_t : uint8_t {
  NoQuant = 0,
  F322F16,
  F322BF16,
  DEQF16,
  VDEQF16,
  QF322B8_PRE,
  VQF322B8_PRE,
  REQ8,
  VREQ8,
  DEQS322F16,
  VDEQS322F16,
};

struct FixpipeParamsV220 {
  FixpipeParamsV220() = default;
  FixpipeParamsV220(uint16_t nSizeIn, uint16_t mSizeIn, uint16_t srcStrideIn, uint32_t dstStrideIn,
                    bool reluEnIn)
      : nSize(nSizeIn), mSize(mSizeIn), srcStride(srcStrideIn), dstStride(dstStrideIn), reluEn(reluEnIn) {}
  FixpipeParamsV220(uint16_t nSizeIn, uint16_t mSizeIn, uint16_t srcStrideIn, uint32_t dstStrideIn,
                    bool reluEnIn, QuantMode_t quantPreIn, int64_t deqScalarIn, uint16_t ndNumIn,
                    uint16_t srcNdStrideIn, uint16_t dstNdStrideIn, uint8_t unitFlagIn)
      : nSize(nSizeIn),
        mSize(mSizeIn),
        srcStride(srcStrideIn),
        dstStride(dstStrideIn),
        quantPre(quantPreIn),
        deqScalar(static_cast<uint64_t>(deqScalarIn)),
        ndNum(ndNumIn),
        srcNdStride(srcNdStrideIn),
        dstNdStride(dstNdStrideIn),
        reluEn(reluEnIn),
        unitFlag(unitFlagIn) {}
  uint16_t nSize = 0;      // columns moved (N)
  uint16_t mSize = 0;      // rows moved (M)
  uint16_t srcStride = 0;  // L0C: 16-row units between column groups of 16 (ceil16 of the tile's M)
  uint32_t dstStride = 0;  // NZ2ND: elements per destination row; NZ: 32-byte blocks
  QuantMode_t quantPre = QuantMode_t::NoQuant;
  uint64_t deqScalar = 0;
  uint16_t ndNum = 1;
  uint16_t srcNdStride = 0;
  uint16_t dstNdStride = 0;
  bool reluEn = false;
  uint8_t unitFlag = 0;
  bool isChannelSplit = false;
};

enum class CO2Layout : uint8_t { NZ = 0, ROW_MAJOR, COLUMN_MAJOR };
struct FixpipeConfig {
  CO2Layout format;
};
inline constexpr FixpipeConfig CFG_NZ = {CO2Layout::NZ};
inline constexpr FixpipeConfig CFG_ROW_MAJOR = {CO2Layout::ROW_MAJOR};

}  // namespace AscendC

namespace kwb_sim {

void cubeNd2Nz(const LocalDesc& dst, const GmDesc& src, ElemDesc e, const AscendC::Nd2NzParams& p,
               SrcLoc loc);
void cubeLoad2D(const LocalDesc& dst, const LocalDesc& src, ElemDesc e, const AscendC::LoadData2DParams& p,
                SrcLoc loc);
void cubeMmad(const LocalDesc& c, ElemDesc ce, const LocalDesc& a, ElemDesc ae, const LocalDesc& b,
              const LocalDesc* bias, ElemDesc biasE, const AscendC::MmadParams& p, SrcLoc loc);
void cubeFixpipe(const GmDesc& dst, ElemDesc de, const LocalDesc& src, ElemDesc se,
                 const AscendC::FixpipeParamsV220& p, bool nz2nd, SrcLoc loc);

// The input/output type pairs the cube takes (devkit Mmad.md: tables 7/8 for 2201; table 9 for the 310P AI
// Core, which has no bfloat16 or float cube; its half -> half form is not emulated).
template <typename C, typename A, typename B>
inline constexpr bool kMmadTypesOk = std::is_same_v<A, B> &&
                                     ((std::is_same_v<A, half> && std::is_same_v<C, float>) ||
#if KWB_SIM_ARCH != 2002
                                      (std::is_same_v<A, bfloat16> && std::is_same_v<C, float>) ||
                                      (std::is_same_v<A, float> && std::is_same_v<C, float>) ||
#endif
                                      (std::is_same_v<A, std::int8_t> && std::is_same_v<C, std::int32_t>));

}  // namespace kwb_sim

namespace AscendC {

// GM -> L1 (A1/B1) with the ND -> NZ conversion, on MTE2.
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const Nd2NzParams& p, KWB_SIM_LOC) {
  KWB_SIM_REQUIRE_DTYPE("DataCopy (Nd2NzParams)", T, half, bfloat16_t, float, int8_t, uint8_t, int16_t,
                        uint16_t, int32_t, uint32_t);
  kwb_sim::cubeNd2Nz(kwb_sim::localDesc(dst), kwb_sim::gmDesc(src), kwb_sim::elemDesc<T>(), p, loc_);
}

// L1 -> L0A / L0B in 512-byte fractals, on MTE1.
template <typename T>
void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2DParams& p, KWB_SIM_LOC) {
  kwb_sim::cubeLoad2D(kwb_sim::localDesc(dst), kwb_sim::localDesc(src), kwb_sim::elemDesc<T>(), p, loc_);
}

// C (L0C) = A (L0A) x B (L0B) [+ C or the bias row], on PIPE_M.
template <typename T, typename U, typename S>
void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter,
          const MmadParams& p, KWB_SIM_LOC) {
  static_assert(kwb_sim::kMmadTypesOk<T, U, S>,
                "kwb-sim: unsupported-dtype: Mmad takes half/bfloat16_t/float x same -> float or int8_t x "
                "int8_t -> int32_t on " KWB_SIM_SOC_NAME);
  kwb_sim::cubeMmad(kwb_sim::localDesc(dst), kwb_sim::elemDesc<T>(), kwb_sim::localDesc(fm),
                    kwb_sim::elemDesc<U>(), kwb_sim::localDesc(filter), nullptr, kwb_sim::ElemDesc{}, p,
                    loc_);
}
template <typename T, typename U, typename S, typename V>
void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter,
          const LocalTensor<V>& bias, const MmadParams& p, KWB_SIM_LOC) {
  static_assert(kwb_sim::kMmadTypesOk<T, U, S>,
                "kwb-sim: unsupported-dtype: Mmad takes half/bfloat16_t/float x same -> float or int8_t x "
                "int8_t -> int32_t on " KWB_SIM_SOC_NAME);
  static_assert(std::is_same_v<V, T>, "kwb-sim: unsupported-dtype: the Mmad bias must have the type of dst");
#if KWB_SIM_ARCH == 2002
  static_assert(kwb_sim::kAlwaysFalse<V>,
                "kwb-sim: unsupported-api: Mmad with a bias is not available on " KWB_SIM_SOC_NAME);
#endif
  const kwb_sim::LocalDesc b = kwb_sim::localDesc(bias);
  kwb_sim::cubeMmad(kwb_sim::localDesc(dst), kwb_sim::elemDesc<T>(), kwb_sim::localDesc(fm),
                    kwb_sim::elemDesc<U>(), kwb_sim::localDesc(filter), &b, kwb_sim::elemDesc<V>(), p, loc_);
}

// L0C -> GM, on PIPE_FIX: NZ -> ND (CFG_ROW_MAJOR, the default) or NZ -> NZ (CFG_NZ), with the
// conversion quantPre names and an optional ReLU.
#if KWB_SIM_ARCH == 2002
// The 310P AI Core moves L0C out through CO2 (UB) instead; that path is not emulated yet.
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR, typename... A>
void Fixpipe(const GlobalTensor<T>&, const LocalTensor<U>&, A&&...) {
  static_assert(kwb_sim::kAlwaysFalse<T>,
                "kwb-sim: unsupported-api: Fixpipe is not available on " KWB_SIM_SOC_NAME
                " (arch 2002): L0C leaves through CO2, which the kwb emulator does not "
                "emulate yet");
}
#else
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParamsV220& p, KWB_SIM_LOC) {
  static_assert(std::is_same_v<U, float> || std::is_same_v<U, int32_t>,
                "kwb-sim: unsupported-dtype: Fixpipe reads float or int32_t from L0C on " KWB_SIM_SOC_NAME);
  static_assert(kwb_sim::kIsOneOf<T, float, half, bfloat16_t, int32_t>,
                "kwb-sim: unsupported-dtype: Fixpipe writes float, half, bfloat16_t or int32_t to GM in the "
                "kwb emulator");
  kwb_sim::cubeFixpipe(kwb_sim::gmDesc(dst), kwb_sim::elemDesc<T>(), kwb_sim::localDesc(src),
                       kwb_sim::elemDesc<U>(), p, config.format != CO2Layout::NZ, loc_);
}
#endif

}  // namespace AscendC

// The devkit samples and the C-API pages name QuantMode_t unqualified, without `using namespace AscendC`
// (e.g. `QuantMode_t::F322F16` in a FixpipeParamsV220): CANN declares it at global scope too.
using AscendC::QuantMode_t;
