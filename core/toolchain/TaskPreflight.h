// SPDX-License-Identifier: MIT
#pragma once
// Checks made before any work is spent on a task (an LLM call, a compile): a problem that would fail
// every iteration is reported once, as bad input naming what to fix, instead of surfacing later as
// an internal error or as the candidate's fault. See docs/reliability.md ("Bad input").

#include <filesystem>
#include <string>

#include "core/model/Task.h"

namespace kwb {

// "" when the SoC has a description in socDirectory(); otherwise "unknown soc \"X\"; known: A, B, ...".
std::string unknownSocProblem(const std::string& soc);

// What stops this task from being evaluated at all: no reference.cpp beside task.json (the verifier
// needs it), or an unknown SoC (`socOverride` wins over the task's own when not empty). "" when none.
std::string taskProblemBeforeEvaluation(const Task& task, const std::string& socOverride = {});

// Why evaluations cannot work in `dir` (the evaluator refuses a path with whitespace: its compiler
// command lines cannot carry it). "" when none.
std::string workFolderProblem(const std::filesystem::path& dir);

// What in the environment would fail every evaluation: a temporary folder ($TMPDIR) that is missing,
// not writable, or whose path workFolderProblem refuses. "" when none.
std::string environmentProblemBeforeEvaluation();

}  // namespace kwb
