// SPDX-License-Identifier: MIT
#pragma once
// Lessons: recorded trajectories written by us (resources/lessons/<name>/lesson.json) in which a
// realistic mistake is repaired from the workbench's feedback. Each step holds the model's recorded
// reply, a short explanation for newcomers and what the step must show (its verdict, the diagnostic
// categories it must produce, "faster than the previous step"). Playing a lesson runs the real agent
// loop with a ReplayClient (every iteration is labelled origin "replay") against a real backend, so
// the feedback a newcomer sees is the emulator's own, and checks the expectations.
//
// The folder format (lesson.json, kernel files, exercise, course.json) is documented in docs/lessons.md.

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

// Where a newcomer should look after a step: the panel and what in it.
struct LessonLookAt {
  std::string panel;  // one of lessonPanels()
  std::string what;
};

struct LessonStep {
  std::string title;
  std::string explanation;
  std::string reply;       // the recorded model reply, with the kernel file (when given) appended
  std::string kernelFile;  // the step's kernel, relative to the lesson folder ("" when in the reply)
  std::optional<LessonLookAt> lookAt;
  LessonExpectation expect;
};

// A task for the learner at the end of a lesson: a kernel that fails (or is too slow), a hint ladder,
// a reference solution. Graded by the verifier and, when targetUs is set, the emulator's cost model.
struct LessonExercise {
  std::string prompt;
  std::string task;          // the exercise's task (default: the lesson's), resolved like Lesson::task
  std::string startFile;     // relative to the lesson folder
  std::string solutionFile;  // relative to the lesson folder
  std::string startKernel;   // their contents
  std::string solutionKernel;
  std::vector<std::string> hints;
  std::optional<double> targetUs;  // the estimated time (us) a solution must beat
};

struct Lesson {
  std::string name;
  std::string title;
  std::string task;
  std::string summary;
  std::vector<LessonStep> steps;
  std::optional<LessonExercise> exercise;
  std::filesystem::path dir;  // where lesson.json was read
};

// The panels a step's look_at may name.
const std::vector<std::string>& lessonPanels();

// resources/lessons/course.json: the built-in lessons in teaching order, plus announced lessons that
// wait for something (pending: why).
struct CourseEntry {
  std::string lesson;
  std::string pending;  // "" when the lesson exists and is part of the course
};
struct Course {
  std::string title;
  std::vector<CourseEntry> entries;
  std::vector<std::string> ready() const;  // the lessons that exist, in course order
};

// resources/lessons under the workbench data root.
std::filesystem::path lessonsDir();
// Lesson names (folder names holding a lesson.json), sorted.
std::vector<std::string> listLessons(const std::filesystem::path& dir = lessonsDir());
// A lesson by name (looked up in lessonsDir()) or by folder / lesson.json path. Throws
// std::runtime_error naming the file and field on any problem.
Lesson loadLesson(const std::string& nameOrPath);
std::filesystem::path lessonTaskDir(const Lesson& lesson);
// The exercise's task folder (the lesson's task unless the exercise names another).
std::filesystem::path exerciseTaskDir(const Lesson& lesson);
// Throws std::runtime_error naming the file and entry on any problem (unknown lesson, duplicate).
Course loadCourse(const std::filesystem::path& dir = lessonsDir());

struct LessonStepResult {
  int iterationId = 0;
  std::string verdict;  // "" when the step produced no verdict
  std::optional<double> timeUs;
  std::vector<std::string> problems;  // unmet expectations of this step
};

struct LessonResult {
  Session session;
  std::vector<LessonStepResult> steps;
  bool passed = false;  // every expectation met; the last step passes (or is recorded as failing)
  std::string finishReason;
};

// Plays the lesson into a new session at sessionDir with the given evaluator (BackendEvaluator
// "ascend-sim" for the real thing). The observer, when given, sees the loop's events.
LessonResult playLesson(const Lesson& lesson, const std::filesystem::path& sessionDir,
                        std::shared_ptr<CandidateEvaluator> evaluator, AgentObserver* observer = nullptr,
                        std::optional<std::uint64_t> seed = std::nullopt);

}  // namespace kwb
