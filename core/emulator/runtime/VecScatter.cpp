// SPDX-License-Identifier: MIT
// Scatter (kwb_sim/vec_scatter.h): the mirror of Gather. Each active source element i is written to the
// destination at byte offset dstBaseAddr + dstOffset[i]. Every offset is checked against the element
// size (a misaligned one shifts the data on hardware), against the destination buffer
// (ub-out-of-bounds, the element is skipped) and for duplicates (the reference: the result is undefined).

#include <cstring>
#include <string>
#include <unordered_set>
#include <vector>

#include "BlockContext.h"
#include "VecMask.h"
#include "kwb_sim/vec_scatter.h"

namespace kwb_sim {

void vecScatter(const VecArgs& a, const LocalDesc& offsets, std::uint32_t dstBaseAddr, SrcLoc loc) {
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
  const std::uint32_t srcRep = a.countForm ? 8 : a.src0Rep;
  VecOperand ops[2];
  ops[0].desc = &offsets;
  ops[0].read = true;
  ops[0].operand = 2;
  ops[0].span = n * 4;
  ops[1].desc = &a.src0;
  ops[1].read = true;
  ops[1].operand = 1;
  ops[1].span = a.countForm ? n * es : static_cast<std::uint64_t>(repeat - 1) * srcRep * 32 + 256;
  if (!vecCheckOperands(a.api, loc, ops, 2)) {
    vecRecordOp(a.api, loc, a.dt, es, 0, 0, nullptr, 0);
    return;
  }
  const std::uint32_t dstStart = vecOperandOffset(a.dst);
  if (dstStart % 32 != 0)
    report(Cat::MisalignedCopy, a.api, loc, Pipe::V, 0,
           "Scatter: the destination starts at UB byte offset " + std::to_string(dstStart) +
               ", not 32-byte aligned");
  const auto [lo, hi] = vecBufferRange(a.dst);
  std::uint64_t writeLo = ~0ull, writeHi = 0;
  bool reportedAlign = false, reportedRange = false, reportedDup = false;
  struct Put {
    std::uint64_t srcOff;
    std::uint64_t dstAt;
  };
  std::vector<Put> puts;
  puts.reserve(static_cast<std::size_t>(n));
  std::unordered_set<std::uint64_t> seen;
  for (std::uint32_t r = 0; r < repeat; ++r) {
    for (std::uint32_t i = 0; i < lanes; ++i) {
      if (!m.on(r, i, lanes)) continue;
      const std::uint64_t k = static_cast<std::uint64_t>(r) * lanes + i;
      std::uint32_t byteOff = 0;
      std::memcpy(&byteOff, offsets.ptr + k * 4, 4);
      const std::uint64_t rel = static_cast<std::uint64_t>(dstBaseAddr) + byteOff;
      if (rel % es != 0 && !reportedAlign) {
        reportedAlign = true;
        report(Cat::InvalidParam, a.api, loc, Pipe::V, 2,
               "Scatter: dstBaseAddr + dstOffset[" + std::to_string(k) + "] = " + std::to_string(rel) +
                   " bytes is not a multiple of the element size " + std::to_string(es) +
                   " (offsets are in bytes, not elements); on hardware the data is shifted");
      }
      const std::uint64_t at = dstStart + rel - rel % es;
      if (at < lo || at + es > hi) {
        if (!reportedRange) {
          reportedRange = true;
          report(Cat::UbOutOfBounds, a.api, loc, Pipe::V, 0,
                 "Scatter: dstBaseAddr + dstOffset[" + std::to_string(k) + "] = " + std::to_string(rel) +
                     " bytes writes " + spaceName(a.dst.ref.space) + " bytes [" + std::to_string(at) + ", " +
                     std::to_string(at + es) + "), outside the destination buffer [" + std::to_string(lo) +
                     ", " + std::to_string(hi) +
                     ") (offsets are in bytes, relative to the destination's start)");
        }
        continue;
      }
      if (!seen.insert(at).second && !reportedDup) {
        reportedDup = true;
        report(Cat::InvalidParam, a.api, loc, Pipe::V, 2,
               "Scatter: dstOffset[" + std::to_string(k) + "] repeats an earlier offset (" +
                   std::to_string(rel) +
                   " bytes); the reference leaves the result of duplicate offsets undefined");
      }
      writeLo = at < writeLo ? at : writeLo;
      writeHi = at + es > writeHi ? at + es : writeHi;
      const std::uint64_t sOff =
          a.countForm ? k * es
                      : static_cast<std::uint64_t>(r) * srcRep * 32 + static_cast<std::uint64_t>(i) * es;
      puts.push_back(Put{sOff, at});
    }
  }
  rt::syncBegin(Pipe::V);
  rt::syncOperand(Pipe::V, offsets.ref.space, vecOperandOffset(offsets), static_cast<std::uint32_t>(n * 4),
                  false, a.api, loc, 2);
  rt::syncOperand(Pipe::V, a.src0.ref.space, vecOperandOffset(a.src0),
                  static_cast<std::uint32_t>(ops[1].span), false, a.api, loc, 1);
  if (writeHi > writeLo)
    rt::syncOperand(Pipe::V, a.dst.ref.space, static_cast<std::uint32_t>(writeLo),
                    static_cast<std::uint32_t>(writeHi - writeLo), true, a.api, loc, 0);
  // Sources are read before any destination element is written.
  std::vector<std::uint8_t> values(puts.size() * es);
  for (std::size_t p = 0; p < puts.size(); ++p)
    std::memcpy(values.data() + p * es, a.src0.ptr + puts[p].srcOff, es);
  std::uint8_t* base = ubAlias(spaceBase(a.dst.ref.space));
  for (std::size_t p = 0; p < puts.size(); ++p) std::memcpy(base + puts[p].dstAt, values.data() + p * es, es);
  Instr& in = vecRecordOp(a.api, loc, a.dt, es, puts.size(), repeat, ops, 2);
  if (writeHi > writeLo) {
    in.dstOff = static_cast<std::uint32_t>(writeLo);
    in.dstLen = static_cast<std::uint32_t>(writeHi - writeLo);
  }
}

}  // namespace kwb_sim
