// SPDX-License-Identifier: MIT
// Sort32, MrgSort and the library's Sort / Extract / Concat (kwb_sim/vec_sort.h). Pairs are moved as raw
// 8-byte (score, index) records, so scores keep their exact bits; order is descending by score and equal
// scores keep their input order (the earlier element, or the lower-numbered queue, first), as the API
// reference states. The rules checked and the costs are in docs/emulator.md, "Supported API", the Sort32 /
// MrgSort rows.

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "BlockContext.h"
#include "VecMask.h"
#include "kwb_sim/vec_sort.h"

namespace kwb_sim {

namespace {

constexpr std::uint32_t kPairBytes = 8;
constexpr std::uint32_t kGroup = 32;  // Sort32: scores per repeat

bool repeatInRange(const char* api, std::int64_t repeat, int operand, SrcLoc loc) {
  if (repeat >= 0 && repeat <= 255) return true;
  report(Cat::InvalidParam, api, loc, Pipe::V, operand,
         std::string(api) + ": repeatTime = " + std::to_string(repeat) +
             " is outside 0..255 (the repeat field is 8 bits; split the work into several calls)");
  return false;
}

double pairScore(DType dt, const std::uint8_t* pair) {
  return loadAsDouble(dt, pair);
}

bool rangesOverlap(const LocalDesc& x, std::uint64_t xLen, const LocalDesc& y, std::uint64_t yLen) {
  if (x.ref.space != y.ref.space || xLen == 0 || yLen == 0) return false;
  const std::uint64_t a = vecOperandOffset(x), b = vecOperandOffset(y);
  return a < b + yLen && b < a + xLen;
}

struct Pair {
  double score;
  std::uint8_t bytes[kPairBytes];
};

// Builds the pairs of `groups` groups of 32 and sorts each group (descending, stable).
std::vector<Pair> sortGroups(DType dt, std::uint32_t es, const LocalDesc& scores, const LocalDesc& indices,
                             std::uint32_t groups) {
  const std::uint64_t n = static_cast<std::uint64_t>(groups) * kGroup;
  std::vector<Pair> pairs(static_cast<std::size_t>(n));
  for (std::uint64_t i = 0; i < n; ++i) {
    Pair& p = pairs[static_cast<std::size_t>(i)];
    std::memset(p.bytes, 0, kPairBytes);  // half: bytes 2..3 are reserved (written as 0 here)
    std::memcpy(p.bytes, scores.ptr + i * es, es);
    std::memcpy(p.bytes + 4, indices.ptr + i * 4, 4);
    p.score = loadAsDouble(dt, scores.ptr + i * es);
  }
  for (std::uint32_t g = 0; g < groups; ++g)
    std::stable_sort(pairs.begin() + static_cast<std::ptrdiff_t>(g) * kGroup,
                     pairs.begin() + static_cast<std::ptrdiff_t>(g + 1) * kGroup,
                     [](const Pair& a, const Pair& b) { return a.score > b.score; });
  return pairs;
}

void writePairs(const std::vector<Pair>& pairs, std::uint8_t* dst) {
  for (std::size_t i = 0; i < pairs.size(); ++i)
    std::memcpy(dst + i * kPairBytes, pairs[i].bytes, kPairBytes);
}

// Sort32's checks and work under `api` (Sort32 itself, or the library's Sort); false when nothing ran.
bool sort32Run(const char* api, DType dt, std::uint32_t es, const LocalDesc& dst, const LocalDesc& scores,
               const LocalDesc& indices, std::uint32_t repeat, SrcLoc loc, VecOperand (&ops)[3]) {
  const std::uint64_t n = static_cast<std::uint64_t>(repeat) * kGroup;
  ops[0].desc = &scores;
  ops[0].read = true;
  ops[0].operand = 1;
  ops[0].span = n * es;
  ops[1].desc = &indices;
  ops[1].read = true;
  ops[1].operand = 2;
  ops[1].span = n * 4;
  ops[2].desc = &dst;
  ops[2].write = true;
  ops[2].operand = 0;
  ops[2].span = n * kPairBytes;
  if (!vecCheckOperands(api, loc, ops, 3)) return false;
  vecSyncOperands(api, loc, ops, 3);
  writePairs(sortGroups(dt, es, scores, indices, repeat), dst.ptr);
  return true;
}

}  // namespace

void vecSort32(const char* api, DType dt, std::uint32_t esize, const LocalDesc& dst, const LocalDesc& scores,
               const LocalDesc& indices, std::int64_t repeat, SrcLoc loc) {
  if (!repeatInRange(api, repeat, 3, loc) || repeat == 0) {
    vecRecordOp(api, loc, dt, esize, 0, 0, nullptr, 0);
    return;
  }
  const auto r = static_cast<std::uint32_t>(repeat);
  VecOperand ops[3];
  if (!sort32Run(api, dt, esize, dst, scores, indices, r, loc, ops)) {
    vecRecordOp(api, loc, dt, esize, 0, 0, nullptr, 0);
    return;
  }
  vecRecordOp(api, loc, dt, esize, static_cast<std::uint64_t>(r) * kGroup, r, ops, 3);
}

void vecMrgSort(const MrgSortCall& c, SrcLoc loc, std::uint32_t consumed[4]) {
  const char* api = c.api;
  const std::uint32_t es = c.esize;
  for (int i = 0; i < 4; ++i) consumed[i] = 0;
  int queues = 0;
  if (c.validBit == 3)
    queues = 2;
  else if (c.validBit == 7)
    queues = 3;
  else if (c.validBit == 15)
    queues = 4;
  if (queues == 0) {
    report(
        Cat::InvalidParam, api, loc, Pipe::V, 2,
        std::string(api) + ": validBit = " + std::to_string(c.validBit) +
            " is not 0b11, 0b111 or 0b1111 (the first 2, 3 or 4 queues); MrgSort merges at least 2 queues");
    vecRecordOp(api, loc, c.dt, es, 0, 0, nullptr, 0);
    return;
  }
  if (!repeatInRange(api, c.repeat, 2, loc) || c.repeat == 0) {
    vecRecordOp(api, loc, c.dt, es, 0, 0, nullptr, 0);
    return;
  }
  static const char* const kNames[4] = {"src1", "src2", "src3", "src4"};
  std::uint64_t total = 0;
  for (int q = 0; q < queues; ++q) {
    if (c.lengths[q] > 4095) {
      report(Cat::InvalidParam, api, loc, Pipe::V, 2,
             std::string(api) + ": elementLengths[" + std::to_string(q) +
                 "] = " + std::to_string(c.lengths[q]) +
                 " is outside 0..4095 (the queue length field counts 8-byte pairs)");
      vecRecordOp(api, loc, c.dt, es, 0, 0, nullptr, 0);
      return;
    }
    if (c.src[q].ptr == nullptr) {
      report(Cat::InvalidParam, api, loc, Pipe::V, 1,
             std::string(api) + ": validBit = " + std::to_string(c.validBit) + " makes queue " +
                 std::to_string(q + 1) + " valid, but " + kNames[q] + " is an empty LocalTensor");
      vecRecordOp(api, loc, c.dt, es, 0, 0, nullptr, 0);
      return;
    }
    total += c.lengths[q];
  }
  auto repeat = static_cast<std::uint32_t>(c.repeat);
  if (repeat > 1) {
    std::string why;
    if (queues != 4) why = "validBit is not 0b1111";
    for (int q = 1; q < queues && why.empty(); ++q)
      if (c.lengths[q] != c.lengths[0]) why = "the four elementLengths differ";
    for (int q = 1; q < queues && why.empty(); ++q)
      if (c.src[q].ref.space != c.src[0].ref.space ||
          vecOperandOffset(c.src[q]) !=
              vecOperandOffset(c.src[q - 1]) + static_cast<std::uint64_t>(c.lengths[q - 1]) * kPairBytes)
        why = std::string(kNames[q]) + " does not start right after " + kNames[q - 1];
    if (why.empty() && c.exhaustedSuspension) why = "ifExhaustedSuspension is true";
    if (!why.empty()) {
      report(Cat::InvalidParam, api, loc, Pipe::V, 2,
             std::string(api) + ": repeatTimes = " + std::to_string(repeat) +
                 " takes effect only for four equally long queues stored back to back with validBit = 0b1111 "
                 "and ifExhaustedSuspension = false, but " +
                 why + "; only the first repeat is emulated");
      repeat = 1;
    }
  }
  const std::uint64_t stride = total * kPairBytes;  // bytes between repeats, sources and destination alike
  VecOperand ops[5];
  int n = 0;
  for (int q = 0; q < queues; ++q) {
    ops[n].desc = &c.src[q];
    ops[n].read = true;
    ops[n].operand = 1;
    ops[n].align = 8;
    ops[n++].span = static_cast<std::uint64_t>(repeat - 1) * stride +
                    static_cast<std::uint64_t>(c.lengths[q]) * kPairBytes;
  }
  ops[n].desc = &c.dst;
  ops[n].write = true;
  ops[n].operand = 0;
  ops[n++].span = static_cast<std::uint64_t>(repeat) * stride;
  for (int q = 0; q < queues; ++q)
    if (rangesOverlap(c.dst, ops[n - 1].span, c.src[q], ops[q].span)) {
      report(Cat::InvalidParam, api, loc, Pipe::V, 0,
             std::string(api) + ": the destination overlaps " + kNames[q] +
                 "; MrgSort does not support overlapping source and destination");
      break;
    }
  if (!vecCheckOperands(api, loc, ops, n)) {
    vecRecordOp(api, loc, c.dt, es, 0, 0, nullptr, 0);
    return;
  }
  vecSyncOperands(api, loc, ops, n);
  bool reportedUnsorted = false;
  std::uint64_t written = 0;
  std::vector<std::uint8_t> out;
  for (std::uint32_t r = 0; r < repeat; ++r) {
    const std::uint8_t* head[4] = {nullptr, nullptr, nullptr, nullptr};
    std::uint32_t taken[4] = {0, 0, 0, 0};
    for (int q = 0; q < queues; ++q) {
      head[q] = c.src[q].ptr + static_cast<std::uint64_t>(r) * stride;
      for (std::uint32_t k = 1; k < c.lengths[q] && !reportedUnsorted; ++k)
        if (pairScore(c.dt, head[q] + static_cast<std::uint64_t>(k) * kPairBytes) >
            pairScore(c.dt, head[q] + static_cast<std::uint64_t>(k - 1) * kPairBytes)) {
          reportedUnsorted = true;
          report(
              Cat::InvalidParam, api, loc, Pipe::V, 1,
              std::string(api) + ": " + kNames[q] + " is not sorted in descending score order (pair " +
                  std::to_string(k) + " of repeat " + std::to_string(r) +
                  " scores higher than the one before it); MrgSort only merges sorted queues (Sort32 makes "
                  "them), its result is not sorted otherwise");
        }
    }
    // Merge: the highest head score wins; ties go to the lower-numbered queue (input order).
    for (;;) {
      int best = -1;
      double bestScore = 0;
      bool exhausted = false;
      for (int q = 0; q < queues; ++q) {
        if (taken[q] >= c.lengths[q]) {
          exhausted = true;
          continue;
        }
        const double s = pairScore(c.dt, head[q] + static_cast<std::uint64_t>(taken[q]) * kPairBytes);
        if (best < 0 || s > bestScore) {
          best = q;
          bestScore = s;
        }
      }
      if (best < 0 || (c.exhaustedSuspension && exhausted)) break;
      const std::uint8_t* p = head[best] + static_cast<std::uint64_t>(taken[best]) * kPairBytes;
      out.insert(out.end(), p, p + kPairBytes);
      ++taken[best];
    }
    std::memcpy(c.dst.ptr + static_cast<std::uint64_t>(r) * stride, out.data(), out.size());
    written += out.size() / kPairBytes;
    out.clear();
    for (int q = 0; q < 4; ++q) consumed[q] = taken[q];
  }
  for (int q = 0; q < 4; ++q) rt::R().mrgSortResult[q] = static_cast<std::uint16_t>(consumed[q]);
  vecRecordOp(api, loc, c.dt, es, written, repeat, ops, n);
}

void vecMrgSortResult(std::uint16_t out[4]) {
  for (int q = 0; q < 4; ++q) out[q] = rt::R().mrgSortResult[q];
}

void vecSortFull(DType dt, std::uint32_t esize, const LocalDesc& dst, const LocalDesc& concat,
                 const LocalDesc& index, const LocalDesc& tmp, std::uint64_t tmpElems, std::int64_t repeat,
                 bool fullSort, SrcLoc loc) {
  const char* api = "Sort";
  if (!repeatInRange(api, repeat, 4, loc) || repeat == 0) {
    vecRecordOp("Sort32", loc, dt, esize, 0, 0, nullptr, 0);
    return;
  }
  const auto r = static_cast<std::uint32_t>(repeat);
  const std::uint64_t n = static_cast<std::uint64_t>(r) * kGroup;
  const std::uint64_t bytes = n * kPairBytes;
  if (fullSort && r > 1 && (tmp.ptr == nullptr || tmpElems * esize < bytes)) {
    report(Cat::InvalidParam, api, loc, Pipe::V, 3,
           std::string(api) + ": the full sort of " + std::to_string(n) + " elements needs a tmp of " +
               std::to_string(bytes) + " bytes (GetSortTmpSize: 8 bytes per element), but tmp holds " +
               std::to_string(tmpElems * esize) + " bytes; the merge passes overrun it on hardware");
    vecRecordOp("Sort32", loc, dt, esize, 0, 0, nullptr, 0);
    return;
  }
  VecOperand ops[3];
  if (!sort32Run(api, dt, esize, dst, concat, index, r, loc, ops)) {
    vecRecordOp("Sort32", loc, dt, esize, 0, 0, nullptr, 0);
    return;
  }
  vecRecordOp("Sort32", loc, dt, esize, n, r, ops, 3);
  if (!fullSort || r == 1) return;
  // The merge passes: each merges four sorted runs of the previous pass through tmp until one run is
  // left. Merging with ties to the earlier run keeps the input order, so the result is the stable sort.
  VecOperand mops[2];
  mops[0].desc = &tmp;
  mops[0].read = mops[0].write = true;
  mops[0].operand = 3;
  mops[0].span = bytes;
  mops[1].desc = &dst;
  mops[1].read = mops[1].write = true;
  mops[1].operand = 0;
  mops[1].span = bytes;
  if (!vecCheckOperands(api, loc, mops, 2)) return;
  vecSyncOperands(api, loc, mops, 2);
  std::vector<Pair> pairs(static_cast<std::size_t>(n));
  for (std::uint64_t i = 0; i < n; ++i) {
    Pair& p = pairs[static_cast<std::size_t>(i)];
    std::memcpy(p.bytes, dst.ptr + i * kPairBytes, kPairBytes);
    p.score = pairScore(dt, p.bytes);
  }
  std::stable_sort(pairs.begin(), pairs.end(),
                   [](const Pair& a, const Pair& b) { return a.score > b.score; });
  std::memcpy(tmp.ptr, dst.ptr, static_cast<std::size_t>(bytes));
  writePairs(pairs, dst.ptr);
  const auto copyReps = static_cast<std::uint32_t>((bytes + 255) / 256);
  vecRecordOp("DataCopy", loc, dt, esize, bytes / esize, copyReps, mops, 2);
  for (std::uint32_t runs = r; runs > 1; runs = (runs + 3) / 4) {
    vecRecordOp("MrgSort", loc, dt, esize, n, (runs + 3) / 4, mops, 2);
    vecRecordOp("DataCopy", loc, dt, esize, bytes / esize, copyReps, mops, 2);
  }
}

void vecExtract(DType dt, std::uint32_t esize, const LocalDesc& values, const LocalDesc& indices,
                const LocalDesc& sorted, std::int64_t repeat, SrcLoc loc) {
  const char* api = "Extract";
  if (!repeatInRange(api, repeat, 3, loc) || repeat == 0) {
    vecRecordOp("GatherMask", loc, dt, esize, 0, 0, nullptr, 0);
    return;
  }
  const auto r = static_cast<std::uint32_t>(repeat);
  const std::uint64_t n = static_cast<std::uint64_t>(r) * kGroup;
  VecOperand ops[3];
  int k = 0;
  ops[k].desc = &sorted;
  ops[k].read = true;
  ops[k].operand = 2;
  ops[k++].span = n * kPairBytes;
  ops[k].desc = &values;
  ops[k].write = true;
  ops[k].operand = 0;
  ops[k++].span = n * esize;
  if (indices.ptr != nullptr) {
    ops[k].desc = &indices;
    ops[k].write = true;
    ops[k].operand = 1;
    ops[k++].span = n * 4;
  }
  if (!vecCheckOperands(api, loc, ops, k)) {
    vecRecordOp("GatherMask", loc, dt, esize, 0, 0, nullptr, 0);
    return;
  }
  vecSyncOperands(api, loc, ops, k);
  const std::vector<std::uint8_t> src(sorted.ptr, sorted.ptr + n * kPairBytes);
  for (std::uint64_t i = 0; i < n; ++i) {
    std::memcpy(values.ptr + i * esize, src.data() + i * kPairBytes, esize);
    if (indices.ptr != nullptr) std::memcpy(indices.ptr + i * 4, src.data() + i * kPairBytes + 4, 4);
  }
  // Two GatherMask passes over the pairs on these parts: the scores, then the indices.
  const std::uint64_t srcElems = n * kPairBytes / esize;
  const auto reps = static_cast<std::uint32_t>((n * kPairBytes + 255) / 256);
  vecRecordOp("GatherMask", loc, dt, esize, srcElems, reps, ops, k);
  if (indices.ptr != nullptr) vecRecordOp("GatherMask", loc, DType::U32, 4, n * 2, reps, ops, k);
}

void vecConcatCheck(std::int64_t repeat, SrcLoc loc) {
  (void)repeatInRange("Concat", repeat, 3, loc);
}

}  // namespace kwb_sim
