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
#include "core/verify/MismatchPattern.h"

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
  // Wrong elements whose every byte is 0xCD, the emulator's poison of fresh UB/L1: copied out of local
  // memory nothing wrote (docs/emulator.md, "Uninitialised memory").
  std::int64_t staleLocal = 0;
  std::int64_t nonFinite = 0;  // NaN/Inf where the reference is finite
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
  // The candidate's line of the SetGlobalBuffer that set the GM range this output was written through
  // (from the trusted records; 0 when unknown or when the writes came through several).
  int rangeSetLine = 0;
  bool passed = false;
  std::string
      summary;  // "z: 35 of 16384 elements wrong (0.21% > 0.10%), max abs err ... ; only the tail ..."
};

inline constexpr std::size_t kMaxReported = 10;

// `expected`: reference values (double), `actual`: the kernel's output bytes, `poison`: the bytes the
// output was filled with before the run (an element equal to its poison bytes counts as unwritten
// unless the reference value encodes to the same bytes).
TensorCheck checkOutput(const TensorSpec& spec, const std::vector<double>& expected, const Bytes& actual,
                        const Bytes& poison, const Tolerance& tol, const LaunchShape& launch);

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

// checkInputUnchanged a piece at a time, for an input read back from a file in chunks: the copy the run
// left never has to be held whole. Pieces may come in any size, in order.
class InputChangeScan {
 public:
  InputChangeScan(const TensorSpec& spec, const Bytes& before);
  // `after` holds the bytes at [offset, offset + length) of the run's copy.
  void compare(std::uint64_t offset, const std::uint8_t* after, std::size_t length);
  InputCheck result() const;

 private:
  const TensorSpec& spec_;
  const Bytes& before_;
  std::size_t elementSize_;
  Bytes carry_;  // an element split between two pieces
  std::uint64_t carryOffset_ = 0;
  InputCheck check_;
};

void to_json(nlohmann::json& j, const Mismatch& m);
void to_json(nlohmann::json& j, const TensorCheck& t);
void to_json(nlohmann::json& j, const InputCheck& c);

}  // namespace kwb::verify
