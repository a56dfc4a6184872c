// SPDX-License-Identifier: MIT
// Operand checks, ordering and the instruction record for the vector ops that live outside the engine
// (VecReduceBlock.cpp, VecFused.cpp, VecGather.cpp, VecGatherMask.cpp, VecCompares.cpp,
// MathActivation.cpp): the same rules, messages and records as the engine's own ops (VecEngine.cpp).

#include <string>

#include "BlockContext.h"
#include "VecMask.h"

namespace kwb_sim {

// The mask resolution of every mask/repeat call, the engine's (VecEngine.cpp) and the ops outside it:
// mask 0, a mask over the per-repeat lane count, repeatTime over 255.
VecMask vecResolveMask(const VecArgs& a, std::uint32_t lanes, SrcLoc loc) {
  VecMask m;
  m.counter = g_block.mask.counter;
  if (m.counter) {
    m.total = a.isSetMask ? a.mask[0] : g_block.mask.bits[0];
    m.repeat = static_cast<std::uint32_t>((m.total + lanes - 1) / lanes);
    return m;
  }
  if (a.repeat > 255) {
    report(Cat::InvalidParam, a.api, loc, Pipe::V, 0,
           std::string(a.api) + ": repeatTime = " + std::to_string(static_cast<std::int32_t>(a.repeat)) +
               " is outside 0..255 (the repeat field is 8 bits; split the work into several calls or use the "
               "count form)");
    m.ok = false;
    return m;
  }
  m.repeat = a.repeat;
  if (a.isSetMask && !a.maskBits) {
    const std::uint64_t c = a.mask[0];
    if (c == 0 || c > lanes) {
      report(Cat::InvalidParam, a.api, loc, Pipe::V, 0,
             std::string(a.api) + ": continuous mask = " + std::to_string(c) +
                 (c == 0 ? " selects no element (mask cannot be 0 in normal mode)"
                         : " exceeds the " + std::to_string(lanes) + " elements one repeat holds for " +
                               std::to_string(256 / lanes * 8) + "-bit data (256 bytes per repeat)"));
      if (c == 0) {
        m.ok = false;
        return m;
      }
    }
    const std::uint64_t n = c > lanes ? lanes : c;
    m.bits[0] = n >= 64 ? ~0ull : ((1ull << n) - 1);
    m.bits[1] = n > 64 ? (n >= 128 ? ~0ull : ((1ull << (n - 64)) - 1)) : 0;
    return m;
  }
  m.bits[0] = a.isSetMask ? a.mask[0] : g_block.mask.bits[0];
  m.bits[1] = a.isSetMask ? a.mask[1] : g_block.mask.bits[1];
  if (lanes <= 64) {
    if (a.isSetMask && m.bits[1] != 0)
      report(Cat::InvalidParam, a.api, loc, Pipe::V, 0,
             std::string(a.api) + ": mask[1] must be 0 for 32-bit data (a repeat holds only 64 elements)");
    m.bits[1] = 0;
    if (lanes < 64) m.bits[0] &= (1ull << lanes) - 1;
  }
  if ((m.bits[0] | m.bits[1]) == 0) {
    report(Cat::InvalidParam, a.api, loc, Pipe::V, 0,
           std::string(a.api) + ": the bit mask is all zero, no element would be computed");
    m.ok = false;
  }
  return m;
}

bool vecCheckOperands(const char* api, SrcLoc loc, const VecOperand* ops, int n) {
  bool ok = true;
  for (int k = 0; k < n; ++k) {
    const VecOperand& o = ops[k];
    ok = checkLocal(o.desc->ref, vecOperandOffset(*o.desc), o.span, api, loc, Pipe::V, o.operand, o.write) &&
         ok;
    const std::uint32_t start = vecOperandOffset(*o.desc);
    if (o.align > 1 && start % o.align != 0)
      report(Cat::MisalignedCopy, api, loc, Pipe::V, o.operand,
             std::string(api) + ": operand " + std::to_string(o.operand + 1) + " starts at " +
                 spaceName(o.desc->ref.space) + " byte offset " + std::to_string(start) + ", not " +
                 std::to_string(o.align) + "-byte aligned as this instruction needs");
  }
  return ok;
}

void vecSyncOperands(const char* api, SrcLoc loc, const VecOperand* ops, int n) {
  rt::syncBegin(Pipe::V);
  for (int k = 0; k < n; ++k)
    if (ops[k].read)
      rt::syncOperand(Pipe::V, ops[k].desc->ref.space, vecOperandOffset(*ops[k].desc),
                      static_cast<std::uint32_t>(ops[k].span), false, api, loc, ops[k].operand);
  for (int k = 0; k < n; ++k)
    if (ops[k].write)
      rt::syncOperand(Pipe::V, ops[k].desc->ref.space, vecOperandOffset(*ops[k].desc),
                      static_cast<std::uint32_t>(ops[k].span), true, api, loc, ops[k].operand);
}

bool vecCheckAndSyncOperands(const VecArgs& a, SrcLoc loc, const VecOperand* ops, int n) {
  if (!vecCheckOperands(a.api, loc, ops, n)) {
    vecRecordOp(a.api, loc, a.dt, a.esize, 0, 0, nullptr, 0);
    return false;
  }
  vecSyncOperands(a.api, loc, ops, n);
  return true;
}

Instr& vecRecordOp(const char* api, SrcLoc loc, DType dt, std::uint32_t esize, std::uint64_t count,
                   std::uint32_t repeat, const VecOperand* ops, int n) {
  Instr& in = record(api, loc, Pipe::V);
  in.dtype = in.srcDtype = dt;
  in.count = static_cast<std::uint32_t>(count);
  in.repeat = repeat;
  in.bytes = count * esize;
  in.dstSpace = in.srcSpace = MemSpace::UB;
  int sources = 0;
  bool dstSet = false;
  for (int k = 0; k < n; ++k) {
    const std::uint32_t off = vecOperandOffset(*ops[k].desc);
    const auto len = static_cast<std::uint32_t>(ops[k].span);
    if (ops[k].write && !dstSet) {
      in.dstOff = off;
      in.dstLen = len;
      dstSet = true;
      if (!ops[k].read) continue;
    }
    if (!ops[k].read) continue;
    if (sources == 0) {
      in.src0Off = off;
      in.src0Len = len;
    } else if (sources == 1) {
      in.src1Off = off;
      in.src1Len = len;
    }
    ++sources;
  }
  return in;
}

VecExtent vecResolveExtent(const VecArgs& a, std::uint32_t lanes, SrcLoc loc) {
  VecExtent e;
  if (a.countForm) {
    if (a.count <= 0) return e;
    e.elements = static_cast<std::uint64_t>(a.count);
    e.repeat = static_cast<std::uint32_t>((e.elements + lanes - 1) / lanes);
    e.mask.counter = true;
    e.mask.total = e.elements;
    e.work = true;
    return e;
  }
  e.mask = vecResolveMask(a, lanes, loc);
  if (!e.mask.ok || e.mask.repeat == 0) return e;
  e.repeat = e.mask.repeat;
  e.elements = static_cast<std::uint64_t>(e.repeat) * lanes;
  e.work = true;
  return e;
}

ByteRange vecBufferRange(const LocalDesc& d) {
  if (d.ref.buf >= 0) {
    const BufferSlot& s = g_block.bufs[d.ref.buf];
    return {s.off, static_cast<std::uint64_t>(s.off) + s.len};
  }
  return {0, spaceSize(d.ref.space)};
}

bool compareValues(AscendC::CMPMODE mode, double x, double y) {
  switch (mode) {
    case AscendC::CMPMODE::LT:
      return x < y;
    case AscendC::CMPMODE::GT:
      return x > y;
    case AscendC::CMPMODE::EQ:
      return x == y;
    case AscendC::CMPMODE::LE:
      return x <= y;
    case AscendC::CMPMODE::GE:
      return x >= y;
    case AscendC::CMPMODE::NE:
      return x != y;
  }
  return false;
}

}  // namespace kwb_sim
