// SPDX-License-Identifier: MIT
#pragma once
// Host tiling of the Matmul API (docs/emulator.md, "Matmul API"): matmul_tiling::MatmulApiTiling (one
// core) and MultiCoreMatmulTiling (SetDim cores), filling optiling::TCubeTiling. The tiling respects
// the SoC's buffers: base tiles are multiples of 16 (baseK of the C0 of A's type), double-buffered L0A
// and L0B halves hold baseM x baseK and baseK x baseN, L0C holds baseM x baseN in fp32/int32, and L1
// holds depthA1 A tiles, depthB1 B tiles and the bias row. GetTiling returns -1 when no tiling fits or
// the inputs are invalid, as the reference does. The split it picks is the emulator's own (shapes and
// steps are not the reference tiler's choices), so kernels must read the tiling, never assume it.
#include <algorithm>
#include <cstdint>

#include "kwb_op/ge_types.h"
#include "kwb_sim/cube_format.h"
#include "kwb_sim/matmul_tiling_data.h"
#include "kwb_sim/types.h"

namespace matmul_tiling {

using TPosition = AscendC::TPosition;
using CubeFormat = matmul::CubeFormat;
using DataType = ge::DataType;

enum class MatrixTraverse : int32_t { NOSET = 0, FIRSTM = 1, FIRSTN = 2 };

// On-chip buffer sizes one cube core has (bytes), as resources/soc/<soc>.json gives them (the host
// side has no SoC file to read; tests/emulator/corpus/matmul_api_f16 checks tilings against the 910B's).
struct CubeCoreBuffers {
  int64_t l1 = 0, l0a = 0, l0b = 0, l0c = 0, ub = 0, bt = 0;
  int32_t aicCores = 0;
};
inline CubeCoreBuffers cubeCoreBuffersFor(bool coupled310P) {
  if (coupled310P) return CubeCoreBuffers{1048576, 65536, 65536, 262144, 262144, 0, 8};
  return CubeCoreBuffers{524288, 65536, 65536, 131072, 196608, 1024, 24};
}
inline CubeCoreBuffers defaultCubeCoreBuffers() {
#if defined(KWB_SIM_ARCH) && KWB_SIM_ARCH == 2002
  return cubeCoreBuffersFor(true);
#else
  return cubeCoreBuffersFor(false);
#endif
}

inline int32_t kwbDataTypeBytes(DataType t) {
  switch (t) {
    case DataType::DT_FLOAT:
    case DataType::DT_INT32:
      return 4;
    case DataType::DT_FLOAT16:
    case DataType::DT_BF16:
      return 2;
    case DataType::DT_INT8:
      return 1;
    default:
      return 0;
  }
}

class MatmulApiTiling {
 public:
  MatmulApiTiling() : caps_(defaultCubeCoreBuffers()) {}
  // Any platform object with GetSocVersion/GetCoreNumAic (platform_ascendc::PlatformAscendC): the 310P
  // parts get their buffers, everything else the 910B ones.
  template <typename Platform>
  explicit MatmulApiTiling(const Platform& platform)
      : caps_(cubeCoreBuffersFor(kwbIs310P(platform.GetSocVersion()))) {
    const auto aic = platform.GetCoreNumAic();
    if (aic > 0) caps_.aicCores = static_cast<int32_t>(aic);
  }
  virtual ~MatmulApiTiling() = default;

  int32_t SetAType(TPosition pos, CubeFormat format, DataType type, bool isTrans = false) {
    return setType(a_, pos, format, type, isTrans);
  }
  int32_t SetBType(TPosition pos, CubeFormat format, DataType type, bool isTrans = false) {
    return setType(b_, pos, format, type, isTrans);
  }
  int32_t SetCType(TPosition pos, CubeFormat format, DataType type) {
    return setType(c_, pos, format, type, false);
  }
  int32_t SetBiasType(TPosition pos, CubeFormat format, DataType type) {
    return setType(bias_, pos, format, type, false);
  }
  int32_t SetShape(int32_t m, int32_t n, int32_t k) {
    m_ = m;
    n_ = n;
    k_ = k;
    return 0;
  }
  int32_t SetOrgShape(int32_t orgM, int32_t orgN, int32_t orgK) {
    return SetOrgShape(orgM, orgN, orgK, orgK);
  }
  int32_t SetOrgShape(int32_t orgM, int32_t orgN, int32_t orgKa, int32_t orgKb) {
    orgM_ = orgM;
    orgN_ = orgN;
    orgKa_ = orgKa;
    orgKb_ = orgKb;
    return 0;
  }
  int32_t SetBias(bool isBias = false) {
    isBias_ = isBias;
    return 0;
  }
  int32_t EnableBias(bool isBias = false) { return SetBias(isBias); }
  // -1 keeps the SoC's size; a smaller size limits what the tiling may use.
  int32_t SetBufferSpace(int32_t l1Size = -1, int32_t l0CSize = -1, int32_t ubSize = -1,
                         int32_t btSize = -1) {
    l1Limit_ = l1Size;
    l0cLimit_ = l0CSize;
    ubLimit_ = ubSize;
    btLimit_ = btSize;
    return 0;
  }
  int32_t SetFixSplit(int32_t baseMIn = -1, int32_t baseNIn = -1, int32_t baseKIn = -1) {
    fixM_ = baseMIn;
    fixN_ = baseNIn;
    fixK_ = baseKIn;
    return 0;
  }
  int32_t SetTraverse(MatrixTraverse traverse) {
    traverse_ = traverse;
    return 0;
  }
  // Buffers the kernel uses besides the Matmul object's are not modelled: accepted and ignored.
  int32_t SetDoubleBuffer(bool, bool, bool, bool, bool = true, bool = true) { return 0; }

