// SPDX-License-Identifier: MIT
#pragma once
// The Matmul high-level API (docs/emulator.md, "Matmul API"): matmul::Matmul<MatmulType<...> A, B, C,
// Bias[, CFG_NORM | CFG_MDL]> with Init / REGIST_MATMUL_OBJ, SetOrgShape, SetSingleShape, SetTail,
// SetTensorA/B (GM, ND, optionally transposed), SetBias, IterateAll, Iterate + GetTensorC and End. Each
// call computes what the device computes for the block's single-core tile with the cube's numerics
// (fp32 / int32 accumulation, bias added in L0C, one rounding to C's type at the Fixpipe) and records the
// MTE2 / MTE1 / M / FIX work the device's base-tile loop does, so the profile shows cube pipes. The work
// and every check live in runtime/MatmulApi.cpp.
#include <cstdint>
#include <type_traits>
#include <vector>

#include "kwb_sim/cube.h"
#include "kwb_sim/cube_format.h"
#include "kwb_sim/matmul_tiling_data.h"

namespace kwb_sim {

// The part of TCubeTiling the emulator reads (copied at Init: a kernel may change its own copy later).
struct MatmulTilingView {
  std::int32_t usedCoreNum, M, N, Ka, Kb, singleCoreM, singleCoreN, singleCoreK, baseM, baseN, baseK;
  std::int32_t depthA1, depthB1, stepM, stepN, stepKa, stepKb, isBias, iterateOrder, dbL0A, dbL0B, dbL0C;
};

// One Matmul object's state; the kernel-side template only forwards to the runtime.
struct MatmulRun {
  ElemDesc a{}, b{}, c{}, bias{};
  bool defaultTransA = false, defaultTransB = false, cToLocal = false;
  bool inited = false, initFailed = false, ended = false, aSet = false, bSet = false, biasSet = false;
  bool transA = false, transB = false;
  MatmulTilingView t{};
  std::int32_t orgM = 0, orgN = 0, orgKa = 0, orgKb = 0, orgKc = 0;
  std::int32_t singleM = 0, singleN = 0, singleK = 0;
  GmDesc aGm{}, bGm{}, biasGm{};
  SrcLoc initAt{nullptr, 0};
  // Iterate: the next base tile, the one the last Iterate computed (-1: none) and its fp32/int32 values.
  std::int32_t nextTile = 0, curTile = -1;
  std::vector<double> tile;
};

void matmulInit(MatmulRun& s, const MatmulTilingView& t, SrcLoc loc);
void matmulSetOrgShape(MatmulRun& s, int orgM, int orgN, int orgKa, int orgKb, int orgKc, SrcLoc loc);
void matmulSetSingleShape(MatmulRun& s, int m, int n, int k, const char* api, SrcLoc loc);
void matmulSetTensor(MatmulRun& s, int which, const GmDesc& g, bool trans, SrcLoc loc);  // 0 A, 1 B, 2 bias
void matmulDisableBias(MatmulRun& s);
void matmulIterateAll(MatmulRun& s, const GmDesc& c, std::uint8_t enAtomic, SrcLoc loc);
bool matmulIterate(MatmulRun& s, SrcLoc loc);
void matmulGetTensorC(MatmulRun& s, const GmDesc* gm, const LocalDesc* local, std::uint8_t enAtomic,
                      SrcLoc loc);
void matmulEnd(MatmulRun& s, SrcLoc loc);
void matmulUnsupported(const char* what, SrcLoc loc);

template <typename Tiling>
MatmulTilingView matmulTilingView(const Tiling& t) {
  return MatmulTilingView{t.usedCoreNum,  t.M,           t.N,     t.Ka,     t.Kb,     t.singleCoreM,
                          t.singleCoreN,  t.singleCoreK, t.baseM, t.baseN,  t.baseK,  t.depthA1,
                          t.depthB1,      t.stepM,       t.stepN, t.stepKa, t.stepKb, t.isBias,
                          t.iterateOrder, t.dbL0A,       t.dbL0B, t.dbL0C};
}

}  // namespace kwb_sim

