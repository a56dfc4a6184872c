// SPDX-License-Identifier: MIT
#pragma once
// Generates single-bug mutants of an expert kernel: the bugs models and newcomers make in Ascend C
// (a missing queue hand-off, an off-by-one loop bound, a wrong per-block offset, ...). A pure
// function of the kernel's text and its task's names (docs/benchmarks.md, "Mutation benchmark").

#include <string>
#include <vector>

#include "bench/mutation/Mutant.h"

namespace kwb::mutation {

struct ExpertKernel {
  std::string task;
  std::string source;                    // expert_candidate.cpp
  std::vector<std::string> outputNames;  // the task's output tensors (kernel parameters of that name)
  std::vector<std::string> attrNames;    // the task's attributes
};

// Every operator's id, in the order generateMutants tries them.
std::vector<std::string> mutationOperatorIds();

// At most one mutant per operator (its first applicable site); operators that find no site in this
// kernel produce none.
std::vector<Mutant> generateMutants(const ExpertKernel& kernel);

}  // namespace kwb::mutation