  // 0 and `tiling` filled, or -1 (and `tiling` untouched) when the inputs are invalid or nothing fits.
  int64_t GetTiling(optiling::TCubeTiling& tiling) {
    optiling::TCubeTiling t;
    if (!plan(t)) return -1;
    tiling = t;
    return 0;
  }
  // Why the last GetTiling returned -1 (an emulator addition; empty after success).
  const char* KwbLastError() const { return error_; }

 protected:
  struct TypeInfo {
    bool set = false;
    TPosition pos = TPosition::GM;
    CubeFormat format = CubeFormat::ND;
    DataType type = DataType::DT_FLOAT16;
    bool isTrans = false;
  };
  static bool kwbIs310P(int version) { return version == 2; }  // platform_ascendc::SocVersion::ASCEND310P
  template <typename V>
  static bool kwbIs310P(V version) {
    return static_cast<int>(version) == 2;
  }
  static int32_t setType(TypeInfo& t, TPosition pos, CubeFormat format, DataType type, bool isTrans) {
    t = TypeInfo{true, pos, format, type, isTrans};
    return 0;
  }
  static int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
  static int64_t alignUp(int64_t a, int64_t b) { return ceilDiv(a, b) * b; }
  bool fail(const char* why) {
    error_ = why;
    return false;
  }
  int64_t limit(int32_t asked, int64_t have) const {
    return asked > 0 ? std::min<int64_t>(asked, have) : have;
  }

  // The single-core tile [singleM x singleN x singleK] this object tiles; the multi-core subclass splits
  // the whole shape over its cores first.
  virtual bool splitCores(optiling::TCubeTiling& t) {
    t.usedCoreNum = 1;
    t.singleCoreM = m_;
    t.singleCoreN = n_;
    t.singleCoreK = k_;
    return true;
  }