namespace matmul {
// CANN's matmul namespace sees the kernel API, so `using namespace matmul` alone lets a kernel call
// GetBlockIdx() unqualified (the devkit's matmul_advanced_api does).
using namespace AscendC;  // NOLINT(google-build-using-namespace)

enum class LayoutMode { NONE = 0, BSNGD, SBNGD, BNGS1S2, NORMAL };
enum class IterateOrder { ORDER_M = 0, ORDER_N, UNDEF };
enum class ScheduleType { INNER_PRODUCT = 0, OUTER_PRODUCT };
enum class BatchMode { NONE = 0, BATCH_LESS_THAN_L1, BATCH_LARGE_THAN_L1, SINGLE_LARGE_THAN_L1 };

template <AscendC::TPosition POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false,
          LayoutMode LAYOUT = LayoutMode::NONE, bool IBSHARE = false>
struct MatmulType {
  static constexpr AscendC::TPosition pos = POSITION;
  static constexpr CubeFormat format = FORMAT;
  using T = TYPE;
  static constexpr bool isTrans = ISTRANS;
  static constexpr LayoutMode layout = LAYOUT;
  static constexpr bool ibShare = IBSHARE;
};

// The configuration names samples use. Numerically every configuration computes the same product here
// (docs/emulator.md, "Matmul API": CFG_MDL's multi-tile L1 loads change the device's schedule only).
struct MatmulConfig {
  bool doNorm = false;
  bool doBasicBlock = false;
  bool doMultiDataLoad = false;
  std::uint32_t basicM = 0, basicN = 0, basicK = 0;
  bool intrinsicsCheck = false;
  bool isNBatch = false;
  bool enVecND2NZ = false;
  bool doSpecialBasicBlock = false;
  std::uint32_t doMTE2Preload = 0;
  bool doIBShareNorm = false;
  bool enableSetBias = true;
};
template <typename... A>
constexpr MatmulConfig GetNormalConfig(A...) {
  MatmulConfig c;
  c.doNorm = true;
  return c;
}
template <typename... A>
constexpr MatmulConfig GetMDLConfig(A...) {
  MatmulConfig c;
  c.doMultiDataLoad = true;
  return c;
}
template <typename... A>
constexpr MatmulConfig GetSpecialMDLConfig(A...) {
  MatmulConfig c;
  c.doMultiDataLoad = true;
  return c;
}
template <typename... A>
constexpr MatmulConfig GetIBShareNormConfig(A...) {
  MatmulConfig c;
  c.doIBShareNorm = true;
  return c;
}
inline constexpr MatmulConfig CFG_NORM = GetNormalConfig();
inline constexpr MatmulConfig CFG_MDL = GetMDLConfig();
inline constexpr MatmulConfig CFG_IBSHARE_NORM = GetIBShareNormConfig();
inline constexpr MatmulConfig MM_CFG_NO_PRELOAD = GetMDLConfig();

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE,
          const MatmulConfig& MM_CFG = CFG_NORM, class MM_CB = void, class... POLICY>
class Matmul {
  using SrcT = typename A_TYPE::T;
  using DstT = typename C_TYPE::T;
  using BiasT = typename BIAS_TYPE::T;
  using AccT = std::conditional_t<std::is_same_v<SrcT, int8_t>, int32_t, float>;
  static_assert(std::is_same_v<SrcT, typename B_TYPE::T>,
                "kwb-sim: unsupported-dtype: Matmul needs A and B of the same type");
  static_assert(::kwb_sim::kMmadTypesOk<AccT, SrcT, SrcT>,
                "kwb-sim: unsupported-dtype: Matmul takes half/bfloat16_t/float or int8_t A and B "
                "on " KWB_SIM_SOC_NAME);
  static_assert(
      std::is_same_v<AccT, int32_t> ? std::is_same_v<DstT, int32_t>
                                    : ::kwb_sim::kIsOneOf<DstT, float, half, bfloat16_t>,
      "kwb-sim: unsupported-dtype: Matmul writes float, half or bfloat16_t C for float inputs, int32_t "
      "for int8_t inputs in the kwb emulator");
  static_assert(A_TYPE::pos == AscendC::TPosition::GM && B_TYPE::pos == AscendC::TPosition::GM,
                "kwb-sim: unsupported-api: Matmul with A or B outside GM (TPosition::VECIN/TSCM/...) is not "
                "emulated; use MatmulType<TPosition::GM, CubeFormat::ND, T>");
  static_assert(
      A_TYPE::format == CubeFormat::ND && B_TYPE::format == CubeFormat::ND &&
          (C_TYPE::format == CubeFormat::ND || C_TYPE::format == CubeFormat::ND_ALIGN),
      "kwb-sim: unsupported-api: Matmul emulates ND A, B and C only (CubeFormat::NZ is not emulated)");
  static_assert(A_TYPE::layout == LayoutMode::NONE && B_TYPE::layout == LayoutMode::NONE,
                "kwb-sim: unsupported-api: batched Matmul layouts (LayoutMode) are not emulated");

 public:
  using TilingType = TCubeTiling;

