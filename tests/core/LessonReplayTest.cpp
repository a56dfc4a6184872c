// SPDX-License-Identifier: MIT
// Every lesson of the course replays, through the real loop and the emulator, to a passing kernel, and
// each step shows what its explanation promises: every step records its verdict (or that it fails
// with named diagnostic categories), so a lesson whose feedback drifts fails here (docs/lessons.md).
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/agent/Lesson.h"

namespace kwb {
namespace {

namespace fs = std::filesystem;

TEST(LessonCatalog, TheCourseListsAtLeastTwelveLessonsWithExplanationsAndWhatToLookAt) {
  const Course course = loadCourse();
  const auto ready = course.ready();
  ASSERT_GE(ready.size(), 12u);
  // Every lesson folder is in the course, so a new lesson cannot be forgotten in the order.
  for (const auto& n : listLessons())
    EXPECT_NE(std::find(ready.begin(), ready.end(), n), ready.end()) << n << " is not in course.json";
  for (const auto& n : ready) {
    const Lesson l = loadLesson(n);
    EXPECT_EQ(l.name, n);
    EXPECT_GE(l.steps.size(), 2u);
    EXPECT_TRUE(fs::exists(lessonTaskDir(l) / "task.json")) << n;
    for (const auto& s : l.steps) {
      EXPECT_GT(s.explanation.size(), 100u) << n << ": " << s.title;
      EXPECT_NE(s.reply.find("```cpp"), std::string::npos) << n;
      EXPECT_TRUE(s.lookAt.has_value()) << n << ": " << s.title << " says nothing about where to look";
      EXPECT_TRUE(s.expect.verdict || (s.expect.fails && !s.expect.categories.empty()))
          << n << ": " << s.title << " records neither a verdict nor the failure's diagnostic categories";
    }
  }
  EXPECT_THROW(loadLesson("no-such-lesson"), std::runtime_error);
}

class LessonFolder : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("kwb-lesson-format-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "l");
    std::ofstream(dir_ / "l" / "k.cpp") << "// kernel\n";
  }
  void TearDown() override { fs::remove_all(dir_); }
  void write(const std::string& stepExtra, const std::string& lessonExtra = "") {
    std::ofstream(dir_ / "l" / "lesson.json")
        << R"({"format": "kwb-lesson", "version": 1, "name": "l", "title": "t", "task": "add_custom",
              "steps": [{"title": "s", "explanation": "e", "reply": "r")"
        << stepExtra << "}]" << lessonExtra << "}";
  }
  fs::path dir_;
};

TEST_F(LessonFolder, AStepKernelFileIsAppendedToTheReplyAsTheKernelBlock) {
  write(R"(, "kernel": "k.cpp", "look_at": {"panel": "diff", "what": "w"})");
  const Lesson l = loadLesson((dir_ / "l").string());
  EXPECT_EQ(l.steps[0].reply, "r\n\n```cpp kernel.cpp\n// kernel\n```\n");
  EXPECT_EQ(l.steps[0].lookAt->panel, "diff");
}

TEST_F(LessonFolder, BadFilesAndPanelsAreRefusedNamingTheField) {
  write(R"(, "kernel": "../k.cpp")");
  try {
    loadLesson((dir_ / "l").string());
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/steps/0/kernel must be a file inside the lesson folder"),
              std::string::npos)
        << e.what();
  }
  write(R"(, "look_at": {"panel": "timeline", "what": "w"})");
  EXPECT_THROW(loadLesson((dir_ / "l").string()), std::runtime_error);
  write("", R"(, "exercise": {"prompt": "p", "start": "k.cpp", "solution": "missing.cpp"})");
  try {
    loadLesson((dir_ / "l").string());
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/exercise/solution"), std::string::npos) << e.what();
  }
  write("", R"(, "exercise": {"prompt": "p", "start": "k.cpp", "solution": "k.cpp", "target_us": -1})");
  EXPECT_THROW(loadLesson((dir_ / "l").string()), std::runtime_error);
}

TEST_F(LessonFolder, TheCourseRefusesUnknownAndDuplicateLessons) {
  write("");
  std::ofstream(dir_ / "course.json")
      << R"({"format": "kwb-course", "lessons": [{"name": "l"}, {"name": "x"}]})";
  EXPECT_THROW(loadCourse(dir_), std::runtime_error);
  std::ofstream(dir_ / "course.json")
      << R"({"format": "kwb-course", "lessons": [{"name": "l"}, {"name": "l"}]})";
  EXPECT_THROW(loadCourse(dir_), std::runtime_error);
  std::ofstream(dir_ / "course.json")
      << R"({"format": "kwb-course", "lessons": [{"name": "l"}, {"name": "x", "pending": "later"}]})";
  EXPECT_EQ(loadCourse(dir_).ready(), std::vector<std::string>{"l"});
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
  EXPECT_EQ(r.session.iterations.back().verdict, Verdict::Pass) << "a course lesson ends on a passing kernel";
  fs::remove_all(dir);
}

std::vector<std::string> courseLessons() {
  try {
    return loadCourse().ready();
  } catch (const std::exception&) {
    return {};  // LessonCatalog reports the unreadable course
  }
}

INSTANTIATE_TEST_SUITE_P(Lessons, LessonReplay, ::testing::ValuesIn(courseLessons()), [](const auto& info) {
  std::string n = info.param;
  for (auto& c : n)
    if (c == '-') c = '_';
  return n;
});

}  // namespace
}  // namespace kwb
