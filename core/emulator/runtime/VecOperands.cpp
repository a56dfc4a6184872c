// SPDX-License-Identifier: MIT
// Operand checks, ordering and the instruction record for the vector ops that live outside the engine
// (VecReduceBlock.cpp, VecFused.cpp, VecGather.cpp, VecCompares.cpp): the same rules and records as the
// engine's own ops (VecEngine.cpp).

#include <string>

#include "BlockContext.h"
#include "VecMask.h"

namespace kwb_sim {

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

}  // namespace kwb_sim
