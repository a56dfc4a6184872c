// SPDX-License-Identifier: MIT
#pragma once
// How much memory one verification case needs, and whether this machine has it. A case of 10^8
// float32 elements holds about a gigabyte per copy of its tensors, so the evaluator checks before it
// draws a single input and refuses with the numbers instead of dying under the OOM killer
// (docs/task-format.md, "Size limits"). Large cases also skip the case cache and run one at a time.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/model/Task.h"

namespace kwb {

// From this many bytes of tensors on, a case counts as large: its inputs and reference outputs are not
// cached (writing and hashing them costs more than drawing them again), it runs alone, and its steps
// are reported as progress lines.
inline constexpr std::int64_t kLargeCaseBytes = std::int64_t{64} << 20;

struct CaseMemoryNeed {
  std::int64_t inputBytes = 0;
  std::int64_t outputBytes = 0;
  std::int64_t outputElements = 0;
  // The evaluation's peak: the trusted side's copies (inputs, poisoned outputs, the reference's values
  // as doubles, the outputs read back and decoded) plus the larger of the emulator's global memory and
  // the reference program's copies, which never run at the same time.
  std::int64_t peakBytes() const;
  bool large() const { return inputBytes + outputBytes >= kLargeCaseBytes; }
};

CaseMemoryNeed caseMemoryNeed(const Task& task, const VerificationCase& c);

// MemAvailable of a /proc/meminfo text, in bytes; nullopt when the line is missing or malformed.
std::optional<std::int64_t> parseMemAvailable(std::string_view meminfo);
// This machine's MemAvailable (nullopt where /proc/meminfo cannot be read: then nothing is refused).
std::optional<std::int64_t> availableMemoryBytes();

// "" when the case fits in `available`, else the error that names the case, what it needs and why.
std::string caseMemoryProblem(const VerificationCase& c, const CaseMemoryNeed& need,
                              std::optional<std::int64_t> available);

// "1.1 GiB", "380 MiB".
std::string bytesText(std::int64_t bytes);

}  // namespace kwb
