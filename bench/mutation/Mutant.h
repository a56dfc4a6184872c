// SPDX-License-Identifier: MIT
#pragma once
// One single-bug variant of an expert kernel, with what a precise platform should say about it
// (docs/benchmarks.md, "Mutation benchmark").

#include <set>
#include <string>

namespace kwb::mutation {

struct Mutant {
  std::string task;              // the task whose expert kernel was mutated
  std::string op;                // the mutation operator's id ("delete-enque", ...)
  std::string description;       // what was changed, in words
  std::string expectedCategory;  // the diagnostic category the bug belongs to
  // Where the bug is: the changed line, and for a deleted statement the statement it should have
  // followed. Lines are 1-based and the same in the expert and the mutant (a deleted line is left
  // blank so nothing below it moves).
  std::set<int> causeLines;
  std::string source;  // the mutated kernel source

  std::string id() const { return task + "/" + op; }
};

}  // namespace kwb::mutation
