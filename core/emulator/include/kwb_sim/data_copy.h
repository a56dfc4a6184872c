// SPDX-License-Identifier: MIT
#pragma once
// DataCopy (contiguous and DataCopyParams-strided; GM->UB on MTE2, UB->GM on MTE3, UB->UB on V) and
// DataCopyPad (DataCopyExtParams / DataCopyParams with padding). The work and every check happen in
// runtime/DataCopy.cpp; these templates only describe the operands.

#include <cstdint>
#include <cstring>

#include "kwb_sim/runtime.h"
#include "kwb_sim/tensor.h"

namespace kwb_sim {

struct LocalDesc {
  std::uint8_t* ptr;
  TensorRef ref;
};
struct GmDesc {
  std::uint8_t* ptr;  // kernel-view address (what traces record); DataCopy.cpp dereferences gmAlias(ptr)
  std::uintptr_t lo, hi;
  SrcLoc setAt;  // the SetGlobalBuffer call that set [lo, hi) (line 0: none)
};
struct ElemDesc {
  DType dtype;
  std::uint32_t size;
};

template <typename T>
LocalDesc localDesc(const AscendC::LocalTensor<T>& t) {
  // The runtime works on the alias of the tensor's UB/L1 (kernel-view ptr_ is PROT_NONE in the kernel).
  return LocalDesc{reinterpret_cast<std::uint8_t*>(ubAlias(t.ptr_)), t.ref_};
}
template <typename T>
GmDesc gmDesc(const AscendC::GlobalTensor<T>& t) {
  return GmDesc{reinterpret_cast<std::uint8_t*>(t.ptr_), t.lo_, t.hi_, t.setAt_};
}
template <typename T>
ElemDesc elemDesc() {
  return ElemDesc{dtypeOf<T>(), static_cast<std::uint32_t>(sizeof(T))};
}

// Strided / padded copy description in bytes, shared by every variant.
struct CopyShape {
  std::uint32_t blockCount = 1;
  std::uint64_t blockLen = 0;   // payload bytes per burst
  std::uint64_t srcStride = 0;  // bytes from the start of one source burst to the next
  std::uint64_t dstStride = 0;  // bytes from the start of one destination burst to the next
};
struct PadSpec {
  bool pad = false;                   // DataCopyPad GM->UB: fill left/right padding
  bool isPad = false;                 // user asked for paddingValue
  std::uint32_t left = 0, right = 0;  // elements
  std::uint64_t value = 0;            // bit pattern of the padding value
  std::uint32_t ubBurst = 0;          // bytes each burst occupies in UB (32-byte rounded)
};

void copyGmToLocal(const LocalDesc& dst, const GmDesc& src, ElemDesc e, std::uint32_t count, SrcLoc loc);
void copyLocalToGm(const GmDesc& dst, const LocalDesc& src, ElemDesc e, std::uint32_t count, SrcLoc loc);
void copyLocalToLocal(const LocalDesc& dst, const LocalDesc& src, ElemDesc e, std::uint32_t count,
                      SrcLoc loc);
void copyGmToLocalParams(const LocalDesc& dst, const GmDesc& src, ElemDesc e,
                         const AscendC::DataCopyParams& p, SrcLoc loc);
void copyLocalToGmParams(const GmDesc& dst, const LocalDesc& src, ElemDesc e,
                         const AscendC::DataCopyParams& p, SrcLoc loc);
void copyLocalToLocalParams(const LocalDesc& dst, const LocalDesc& src, ElemDesc e,
                            const AscendC::DataCopyParams& p, SrcLoc loc);
void copyPadGmToLocal(const LocalDesc& dst, const GmDesc& src, ElemDesc e, std::uint32_t blockCount,
                      std::uint32_t blockLen, std::uint32_t srcStrideBytes, std::uint32_t dstStrideBlocks,
                      bool isPad, std::uint32_t left, std::uint32_t right, std::uint64_t padBits, SrcLoc loc);
void copyPadLocalToGm(const GmDesc& dst, const LocalDesc& src, ElemDesc e, std::uint32_t blockCount,
                      std::uint32_t blockLen, std::uint32_t srcStrideBlocks, std::uint32_t dstStrideBytes,
                      SrcLoc loc);

// SetPadValue<T>: the value later GM->UB DataCopyPad calls with isPad = false fill their padding with.
void padValueSet(std::uint64_t bits, SrcLoc loc);

// SetAtomicAdd/Max/Min<T> / SetAtomicNone: the block's atomic mode for later UB->GM copies.
void atomicSet(AtomicOp op, DType dt, const char* api, SrcLoc loc);

template <typename T>
std::uint64_t bitsOf(T v) {
  std::uint64_t b = 0;
  std::memcpy(&b, &v, sizeof(T) < 8 ? sizeof(T) : 8);
  return b;
}

}  // namespace kwb_sim

namespace AscendC {

template <typename T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const uint32_t count, KWB_SIM_LOC) {
  kwb_sim::copyGmToLocal(kwb_sim::localDesc(dst), kwb_sim::gmDesc(src), kwb_sim::elemDesc<T>(), count, loc_);
}
template <typename T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count, KWB_SIM_LOC) {
  kwb_sim::copyLocalToGm(kwb_sim::gmDesc(dst), kwb_sim::localDesc(src), kwb_sim::elemDesc<T>(), count, loc_);
}
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count, KWB_SIM_LOC) {
  kwb_sim::copyLocalToLocal(kwb_sim::localDesc(dst), kwb_sim::localDesc(src), kwb_sim::elemDesc<T>(), count,
                            loc_);
}
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p, KWB_SIM_LOC) {
  kwb_sim::copyGmToLocalParams(kwb_sim::localDesc(dst), kwb_sim::gmDesc(src), kwb_sim::elemDesc<T>(), p,
                               loc_);
}
template <typename T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p, KWB_SIM_LOC) {
  kwb_sim::copyLocalToGmParams(kwb_sim::gmDesc(dst), kwb_sim::localDesc(src), kwb_sim::elemDesc<T>(), p,
                               loc_);
}
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p, KWB_SIM_LOC) {
  kwb_sim::copyLocalToLocalParams(kwb_sim::localDesc(dst), kwb_sim::localDesc(src), kwb_sim::elemDesc<T>(), p,
                                  loc_);
}

