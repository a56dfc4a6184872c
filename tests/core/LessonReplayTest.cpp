// SPDX-License-Identifier: MIT
// Every built-in lesson replays, through the real loop and the emulator, to a passing kernel, and each
// step shows what its explanation promises (the diagnostic category, the failure, the speedup).
#include <gtest/gtest.h>

#include <filesystem>

#include "core/agent/Lesson.h"

namespace kwb {
namespace {

namespace fs = std::filesystem;

TEST(LessonCatalog, AtLeastThreeLessonsLoadWithExplanations) {
  const auto names = listLessons();
  ASSERT_GE(names.size(), 3u);
  for (const auto& n : names) {
    const Lesson l = loadLesson(n);
    EXPECT_EQ(l.name, n);
    EXPECT_GE(l.steps.size(), 2u);
    EXPECT_TRUE(fs::exists(lessonTaskDir(l) / "task.json")) << n;
    for (const auto& s : l.steps) {
      EXPECT_GT(s.explanation.size(), 100u) << n << ": " << s.title;
      EXPECT_NE(s.reply.find("```cpp"), std::string::npos) << n;
    }
  }
  EXPECT_THROW(loadLesson("no-such-lesson"), std::runtime_error);
}

class LessonReplay : public ::testing::TestWithParam<std::string> {};

TEST_P(LessonReplay, ReplaysToAPassingKernelOnTheEmulator) {
  const Lesson lesson = loadLesson(GetParam());
  const fs::path dir =
      fs::temp_directory_path() / ("kwb-lesson-test-" + lesson.name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const LessonResult r =
      playLesson(lesson, dir, std::make_shared<BackendEvaluator>("ascend-sim", ""), nullptr, 12345);
  std::string problems;
  for (const auto& s : r.steps)
    for (const auto& p : s.problems) problems += p + "\n";
  for (const auto& it : r.session.iterations) {
    problems +=
        "#" + std::to_string(it.id) + " " + (it.verdict ? std::string(verdictName(*it.verdict)) : "-") + "\n";
    if (it.run)
      for (const auto& d : it.run->diagnostics) problems += "  " + d.format() + "\n";
    if (it.compile)
      for (const auto& d : it.compile->diagnostics) problems += "  " + d.format() + "\n";
    for (const auto& d : it.diagnostics) problems += "  " + d.format() + "\n";
  }
  EXPECT_TRUE(r.passed) << r.finishReason << "\n" << problems;
  ASSERT_EQ(r.session.iterations.size(), lesson.steps.size());
  for (const auto& it : r.session.iterations) EXPECT_EQ(it.origin, Origin::Replay);
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Lessons, LessonReplay,
                         ::testing::Values("unaligned-tail", "missing-sync", "double-buffering"),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (auto& c : n)
                             if (c == '-') c = '_';
                           return n;
                         });

}  // namespace
}  // namespace kwb