  bool plan(optiling::TCubeTiling& t) {
    error_ = "";
    if (!a_.set || !b_.set || !c_.set) return fail("SetAType, SetBType and SetCType must all be called");
    const int32_t aBytes = kwbDataTypeBytes(a_.type), bBytes = kwbDataTypeBytes(b_.type);
    const int32_t cBytes = kwbDataTypeBytes(c_.type);
    const bool floatIn =
        a_.type == DataType::DT_FLOAT16 || a_.type == DataType::DT_BF16 || a_.type == DataType::DT_FLOAT;
    if (a_.type != b_.type || aBytes == 0 || cBytes == 0 ||
        (a_.type == DataType::DT_INT8 && c_.type != DataType::DT_INT32 && c_.type != DataType::DT_FLOAT16) ||
        (floatIn && c_.type == DataType::DT_INT32) || (floatIn && c_.type == DataType::DT_INT8))
      return fail(
          "unsupported A/B/C type combination (A and B: the same of half, bfloat16, float or int8; C: "
          "float/half/bfloat16 for float inputs, int32 for int8)");
    if (a_.format != CubeFormat::ND || b_.format != CubeFormat::ND || c_.format != CubeFormat::ND)
      return fail("the kwb emulator tiles ND A, B and C only");
    if (m_ <= 0 || n_ <= 0 || k_ <= 0) return fail("SetShape(M, N, K) needs positive sizes");
    const int32_t orgM = orgM_ > 0 ? orgM_ : m_, orgN = orgN_ > 0 ? orgN_ : n_;
    const int32_t orgKa = orgKa_ > 0 ? orgKa_ : k_, orgKb = orgKb_ > 0 ? orgKb_ : k_;
    if (orgKa != orgKb) return fail("SetOrgShape: Ka and Kb differ");
    if (m_ > orgM || n_ > orgN || k_ > orgKa) return fail("SetShape is larger than SetOrgShape");
    t.M = orgM;
    t.N = orgN;
    t.Ka = orgKa;
    t.Kb = orgKb;
    if (!splitCores(t)) return false;

    const int64_t l1 = limit(l1Limit_, caps_.l1), l0c = limit(l0cLimit_, caps_.l0c);
    const int64_t l0a = caps_.l0a, l0b = caps_.l0b;
    const int64_t c0 = 32 / aBytes;  // K granule of one fractal
    const int64_t accBytes = 4;      // L0C holds fp32 / int32
    // Base tiles: the fixed split if given (checked), else the largest of 128 x 256 (M x N) that the
    // single-core tile needs, then the largest baseK that double-buffered L0A/L0B halves hold.
    int64_t baseM = fixM_ > 0 ? fixM_ : std::min<int64_t>(128, alignUp(t.singleCoreM, 16));
    int64_t baseN = fixN_ > 0 ? fixN_ : std::min<int64_t>(256, alignUp(t.singleCoreN, 16));
    if (baseM % 16 != 0 || baseN % 16 != 0)
      return fail("SetFixSplit: baseM and baseN must be multiples of 16");
    if (fixM_ <= 0 || fixN_ <= 0)
      while (baseM * baseN * accBytes > l0c && (baseM > 16 || baseN > 16)) {
        if (fixN_ <= 0 && baseN >= baseM && baseN > 16)
          baseN = alignUp(baseN / 2, 16);
        else if (fixM_ <= 0 && baseM > 16)
          baseM = alignUp(baseM / 2, 16);
        else
          break;
      }
    if (baseM * baseN * accBytes > l0c) return fail("baseM x baseN does not fit L0C");
    const int64_t kNeed = alignUp(t.singleCoreK, c0);
    int64_t baseK = 0;
    if (fixK_ > 0) {
      baseK = fixK_;
      if (baseK % c0 != 0) return fail("SetFixSplit: baseK must be a multiple of 32 bytes of A's type");
      if (baseM * baseK * aBytes > l0a || baseN * baseK * bBytes > l0b)
        return fail("SetFixSplit: the base tiles do not fit L0A/L0B");
    } else {
      const int64_t cap = std::min<int64_t>(kNeed, 256 / aBytes * 2);  // 64 fp16 / 32 fp32 / 128 int8 at most
      for (int64_t k = cap / c0 * c0; k >= c0; k -= c0)
        if (2 * baseM * k * aBytes <= l0a && 2 * baseN * k * bBytes <= l0b) {
          baseK = k;
          break;
        }
      if (baseK == 0) return fail("no baseK fits L0A/L0B with these baseM/baseN");
    }
    const bool dbA = 2 * baseM * baseK * aBytes <= l0a, dbB = 2 * baseN * baseK * bBytes <= l0b;
    const bool dbC = 2 * baseM * baseN * accBytes <= l0c;
    // L1: stepK K-tiles of A and of B, twice (ping-pong), plus the bias row; fewer K-tiles until it fits.
    const int64_t kTiles = ceilDiv(t.singleCoreK, baseK);
    const int64_t biasBytes = isBias_ ? baseN * 4 : 0;
    if (isBias_ && caps_.bt > 0 && baseN * 4 > limit(btLimit_, caps_.bt))
      return fail("the bias row of baseN floats does not fit the bias table");
    int64_t stepK = std::min<int64_t>(kTiles, 4);
    auto l1Use = [&](int64_t s, int64_t depth) {
      return depth * s * baseK * (baseM * aBytes + baseN * bBytes) + biasBytes;
    };
    int64_t depth = 2;
    while (stepK > 1 && l1Use(stepK, depth) > l1) --stepK;
    if (l1Use(stepK, depth) > l1) depth = 1;
    if (l1Use(stepK, depth) > l1) return fail("one A and one B base tile do not fit L1");
    t.baseM = static_cast<int32_t>(baseM);
    t.baseN = static_cast<int32_t>(baseN);
    t.baseK = static_cast<int32_t>(baseK);
    t.stepM = 1;
    t.stepN = 1;
    t.stepKa = static_cast<int32_t>(stepK);
    t.stepKb = static_cast<int32_t>(stepK);
    t.depthA1 = static_cast<int32_t>(depth * stepK);
    t.depthB1 = static_cast<int32_t>(depth * stepK);
    t.isBias = isBias_ ? 1 : 0;
    t.iterateOrder = traverse_ == MatrixTraverse::FIRSTN ? 1 : 0;
    t.dbL0A = dbA ? 2 : 1;
    t.dbL0B = dbB ? 2 : 1;
    t.dbL0C = dbC ? 2 : 1;
    t.shareMode = 0;
    t.shareL1Size = static_cast<int32_t>(l1Use(stepK, depth));
    t.shareL0CSize = static_cast<int32_t>(baseM * baseN * accBytes);
    t.shareUbSize = 0;
    t.transLength = 0;
    t.batchM = t.batchN = t.singleBatchM = t.singleBatchN = 1;
    return true;
  }