  Matmul() {
    run_.a = ::kwb_sim::elemDesc<SrcT>();
    run_.b = ::kwb_sim::elemDesc<SrcT>();
    run_.c = ::kwb_sim::elemDesc<DstT>();
    run_.bias = ::kwb_sim::elemDesc<BiasT>();
    run_.defaultTransA = A_TYPE::isTrans;
    run_.defaultTransB = B_TYPE::isTrans;
    run_.cToLocal = C_TYPE::pos != AscendC::TPosition::GM;
  }

  // The TPipe is not needed: the emulated object keeps its L1/L0 tiles off the pipe's buffers.
  void Init(const TCubeTiling* cubeTiling, const void* tpipe = nullptr, KWB_SIM_LOC) {
    (void)tpipe;
    if (cubeTiling == nullptr) {
      ::kwb_sim::matmulUnsupported("Init with a null TCubeTiling", loc_);
      return;
    }
    ::kwb_sim::matmulInit(run_, ::kwb_sim::matmulTilingView(*cubeTiling), loc_);
  }
  void SetOrgShape(int orgM, int orgN, int orgK, KWB_SIM_LOC) {
    ::kwb_sim::matmulSetOrgShape(run_, orgM, orgN, orgK, orgK, 0, loc_);
  }
  void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, int orgKc = 0, KWB_SIM_LOC) {
    ::kwb_sim::matmulSetOrgShape(run_, orgM, orgN, orgKa, orgKb, orgKc, loc_);
  }
  void SetSingleShape(int singleM, int singleN, int singleK, KWB_SIM_LOC) {
    ::kwb_sim::matmulSetSingleShape(run_, singleM, singleN, singleK, "SetSingleShape", loc_);
  }
  void SetTail(int tailM = -1, int tailN = -1, int tailK = -1, KWB_SIM_LOC) {
    ::kwb_sim::matmulSetSingleShape(run_, tailM, tailN, tailK, "SetTail", loc_);
  }
  void SetTensorA(const AscendC::GlobalTensor<SrcT>& gm, bool isTransposeA = A_TYPE::isTrans, KWB_SIM_LOC) {
    ::kwb_sim::matmulSetTensor(run_, 0, ::kwb_sim::gmDesc(gm), isTransposeA, loc_);
  }
  void SetTensorB(const AscendC::GlobalTensor<SrcT>& gm, bool isTransposeB = B_TYPE::isTrans, KWB_SIM_LOC) {
    ::kwb_sim::matmulSetTensor(run_, 1, ::kwb_sim::gmDesc(gm), isTransposeB, loc_);
  }
  template <typename T>
  void SetTensorA(const AscendC::LocalTensor<T>&, bool = false, KWB_SIM_LOC) {
    ::kwb_sim::matmulUnsupported("SetTensorA with a LocalTensor (A in UB/L1)", loc_);
  }
  template <typename T>
  void SetTensorB(const AscendC::LocalTensor<T>&, bool = false, KWB_SIM_LOC) {
    ::kwb_sim::matmulUnsupported("SetTensorB with a LocalTensor (B in UB/L1)", loc_);
  }
  void SetBias(const AscendC::GlobalTensor<BiasT>& biasGlobal, KWB_SIM_LOC) {
    ::kwb_sim::matmulSetTensor(run_, 2, ::kwb_sim::gmDesc(biasGlobal), false, loc_);
  }
  void DisableBias() { ::kwb_sim::matmulDisableBias(run_); }
  void ClearBias() { ::kwb_sim::matmulDisableBias(run_); }
  // The emulator's library needs no workspace and no HF32 switch: accepted as on the device.
  template <typename... A>
  void SetWorkspace(A&&...) {}
  template <typename... A>
  void SetLocalWorkspace(A&&...) {}
  void SetHF32(bool enableHF32 = false, int32_t transMode = 0, KWB_SIM_LOC) {
    if (enableHF32) ::kwb_sim::matmulUnsupported("SetHF32(true) (HF32 products)", loc_);
    (void)transMode;
  }
  void WaitIterateAll() {}

