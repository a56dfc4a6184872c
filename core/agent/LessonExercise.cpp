// SPDX-License-Identifier: MIT
#include "core/agent/LessonExercise.h"

#include <cstdio>
#include <stdexcept>

#include "core/model/Task.h"

namespace kwb {

namespace {

std::string formatUs(double us) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f us", us);
  return buf;
}

}  // namespace

ExerciseGrade gradeExercise(const Lesson& lesson, const std::string& kernelSource,
                            CandidateEvaluator& evaluator, const std::filesystem::path& workDir,
                            std::optional<std::uint64_t> seed) {
  if (!lesson.exercise) throw std::invalid_argument("lesson " + lesson.name + " has no exercise");
  const Task task = loadTaskDir(exerciseTaskDir(lesson));
  Candidate candidate;
  candidate.files["kernel.cpp"] = kernelSource;
  candidate.origin = Origin::Human;
  EvaluationContext ctx;
  ctx.workDir = workDir;
  ctx.cacheDir = workDir / "cache";
  ctx.seed = seed;
  EvaluationOutcome out = evaluator.evaluate(task, candidate, ctx);

  ExerciseGrade g;
  g.verdict = out.verdict;
  g.correct = out.verdict == Verdict::Pass;
  if (out.profile && out.profile->totalUs > 0) g.timeUs = out.profile->totalUs;
  g.targetUs = lesson.exercise->targetUs;
  g.fastEnough = g.correct && (!g.targetUs || (g.timeUs && *g.timeUs < *g.targetUs));
  g.passed = g.correct && g.fastEnough;
  g.diagnostics = out.diagnostics;
  if (out.compile)
    g.diagnostics.insert(g.diagnostics.end(), out.compile->diagnostics.begin(),
                         out.compile->diagnostics.end());
  if (out.run)
    g.diagnostics.insert(g.diagnostics.end(), out.run->diagnostics.begin(), out.run->diagnostics.end());
  if (out.verify)
    g.diagnostics.insert(g.diagnostics.end(), out.verify->diagnostics.begin(), out.verify->diagnostics.end());
  if (!g.correct)
    g.summary = "not yet: " + std::string(verdictName(out.verdict)) +
                (out.summary.empty() ? "" : " (" + out.summary + ")");
  else if (!g.fastEnough)
    g.summary = "correct, but " + (g.timeUs ? formatUs(*g.timeUs) : std::string("no estimate")) +
                " is not below the target " + formatUs(*g.targetUs);
  else
    g.summary = "solved: correct" + (g.targetUs && g.timeUs ? ", " + formatUs(*g.timeUs) +
                                                                  " below the target " + formatUs(*g.targetUs)
                                                            : std::string());
  return g;
}

}  // namespace kwb
