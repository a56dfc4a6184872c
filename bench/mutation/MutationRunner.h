// SPDX-License-Identifier: MIT
#pragma once
// Runs mutants and unmutated experts through the real evaluator (core/eval, the emulator backend) and
// scores them (docs/benchmarks.md, "Mutation benchmark").

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "bench/mutation/MutationGenerator.h"
#include "bench/mutation/MutationScore.h"
#include "core/model/Task.h"

namespace kwb::mutation {

struct Expert {
  Task task;
  ExpertKernel kernel;
};

// Every task folder under `tasksDir` with an expert_candidate.cpp (`only` non-empty: just those task
// names), sorted by name. Throws std::runtime_error naming the folder and the problem.
std::vector<Expert> loadExperts(const std::filesystem::path& tasksDir, const std::vector<std::string>& only);

struct RunOptions {
  std::uint64_t seed = 1;          // the same inputs every run, so results compare across commits
  std::filesystem::path cacheDir;  // the evaluator's build cache (default: defaultEvalCacheDir())
};

// The name mutants and experts are evaluated under (diagnostics name it as their file).
inline constexpr const char* kCandidateName = "kernel.cpp";

// The runner's scratch folders: $TMPDIR/kwb-mutation-<task>-XXXXXX. A run killed by a signal cannot
// remove its folder, so each carries the owner marker of core/agent/WorkRootJanitor.h and every run
// sweeps the folders whose owner is gone (docs/reliability.md, "Leftovers").
inline constexpr const char* kMutationScratchPrefix = "kwb-mutation-";

// Removes abandoned kwb-mutation-* folders under $TMPDIR; returns how many were removed.
std::size_t removeAbandonedMutationScratch();

MutantOutcome evaluateMutant(const Task& task, const Mutant& mutant, const RunOptions& options);
ExpertOutcome evaluateExpert(const Expert& expert, const RunOptions& options);

}  // namespace kwb::mutation
