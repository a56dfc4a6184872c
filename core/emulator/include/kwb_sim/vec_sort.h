// SPDX-License-Identifier: MIT
#pragma once
// Sorting on the vector unit, in the (score, index) layout of these parts: each sorted element is an
// 8-byte pair, the uint32 index in the high 4 bytes and the score in the low 4 bytes (float) or the low
// 2 bytes with 2 reserved bytes between (half). Sort32 sorts groups of 32 scores in descending order,
// MrgSort merges up to four sorted queues; the library's Sort / Concat / Extract / GetSortLen /
// GetSortOffset wrap them. Equal scores keep their input order. docs/emulator.md, "Supported API",
// the Sort32 / MrgSort rows.

#include <cstdint>

#include "kwb_sim/vec_ops.h"

namespace kwb_sim {

// The inference parts (310P, arch 2002) have no Sort32/MrgSort and sort region proposals instead (16 per
// repeat, 8 elements each), a layout the emulator does not model: those builds fail at compile time.
template <typename T>
inline constexpr bool kSortPairLayout = KWB_SIM_ARCH != 2002;
#define KWB_SIM_REQUIRE_SORT_PAIRS(NAME, T)                                                               \
  static_assert(::kwb_sim::kSortPairLayout<T>,                                                            \
                "kwb-sim: unsupported-api: " NAME                                                         \
                " on this SoC (arch 2002 sorts region proposals, which the kwb emulator does not model; " \
                "docs/emulator.md, \"Supported API\", Sort32 row)")

// Sort32: `repeat` groups of 32 (score, index) pairs built from src0 (scores) and src1 (uint32 indices).
void vecSort32(const char* api, DType dt, std::uint32_t esize, const LocalDesc& dst, const LocalDesc& scores,
               const LocalDesc& indices, std::int64_t repeat, SrcLoc loc);

struct MrgSortCall {
  const char* api = "MrgSort";
  DType dt = DType::None;
  std::uint32_t esize = 0;
  LocalDesc dst{nullptr, {}};
  LocalDesc src[4] = {{nullptr, {}}, {nullptr, {}}, {nullptr, {}}, {nullptr, {}}};
  std::uint64_t srcElems[4] = {0, 0, 0, 0};  // LocalTensor sizes in elements of T (0: empty tensor)
  std::uint32_t lengths[4] = {0, 0, 0, 0};   // elementLengths: pairs per queue
  bool exhaustedSuspension = false;
  std::uint32_t validBit = 0;
  std::int64_t repeat = 0;
};
// Merges the valid queues of every repeat; consumed[i] gets the pairs taken from queue i in the last repeat
// (what the library's sortedNum / GetMrgSortResult report in exhausted-suspension mode).
void vecMrgSort(const MrgSortCall& c, SrcLoc loc, std::uint32_t consumed[4]);

// The library's Sort: Sort32 per group, then (isFullSort) merge passes over all repeat * 32 pairs through
// tmp (which must hold as many bytes as dst, GetSortTmpSize).
void vecSortFull(DType dt, std::uint32_t esize, const LocalDesc& dst, const LocalDesc& concat,
                 const LocalDesc& index, const LocalDesc& tmp, std::uint64_t tmpElems, std::int64_t repeat,
                 bool fullSort, SrcLoc loc);
// Extract: the scores and the indices of repeat * 32 sorted pairs, each into its own dense tensor.
void vecExtract(DType dt, std::uint32_t esize, const LocalDesc& values, const LocalDesc& indices,
                const LocalDesc& sorted, std::int64_t repeat, SrcLoc loc);
// Concat's only work on these parts: its repeatTime range check (the scores are already in place).
void vecConcatCheck(std::int64_t repeat, SrcLoc loc);
// The per-block result of the last MrgSort in exhausted-suspension mode (GetMrgSortResult).
void vecMrgSortResult(std::uint16_t out[4]);

}  // namespace kwb_sim

