// SPDX-License-Identifier: MIT
// Every built-in task loads, and its expert candidate passes on the emulator (the suite's ground truth).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/eval/Evaluator.h"
#include "core/model/Task.h"
#include "core/toolchain/SimBackend.h"

using namespace kwb;
namespace fs = std::filesystem;

namespace {
std::vector<std::string> builtinTasks() {
  std::vector<std::string> out;
  const fs::path root = fs::path(KWB_SOURCE_DIR) / "resources" / "tasks";
  for (const auto& e : fs::directory_iterator(root))
    if (e.is_directory() && fs::exists(e.path() / "task.json")) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}
}  // namespace

TEST(BuiltinTasks, AtLeastTwentyAcrossTheCategories) {
  const auto names = builtinTasks();
  EXPECT_GE(names.size(), 20u);
  std::set<std::string> categories;
  for (const auto& n : names) {
    const Task t = loadTaskDir(fs::path(KWB_SOURCE_DIR) / "resources" / "tasks" / n);
    categories.insert(t.category);
    EXPECT_TRUE(t.files.reference.has_value()) << n;
    EXPECT_TRUE(fs::exists(t.files.dir / "expert_candidate.cpp")) << n;
    EXPECT_TRUE(t.files.readme.has_value()) << n;
    bool multiElementCase = false;
    for (const auto& c : t.cases)
      multiElementCase = multiElementCase || t.caseTensors(c).front().elements() > 4096;
    EXPECT_TRUE(multiElementCase) << n << " needs a case large enough for several blocks";
  }
  for (const char* c :
       {"elementwise", "activation", "broadcast", "reduction", "normalization", "cast", "select"})
    EXPECT_TRUE(categories.count(c)) << "no task in category " << c;
}

// Issue 15: an attribute hard-coded to its default is caught only when some case sets another value, and
// the verifier names the attribute only when cases with the default pass beside it.
TEST(BuiltinTasks, EveryAttributeTakesADefaultAndAnotherValueAcrossTheCases) {
  for (const auto& n : builtinTasks()) {
    const Task t = loadTaskDir(fs::path(KWB_SOURCE_DIR) / "resources" / "tasks" / n);
    for (const auto& a : t.attrs) {
      bool withDefault = false;
      bool withOther = false;
      for (const auto& c : t.cases) {
        const auto given = c.attrs.find(a.name);
        const bool isDefault = given == c.attrs.end() ? a.defaultValue.has_value()
                                                      : (a.defaultValue && given->second == *a.defaultValue);
        (isDefault ? withDefault : withOther) = true;
      }
      EXPECT_TRUE(withDefault) << n << ": no case runs attribute " << a.name << " at its default";
      EXPECT_TRUE(withOther) << n << ": no case varies attribute " << a.name;
    }
  }
}

class ExpertCandidate : public ::testing::TestWithParam<std::string> {};

TEST_P(ExpertCandidate, PassesOnTheEmulator) {
  const fs::path dir = fs::path(KWB_SOURCE_DIR) / "resources" / "tasks" / GetParam();
  const Task task = loadTaskDir(dir);
  std::ifstream in(dir / "expert_candidate.cpp");
  std::stringstream ss;
  ss << in.rdbuf();
  BackendOptions o;
  o.soc = task.soc;
  o.cacheDir = fs::path(KWB_TEST_BIN_DIR) / "eval-cache";
  SimBackend backend(o);
  EvalRequest r;
  r.candidateSource = ss.str();
  r.candidateName = "expert_candidate.cpp";
  r.workDir = fs::path(KWB_TEST_BIN_DIR) / "eval-work" / ("expert-" + GetParam());
  r.cacheDir = o.cacheDir;
  const EvalReport rep = evaluate(task, backend, r);
  EXPECT_EQ(rep.verdict, Verdict::Pass) << rep.summary << "\n" << nlohmann::json(rep).dump(2).substr(0, 8000);
}

INSTANTIATE_TEST_SUITE_P(Builtin, ExpertCandidate, ::testing::ValuesIn(builtinTasks()),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });
