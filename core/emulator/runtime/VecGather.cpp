// SPDX-License-Identifier: MIT
// Gather and Brcb (kwb_sim/vec_gather.h). Gather reads its offsets tensor (uint32 byte offsets from the
// source's start plus srcBaseAddr); every offset is checked against the element size (a misaligned one
// shifts the data on hardware) and against the source buffer (ub-out-of-bounds, the element is skipped).

#include <cstring>
#include <string>
#include <vector>

#include "BlockContext.h"
#include "VecMask.h"
#include "kwb_sim/vec_gather.h"

namespace kwb_sim {

void vecGather(const VecArgs& a, const LocalDesc& offsets, std::uint32_t srcBaseAddr, SrcLoc loc) {
  const std::uint32_t es = a.esize;
  const std::uint32_t lanes = 256 / es;
  const VecExtent extent = vecResolveExtent(a, lanes, loc);
  if (!extent.work) {
    vecRecordOp(a.api, loc, a.dt, es, 0, 0, nullptr, 0);
    return;
  }
  const std::uint64_t n = extent.elements;
  const std::uint32_t repeat = extent.repeat;
  const VecMask& m = extent.mask;
  const std::uint32_t dstRepBytes = a.countForm ? 256 : a.dstRep * 32;
  VecOperand ops[2];
  ops[0].desc = &offsets;
  ops[0].read = true;
  ops[0].operand = 2;
  ops[0].span = n * 4;
  ops[1].desc = &a.dst;
  ops[1].write = true;
  ops[1].operand = 0;
  ops[1].span = a.countForm ? n * es : static_cast<std::uint64_t>(repeat - 1) * dstRepBytes + 256;
  if (!vecCheckOperands(a.api, loc, ops, 2)) {
    vecRecordOp(a.api, loc, a.dt, es, 0, 0, nullptr, 0);
    return;
  }
  const std::uint32_t srcStart = vecOperandOffset(a.src0);
  if (srcStart % 32 != 0)
    report(
        Cat::MisalignedCopy, a.api, loc, Pipe::V, 1,
        "Gather: the source starts at UB byte offset " + std::to_string(srcStart) + ", not 32-byte aligned");
  const auto [lo, hi] = vecBufferRange(a.src0);
  // The bytes actually gathered: their hull is what the sync model sees as read.
  std::uint64_t readLo = ~0ull, readHi = 0, done = 0;
  bool reportedAlign = false, reportedRange = false;
  struct Pick {
    std::uint64_t dstOff;
    std::uint64_t srcOff;
  };
  std::string firstBad;
  // Gather first (offsets and source are read before dst is written on hardware).
  std::vector<Pick> picks;
  picks.reserve(static_cast<std::size_t>(n));
  for (std::uint32_t r = 0; r < repeat; ++r) {
    for (std::uint32_t i = 0; i < lanes; ++i) {
      if (!m.on(r, i, lanes)) continue;
      const std::uint64_t k = static_cast<std::uint64_t>(r) * lanes + i;
      std::uint32_t byteOff = 0;
      std::memcpy(&byteOff, offsets.ptr + k * 4, 4);
      const std::uint64_t rel = static_cast<std::uint64_t>(srcBaseAddr) + byteOff;
      if (rel % es != 0 && !reportedAlign) {
        reportedAlign = true;
        report(Cat::InvalidParam, a.api, loc, Pipe::V, 2,
               "Gather: srcBaseAddr + srcOffset[" + std::to_string(k) + "] = " + std::to_string(rel) +
                   " bytes is not a multiple of the element size " + std::to_string(es) +
                   " (offsets are in bytes, not elements); on hardware the data is shifted");
      }
      const std::uint64_t at = srcStart + rel - rel % es;
      if (at < lo || at + es > hi) {
        if (!reportedRange) {
          reportedRange = true;
          report(Cat::UbOutOfBounds, a.api, loc, Pipe::V, 1,
                 "Gather: srcBaseAddr + srcOffset[" + std::to_string(k) + "] = " + std::to_string(rel) +
                     " bytes reads " + spaceName(a.src0.ref.space) + " bytes [" + std::to_string(at) + ", " +
                     std::to_string(at + es) + "), outside the source buffer [" + std::to_string(lo) + ", " +
                     std::to_string(hi) + ") (offsets are in bytes, relative to the source's start)");
        }
        continue;
      }
      readLo = at < readLo ? at : readLo;
      readHi = at + es > readHi ? at + es : readHi;
      const std::uint64_t dOff =
          a.countForm ? k * es
                      : static_cast<std::uint64_t>(r) * dstRepBytes + static_cast<std::uint64_t>(i) * es;
      picks.push_back(Pick{dOff, at});
    }
  }
  rt::syncBegin(Pipe::V);
  rt::syncOperand(Pipe::V, offsets.ref.space, vecOperandOffset(offsets), static_cast<std::uint32_t>(n * 4),
                  false, a.api, loc, 2);
  if (readHi > readLo)
    rt::syncOperand(Pipe::V, a.src0.ref.space, static_cast<std::uint32_t>(readLo),
                    static_cast<std::uint32_t>(readHi - readLo), false, a.api, loc, 1);
  rt::syncOperand(Pipe::V, a.dst.ref.space, vecOperandOffset(a.dst), static_cast<std::uint32_t>(ops[1].span),
                  true, a.api, loc, 0);
  std::uint8_t* base = ubAlias(spaceBase(a.src0.ref.space));
  std::vector<std::uint8_t> values(picks.size() * es);
  for (std::size_t p = 0; p < picks.size(); ++p)
    std::memcpy(values.data() + p * es, base + picks[p].srcOff, es);
  for (std::size_t p = 0; p < picks.size(); ++p)
    std::memcpy(a.dst.ptr + picks[p].dstOff, values.data() + p * es, es);
  done = picks.size();
  Instr& in = vecRecordOp(a.api, loc, a.dt, es, done, repeat, ops, 2);
  if (readHi > readLo) {
    in.src1Off = static_cast<std::uint32_t>(readLo);
    in.src1Len = static_cast<std::uint32_t>(readHi - readLo);
  }
}

void vecBrcb(const VecArgs& a, SrcLoc loc) {
  const std::uint32_t es = a.esize;
  if (a.repeat > 255) {
    report(Cat::InvalidParam, a.api, loc, Pipe::V, 2,
           "Brcb: repeatTime = " + std::to_string(a.repeat) + " is outside 0..255");
    return;
  }
  if (a.dstBlk == 0)
    report(Cat::InvalidParam, a.api, loc, Pipe::V, 3,
           "Brcb: dstBlkStride = 0 is undefined behaviour (every element would be broadcast into the same "
           "block)");
  if (a.repeat == 0) {
    vecRecordOp(a.api, loc, a.dt, es, 0, 0, nullptr, 0);
    return;
  }
  const std::uint32_t blk = a.dstBlk == 0 ? 1 : a.dstBlk;
  VecOperand ops[2];
  ops[0].desc = &a.src0;
  ops[0].read = true;
  ops[0].operand = 1;
  ops[0].span = static_cast<std::uint64_t>(a.repeat) * 8 * es;
  ops[1].desc = &a.dst;
  ops[1].write = true;
  ops[1].operand = 0;
  ops[1].span = (static_cast<std::uint64_t>(a.repeat - 1) * a.dstRep + 7ull * blk) * 32 + 32;
  if (a.src0.ref.space == a.dst.ref.space && vecOperandOffset(a.src0) == vecOperandOffset(a.dst))
    report(Cat::InvalidParam, a.api, loc, Pipe::V, 0,
           "Brcb: the destination and the source are the same memory; Brcb does not support in-place use");
  if (!vecCheckOperands(a.api, loc, ops, 2)) {
    vecRecordOp(a.api, loc, a.dt, es, 0, 0, nullptr, 0);
    return;
  }
  vecSyncOperands(a.api, loc, ops, 2);
  const std::vector<std::uint8_t> src(a.src0.ptr, a.src0.ptr + ops[0].span);
  const std::uint32_t perBlock = 32 / es;
  for (std::uint32_t r = 0; r < a.repeat; ++r)
    for (std::uint32_t j = 0; j < 8; ++j) {
      std::uint8_t* block =
          a.dst.ptr + (static_cast<std::uint64_t>(r) * a.dstRep + static_cast<std::uint64_t>(j) * blk) * 32;
      const std::uint64_t from = (static_cast<std::uint64_t>(r) * 8 + j) * es;
      for (std::uint64_t e = 0; e < perBlock; ++e) std::memcpy(block + e * es, src.data() + from, es);
    }
  vecRecordOp(a.api, loc, a.dt, es, static_cast<std::uint64_t>(a.repeat) * 8 * perBlock, a.repeat, ops, 2);
}

}  // namespace kwb_sim
