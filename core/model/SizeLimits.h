// SPDX-License-Identifier: MIT
#pragma once
// Size caps of a verification case (docs/task-format.md, "Size limits"). Public suites time kernels on
// 10^8-10^9-element tensors, so the caps admit those; what bounds a case in practice is the memory of
// the machine that evaluates it, which the evaluator checks before it generates anything
// (core/eval/CaseMemory.h) instead of failing later with bad_alloc or the OOM killer.

#include <chrono>
#include <cstdint>

namespace kwb {

inline constexpr std::int64_t kMaxTensorElements = std::int64_t{1} << 30;  // 1 Gi elements
inline constexpr std::int64_t kMaxTensorBytes = std::int64_t{4} << 30;     // 4 GiB
inline constexpr std::int64_t kMaxCaseBytes = std::int64_t{8} << 30;       // all tensors of one case

// A run's time limit for a case with `tensorBytes` of tensors: the base limit plus a second per 10 MiB
// (a 10^8-element float32 case of three tensors gets about two minutes more), so that a large case is
// not taken for a hung kernel or reference while its data moves.
inline std::chrono::milliseconds timeLimitForTensors(std::chrono::milliseconds base,
                                                     std::int64_t tensorBytes) {
  return base + std::chrono::milliseconds(tensorBytes / (std::int64_t{10} << 20) * 1000);
}

}  // namespace kwb
