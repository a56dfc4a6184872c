// SPDX-License-Identifier: MIT
#pragma once
// Compares one output tensor of a kernel with the double-precision reference and explains the result.
//
// Pass rule (per output dtype, task tolerance {atol, rtol, max_mismatch_ratio}); see
// docs/candidate-contract.md section 5, which states the same rule for the agent:
//
//   M        = max |e| over the finite reference values of this output
//   atol_eff = max(min(atol, rtol * M), u)   when rtol > 0 and M > 0, else atol
//              (u = the dtype's smallest positive subnormal, so a correctly rounded result is never wrong)
//   wrong    : |a - e| > atol_eff  AND  |a - e| > rtol * |e|
//   gross    : |a - e| > G * atol_eff AND |a - e| > G * rtol * |e|   (G = kGrossFactor = 10)
//   near miss: wrong but not gross
//
// atol is capped by the reference's own magnitude because a fixed atol accepts anything once every
// reference value is inside it (float32 "near zero" inputs give |z| ~ 1e-5 = atol: z = x passed).
// The mismatch budget excuses near misses only (rounding and accumulation-order differences); a
// handful of arbitrarily wrong elements is a wrong kernel, not noise, so a single gross error fails.
// The tensor fails when any element is unwritten (still the poison pattern), NaN/Inf where the
// reference is finite, grossly wrong, when near misses exceed max_mismatch_ratio of the elements, or
// when the output is constant (e.g. all zeros) while the reference is not.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/model/DType.h"
#include "core/model/TensorSpec.h"
#include "core/model/Tolerance.h"
#include "core/verify/ElementCodec.h"

namespace kwb::verify {

struct Mismatch {
  std::int64_t index = 0;
  std::vector<std::int64_t> coords;  // index unravelled over the shape
  double expected = 0.0;
  double actual = 0.0;
  double absError = 0.0;
  double relError = 0.0;
  bool unwritten = false;
};

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
};

inline constexpr double kGrossFactor = 10.0;

// The absolute tolerance actually applied to an output whose finite reference values have maximum
// magnitude `referenceMaxAbs` (formula above).
double effectiveAtol(const Tolerance& tol, double referenceMaxAbs, DType t);

// Which rule failed a tensor, for the report and the agent.
enum class FailedRule { Size, Unwritten, NonFinite, GrossError, MismatchRatio, ConstantOutput };
std::string_view ruleName(FailedRule r);  // "size", "unwritten", "non-finite", "gross-error", ...

struct TensorCheck {
  std::string tensor;
  DType dtype = DType::Float16;
  Shape shape;
  Tolerance tolerance;
  std::int64_t elements = 0;
  std::int64_t mismatches = 0;   // elements failing the rule, unwritten and non-finite included
  std::int64_t grossErrors = 0;  // wrong by more than kGrossFactor x the tolerance (any one fails)
  std::int64_t nearMisses = 0;   // wrong but within kGrossFactor x the tolerance (the budgeted kind)
  double nearMissRatio = 0.0;    // nearMisses / elements, compared with maxMismatchRatio
  double referenceMaxAbs = 0.0;  // M in the rule above
  double effectiveAtol = 0.0;    // atol_eff in the rule above
  std::int64_t unwritten = 0;    // elements still holding the poison pattern
  std::int64_t nonFinite = 0;    // NaN/Inf where the reference is finite
  double mismatchRatio = 0.0;
  double maxAbsError = 0.0;
  double maxRelError = 0.0;
  std::int64_t maxAbsErrorIndex = -1;
  bool constantOutput = false;  // every element equal
  bool referenceConstant = false;
  std::vector<Mismatch> firstMismatches;  // up to kMaxReported, by index
  std::optional<Mismatch> worst;          // the wrong finite element with the largest abs error
  std::vector<FailedRule> failedRules;    // empty when passed
  Pattern pattern;
  bool passed = false;
  std::string
      summary;  // "z: 35 of 16384 elements wrong (0.21% > 0.10%), max abs err ... ; only the tail ..."
};

inline constexpr std::size_t kMaxReported = 10;

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

// `expected`: reference values (double), `actual`: the kernel's output bytes, `poison`: the bytes the
// output was filled with before the run (an element equal to its poison bytes counts as unwritten
// unless the reference value encodes to the same bytes).
TensorCheck checkOutput(const TensorSpec& spec, const std::vector<double>& expected, const Bytes& actual,
                        const Bytes& poison, const Tolerance& tol, const LaunchShape& launch);

// Classifies the wrong elements; exposed for tests.
Pattern classifyMismatches(const std::vector<bool>& wrong, const Shape& shape,
                           const std::vector<double>& expected, const std::vector<double>& actual,
                           int blockDim);
// `unwritten`: the elements that still hold the poison (empty: none); wrong elements that are all
// unwritten are "not written", whatever values the poison decodes to.
Pattern classifyMismatches(const std::vector<bool>& wrong, const Shape& shape,
                           const std::vector<double>& expected, const std::vector<double>& actual,
                           const LaunchShape& launch, const std::vector<bool>& unwritten);

// Inputs must be bit-identical after the run.
struct InputCheck {
  std::string tensor;
  std::int64_t changed = 0;
  std::int64_t firstChangedIndex = -1;
  double before = 0.0;
  double after = 0.0;
  std::string summary;
};
InputCheck checkInputUnchanged(const TensorSpec& spec, const Bytes& before, const Bytes& after);

void to_json(nlohmann::json& j, const Mismatch& m);
void to_json(nlohmann::json& j, const Pattern& p);
void to_json(nlohmann::json& j, const TensorCheck& t);
void to_json(nlohmann::json& j, const InputCheck& c);

}  // namespace kwb::verify