namespace AscendC {

template <typename T>
struct MrgSortSrcList {
  MrgSortSrcList() = default;
  MrgSortSrcList(const LocalTensor<T>& src1In, const LocalTensor<T>& src2In, const LocalTensor<T>& src3In,
                 const LocalTensor<T>& src4In)
      : src1(src1In[0]), src2(src2In[0]), src3(src3In[0]), src4(src4In[0]) {}
  LocalTensor<T> src1;
  LocalTensor<T> src2;
  LocalTensor<T> src3;
  LocalTensor<T> src4;
};

struct MrgSort4Info {
  MrgSort4Info() = default;
  MrgSort4Info(const uint16_t elementLengthsIn[4], const bool ifExhaustedSuspensionIn,
               const uint16_t validBitIn, const uint16_t repeatTimesIn)
      : ifExhaustedSuspension(ifExhaustedSuspensionIn), validBit(validBitIn), repeatTimes(repeatTimesIn) {
    for (int i = 0; i < 4; ++i) elementLengths[i] = elementLengthsIn[i];
  }
  uint16_t elementLengths[4] = {0, 0, 0, 0};
  bool ifExhaustedSuspension = false;
  uint16_t validBit = 0;
  uint16_t repeatTimes = 1;
};

template <typename T>
void Sort32(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<uint32_t>& src1,
            const int32_t repeatTime, KWB_SIM_LOC) {
  KWB_SIM_REQUIRE_DTYPE("Sort32", T, half, float);
  KWB_SIM_REQUIRE_SORT_PAIRS("Sort32", T);
  kwb_sim::vecSort32("Sort32", kwb_sim::dtypeOf<T>(), sizeof(T), kwb_sim::localDesc(dst),
                     kwb_sim::localDesc(src0), kwb_sim::localDesc(src1), repeatTime, loc_);
}

}  // namespace AscendC

namespace kwb_sim {

template <typename T>
MrgSortCall mrgSortCall(const AscendC::LocalTensor<T>& dst, const AscendC::MrgSortSrcList<T>& src,
                        const std::uint16_t lengths[4], bool exhausted, std::uint32_t validBit,
                        std::int64_t repeat) {
  MrgSortCall c;
  c.dt = dtypeOf<T>();
  c.esize = sizeof(T);
  c.dst = localDesc(dst);
  const AscendC::LocalTensor<T>* s[4] = {&src.src1, &src.src2, &src.src3, &src.src4};
  for (int i = 0; i < 4; ++i) {
    c.srcElems[i] = s[i]->GetSize();
    if (s[i]->GetPhyAddr() != 0) c.src[i] = localDesc(*s[i]);
    c.lengths[i] = lengths[i];
  }
  c.exhaustedSuspension = exhausted;
  c.validBit = validBit;
  c.repeat = repeat;
  return c;
}

}  // namespace kwb_sim

namespace AscendC {

template <typename T>
void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& src, const MrgSort4Info& params,
             KWB_SIM_LOC) {
  KWB_SIM_REQUIRE_DTYPE("MrgSort", T, half, float);
  KWB_SIM_REQUIRE_SORT_PAIRS("MrgSort", T);
  std::uint32_t consumed[4] = {0, 0, 0, 0};
  kwb_sim::vecMrgSort(kwb_sim::mrgSortCall(dst, src, params.elementLengths, params.ifExhaustedSuspension,
                                           params.validBit, params.repeatTimes),
                      loc_, consumed);
}

// The library form: the queue lengths as an array, sortedNum filled in exhausted-suspension mode.
template <typename T, bool isExhaustedSuspension = false>
void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& sortList, const uint16_t elementCountList[4],
             uint32_t sortedNum[4], uint16_t validBit, const int32_t repeatTime, KWB_SIM_LOC) {
  KWB_SIM_REQUIRE_DTYPE("MrgSort", T, half, float);
  KWB_SIM_REQUIRE_SORT_PAIRS("MrgSort", T);
  std::uint32_t consumed[4] = {0, 0, 0, 0};
  kwb_sim::vecMrgSort(
      kwb_sim::mrgSortCall(dst, sortList, elementCountList, isExhaustedSuspension, validBit, repeatTime),
      loc_, consumed);
  if (isExhaustedSuspension && sortedNum != nullptr)
    for (int i = 0; i < 4; ++i) sortedNum[i] = consumed[i];
}

