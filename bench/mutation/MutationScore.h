// SPDX-License-Identifier: MIT
#pragma once
// Scores what the evaluator said about a mutant against what a precise platform should have said:
// detected (not a pass), the right category, an error of that category at the cause line
// (docs/benchmarks.md, "Mutation benchmark"). Pure functions.

#include <set>
#include <string>
#include <vector>

#include "bench/mutation/Mutant.h"
#include "core/model/Diagnostic.h"
#include "core/model/Verdict.h"

namespace kwb::mutation {

struct MutantOutcome {
  std::string id;
  std::string op;
  std::string expectedCategory;
  std::set<int> causeLines;
  std::string verdict;
  bool detected = false;       // the verdict is not a pass
  bool rightCategory = false;  // some error has the expected category
  bool atCauseLine = false;    // some error of the expected category is at a cause line of the candidate
  // Every error the evaluator reported, as "category@line" (line 0: no line), in report order.
  std::vector<std::string> reported;
};

// `candidateName` is the file name the candidate was evaluated under: errors in other files (the
// harness, the reference) do not count as at the cause line.
MutantOutcome scoreMutant(const Mutant& m, Verdict verdict, const std::vector<Diagnostic>& diagnostics,
                          const std::string& candidateName);

// An unmutated expert: a false alarm is any error diagnostic or a verdict other than pass.
struct ExpertOutcome {
  std::string task;
  std::string verdict;
  std::vector<std::string> reported;
  bool falseAlarm() const { return verdict != "pass" || !reported.empty(); }
};
ExpertOutcome scoreExpert(const std::string& task, Verdict verdict,
                          const std::vector<Diagnostic>& diagnostics);

struct Totals {
  int mutants = 0, detected = 0, rightCategory = 0, atCauseLine = 0;
  int experts = 0, falseAlarms = 0;
};
Totals totals(const std::vector<MutantOutcome>& mutants, const std::vector<ExpertOutcome>& experts);

// The results as Markdown: the totals, per operator, and one row per mutant.
std::string markdownReport(const std::vector<MutantOutcome>& mutants,
                           const std::vector<ExpertOutcome>& experts);

}  // namespace kwb::mutation
