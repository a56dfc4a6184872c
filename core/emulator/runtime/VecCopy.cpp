// SPDX-License-Identifier: MIT
// Copy, UB -> UB in mask/repeat form (kwb_sim/vec_copy.h). Normal mode: the mask selects lanes of each
// 256-byte repeat. Counter mode: the mask is the element count of every repeat (repeatTime counts), so a
// repeat may span more than 8 DataBlocks. Both addresses must be 32-byte aligned; the repeat sizes are
// 12-bit fields (0..4095), the block strides 16-bit. The trace record carries the bytes moved, which the
// cost model charges on the UB->UB path (docs/emulator.md, "Copy").

#include <cstring>
#include <string>
#include <vector>

#include "BlockContext.h"
#include "VecMask.h"
#include "kwb_sim/vec_copy.h"

namespace kwb_sim {

namespace {

constexpr std::uint32_t kMaxRepeatSize = 4095;

bool checkRepeatSize(const VecArgs& a, const char* name, std::uint32_t v, SrcLoc loc) {
  if (v <= kMaxRepeatSize) return true;
  report(Cat::InvalidParam, a.api, loc, Pipe::V, 4,
         std::string("Copy: CopyRepeatParams.") + name + " = " + std::to_string(v) +
             " is outside 0..4095 (the field is 12 bits; the stride would wrap on hardware)");
  return false;
}

// The active lanes of one repeat: lane i is on when `on(i)`; `width` lanes are examined.
struct CopyLanes {
  VecMask mask;
  bool counter = false;
  std::uint64_t perRepeat = 0;  // counter mode: elements of every repeat
  std::uint32_t width = 0;      // lanes examined per repeat
  bool on(std::uint32_t i, std::uint32_t lanes) const {
    return counter ? i < perRepeat : mask.on(0, i, lanes);
  }
};

}  // namespace

void vecCopyUb(const VecArgs& a, SrcLoc loc) {
  const std::uint32_t es = a.esize;
  const std::uint32_t lanes = 256 / es;
  const bool sizesOk = checkRepeatSize(a, "dstRepeatSize", a.dstRep, loc) &&
                       checkRepeatSize(a, "srcRepeatSize", a.src0Rep, loc);
  CopyLanes sel;
  std::uint32_t repeat = 0;
  if (g_block.mask.counter) {
    if (a.repeat > 255) {
      report(Cat::InvalidParam, a.api, loc, Pipe::V, 3,
             "Copy: repeatTime = " + std::to_string(a.repeat) + " is outside 0..255");
      return;
    }
    sel.counter = true;
    sel.perRepeat = a.isSetMask ? a.mask[0] : g_block.mask.bits[0];
    // A repeat moves whole DataBlocks' worth of lanes; the counter bounds the elements actually moved.
    const std::uint64_t blocks = (sel.perRepeat * es + 31) / 32;
    sel.width = static_cast<std::uint32_t>(blocks * (32 / es));
    repeat = sel.perRepeat == 0 ? 0 : a.repeat;
  } else {
    sel.mask = vecResolveMask(a, lanes, loc);
    if (!sel.mask.ok) {
      vecRecordOp(a.api, loc, a.dt, es, 0, 0, nullptr, 0);
      return;
    }
    sel.width = lanes;
    repeat = sel.mask.repeat;
  }
  if (!sizesOk || repeat == 0) {
    vecRecordOp(a.api, loc, a.dt, es, 0, 0, nullptr, 0);
    return;
  }
  // Strides are non-negative and every repeat has the same active lanes, so the last repeat reaches
  // furthest.
  std::uint64_t srcSpan = 0, dstSpan = 0, perRepeatDone = 0;
  for (std::uint32_t i = 0; i < sel.width; ++i) {
    if (!sel.on(i, lanes)) continue;
    ++perRepeatDone;
    const std::uint64_t s = vecLaneOffset(repeat - 1, i, es, a.src0Blk, a.src0Rep) + es;
    const std::uint64_t d = vecLaneOffset(repeat - 1, i, es, a.dstBlk, a.dstRep) + es;
    srcSpan = s > srcSpan ? s : srcSpan;
    dstSpan = d > dstSpan ? d : dstSpan;
  }
  const VecUnaryOperands pair(a, srcSpan, dstSpan);
  const VecOperand* ops = pair.ops;
  if (!vecCheckAndSyncOperands(a, loc, ops, 2)) return;
  // All reads before the writes (an overlapping destination sees the source as it was).
  const std::vector<std::uint8_t> src(a.src0.ptr, a.src0.ptr + srcSpan);
  for (std::uint32_t r = 0; r < repeat; ++r)
    for (std::uint32_t i = 0; i < sel.width; ++i) {
      if (!sel.on(i, lanes)) continue;
      std::memcpy(a.dst.ptr + vecLaneOffset(r, i, es, a.dstBlk, a.dstRep),
                  src.data() + vecLaneOffset(r, i, es, a.src0Blk, a.src0Rep), es);
    }
  vecRecordOp(a.api, loc, a.dt, es, perRepeatDone * repeat, repeat, ops, 2);
}

}  // namespace kwb_sim