inline void GetMrgSortResult(uint16_t& mrgSortList1, uint16_t& mrgSortList2, uint16_t& mrgSortList3,
                             uint16_t& mrgSortList4) {
  std::uint16_t r[4] = {0, 0, 0, 0};
  kwb_sim::vecMrgSortResult(r);
  mrgSortList1 = r[0];
  mrgSortList2 = r[1];
  mrgSortList3 = r[2];
  mrgSortList4 = r[3];
}

// Elements of T that `elemCount` sorted pairs occupy (8 bytes each): 2 per pair for float, 4 for half.
// The reference calls the unit bytes; its own samples index LocalTensor<T> with the result.
template <typename T>
inline uint32_t GetSortLen(const uint32_t elemCount) {
  KWB_SIM_REQUIRE_DTYPE("GetSortLen", T, half, float);
  KWB_SIM_REQUIRE_SORT_PAIRS("GetSortLen", T);
  return elemCount * static_cast<uint32_t>(8 / sizeof(T));
}
template <typename T>
inline uint32_t GetSortOffset(const uint32_t elemOffset) {
  KWB_SIM_REQUIRE_DTYPE("GetSortOffset", T, half, float);
  KWB_SIM_REQUIRE_SORT_PAIRS("GetSortOffset", T);
  return elemOffset * static_cast<uint32_t>(8 / sizeof(T));
}

// Concat on these parts: the scores are sorted where they are, so concat becomes a view of src.
template <typename T>
void Concat(LocalTensor<T>& concat, const LocalTensor<T>& src, const LocalTensor<T>& tmp,
            const int32_t repeatTime, KWB_SIM_LOC) {
  KWB_SIM_REQUIRE_DTYPE("Concat", T, half, float);
  KWB_SIM_REQUIRE_SORT_PAIRS("Concat", T);
  (void)tmp;
  kwb_sim::vecConcatCheck(repeatTime, loc_);
  concat = src;
}

template <typename T, bool isFullSort = false>
void Sort(const LocalTensor<T>& dst, const LocalTensor<T>& concat, const LocalTensor<uint32_t>& index,
          LocalTensor<T>& tmp, const int32_t repeatTime, KWB_SIM_LOC) {
  KWB_SIM_REQUIRE_DTYPE("Sort", T, half, float);
  KWB_SIM_REQUIRE_SORT_PAIRS("Sort", T);
  const kwb_sim::LocalDesc none{nullptr, {}};
  kwb_sim::vecSortFull(kwb_sim::dtypeOf<T>(), sizeof(T), kwb_sim::localDesc(dst), kwb_sim::localDesc(concat),
                       kwb_sim::localDesc(index), tmp.GetPhyAddr() != 0 ? kwb_sim::localDesc(tmp) : none,
                       tmp.GetSize(), repeatTime, isFullSort, loc_);
}

template <typename T>
void Extract(const LocalTensor<T>& dstValue, const LocalTensor<uint32_t>& dstIndex,
             const LocalTensor<T>& sorted, const int32_t repeatTime, KWB_SIM_LOC) {
  KWB_SIM_REQUIRE_DTYPE("Extract", T, half, float);
  KWB_SIM_REQUIRE_SORT_PAIRS("Extract", T);
  const kwb_sim::LocalDesc none{nullptr, {}};
  kwb_sim::vecExtract(kwb_sim::dtypeOf<T>(), sizeof(T), kwb_sim::localDesc(dstValue),
                      dstIndex.GetPhyAddr() != 0 ? kwb_sim::localDesc(dstIndex) : none,
                      kwb_sim::localDesc(sorted), repeatTime, loc_);
}

}  // namespace AscendC
