// SPDX-License-Identifier: MIT
#pragma once
// `kwb task import DIR`: an existing msopgen operator project becomes a task and its first candidate
// (docs/task-format.md, "Importing an operator project"). The signature and dtypes come from the
// project's OpDef (core/toolchain/OpProjectSource.h); the cases and the reference are the user's. The
// project's kernel, TilingFunc source and the headers of op_host/ and op_kernel/ become the candidate
// in the operator-project form
// (docs/candidate-contract.md), origin `imported`. The project is untrusted input: nothing in it is
// compiled or run here, and every problem names the file and line.
//
// The GUI calls this off the GUI thread (it reads files):
//   OperatorProjectImport r = importOperatorProject(dir, {.casesFile = c, .referenceFile = ref});
//   if (!r.ok()) show r.errors (each Diagnostic has file, line, message; format() prints them);
//   else start a session with r.task (its reference is r.referenceSource) and r.candidate as iteration 1.

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/model/Candidate.h"
#include "core/model/Diagnostic.h"
#include "core/model/Task.h"

namespace kwb {

struct OperatorProjectImportOptions {
  std::filesystem::path casesFile;      // required: a JSON array of task.json "cases" entries
  std::filesystem::path referenceFile;  // required: reference.cpp (docs/task-format.md)
  std::size_t dtypeColumn = 0;          // which DataType({...}) combination of the OpDef the task tests
  std::string soc;                      // empty: the task default
};

struct OperatorProjectImport {
  Task task;
  std::string referenceSource;
  std::string referenceFileName = "reference.cpp";  // reference.py for a Python reference
  Candidate candidate;                              // origin Imported, operator-project form
  // The project's own files (path relative to the project -> text) that the candidate came from, so
  // an export back into the project changes only those (exportIntoOperatorProject).
  std::map<std::string, std::string> projectFiles;
  std::vector<Diagnostic> errors;
  // Not errors, but worth saying: the OpDef's AddConfig names no SoC of the task's family (a project
  // written for ascend310b's one vector core runs on the task's SoC and its cores).
  std::vector<Diagnostic> warnings;
  bool ok() const { return errors.empty(); }
};

OperatorProjectImport importOperatorProject(const std::filesystem::path& dir,
                                            const OperatorProjectImportOptions& options);

// Both importers' last step: the user's cases (options.casesFile) and reference go into the task
// description `j` (name, inputs, outputs, attrs from the project), which becomes r.task. Does nothing
// when r already has errors; adds its own to r.errors, naming the file.
void completeImportedTask(nlohmann::json j, const std::filesystem::path& dir,
                          const OperatorProjectImportOptions& options, OperatorProjectImport& r);

// An imported project back in its own layout: `candidate`'s files (in the operator-project form) are
// written into `projectDir` (a copy of the project) at their project paths (op_kernel/<op>.cpp,
// op_host/<op>.cpp, op_host/<header>); nothing else in the folder changes. Empty: written; otherwise
// what failed, naming the file.
std::vector<Diagnostic> writeCandidateIntoOperatorProject(const Candidate& candidate,
                                                          const std::filesystem::path& projectDir);

}  // namespace kwb
