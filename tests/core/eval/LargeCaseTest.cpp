// SPDX-License-Identifier: MIT
// Cases of 10^8 elements (issue 20, docs/task-format.md "Size limits"): inputs are drawn straight into
// their encoded bytes (the same values as the double form), the tensors of a large case are drawn side
// by side with the same result as one after another, the run's input copies are compared a piece at a
// time, and a case that needs more memory than the machine has is refused with the numbers.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/base/TempWorkDir.h"
#include "core/eval/CaseMemory.h"
#include "core/model/Task.h"
#include "core/toolchain/ResultFile.h"
#include "core/verify/InputGenerator.h"
#include "core/verify/OutputCheck.h"
#include "core/verify/Verification.h"

using namespace kwb;
using namespace kwb::verify;
namespace fs = std::filesystem;

namespace {

Task twoInputTask(std::int64_t elements, const char* dtype) {
  nlohmann::json j = {
      {"name", "add_custom"},
      {"inputs", {{{"name", "x"}, {"dtype", dtype}}, {{"name", "y"}, {"dtype", dtype}}}},
      {"outputs", {{{"name", "z"}, {"dtype", dtype}}}},
      {"cases", {{{"name", "big"}, {"shapes", {{"x", {elements}}, {"y", {elements}}, {"z", {elements}}}}}}}};
  return parseTask(j, "tasks/add/task.json");
}

TensorSpec spec(const char* name, DType t, std::int64_t n) {
  TensorSpec s;
  s.name = name;
  s.dtype = t;
  s.shape = {n};
  return s;
}

}  // namespace

TEST(LargeCaseInputs, EncodedDrawsAreTheDoubleDrawsEncoded) {
  for (DType t : {DType::Float16, DType::BFloat16, DType::Float32, DType::Int8, DType::Int32, DType::Bool}) {
    for (Distribution d : {Distribution::Uniform, Distribution::Normal, Distribution::Large}) {
      ValueHint hint;
      hint.distribution = d;
      const Bytes expected = encodeAll(t, generateValues(hint, t, 1001, 42));
      EXPECT_EQ(generateEncoded(hint, t, 1001, 42), expected)
          << dtypeName(t) << " " << distributionName(d) << ": a seed must replay the same inputs";
    }
  }
}

TEST(LargeCaseInputs, ProgressIsReportedWhileDrawing) {
  std::vector<std::int64_t> ticks;
  const std::int64_t n = (std::int64_t{1} << 22) * 2 + 5;
  generateEncoded(ValueHint{}, DType::Int8, n, 1, [&](std::int64_t done) { ticks.push_back(done); });
  ASSERT_EQ(ticks.size(), 2u);
  EXPECT_EQ(ticks[0], std::int64_t{1} << 22);
  EXPECT_EQ(ticks[1], std::int64_t{1} << 23);
}

TEST(LargeCaseInputs, TensorsDrawnSideBySideHoldTheSameValues) {
  // The case draws its two inputs on two threads, and each reports its progress once.
  const std::int64_t n = kParallelInputElements;
  const Task task = twoInputTask(n, "float16");
  std::int64_t lastDone = 0, total = 0;
  const PreparedCase p = prepareCase(task, task.cases[0], 9, {}, [&](std::int64_t done, std::int64_t all) {
    EXPECT_GE(done, lastDone) << "progress only moves forward";
    lastDone = done;
    total = all;
  });
  EXPECT_EQ(total, 2 * n);
  ASSERT_EQ(p.inputData.size(), 2u);
  for (std::size_t k = 0; k < 2; ++k) {
    const auto& in = p.inputs[k];
    const ValueHint hint = chooseHint(task.cases[0], in.name, 9);
    EXPECT_EQ(p.inputData[k], generateEncoded(hint, in.dtype, n, deriveSeed(9, "big", in.name))) << in.name;
  }
  EXPECT_NE(p.inputData[0], p.inputData[1]) << "each tensor draws from its own seed";
}

