// SPDX-License-Identifier: MIT
#pragma once
// DataCopy with SliceInfo (the API reference's "GM与UB切片数据搬运"): a multi-dimensional slice of a GM
// tensor to UB or back. Each side's SliceInfo list describes, per dimension (dimension 0 the innermost),
// the selected range [startIndex, endIndex] of a dimension `shapeValue` long: in dimension 0 segments of
// burstLen 32-byte blocks, `stride` elements apart; in the outer dimensions every (stride + 1)-th index.
// The segments of both sides are paired in order (dimension 0 fastest) and each pair is one checked,
// traced DataCopy burst (data_copy.h), so bounds, alignment and ordering are those of DataCopy.

#include <cstdint>
#include <string>
#include <vector>

#include "kwb_sim/data_copy.h"
#include "kwb_sim/runtime.h"

namespace AscendC {

constexpr uint32_t K_MAX_DIM = 8;  // the most dimensions a SliceInfo list may describe

struct SliceInfo {
  uint32_t startIndex = 0;
  uint32_t endIndex = 0;
  uint32_t stride = 0;
  uint32_t burstLen = 0;  // 32-byte blocks per segment (dimension 0 only; 1 in the others)
  uint32_t shapeValue = 0;
};

}  // namespace AscendC

namespace kwb_sim {

// The element offsets of the segments a SliceInfo list selects, in order; an empty result with `error`
// set when the list breaks a rule.
inline std::vector<std::uint64_t> sliceSegments(const AscendC::SliceInfo info[], std::uint32_t dims,
                                                std::uint32_t elemsPerBlock, const char* side,
                                                std::string& error) {
  std::vector<std::uint64_t> offsets;
  if (dims == 0 || dims > AscendC::K_MAX_DIM) {
    error = std::string("dimValue = ") + std::to_string(dims) + " is outside 1.." +
            std::to_string(AscendC::K_MAX_DIM);
    return offsets;
  }
  const std::uint64_t segLen = std::uint64_t{info[0].burstLen} * elemsPerBlock;
  if (segLen == 0) {
    error = std::string(side) + "[0].burstLen is 0: a segment is at least one 32-byte block";
    return offsets;
  }
  for (std::uint32_t d = 0; d < dims; ++d) {
    const AscendC::SliceInfo& s = info[d];
    if (d > 0 && s.burstLen != 1) {
      error = std::string(side) + "[" + std::to_string(d) + "].burstLen = " + std::to_string(s.burstLen) +
              ": outside dimension 0 it must be 1";
      return offsets;
    }
    if (s.startIndex > s.endIndex || s.endIndex >= s.shapeValue) {
      error = std::string(side) + "[" + std::to_string(d) + "] selects [" + std::to_string(s.startIndex) +
              ", " + std::to_string(s.endIndex) + "] of a dimension " + std::to_string(s.shapeValue) +
              " long: startIndex <= endIndex < shapeValue is required";
      return offsets;
    }
  }
  offsets.push_back(0);
  std::uint64_t pitch = 1;  // elements between consecutive indices of dimension d
  for (std::uint32_t d = 0; d < dims; ++d) {
    const AscendC::SliceInfo& s = info[d];
    std::vector<std::uint64_t> starts;
    if (d == 0) {
      for (std::uint64_t i = s.startIndex; i + segLen - 1 <= s.endIndex; i += segLen + s.stride)
        starts.push_back(i);
    } else {
      for (std::uint64_t i = s.startIndex; i <= s.endIndex; i += std::uint64_t{s.stride} + 1)
        starts.push_back(i * pitch);
    }
    std::vector<std::uint64_t> next;
    next.reserve(offsets.size() * starts.size());
    for (std::uint64_t outer : starts)
      for (std::uint64_t inner : offsets) next.push_back(inner + outer);
    offsets.swap(next);
    pitch *= s.shapeValue;
  }
  if (offsets.empty())
    error = std::string(side) + "[0] selects no whole segment of " + std::to_string(info[0].burstLen) +
            " blocks in [" + std::to_string(info[0].startIndex) + ", " + std::to_string(info[0].endIndex) +
            "]";
  return offsets;
}

// Pairs the two sides' segments; false (after reporting) when they do not match.
inline bool slicePairs(const AscendC::SliceInfo dstInfo[], const AscendC::SliceInfo srcInfo[],
                       std::uint32_t dims, std::uint32_t elemsPerBlock, Pipe pipe, SrcLoc loc,
                       std::vector<std::uint64_t>& dstOff, std::vector<std::uint64_t>& srcOff) {
  std::string error;
  dstOff = sliceSegments(dstInfo, dims, elemsPerBlock, "dstSliceInfo", error);
  if (error.empty()) srcOff = sliceSegments(srcInfo, dims, elemsPerBlock, "srcSliceInfo", error);
  if (error.empty() && dstInfo[0].burstLen != srcInfo[0].burstLen)
    error = "dstSliceInfo[0].burstLen = " + std::to_string(dstInfo[0].burstLen) +
            " and srcSliceInfo[0].burstLen = " + std::to_string(srcInfo[0].burstLen) +
            " differ: both sides move segments of the same length";
  if (error.empty() && dstOff.size() != srcOff.size())
    error = "the destination slice has " + std::to_string(dstOff.size()) + " segments and the source " +
            std::to_string(srcOff.size()) + ": both sides must select as many";
  if (error.empty()) return true;
  report(Cat::InvalidParam, "DataCopy", loc, pipe, 2,
         "DataCopy with SliceInfo: " + error + "; nothing copied");
  return false;
}

}  // namespace kwb_sim

namespace AscendC {

template <typename T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const SliceInfo dstSliceInfo[],
              const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1, KWB_SIM_LOC) {
  constexpr uint32_t perBlock = 32 / sizeof(T);
  std::vector<uint64_t> d, s;
  if (!kwb_sim::slicePairs(dstSliceInfo, srcSliceInfo, dimValue, perBlock, kwb_sim::Pipe::MTE2, loc_, d, s))
    return;
  const DataCopyParams burst{1, static_cast<uint16_t>(srcSliceInfo[0].burstLen), 0, 0};
  for (std::size_t k = 0; k < d.size(); ++k)
    DataCopy(dst[static_cast<uint32_t>(d[k])], src[s[k]], burst, loc_);
}

template <typename T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const SliceInfo dstSliceInfo[],
              const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1, KWB_SIM_LOC) {
  constexpr uint32_t perBlock = 32 / sizeof(T);
  std::vector<uint64_t> d, s;
  if (!kwb_sim::slicePairs(dstSliceInfo, srcSliceInfo, dimValue, perBlock, kwb_sim::Pipe::MTE3, loc_, d, s))
    return;
  const DataCopyParams burst{1, static_cast<uint16_t>(srcSliceInfo[0].burstLen), 0, 0};
  for (std::size_t k = 0; k < d.size(); ++k)
    DataCopy(dst[d[k]], src[static_cast<uint32_t>(s[k])], burst, loc_);
}

}  // namespace AscendC
