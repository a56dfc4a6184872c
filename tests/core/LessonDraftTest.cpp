// SPDX-License-Identifier: MIT
// A real session turned into a lesson draft (kwb lesson make) replays as recorded: the draft holds the
// chosen iterations' kernels, feedback and diffs, with TODO placeholders for the explanations.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>

#include "core/agent/Lesson.h"
#include "core/agent/LessonDraft.h"
#include "core/store/SessionStore.h"

namespace kwb {
namespace {

namespace fs = std::filesystem;

TEST(LessonStepList, ParsesIdsAndNamesTheBadElement) {
  EXPECT_EQ(parseStepList("1,3,7"), (std::vector<int>{1, 3, 7}));
  EXPECT_EQ(parseStepList("2"), (std::vector<int>{2}));
  for (const char* bad : {"", "1,,3", "1,x", "0", "-1", "1,1", "1 ,2", "99999999999"})
    EXPECT_THROW(parseStepList(bad), std::invalid_argument) << bad;
  try {
    parseStepList("1,x");
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("--steps element 2 \"x\""), std::string::npos) << e.what();
  }
}

class LessonDraftTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("kwb-lesson-draft-" + std::to_string(::getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_);
    // A real session: the first-kernel lesson played through the loop on the emulator.
    const LessonResult played = playLesson(loadLesson("first-kernel"), root_ / "session",
                                           std::make_shared<BackendEvaluator>("ascend-sim", ""), nullptr, 7);
    ASSERT_TRUE(played.passed);
    session_ = SessionStore::load(root_ / "session");
    ASSERT_EQ(session_.iterations.size(), 2u);
  }
  void TearDown() override { fs::remove_all(root_); }
  LessonResult replay(const fs::path& lessonDir, const std::string& sessionName) {
    return playLesson(loadLesson(lessonDir.string()), root_ / sessionName,
                      std::make_shared<BackendEvaluator>("ascend-sim", ""), nullptr, 7);
  }
  fs::path root_;
  Session session_;
};

TEST_F(LessonDraftTest, ADraftOfChosenIterationsReplaysAsRecorded) {
  const fs::path out = root_ / "my-lesson";
  const fs::path file = writeLessonDraft(session_, {1, 2}, out);
  EXPECT_EQ(file, out / "lesson.json");
  const Lesson draft = loadLesson(out.string());
  EXPECT_EQ(draft.name, "my-lesson");
  EXPECT_EQ(draft.task, "abs_custom");
  ASSERT_EQ(draft.steps.size(), 2u);
  EXPECT_EQ(draft.steps[0].explanation.rfind("TODO", 0), 0u);
  EXPECT_TRUE(draft.steps[0].expect.fails);
  EXPECT_NE(std::find(draft.steps[0].expect.categories.begin(), draft.steps[0].expect.categories.end(),
                      "multicore-overlap"),
            draft.steps[0].expect.categories.end());
  EXPECT_EQ(draft.steps[1].expect.verdict, "pass");
  const LessonResult r = replay(out, "replayed");
  std::string problems;
  for (const auto& s : r.steps)
    for (const auto& p : s.problems) problems += p + "\n";
  EXPECT_TRUE(r.passed) << problems;
  ASSERT_EQ(r.session.iterations.size(), 2u);
  EXPECT_EQ(r.session.iterations[1].candidate.files.begin()->second,
            session_.iterations[1].candidate.files.begin()->second);
}

TEST_F(LessonDraftTest, ADraftMayEndOnAFailingIteration) {
  const fs::path out = root_ / "failing";
  writeLessonDraft(session_, {1}, out, {"one-step"});
  const Lesson draft = loadLesson(out.string());
  EXPECT_EQ(draft.name, "one-step");
  EXPECT_TRUE(replay(out, "replayed-failing").passed);
}

TEST_F(LessonDraftTest, UnknownIterationsAndBusyFoldersAreRefused) {
  EXPECT_THROW(writeLessonDraft(session_, {1, 9}, root_ / "x"), std::runtime_error);
  EXPECT_FALSE(fs::exists(root_ / "x"));
  EXPECT_THROW(writeLessonDraft(session_, {}, root_ / "y"), std::runtime_error);
  EXPECT_THROW(writeLessonDraft(session_, {1}, root_ / "session"), std::runtime_error);
}

}  // namespace
}  // namespace kwb