  CubeCoreBuffers caps_;
  TypeInfo a_, b_, c_, bias_;
  int32_t m_ = 0, n_ = 0, k_ = 0, orgM_ = 0, orgN_ = 0, orgKa_ = 0, orgKb_ = 0;
  bool isBias_ = false;
  int32_t l1Limit_ = -1, l0cLimit_ = -1, ubLimit_ = -1, btLimit_ = -1;
  int32_t fixM_ = -1, fixN_ = -1, fixK_ = -1;
  MatrixTraverse traverse_ = MatrixTraverse::NOSET;
  const char* error_ = "";
};

// The whole [M x N x K] over SetDim cores: the cores form an mDim x nDim grid (K is not split), each
// with a single-core tile of singleCoreM x singleCoreN (multiples of 16 but the last); usedCoreNum <= dim.
class MultiCoreMatmulTiling : public MatmulApiTiling {
 public:
  MultiCoreMatmulTiling() = default;
  template <typename Platform>
  explicit MultiCoreMatmulTiling(const Platform& platform) : MatmulApiTiling(platform) {}

  int32_t SetDim(int32_t dim) {
    dim_ = dim;
    return 0;
  }
  int32_t SetSingleShape(int32_t singleMIn = -1, int32_t singleNIn = -1, int32_t singleKIn = -1) {
    singleM_ = singleMIn;
    singleN_ = singleNIn;
    singleK_ = singleKIn;
    return 0;
  }
  int32_t GetSingleShape(int32_t& shapeM, int32_t& shapeN, int32_t& shapeK) const {
    shapeM = lastSingleM_;
    shapeN = lastSingleN_;
    shapeK = lastSingleK_;
    return 0;
  }
  int32_t GetCoreNum(int32_t& dim, int32_t& mDim, int32_t& nDim) const {
    dim = lastMDim_ * lastNDim_;
    mDim = lastMDim_;
    nDim = lastNDim_;
    return 0;
  }

 protected:
  bool splitCores(optiling::TCubeTiling& t) override {
    if (dim_ <= 0) return fail("SetDim needs a positive core count");
    int64_t bestM = 0, bestN = 0, bestCost = -1, bestUsed = 0;
    for (int64_t md = 1; md <= dim_; ++md) {
      const int64_t nd = dim_ / md;
      const int64_t sm = singleM_ > 0 ? singleM_ : alignUp(ceilDiv(m_, md), 16);
      const int64_t sn = singleN_ > 0 ? singleN_ : alignUp(ceilDiv(n_, nd), 16);
      const int64_t used = ceilDiv(m_, sm) * ceilDiv(n_, sn);
      if (used > dim_) continue;
      // Per-core work (the slowest core's products) plus the operands it reads.
      const int64_t cost = sm * sn * k_ + (sm + sn) * k_ * 4;
      // On a tie the grid with more rows wins: CANN splits M first there (the devkit's matmul_advanced_api,
      // 512 x 512 x 128 on 2 cores, offsets its A by blockIdx * singleCoreM * Ka and B not at all).
      if (bestCost < 0 || cost < bestCost || (cost == bestCost && used <= bestUsed)) {
        bestCost = cost;
        bestM = sm;
        bestN = sn;
        bestUsed = used;
      }
    }
    if (bestCost < 0) return fail("SetSingleShape needs more cores than SetDim gives");
    t.singleCoreM = static_cast<int32_t>(std::min<int64_t>(bestM, m_));
    t.singleCoreN = static_cast<int32_t>(std::min<int64_t>(bestN, n_));
    t.singleCoreK = singleK_ > 0 ? std::min(singleK_, k_) : k_;
    t.usedCoreNum = static_cast<int32_t>(bestUsed);
    lastSingleM_ = t.singleCoreM;
    lastSingleN_ = t.singleCoreN;
    lastSingleK_ = t.singleCoreK;
    lastMDim_ = static_cast<int32_t>(ceilDiv(m_, t.singleCoreM));
    lastNDim_ = static_cast<int32_t>(ceilDiv(n_, t.singleCoreN));
    return true;
  }

  int32_t dim_ = 0;
  int32_t singleM_ = -1, singleN_ = -1, singleK_ = -1;
  int32_t lastSingleM_ = 0, lastSingleN_ = 0, lastSingleK_ = 0, lastMDim_ = 0, lastNDim_ = 0;
};

}  // namespace matmul_tiling
