// SPDX-License-Identifier: MIT
// GatherMask (kwb_sim/vec_gather_mask.h). Counter mode follows the SoC: on 910B (arch 2201) `mask` is the
// element count of every repeat; on 310P (arch 2002) it is the total element count and repeatTimes has
// no effect.

#include <cstring>
#include <string>
#include <vector>

#include "BlockContext.h"
#include "VecMask.h"
#include "kwb_sim/vec_gather_mask.h"

namespace kwb_sim {

namespace {

bool builtInBit(std::uint8_t pattern, std::uint32_t i) {
  switch (pattern) {
    case 1:
      return i % 2 == 0;
    case 2:
      return i % 2 == 1;
    case 3:
    case 4:
    case 5:
    case 6:
      return i % 4 == static_cast<std::uint32_t>(pattern - 3);
    default:
      return true;  // 7
  }
}

}  // namespace

std::uint64_t vecGatherMask(const VecArgs& a, const LocalDesc* pattern, std::uint8_t builtIn, bool reduceMode,
                            std::uint32_t mask, const AscendC::GatherMaskParams& p, SrcLoc loc) {
  const std::uint32_t es = a.esize;
  const std::uint32_t lanes = 256 / es;
  const std::uint8_t maxPattern = KWB_SIM_ARCH == 2002 ? 6 : 7;
  if (!pattern && (builtIn < 1 || builtIn > maxPattern)) {
    report(Cat::InvalidParam, a.api, loc, Pipe::V, 2,
           "GatherMask: built-in src1Pattern " + std::to_string(builtIn) + " is outside 1.." +
               std::to_string(maxPattern) + " on " + KWB_SIM_SOC_NAME);
    return 0;
  }
  // Elements per repeat and repeats.
  std::uint32_t repeat = p.repeatTimes;
  std::uint64_t perRepeat = lanes, total = 0;
  if (reduceMode) {
    if (mask == 0) {
      report(Cat::InvalidParam, a.api, loc, Pipe::V, 4,
             "GatherMask: counter mode (reduceMode true) needs mask >= 1");
      return 0;
    }
    if (KWB_SIM_ARCH == 2002) {
      total = mask;
      repeat = static_cast<std::uint32_t>((total + lanes - 1) / lanes);
    } else {
      perRepeat = mask;
      if (perRepeat > lanes) {
        report(Cat::InvalidParam, a.api, loc, Pipe::V, 4,
               "GatherMask: counter-mode mask = " + std::to_string(mask) +
                   " elements per repeat exceeds the " + std::to_string(lanes) +
                   " elements of one 256-byte repeat");
        perRepeat = lanes;
      }
    }
  }
  if (repeat > 255) {
    report(Cat::InvalidParam, a.api, loc, Pipe::V, 5,
           "GatherMask: repeatTimes = " + std::to_string(repeat) + " is outside 0..255");
    return 0;
  }
  if (repeat == 0) {
    vecRecordOp(a.api, loc, a.dt, es, 0, 0, nullptr, 0);
    return 0;
  }
  auto lanesIn = [&](std::uint32_t r) -> std::uint32_t {
    if (reduceMode && KWB_SIM_ARCH == 2002) {
      const std::uint64_t left = total - static_cast<std::uint64_t>(r) * lanes;
      return static_cast<std::uint32_t>(left < lanes ? left : lanes);
    }
    return static_cast<std::uint32_t>(perRepeat);
  };
  const std::uint32_t blk = p.src0BlockStride, rep = p.src0RepeatStride;
  VecOperand ops[3];
  ops[0].desc = &a.src0;
  ops[0].read = true;
  ops[0].operand = 1;
  ops[0].span = vecLaneOffset(repeat - 1, lanesIn(repeat - 1) - 1, es, blk, rep) + es;
  if (repeat >= 2) {
    const std::uint64_t prev = vecLaneOffset(repeat - 2, lanesIn(repeat - 2) - 1, es, blk, rep) + es;
    ops[0].span = prev > ops[0].span ? prev : ops[0].span;
  }
  int n = 1;
  if (pattern) {
    ops[1].desc = pattern;
    ops[1].read = true;
    ops[1].operand = 2;
    ops[1].span =
        static_cast<std::uint64_t>(repeat - 1) * p.src1RepeatStride * 32 + (lanesIn(repeat - 1) + 7) / 8;
    n = 2;
  }
  // Which elements are kept decides dst's extent, so read the pattern before checking dst.
  if (!vecCheckOperands(a.api, loc, ops, n)) {
    vecRecordOp(a.api, loc, a.dt, es, 0, 0, nullptr, 0);
    return 0;
  }
  std::vector<std::uint64_t> picks;
  for (std::uint32_t r = 0; r < repeat; ++r) {
    const std::uint32_t m = lanesIn(r);
    const std::uint8_t* bits =
        pattern ? pattern->ptr + static_cast<std::uint64_t>(r) * p.src1RepeatStride * 32 : nullptr;
    for (std::uint32_t i = 0; i < m; ++i) {
      const bool keep = bits ? ((bits[i / 8] >> (i % 8)) & 1u) != 0 : builtInBit(builtIn, i);
      if (keep) picks.push_back(vecLaneOffset(r, i, es, blk, rep));
    }
  }
  ops[n].desc = &a.dst;
  ops[n].write = true;
  ops[n].operand = 0;
  ops[n].span = picks.size() * es;
  if (!picks.empty() && !vecCheckOperands(a.api, loc, &ops[n], 1)) {
    vecRecordOp(a.api, loc, a.dt, es, 0, 0, nullptr, 0);
    return 0;
  }
  vecSyncOperands(a.api, loc, ops, picks.empty() ? n : n + 1);
  std::vector<std::uint8_t> values(picks.size() * es);
  for (std::size_t k = 0; k < picks.size(); ++k)
    std::memcpy(values.data() + k * es, a.src0.ptr + picks[k], es);
  if (!values.empty()) std::memcpy(a.dst.ptr, values.data(), values.size());
  vecRecordOp(a.api, loc, a.dt, es, picks.size(), repeat, ops, picks.empty() ? n : n + 1);
  return picks.size();
}

}  // namespace kwb_sim
