// SPDX-License-Identifier: MIT
#pragma once
// The task folder an operator-project import writes (task.json, reference.cpp, imported/), and the
// imported candidate a new session on that folder starts from as iteration 1, origin `imported`
// (docs/task-format.md, "Importing an operator project"). `kwb task import`, `kwb run` and the GUI's
// "Import an operator project…" share these, so the three agree on the layout.

#include <filesystem>
#include <optional>
#include <string>

#include "core/agent/OpProjectImport.h"
#include "core/model/Candidate.h"

namespace kwb {

// Writes `imported` (which must be ok()) into `out`, which must not hold a task.json yet (it is
// created when missing). Empty: written; otherwise what failed, naming the path.
std::string writeImportedTask(const OperatorProjectImport& imported, const std::filesystem::path& out);

// The candidate under `taskDir`/imported/ (origin Imported), or nullopt when the task has none. The
// folder may have been edited by hand since the import, so it is read as untrusted input: regular
// files only, each bounded, names and sizes checked by the candidate rules (candidateFileProblems).
// Throws std::runtime_error naming the file when it cannot be used.
std::optional<Candidate> loadImportedCandidate(const std::filesystem::path& taskDir);

}  // namespace kwb