// Atomic accumulation of UB->GM copies (DataCopy / DataCopyPad): while a mode is set, each element
// written is combined with the GM element (add / max / min in T), atomically across blocks.
template <typename T>
void SetAtomicAdd(KWB_SIM_LOC) {
  KWB_SIM_REQUIRE_DTYPE("SetAtomicAdd", T, float, half, int32_t);
  kwb_sim::atomicSet(kwb_sim::AtomicOp::Add, kwb_sim::dtypeOf<T>(), "SetAtomicAdd", loc_);
}
#if KWB_SIM_ARCH == 2002
template <typename T, typename... A>
void SetAtomicMax(A&&...) {
  static_assert(kwb_sim::kAlwaysFalse<T>,
                "kwb-sim: unsupported-api: SetAtomicMax is not available on " KWB_SIM_SOC_NAME
                " (arch 2002)");
}
template <typename T, typename... A>
void SetAtomicMin(A&&...) {
  static_assert(kwb_sim::kAlwaysFalse<T>,
                "kwb-sim: unsupported-api: SetAtomicMin is not available on " KWB_SIM_SOC_NAME
                " (arch 2002)");
}
#else
template <typename T>
void SetAtomicMax(KWB_SIM_LOC) {
  KWB_SIM_REQUIRE_DTYPE("SetAtomicMax", T, float, half, int32_t);
  kwb_sim::atomicSet(kwb_sim::AtomicOp::Max, kwb_sim::dtypeOf<T>(), "SetAtomicMax", loc_);
}
template <typename T>
void SetAtomicMin(KWB_SIM_LOC) {
  KWB_SIM_REQUIRE_DTYPE("SetAtomicMin", T, float, half, int32_t);
  kwb_sim::atomicSet(kwb_sim::AtomicOp::Min, kwb_sim::dtypeOf<T>(), "SetAtomicMin", loc_);
}
#endif
inline void SetAtomicNone(KWB_SIM_LOC) {
  kwb_sim::atomicSet(kwb_sim::AtomicOp::None, kwb_sim::DType::None, "SetAtomicNone", loc_);
}
inline void DisableDmaAtomic(KWB_SIM_LOC) {
  kwb_sim::atomicSet(kwb_sim::AtomicOp::None, kwb_sim::DType::None, "DisableDmaAtomic", loc_);
}

#if KWB_SIM_ARCH == 2002
template <typename T, typename... A>
void DataCopyPad(const T&, A&&...) {
  static_assert(kwb_sim::kAlwaysFalse<T>,
                "kwb-sim: unsupported-api: DataCopyPad is not available on " KWB_SIM_SOC_NAME
                " (arch 2002); copy whole 32-byte blocks with DataCopy and handle the tail separately");
}
template <typename T, TPosition pos = TPosition::MAX, typename... A>
void SetPadValue(const T&, A&&...) {
  static_assert(kwb_sim::kAlwaysFalse<T>,
                "kwb-sim: unsupported-api: SetPadValue is not available on " KWB_SIM_SOC_NAME " (arch 2002)");
}
#else
template <typename T, TPosition pos = TPosition::MAX>
void SetPadValue(T paddingValue, KWB_SIM_LOC) {
  KWB_SIM_REQUIRE_DTYPE("SetPadValue", T, int8_t, uint8_t, int16_t, uint16_t, half, bfloat16_t, int32_t,
                        uint32_t, float, int64_t, uint64_t, double);
  kwb_sim::padValueSet(kwb_sim::bitsOf(paddingValue), loc_);
}
template <typename T>
void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyExtParams& p,
                 const DataCopyPadExtParams<T>& pad, KWB_SIM_LOC) {
  kwb_sim::copyPadGmToLocal(kwb_sim::localDesc(dst), kwb_sim::gmDesc(src), kwb_sim::elemDesc<T>(),
                            p.blockCount, p.blockLen, p.srcStride, p.dstStride, pad.isPad, pad.leftPadding,
                            pad.rightPadding, kwb_sim::bitsOf(pad.paddingValue), loc_);
}
template <typename T>
void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p,
                 const DataCopyPadParams& pad, KWB_SIM_LOC) {
  kwb_sim::copyPadGmToLocal(kwb_sim::localDesc(dst), kwb_sim::gmDesc(src), kwb_sim::elemDesc<T>(),
                            p.blockCount, p.blockLen, p.srcStride, p.dstStride, pad.isPad, pad.leftPadding,
                            pad.rightPadding, pad.paddingValue, loc_);
}
template <typename T>
void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyExtParams& p,
                 KWB_SIM_LOC) {
  kwb_sim::copyPadLocalToGm(kwb_sim::gmDesc(dst), kwb_sim::localDesc(src), kwb_sim::elemDesc<T>(),
                            p.blockCount, p.blockLen, p.srcStride, p.dstStride, loc_);
}
template <typename T>
void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p,
                 KWB_SIM_LOC) {
  kwb_sim::copyPadLocalToGm(kwb_sim::gmDesc(dst), kwb_sim::localDesc(src), kwb_sim::elemDesc<T>(),
                            p.blockCount, p.blockLen, p.srcStride, p.dstStride, loc_);
}
#endif

}  // namespace AscendC
