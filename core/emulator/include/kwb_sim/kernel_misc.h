// SPDX-License-Identifier: MIT
#pragma once
// Block index / count, kernel-side printf and DumpTensor-style debug output, misc helpers.

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <type_traits>

#include "kwb_sim/runtime.h"
#include "kwb_sim/tensor.h"

namespace kwb_sim {
void dumpLocal(const void* ptr, DType dt, std::uint32_t count, std::uint32_t desc, const char* what,
               SrcLoc loc);
}  // namespace kwb_sim

// The kernel-side globals of Ascend C: this block's index and the launch's block count (what
// GetBlockIdx/GetBlockNum return). Set by the runtime when a block starts (each block is a process).
// Their names are Ascend C's; kernels read them directly.
// NOLINTBEGIN(cppcoreguidelines-avoid-non-const-global-variables)
extern std::int64_t block_idx;
extern std::int64_t block_num;
// NOLINTEND(cppcoreguidelines-avoid-non-const-global-variables)

namespace AscendC {

// On a mix kernel's AIV, GetBlockIdx is the AIV's own index, blockIdx * GetSubBlockNum() +
// GetSubBlockIdx(); GetBlockNum stays the launch's block count (docs/emulator.md, "Mixed AIC/AIV kernels").
inline int64_t GetBlockIdx() {
  const kwb_sim::BlockState& b = kwb_sim::g_block;
  return b.core == kwb_sim::CoreKind::Aiv ? b.blockIdx * b.subBlockNum + b.subBlockIdx : b.blockIdx;
}
inline int64_t GetBlockNum() {
  return kwb_sim::g_block.blockNum;
}
inline int64_t GetSubBlockIdx() {
  return kwb_sim::g_block.subBlockIdx;
}
inline int64_t GetSubBlockNum() {
  return kwb_sim::g_block.subBlockNum;
}
inline int64_t GetTaskRation() {
  return kwb_sim::g_block.subBlockNum;
}

// ASCEND_IS_AIV / ASCEND_IS_AIC (kwb_sim/base.h): a vector kernel's blocks are AIV.
inline bool KwbCoreIsAiv() {
  return kwb_sim::g_block.core != kwb_sim::CoreKind::Aic;
}
inline bool KwbCoreIsAic() {
  return kwb_sim::g_block.core == kwb_sim::CoreKind::Aic;
}

inline uint64_t GetSystemCycle() {
  return 0;
}

namespace detail {
// A kernel printf argument as C's printf takes it: half and bfloat16_t are classes, which `...` would pass
// as their raw bits; the device prints them with %f as the float they hold (devkit simple_printf).
template <typename T>
auto printfArg(const T& v) {
  if constexpr (std::is_same_v<T, kwb_sim::half> || std::is_same_v<T, kwb_sim::bfloat16>)
    return static_cast<double>(static_cast<float>(v));
  else
    return v;
}
}  // namespace detail

// Kernel printf: stdout of the block's process (flushed when the block ends).
template <typename... A>
void PRINTF(const char* fmt, const A&... args) {
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-vararg): the kernel's own format string, as on the device.
  std::printf(fmt, detail::printfArg(args)...);
}
template <typename... A>
int printf(const char* fmt, const A&... args) {
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-vararg): the kernel's own format string, as on the device.
  return std::printf(fmt, detail::printfArg(args)...);
}

template <typename T>
void DumpTensor(const LocalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize, KWB_SIM_LOC) {
  kwb_sim::dumpLocal(tensor.ptr_, kwb_sim::dtypeOf<T>(), dumpSize, desc, "LocalTensor", loc_);
}
template <typename T>
void DumpTensor(const GlobalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize, KWB_SIM_LOC) {
  kwb_sim::dumpLocal(tensor.ptr_, kwb_sim::dtypeOf<T>(), dumpSize, desc, "GlobalTensor", loc_);
}

template <typename T>
constexpr T DivCeil(T a, T b) {
  return (a + b - 1) / b;
}
template <typename T>
constexpr T AlignUp(T a, T b) {
  return (a + b - 1) / b * b;
}

}  // namespace AscendC

// CANN declares GetBlockIdx and GetBlockNum at global scope too (the devkit's CPU stub defines them
// outside any namespace): msopgen kernels call them unqualified without `using namespace AscendC`,
// e.g. `ASSERT(GetBlockNum() != 0)` in a kernel class at global scope.
using AscendC::GetBlockIdx;
using AscendC::GetBlockNum;
