// SPDX-License-Identifier: MIT
#pragma once
// The resolved mask of a mask/repeat vector call, the lane addressing and the operand checks of the vector
// ops that live outside the engine (VecReduceBlock.cpp, VecFused.cpp, VecGather.cpp, ...; VecOperands.cpp).

#include <cstdint>

#include "kwb_sim/vec_ops.h"

namespace kwb_sim {

struct VecMask {
  bool ok = true;
  bool counter = false;
  std::uint64_t bits[2] = {0, 0};
  std::uint64_t total = 0;  // counter mode: elements over all repeats
  std::uint32_t repeat = 0;

  bool on(std::uint32_t r, std::uint32_t i, std::uint32_t lanes) const {
    if (counter) return static_cast<std::uint64_t>(r) * lanes + i < total;
    return ((i < 64 ? bits[0] >> i : bits[1] >> (i - 64)) & 1u) != 0;
  }
};

// Byte offset of lane i of repeat r for an operand with element size es and block/repeat strides (in
// 32-byte blocks).
inline std::uint64_t vecLaneOffset(std::uint32_t r, std::uint32_t i, std::uint32_t es, std::uint32_t blk,
                                   std::uint32_t rep) {
  const std::uint32_t perBlock = 32 / es;
  return static_cast<std::uint64_t>(r) * rep * 32 + static_cast<std::uint64_t>(i / perBlock) * blk * 32 +
         static_cast<std::uint64_t>(i % perBlock) * es;
}

// Bytes from the operand's start to the end of the last element the active lanes touch (strides are
// non-negative, so that is the highest active lane of the last repeats).
inline std::uint64_t vecActiveSpan(const VecMask& m, std::uint32_t lanes, std::uint32_t es, std::uint32_t blk,
                                   std::uint32_t rep) {
  if (m.repeat == 0) return 0;
  if (m.counter) {
    const std::uint64_t before = static_cast<std::uint64_t>(m.repeat - 1) * lanes;
    if (m.total <= before) return 0;
    const auto lastLanes = static_cast<std::uint32_t>(m.total - before < lanes ? m.total - before : lanes);
    std::uint64_t end = vecLaneOffset(m.repeat - 1, lastLanes - 1, es, blk, rep) + es;
    if (m.repeat >= 2) {
      const std::uint64_t prev = vecLaneOffset(m.repeat - 2, lanes - 1, es, blk, rep) + es;
      end = prev > end ? prev : end;
    }
    return end;
  }
  std::uint32_t high = 0;
  for (std::uint32_t i = 0; i < lanes; ++i)
    if (m.on(0, i, lanes)) high = i;
  return vecLaneOffset(m.repeat - 1, high, es, blk, rep) + es;
}

// Resolves and checks the mask of a mask/repeat call (mask 0, mask over the lane count, repeatTime over
// 255, mask[1] for 32-bit data), reporting invalid-param at `loc` exactly as the engine's own ops do.
VecMask vecResolveMask(const VecArgs& a, std::uint32_t lanes, SrcLoc loc);

// The work of an instruction that has a count form and a mask/repeat form (Gather, Scatter): the mask,
// the repeats and the elements those repeats cover. `work` is false when the call does nothing (count <= 0,
// an invalid mask, zero repeats); an invalid mask has been reported at `loc`.
struct VecExtent {
  VecMask mask;
  std::uint64_t elements = 0;
  std::uint32_t repeat = 0;
  bool work = false;
};
VecExtent vecResolveExtent(const VecArgs& a, std::uint32_t lanes, SrcLoc loc);

// The byte range [lo, hi) of the pipe buffer a tensor lies in, within its memory space (the whole space for
// a tensor not from a pipe buffer): the bound an offset-addressed access (Gather, Scatter) must stay in.
struct ByteRange {
  std::uint64_t lo = 0;
  std::uint64_t hi = 0;
};
ByteRange vecBufferRange(const LocalDesc& d);

// One element comparison of Compare, Compares and the CMPMASK-register Compare (VecCompares.cpp,
// VecCmpMask.cpp).
bool compareValues(AscendC::CMPMODE mode, double x, double y);

// UB/L1 offset of an operand (d.ptr is its runtime alias).
inline std::uint32_t vecOperandOffset(const LocalDesc& d) {
  return static_cast<std::uint32_t>(d.ptr - ubAlias(spaceBase(d.ref.space)));
}

}  // namespace kwb_sim

namespace kwb_sim {

// One UB/L1 operand of a vector instruction: its byte span, whether it is read and/or written, and the
// start alignment the instruction needs.
struct VecOperand {
  const LocalDesc* desc = nullptr;
  std::uint64_t span = 0;
  bool read = false;
  bool write = false;
  std::uint32_t align = 32;
  int operand = 0;  // argument index of the user's call (names the tensor in a diagnostic)
};

// Bounds (ub-out-of-bounds, use after FreeTensor) and alignment (misaligned-copy) of every operand;
// false when an access must be skipped (it lies outside its memory space).
bool vecCheckOperands(const char* api, SrcLoc loc, const VecOperand* ops, int n);
// Cross-pipe ordering (missing-sync) of every operand on PIPE_V, reads before writes.
void vecSyncOperands(const char* api, SrcLoc loc, const VecOperand* ops, int n);
// The instruction record: the first written operand is dst, the read ones src0 and src1.
Instr& vecRecordOp(const char* api, SrcLoc loc, DType dt, std::uint32_t esize, std::uint64_t count,
                   std::uint32_t repeat, const VecOperand* ops, int n);

// The common source-to-destination pair of a one-input instruction: the source is the call's
// argument 1 (read over srcSpan bytes) and the destination its argument 0 (written over dstSpan).
struct VecUnaryOperands {
  VecOperand ops[2];
  VecUnaryOperands(const VecArgs& a, std::uint64_t srcSpan, std::uint64_t dstSpan) {
    ops[0].desc = &a.src0;
    ops[0].read = true;
    ops[0].operand = 1;
    ops[0].span = srcSpan;
    ops[1].desc = &a.dst;
    ops[1].write = true;
    ops[1].operand = 0;
    ops[1].span = dstSpan;
  }
};
// Bounds and alignment, then ordering, of `ops`; when an access must be skipped the instruction is
// still recorded (with no work) and false says to stop.
bool vecCheckAndSyncOperands(const VecArgs& a, SrcLoc loc, const VecOperand* ops, int n);

}  // namespace kwb_sim
