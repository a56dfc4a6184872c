// SPDX-License-Identifier: MIT
// Every exercise of the course is gradable: its reference solution passes the grading (verifier, then
// the cost-model target) and its starting kernel fails it (docs/lessons.md, "Exercises").
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>

#include "core/agent/Lesson.h"
#include "core/agent/LessonExercise.h"

namespace kwb {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> lessonsWithExercises() {
  std::vector<std::string> out;
  try {
    for (const auto& n : loadCourse().ready())
      if (loadLesson(n).exercise) out.push_back(n);
  } catch (const std::exception&) {
    // LessonCatalog (LessonReplayTest) reports an unreadable course or lesson.
  }
  return out;
}

TEST(LessonExercises, TheCourseHasExercises) {
  EXPECT_GE(lessonsWithExercises().size(), 3u);
}

TEST(LessonExercises, ALessonWithoutAnExerciseCannotBeGraded) {
  BackendEvaluator evaluator("ascend-sim", "");
  EXPECT_THROW(gradeExercise(loadLesson("missing-sync"), "", evaluator, fs::temp_directory_path()),
               std::invalid_argument);
}

class LessonExercise : public ::testing::TestWithParam<std::string> {
 protected:
  fs::path work(const std::string& what) {
    return fs::temp_directory_path() /
           ("kwb-exercise-" + GetParam() + "-" + what + "-" + std::to_string(::getpid()));
  }
};

TEST_P(LessonExercise, TheSolutionPassesAndTheStartingKernelFails) {
  const Lesson lesson = loadLesson(GetParam());
  ASSERT_TRUE(lesson.exercise);
  EXPECT_GE(lesson.exercise->hints.size(), 2u);
  BackendEvaluator evaluator("ascend-sim", "");
  const fs::path solutionDir = work("solution");
  const ExerciseGrade solution =
      gradeExercise(lesson, lesson.exercise->solutionKernel, evaluator, solutionDir, 12345);
  EXPECT_TRUE(solution.passed) << solution.summary;
  const fs::path startDir = work("start");
  const ExerciseGrade start = gradeExercise(lesson, lesson.exercise->startKernel, evaluator, startDir, 12345);
  EXPECT_FALSE(start.passed) << start.summary;
  if (lesson.exercise->targetUs && start.correct) {
    // A slow-kernel exercise: the start is correct and fails only on time.
    EXPECT_FALSE(start.fastEnough);
    EXPECT_NE(start.summary.find("not below the target"), std::string::npos) << start.summary;
  }
  fs::remove_all(solutionDir);
  fs::remove_all(startDir);
}

INSTANTIATE_TEST_SUITE_P(Exercises, LessonExercise, ::testing::ValuesIn(lessonsWithExercises()),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (auto& c : n)
                             if (c == '-') c = '_';
                           return n;
                         });

}  // namespace
}  // namespace kwb
