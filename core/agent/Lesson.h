// SPDX-License-Identifier: MIT
#pragma once
// Lessons: recorded trajectories written by us (resources/lessons/<name>/lesson.json) in which a
// realistic mistake is repaired from the workbench's feedback. Each step holds the model's recorded
// reply, a short explanation for newcomers and what the step must show (its verdict, the diagnostic
// categories it must produce, "faster than the previous step"). Playing a lesson runs the real agent
// loop with a ReplayClient (every iteration is labelled origin "replay") against a real backend, so
// the feedback a newcomer sees is the emulator's own, and checks the expectations.
//
// lesson.json: {"format": "kwb-lesson", "version": 1, "name", "title", "task" (a folder name under
// resources/tasks, or a path relative to the lesson), "summary", "steps": [{"title", "explanation",
// "reply", "expect": {"verdict": "pass", "fails": true, "categories": ["misaligned-copy"],
// "faster_than_previous": true}}]}

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/agent/AgentEvents.h"
#include "core/agent/CandidateEvaluator.h"
#include "core/model/Session.h"

namespace kwb {

struct LessonExpectation {
  std::optional<std::string> verdict;   // "pass", "wrong_answer", ...
  bool fails = false;                   // any verdict but pass
  std::vector<std::string> categories;  // each must appear among the iteration's diagnostics
  bool fasterThanPrevious = false;      // estimated time below the previous step's
};

struct LessonStep {
  std::string title;
  std::string explanation;
  std::string reply;
  LessonExpectation expect;
};

struct Lesson {
  std::string name;
  std::string title;
  std::string task;
  std::string summary;
  std::vector<LessonStep> steps;
  std::filesystem::path dir;  // where lesson.json was read
};

// resources/lessons under the workbench data root.
std::filesystem::path lessonsDir();
// Lesson names (folder names holding a lesson.json), sorted.
std::vector<std::string> listLessons(const std::filesystem::path& dir = lessonsDir());
// A lesson by name (looked up in lessonsDir()) or by folder / lesson.json path. Throws
// std::runtime_error naming the file and field on any problem.
Lesson loadLesson(const std::string& nameOrPath);
std::filesystem::path lessonTaskDir(const Lesson& lesson);

struct LessonStepResult {
  int iterationId = 0;
  std::string verdict;  // "" when the step produced no verdict
  std::optional<double> timeUs;
  std::vector<std::string> problems;  // unmet expectations of this step
};

struct LessonResult {
  Session session;
  std::vector<LessonStepResult> steps;
  bool passed = false;  // every expectation met and the last step passes
  std::string finishReason;
};

// Plays the lesson into a new session at sessionDir with the given evaluator (BackendEvaluator
// "ascend-sim" for the real thing). The observer, when given, sees the loop's events.
LessonResult playLesson(const Lesson& lesson, const std::filesystem::path& sessionDir,
                        std::shared_ptr<CandidateEvaluator> evaluator, AgentObserver* observer = nullptr,
                        std::optional<std::uint64_t> seed = std::nullopt);

}  // namespace kwb
