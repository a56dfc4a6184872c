// SPDX-License-Identifier: MIT
// Compares (kwb_sim/vec_compares.h): tensor against scalar into a bit mask, whole 256-byte repeats only.

#include <string>

#include "BlockContext.h"
#include "VecMask.h"
#include "kwb_sim/vec_compares.h"

namespace kwb_sim {

void vecCompares(const VecArgs& a, int cmpMode, SrcLoc loc) {
  const std::uint32_t es = a.esize;
  const std::uint32_t lanes = 256 / es;
  const auto mode = static_cast<AscendC::CMPMODE>(cmpMode);
  if (a.dt == DType::I32 && mode != AscendC::CMPMODE::EQ)
    report(Cat::InvalidParam, a.api, loc, Pipe::V, 3, "Compares on int32_t supports only CMPMODE::EQ");
  std::uint32_t repeat = 0;
  std::uint32_t blk = 1, rep = 8;
  if (a.countForm) {
    if (a.count < 0) return;
    const std::uint64_t bytes = static_cast<std::uint64_t>(a.count) * es;
    if (bytes % 256 != 0)
      report(Cat::InvalidParam, a.api, loc, Pipe::V, 4,
             "Compares count = " + std::to_string(a.count) + " x " + dtypeName(a.dt) + " = " +
                 std::to_string(bytes) + " bytes is not a multiple of 256 bytes (" + std::to_string(lanes) +
                 " elements): on hardware only the first " + std::to_string(bytes / 256 * lanes) +
                 " elements are compared and the remaining output bits are left unchanged");
    repeat = static_cast<std::uint32_t>(bytes / 256);
  } else {
    if (a.repeat > 255) {
      report(Cat::InvalidParam, a.api, loc, Pipe::V, 5,
             "Compares: repeatTime = " + std::to_string(a.repeat) + " is outside 0..255");
      return;
    }
    repeat = a.repeat;  // the mask is reserved on these SoCs: whole repeats
    blk = a.src0Blk;
    rep = a.src0Rep;
  }
  if (repeat == 0) {
    vecRecordOp(a.api, loc, a.dt, es, 0, 0, nullptr, 0);
    return;
  }
  VecOperand ops[2];
  ops[0].desc = &a.src0;
  ops[0].read = true;
  ops[0].operand = 1;
  ops[0].span = vecLaneOffset(repeat - 1, lanes - 1, es, blk, rep) + es;
  ops[1].desc = &a.dst;
  ops[1].write = true;
  ops[1].operand = 0;
  ops[1].span = static_cast<std::uint64_t>(repeat) * lanes / 8;
  if (!vecCheckOperands(a.api, loc, ops, 2)) {
    vecRecordOp(a.api, loc, a.dt, es, 0, 0, nullptr, 0);
    return;
  }
  vecSyncOperands(a.api, loc, ops, 2);
  for (std::uint32_t r = 0; r < repeat; ++r)
    for (std::uint32_t i = 0; i < lanes; ++i) {
      const std::uint64_t bit = static_cast<std::uint64_t>(r) * lanes + i;
      const bool res =
          compareValues(mode, loadAsDouble(a.dt, a.src0.ptr + vecLaneOffset(r, i, es, blk, rep)), a.scalar);
      std::uint8_t& byte = a.dst.ptr[bit / 8];
      byte = static_cast<std::uint8_t>(res ? (byte | (1u << (bit % 8))) : (byte & ~(1u << (bit % 8))));
    }
  vecRecordOp(a.api, loc, a.dt, es, static_cast<std::uint64_t>(repeat) * lanes, repeat, ops, 2);
}

}  // namespace kwb_sim
