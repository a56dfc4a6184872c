// SPDX-License-Identifier: MIT
#include "core/emulator/costmodel/UbBanks.h"

#include <algorithm>
#include <array>
#include <bitset>

namespace kwb::sim {

namespace {

constexpr std::uint32_t kBlocksPerRepeat = 8;  // one repeat = 8 DataBlocks (docs/ascend-notes.md §1.4)
constexpr std::uint32_t kMaxGroups = 64;
constexpr std::uint32_t kMaxBanks = 256;
// The bank pattern of contiguous operands repeats every two repeats within a bank; a few dozen repeats
// give the mean of any realistic stride without walking a 255-repeat record block by block.
constexpr std::uint32_t kSampledRepeats = 32;

struct Operand {
  std::uint64_t off = 0;
  std::uint64_t repeatStride = 0;
  std::uint64_t blockStride = 0;
  std::uint32_t blocks = 0;  // DataBlocks per repeat (0: operand unused)
};

std::uint64_t roundUp(std::uint64_t v, std::uint64_t to) {
  return (v + to - 1) / to * to;
}

Operand operandOf(std::uint32_t off, std::uint32_t len, std::uint32_t repeats, std::uint32_t rowBytes) {
  Operand o;
  if (len == 0) return o;
  const std::uint64_t repeatBytes = std::uint64_t{kBlocksPerRepeat} * rowBytes;
  const std::uint64_t first = std::min<std::uint64_t>(len, repeatBytes);
  o.off = off;
  o.blocks = static_cast<std::uint32_t>((first + rowBytes - 1) / rowBytes);
  o.blockStride = rowBytes;
  // One repeat over a hull wider than 8 blocks: the blocks are spread by a block stride.
  if (repeats == 1 && len > repeatBytes)
    o.blockStride = roundUp((len - rowBytes) / (kBlocksPerRepeat - 1), rowBytes);
  if (repeats > 1) {
    const std::uint64_t stride = (len - first + repeats - 2) / (repeats - 1);
    o.repeatStride = roundUp(stride, rowBytes);
  }
  return o;
}

}  // namespace

UbBankConflicts ubBankConflicts(const UbBankGeometry& g, const kwb_sim::Instr& in) {
  UbBankConflicts out;
  if (!g.present() || g.groups > kMaxGroups || g.groups * g.banksPerGroup > kMaxBanks) return out;
  if (in.dstSpace != kwb_sim::MemSpace::UB && in.srcSpace != kwb_sim::MemSpace::UB) return out;
  const std::uint64_t repeatBytes = std::uint64_t{kBlocksPerRepeat} * g.rowBytes;
  std::uint32_t repeats = in.repeat;
  if (repeats == 0) repeats = static_cast<std::uint32_t>((in.bytes + repeatBytes - 1) / repeatBytes);
  if (repeats == 0) return out;
  const Operand dst = operandOf(in.dstOff, in.dstLen, repeats, g.rowBytes);
  const Operand srcs[] = {operandOf(in.src0Off, in.src0Len, repeats, g.rowBytes),
                          operandOf(in.src1Off, in.src1Len, repeats, g.rowBytes)};
  const std::uint64_t rowsPerSpan = std::uint64_t{g.groups} * g.rowsPerBank;
  const auto groupOf = [&](std::uint64_t addr) {
    return static_cast<std::uint32_t>(addr / g.rowBytes % g.groups);
  };
  const auto bankOf = [&](std::uint64_t addr) {
    const std::uint64_t row = addr / g.rowBytes;
    return static_cast<std::uint32_t>(row % g.groups + g.groups * (row / rowsPerSpan % g.banksPerGroup));
  };

  const std::uint32_t sampled = std::min(repeats, kSampledRepeats);
  double beats = 0;
  for (std::uint32_t r = 0; r < sampled; ++r) {
    std::array<std::uint8_t, kMaxGroups> reads{}, writes{};
    std::bitset<kMaxBanks> readBanks;
    std::uint32_t readBeats = 0, writeBeats = 0;
    for (const Operand& s : srcs)
      for (std::uint32_t b = 0; b < s.blocks; ++b) {
        const std::uint64_t addr = s.off + r * s.repeatStride + b * s.blockStride;
        readBeats = std::max<std::uint32_t>(readBeats, ++reads[groupOf(addr)]);
        readBanks.set(bankOf(addr));
      }
    bool readWrite = false;
    for (std::uint32_t b = 0; b < dst.blocks; ++b) {
      const std::uint64_t addr = dst.off + r * dst.repeatStride + b * dst.blockStride;
      writeBeats = std::max<std::uint32_t>(writeBeats, ++writes[groupOf(addr)]);
      readWrite = readWrite || readBanks.test(bankOf(addr));
    }
    if (readBeats > 1) out.kinds |= kReadReadConflict;
    if (writeBeats > 1) out.kinds |= kWriteWriteConflict;
    if (readWrite && g.readWriteBeats > 0) out.kinds |= kReadWriteConflict;
    beats += std::max({1u, readBeats, writeBeats}) + (readWrite ? g.readWriteBeats : 0.0);
  }
  out.beatsPerRepeat = beats / sampled;
  return out;
}

const char* ubBankConflictName(std::uint8_t kinds) {
  switch (kinds & (kReadReadConflict | kWriteWriteConflict | kReadWriteConflict)) {
    case kReadReadConflict:
      return "read-read";
    case kWriteWriteConflict:
      return "write-write";
    case kReadWriteConflict:
      return "read-write";
    case kReadReadConflict | kWriteWriteConflict:
      return "read-read and write-write";
    case kReadReadConflict | kReadWriteConflict:
      return "read-read and read-write";
    case kWriteWriteConflict | kReadWriteConflict:
      return "write-write and read-write";
    case kReadReadConflict | kWriteWriteConflict | kReadWriteConflict:
      return "read-read, write-write and read-write";
    default:
      return "";
  }
}

}  // namespace kwb::sim
