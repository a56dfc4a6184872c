// SPDX-License-Identifier: MIT
#pragma once
// Where the wrong elements of one output lie (the tail, one block's slice, a stride, a scale or offset,
// never written) and one sentence for the agent saying so. The pass rule itself is in OutputCheck.h;
// this is the explanation that follows a failure (docs/candidate-contract.md section 5).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/model/TensorSpec.h"

namespace kwb::verify {

// How the wrong elements are laid out, for the agent ("what to fix").
enum class PatternKind {
  None,            // nothing wrong
  Unwritten,       // some elements were never written
  AllWrong,        // (nearly) every element wrong
  TailOnly,        // only the last elements of the tensor (the partial tail tile)
  RowTailOnly,     // only the trailing columns of rows (unaligned row length)
  BlockOnly,       // only the slice of one block
  Strided,         // every n-th element
  Scale,           // actual = k * expected
  Offset,          // actual = expected + c
  ConstantOutput,  // one value everywhere (all zeros included) while the reference varies
  Scattered,       // none of the above
};
std::string_view patternName(PatternKind k);  // "none", "unwritten", "all-wrong", "tail-only", ...

struct Pattern {
  PatternKind kind = PatternKind::None;
  std::string detail;                      // one sentence for the agent
  std::optional<int> block;                // BlockOnly
  std::optional<std::int64_t> stride;      // Strided
  std::optional<double> factor;            // Scale / Offset
  std::optional<std::int64_t> firstIndex;  // TailOnly / RowTailOnly (first wrong index / column)
  // Every wrong element unwritten (whatever the kind), and they are exactly [0, unwrittenPrefix) while
  // some after them were written: the first block's GM range does not start at the output's start.
  std::optional<std::int64_t> unwrittenPrefix;
};

// How the launch split the work, for block attribution (from the tiling function's blockDim).
// Element range [begin, end) of one output.
struct ElementRange {
  std::int64_t begin = 0;
  std::int64_t end = 0;
};
// Per block, the element ranges of one output that block wrote, sorted and merged (from the emulator's
// records of the run: the slices the kernel really wrote, not an assumed split).
using BlockSlices = std::vector<std::vector<ElementRange>>;

struct LaunchShape {
  int blockDim = 1;
  // Empty when the backend does not know (the even split of blockDim is assumed then).
  BlockSlices blockWrites;
};

// Classifies the wrong elements; exposed for tests.
Pattern classifyMismatches(const std::vector<bool>& wrong, const Shape& shape,
                           const std::vector<double>& expected, const std::vector<double>& actual,
                           int blockDim);
// `unwritten`: the elements that still hold the poison (empty: none); wrong elements that are all
// unwritten are "not written", whatever values the poison decodes to.
Pattern classifyMismatches(const std::vector<bool>& wrong, const Shape& shape,
                           const std::vector<double>& expected, const std::vector<double>& actual,
                           const LaunchShape& launch, const std::vector<bool>& unwritten);

void to_json(nlohmann::json& j, const Pattern& p);

}  // namespace kwb::verify
