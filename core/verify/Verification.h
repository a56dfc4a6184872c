// SPDX-License-Identifier: MIT
#pragma once
// One evaluation's verification: for every case of the task, fresh inputs (from the recorded seed),
// poisoned outputs, then the checks of the kernel's outputs against the reference and of the inputs
// against their pre-run copies. Pure: backends do the file and process work around these functions.

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/model/Diagnostic.h"
#include "core/model/Task.h"
#include "core/verify/OutputCheck.h"

namespace kwb::verify {

// Inputs and poisoned outputs of one case, ready to be written as raw .bin files.
// Its nlohmann::json member's move may in theory throw; a failed move is out of memory
// NOLINTNEXTLINE(bugprone-exception-escape)
struct PreparedCase {
  const VerificationCase* vcase = nullptr;
  std::vector<TensorSpec> inputs;
  std::vector<TensorSpec> outputs;
  std::vector<Bytes> inputData;
  std::vector<Bytes> outputPoison;
  std::map<std::string, std::string> distributions;  // input name -> "normal", "positive [0.01, 10]", ...
  nlohmann::json attrs;                              // resolved attribute values
};

PreparedCase prepareCase(const Task& task, const VerificationCase& c, std::uint64_t seed);
// The same case with its inputs given (a verified cache entry of an earlier prepareCase with the same
// task, case and seed): an input whose size does not fit its tensor is generated instead.
// onProgress (optional; called from the threads that draw the values, one at a time) hears how many of
// the case's input elements are drawn so far, of how many, every few million elements.
using InputProgress = std::function<void(std::int64_t done, std::int64_t total)>;
PreparedCase prepareCase(const Task& task, const VerificationCase& c, std::uint64_t seed,
                         std::vector<Bytes> givenInputs, const InputProgress& onProgress = {});
// From this many input elements on, a case's input tensors are drawn on threads of their own.
inline constexpr std::int64_t kParallelInputElements = std::int64_t{1} << 22;

struct CaseCheck {
  std::string caseName;
  int blockDim = 0;
  std::map<std::string, std::string> distributions;
  // What the case ran on, for the reports that list failed cases: "x [17, 1023], y [17]; eps 1e-05".
  std::string shapesAndAttrs;
  std::vector<TensorCheck> outputs;
  std::vector<InputCheck> modifiedInputs;  // only inputs that changed
  std::string error;                       // set when the case could not be checked (run failed, ...)
  bool passed = false;
};

// outputs/inputsAfter are in the prepared order; expected[k] holds the reference for outputs[k].
// blockWrites[k] (when the backend recorded them): the slices of outputs[k] each block wrote, for block
// attribution of wrong elements.
CaseCheck checkCase(const Task& task, const PreparedCase& prepared,
                    const std::vector<std::vector<double>>& expected, const std::vector<Bytes>& outputs,
                    const std::vector<Bytes>& inputsAfter, int blockDim,
                    const std::vector<BlockSlices>& blockWrites = {});

struct VerifyResult {
  std::uint64_t seed = 0;
  std::vector<CaseCheck> cases;

  bool passed() const;
  // One `wrong-answer` diagnostic per failing output tensor and one per modified input (source
  // "verifier", tensor set, message = the check's summary prefixed with the case name).
  std::vector<Diagnostic> diagnostics() const;
  // "3/3 cases pass", or with failures "2/4 cases pass (seed S); failed: tail_17x1023 (x [17, 1023], y
  // [17]), ...; case tail_17x1023: z: ..." (every failed case with its shapes and attributes, then the
  // first failure's detail).
  std::string summary() const;
};

void to_json(nlohmann::json& j, const CaseCheck& c);
void to_json(nlohmann::json& j, const VerifyResult& v);

}  // namespace kwb::verify