  template <bool sync = true>
  void IterateAll(const AscendC::GlobalTensor<DstT>& gm, uint8_t enAtomic = 0, bool enSequentialWrite = false,
                  bool waitIterateAll = false, bool fakeMsg = false, KWB_SIM_LOC) {
    (void)enSequentialWrite;
    (void)waitIterateAll;
    (void)fakeMsg;
    ::kwb_sim::matmulIterateAll(run_, ::kwb_sim::gmDesc(gm), enAtomic, loc_);
  }
  template <bool sync = true>
  bool Iterate(bool enPartialSum = false, KWB_SIM_LOC) {
    if (enPartialSum) ::kwb_sim::matmulUnsupported("Iterate(enPartialSum = true)", loc_);
    return ::kwb_sim::matmulIterate(run_, loc_);
  }
  template <bool sync = true>
  void GetTensorC(const AscendC::GlobalTensor<DstT>& gm, uint8_t enAtomic = 0, bool enSequentialWrite = false,
                  KWB_SIM_LOC) {
    if (enSequentialWrite) ::kwb_sim::matmulUnsupported("GetTensorC(enSequentialWrite = true)", loc_);
    const ::kwb_sim::GmDesc g = ::kwb_sim::gmDesc(gm);
    ::kwb_sim::matmulGetTensorC(run_, &g, nullptr, enAtomic, loc_);
  }
  // To UB: the tile lands as baseM rows of baseN elements at the tensor's start, which is the
  // reference's sequential layout (enSequentialWrite = true); docs/emulator.md "Matmul API" says how the
  // default differs.
  template <bool sync = true>
  void GetTensorC(const AscendC::LocalTensor<DstT>& co2Local, uint8_t enAtomic = 0,
                  bool enSequentialWrite = false, KWB_SIM_LOC) {
    (void)enSequentialWrite;
    const ::kwb_sim::LocalDesc l = ::kwb_sim::localDesc(co2Local);
    ::kwb_sim::matmulGetTensorC(run_, nullptr, &l, enAtomic, loc_);
  }
  void End(KWB_SIM_LOC) { ::kwb_sim::matmulEnd(run_, loc_); }

 private:
  ::kwb_sim::MatmulRun run_;
};

}  // namespace matmul

namespace kwb_sim {
// REGIST_MATMUL_OBJ(pipe, workspace, mm1, tiling1[, mm2, tiling2 ...]): Init each object with its tiling
// (a null tiling leaves the Init to the kernel).
inline void registMatmulObjs(SrcLoc) {}
// A mix kernel's AIC at REGIST_MATMUL_OBJ: recorded, then the AIC's process ends (MatmulApi.cpp).
[[noreturn]] void matmulAicServes(SrcLoc loc);
template <typename MM, typename Tiling, typename... Rest>
void registMatmulObjs(SrcLoc loc, MM& mm, const Tiling* tiling, Rest&&... rest) {
  if (tiling != nullptr) mm.Init(tiling, nullptr, loc);
  registMatmulObjs(loc, static_cast<Rest&&>(rest)...);
}
template <typename MM, typename... Rest>
void registMatmulObjs(SrcLoc loc, MM&, std::nullptr_t, Rest&&... rest) {
  registMatmulObjs(loc, static_cast<Rest&&>(rest)...);
}
template <typename MM>
void registMatmulObjs(SrcLoc loc, MM& mm) {  // REGIST_MATMUL_OBJ(pipe, ws, mm): Init comes later
  (void)loc;
  (void)mm;
}
}  // namespace kwb_sim

namespace AscendC {
// What REGIST_MATMUL_OBJ expands to: the constructor's default argument takes the macro's line, so the
// candidate's expansion names only AscendC API (the policy refuses the emulator's internal names).
class KwbMatmulRegistrar {
 public:
  explicit KwbMatmulRegistrar(::kwb_sim::SrcLoc at = ::kwb_sim::SrcLoc::current()) : at_(at) {}
  template <typename... A>
  void Regist(A&&... objsAndTilings) {
    // In a mix kernel the AIC serves the AIVs' Matmul calls from here on; the emulator computes each
    // call on the AIV that makes it, so the AIC's process ends here (docs/emulator.md, "Mixed AIC/AIV
    // kernels"): kernel code after REGIST_MATMUL_OBJ runs on the AIVs only, as on the device.
    if (::kwb_sim::g_block.core == ::kwb_sim::CoreKind::Aic && ::kwb_sim::g_block.coresPerBlock > 1)
      ::kwb_sim::matmulAicServes(at_);
    ::kwb_sim::registMatmulObjs(at_, static_cast<A&&>(objsAndTilings)...);
  }

 private:
  ::kwb_sim::SrcLoc at_;
};
}  // namespace AscendC

#define REGIST_MATMUL_OBJ(tpipe, workspace, ...)         \
  do {                                                   \
    (void)(tpipe);                                       \
    (void)(workspace);                                   \
    ::AscendC::KwbMatmulRegistrar().Regist(__VA_ARGS__); \
  } while (0)

namespace AscendC {
using matmul::CubeFormat;
using matmul::Matmul;
using matmul::MatmulConfig;
using matmul::MatmulType;
}  // namespace AscendC

// CANN declares the Matmul configurations at global scope as well: the devkit's matmul sample names
// CFG_NORM unqualified next to AscendC::Matmul, without `using namespace matmul`.
using matmul::CFG_IBSHARE_NORM;
using matmul::CFG_MDL;
using matmul::CFG_NORM;
using matmul::MM_CFG_NO_PRELOAD;
