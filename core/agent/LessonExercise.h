// SPDX-License-Identifier: MIT
#pragma once
// Grading a learner's kernel for a lesson's exercise the way the agent's candidates are graded: the
// verifier decides "correct", then the emulator's cost model decides "fast enough" against the
// exercise's target (docs/lessons.md, "Exercises").

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/agent/CandidateEvaluator.h"
#include "core/agent/Lesson.h"

namespace kwb {

struct ExerciseGrade {
  Verdict verdict = Verdict::Rejected;
  bool correct = false;            // the verifier passed every case
  std::optional<double> timeUs;    // the estimated time of the profiled case
  std::optional<double> targetUs;  // the exercise's target, when it has one
  bool fastEnough = false;         // correct and (no target, or timeUs below it)
  bool passed = false;             // correct and fast enough
  std::string summary;             // one line for the learner
  std::vector<Diagnostic> diagnostics;
};

// Grades `kernelSource` (one kernel.cpp) against the lesson's task. Throws std::invalid_argument when
// the lesson has no exercise. workDir is scratch for the evaluation (created and left to the caller).
ExerciseGrade gradeExercise(const Lesson& lesson, const std::string& kernelSource,
                            CandidateEvaluator& evaluator, const std::filesystem::path& workDir,
                            std::optional<std::uint64_t> seed = std::nullopt);

}  // namespace kwb