TEST(LargeCaseInputs, InputChangesFoundPieceByPieceAsInOneGo) {
  const TensorSpec s = spec("x", DType::Float32, 1000);
  Bytes before(4000);
  for (std::size_t i = 0; i < before.size(); ++i) before[i] = static_cast<std::uint8_t>(i * 7);
  Bytes after = before;
  after[4 * 3 + 2] ^= 1;    // element 3
  after[4 * 500 + 3] ^= 1;  // element 500, its last byte
  after[4 * 999] ^= 1;      // the last element
  const InputCheck whole = checkInputUnchanged(s, before, after);
  EXPECT_EQ(whole.changed, 3);
  for (std::size_t piece : {1u, 3u, 5u, 4096u}) {
    InputChangeScan scan(s, before);
    for (std::size_t at = 0; at < after.size(); at += piece)
      scan.compare(at, after.data() + at, std::min(piece, after.size() - at));
    const InputCheck c = scan.result();
    EXPECT_EQ(c.changed, whole.changed) << "pieces of " << piece;
    EXPECT_EQ(c.firstChangedIndex, 3) << "pieces of " << piece;
    EXPECT_EQ(c.summary, whole.summary) << "pieces of " << piece;
  }
  InputChangeScan same(s, before);
  same.compare(0, before.data(), before.size());
  EXPECT_EQ(same.result().changed, 0);
  EXPECT_TRUE(same.result().summary.empty());
}

TEST(LargeCaseInputs, ResultFilesAreScannedInPiecesWithTheSameChecks) {
  std::string error;
  const TempWorkDir dir(makeTempWorkDir("kwb-largecase-", error));
  ASSERT_TRUE(error.empty()) << error;
  const fs::path file = dir.path() / "after.bin";
  std::string content(9 << 20, '\0');  // more than two of the reader's pieces
  for (std::size_t i = 0; i < content.size(); ++i) content[i] = static_cast<char>(i % 251);
  { std::ofstream(file, std::ios::binary) << content; }
  std::string seen;
  std::uint64_t next = 0;
  int pieces = 0;
  EXPECT_EQ(scanResultFile(file, content.size(),
                           [&](std::uint64_t at, const std::uint8_t* b, std::size_t n) {
                             EXPECT_EQ(at, next);
                             next += n;
                             ++pieces;
                             seen.append(reinterpret_cast<const char*>(b), n);
                           }),
            "");
  EXPECT_EQ(seen, content);
  EXPECT_GE(pieces, 3);
  auto never = [](std::uint64_t, const std::uint8_t*, std::size_t) {
    ADD_FAILURE() << "nothing may be read";
  };
  EXPECT_NE(scanResultFile(file, content.size() + 1, never).find("expected exactly"), std::string::npos);
  fs::create_symlink(file, dir.path() / "link.bin");
  EXPECT_NE(scanResultFile(dir.path() / "link.bin", content.size(), never).find("symbolic link"),
            std::string::npos);
}

TEST(LargeCaseMemory, MemAvailableFromACapturedMeminfo) {
  std::ifstream in(std::string(KWB_FIXTURES_DIR) + "/meminfo/debian12_24gib.txt");
  std::ostringstream text;
  text << in.rdbuf();
  const auto available = parseMemAvailable(text.str());
  ASSERT_TRUE(available);
  EXPECT_EQ(*available, std::int64_t{21463504} * 1024);
  EXPECT_FALSE(parseMemAvailable("MemTotal:       24683748 kB\n"));
  EXPECT_FALSE(parseMemAvailable("MemAvailable:   lots kB\n"));
  EXPECT_FALSE(parseMemAvailable("MemAvailable:   123 MB\n"));
}

TEST(LargeCaseMemory, ACaseTooLargeForTheMachineIsRefusedWithTheNumbers) {
  const Task task = twoInputTask(100000000, "float32");  // 10^8 float32: 381 MiB per tensor
  const CaseMemoryNeed need = caseMemoryNeed(task, task.cases[0]);
  EXPECT_TRUE(need.large());
  EXPECT_EQ(need.inputBytes, 800000000);
  EXPECT_EQ(need.outputBytes, 400000000);
  // inputs + poison + reference doubles + outputs + decoded outputs, then the larger of the emulator's
  // GM (inputs + outputs) and the reference's copies (inputs + doubles).
  EXPECT_EQ(need.peakBytes(),
            std::int64_t{800000000} + 400000000 + 800000000 + 400000000 + 800000000 + 1600000000);
  EXPECT_EQ(caseMemoryProblem(task.cases[0], need, std::int64_t{16} << 30), "");
  EXPECT_EQ(caseMemoryProblem(task.cases[0], need, std::nullopt), "") << "unknown memory refuses nothing";
  const std::string problem = caseMemoryProblem(task.cases[0], need, std::int64_t{2} << 30);
  EXPECT_NE(problem.find("case big needs about 4.5 GiB of memory (inputs 763 MiB, outputs 381 MiB"),
            std::string::npos)
      << problem;
  EXPECT_NE(problem.find("this machine has 2.0 GiB available"), std::string::npos) << problem;
  const Task small = twoInputTask(1 << 20, "float32");
  EXPECT_FALSE(caseMemoryNeed(small, small.cases[0]).large());
}
