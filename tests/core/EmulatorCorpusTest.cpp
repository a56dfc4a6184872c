// SPDX-License-Identifier: MIT
// Drives the emulator corpus under tests/emulator through the real `kwb sim build` and the built programs:
//  - corpus/<name>/: correct Ascend C programs; each must build, exit 0, print PASS and write a report
//    with status "ok" and no error diagnostics;
//  - broken/<name>.cpp: one deliberate bug each, marked `// EXPECT: <category> [block=N]` on the offending
//    line. Compile-time categories (unsupported-api, unsupported-dtype) must fail the build naming the
//    category and the line; every other one must build, fail at run time, and report an error diagnostic
//    of exactly that category at that line (and block), with no error of any other category;
//  - public_style/add_custom: a kernel-launch sample as published (data_utils.h, gen_data.py,
//    verify_result.py) must build and run unmodified and verify with "test pass".

#include "core/process/ProcessRunner.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace fs = std::filesystem;

namespace {

const fs::path kEmulatorTests = fs::path(KWB_SOURCE_DIR) / "tests" / "emulator";
constexpr auto kBuildTimeout = std::chrono::minutes(5);
constexpr auto kRunTimeout = std::chrono::minutes(2);

std::vector<std::string> listCorpus() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(kEmulatorTests / "corpus", ec)) {
    if (e.is_directory()) names.push_back(e.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<std::string> listBroken() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(kEmulatorTests / "broken", ec)) {
    if (e.is_regular_file() && e.path().extension() == ".cpp") names.push_back(e.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<fs::path> cppFilesIn(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.is_regular_file() && e.path().extension() == ".cpp") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// A scratch directory removed at the end of the test unless it failed (kept for inspection).
class ScratchDir {
 public:
  explicit ScratchDir(const std::string& name) {
    path_ = fs::temp_directory_path() /
            ("kwb_emu_" + name + "_" + std::to_string(::getpid()) + "_" +
             std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
    fs::create_directories(path_);
  }
  ~ScratchDir() {
    if (!::testing::Test::HasFailure()) {
      std::error_code ec;
      fs::remove_all(path_, ec);
    }
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

std::string describe(const kwb::ProcessResult& r) {
  std::string s = r.describe();
  s += "\n--- stdout ---\n" + r.stdoutText.substr(0, 8000);
  s += "\n--- stderr ---\n" + r.stderrText.substr(0, 8000);
  return s;
}

kwb::ProcessResult simBuild(const fs::path& app, const std::vector<fs::path>& sources,
                            const std::optional<fs::path>& cwd = std::nullopt) {
  kwb::ProcessSpec spec;
  spec.argv = {KWB_KWB_EXE, "sim", "build", "-o", app.string()};
  for (const auto& s : sources) spec.argv.push_back(s.string());
  if (cwd) spec.workingDirectory = cwd->string();
  spec.timeout = kBuildTimeout;
  return kwb::ProcessRunner().run(spec);
}

kwb::ProcessResult runApp(const fs::path& app, const fs::path& report, const fs::path& cwd,
                          const std::map<std::string, std::string>& extraEnv = {}) {
  kwb::ProcessSpec spec;
  spec.argv = {app.string()};
  spec.workingDirectory = cwd.string();
  spec.environment = extraEnv;
  spec.environment["KWB_SIM_REPORT"] = report.string();
  spec.timeout = kRunTimeout;
  return kwb::ProcessRunner().run(spec);
}

std::optional<nlohmann::json> readReport(const fs::path& report, std::string* error) {
  std::ifstream in(report);
  if (!in) {
    *error = "no report written at " + report.string();
    return std::nullopt;
  }
  std::stringstream buf;
  buf << in.rdbuf();
  nlohmann::json j = nlohmann::json::parse(buf.str(), nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    *error = "report is not a JSON object: " + buf.str().substr(0, 2000);
    return std::nullopt;
  }
  return j;
}

bool isErrorDiagnostic(const nlohmann::json& d) {
  const std::string sev = d.value("severity", "error");
  return sev == "error" || sev == "fatal";
}

struct Expectation {
  std::string category;
  int line = 0;
  std::optional<int> block;
};

// Finds the single `// EXPECT: <category> [block=N]` marker of a broken program.
std::optional<Expectation> readExpectation(const fs::path& file) {
  static const std::regex marker(R"(//\s*EXPECT:\s*([a-z][a-z-]*)(?:\s+block=(\d+))?)");
  std::ifstream in(file);
  std::string text;
  std::optional<Expectation> found;
  for (int lineNo = 1; std::getline(in, text); ++lineNo) {
    std::smatch m;
    if (!std::regex_search(text, m, marker)) continue;
    if (found) return std::nullopt;  // more than one marker: ambiguous
    Expectation e;
    e.category = m[1].str();
    e.line = lineNo;
    if (m[2].matched) e.block = std::stoi(m[2].str());
    found = e;
  }
  return found;
}

bool isCompileTimeCategory(const std::string& category) {
  return category == "unsupported-api" || category == "unsupported-dtype" || category == "compile-error";
}

}  // namespace

// ---------------------------------------------------------------------------------------------- corpus

class EmulatorCorpusProgram : public ::testing::TestWithParam<std::string> {};

TEST_P(EmulatorCorpusProgram, BuildsRunsAndMatchesReference) {
  const fs::path dir = kEmulatorTests / "corpus" / GetParam();
  const std::vector<fs::path> sources = cppFilesIn(dir);
  ASSERT_FALSE(sources.empty()) << dir;
  ScratchDir scratch(GetParam());
  const fs::path app = scratch.path() / "app";
  const fs::path report = scratch.path() / "report.json";

  const kwb::ProcessResult build = simBuild(app, sources);
  ASSERT_TRUE(build.ok()) << "kwb sim build failed for " << GetParam() << ": " << describe(build);
  ASSERT_TRUE(fs::exists(app)) << "kwb sim build reported success but wrote no " << app;

  const kwb::ProcessResult run = runApp(app, report, scratch.path());
  EXPECT_TRUE(run.ok()) << GetParam() << " did not exit 0: " << describe(run);
  EXPECT_NE(run.stdoutText.find("PASS"), std::string::npos) << "no PASS line: " << describe(run);
  EXPECT_EQ(run.stdoutText.find("FAIL"), std::string::npos) << "a FAIL line: " << describe(run);

  std::string error;
  const auto j = readReport(report, &error);
  ASSERT_TRUE(j.has_value()) << error << "\n" << describe(run);
  EXPECT_EQ(j->value("status", ""), "ok") << j->dump(2).substr(0, 4000);
  ASSERT_TRUE(j->contains("blocks")) << "report lacks \"blocks\"";
  EXPECT_GE(j->at("blocks").get<int>(), 1);
  ASSERT_TRUE(j->contains("diagnostics") && j->at("diagnostics").is_array()) << "report lacks diagnostics[]";
  for (const auto& d : j->at("diagnostics")) {
    EXPECT_FALSE(isErrorDiagnostic(d)) << "false alarm on a correct program: " << d.dump(2);
  }
}

INSTANTIATE_TEST_SUITE_P(EmulatorCorpus, EmulatorCorpusProgram, ::testing::ValuesIn(listCorpus()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

// Programs for the 310P only (tests/emulator/soc310p: APIs the reference lists for the inference parts
// alone, such as Scatter), built with --soc Ascend310P3 and held to the corpus's rules.
TEST(EmulatorCorpusSoc310P, ScatterBuildsRunsAndMatchesReference) {
  ScratchDir scratch("soc310p_scatter");
  const fs::path app = scratch.path() / "app";
  const fs::path report = scratch.path() / "report.json";
  kwb::ProcessSpec spec;
  spec.argv = {KWB_KWB_EXE,   "sim", "build",      "--soc",
               "Ascend310P3", "-o",  app.string(), (kEmulatorTests / "soc310p" / "scatter.cpp").string()};
  spec.timeout = kBuildTimeout;
  const kwb::ProcessResult build = kwb::ProcessRunner().run(spec);
  ASSERT_TRUE(build.ok()) << describe(build);
  const kwb::ProcessResult run = runApp(app, report, scratch.path());
  EXPECT_TRUE(run.ok()) << describe(run);
  EXPECT_NE(run.stdoutText.find("PASS"), std::string::npos) << describe(run);
  std::string error;
  const auto j = readReport(report, &error);
  ASSERT_TRUE(j.has_value()) << error;
  EXPECT_EQ(j->value("status", ""), "ok") << j->dump(2).substr(0, 4000);
  for (const auto& d : j->value("diagnostics", nlohmann::json::array()))
    EXPECT_FALSE(isErrorDiagnostic(d)) << "false alarm on a correct program: " << d.dump(2);
}

// ---------------------------------------------------------------------------------------------- broken

class EmulatorCorpusBroken : public ::testing::TestWithParam<std::string> {};

TEST_P(EmulatorCorpusBroken, IsCaughtWithTheExpectedCategoryAtTheMarkedLine) {
  const fs::path source = kEmulatorTests / "broken" / (GetParam() + ".cpp");
  const auto expected = readExpectation(source);
  ASSERT_TRUE(expected.has_value()) << source << " needs exactly one `// EXPECT: <category>` marker";
  ScratchDir scratch(GetParam());
  const fs::path app = scratch.path() / "app";
  const fs::path report = scratch.path() / "report.json";
  const std::string where = source.filename().string() + ":" + std::to_string(expected->line);

  const kwb::ProcessResult build = simBuild(app, {source});
  if (isCompileTimeCategory(expected->category)) {
    ASSERT_TRUE(build.started) << describe(build);
    EXPECT_FALSE(build.ok()) << "the build of " << GetParam() << " must fail at compile time";
    const std::string out = build.stdoutText + build.stderrText;
    EXPECT_NE(out.find(expected->category), std::string::npos)
        << "compiler output does not name the category " << expected->category << ": " << describe(build);
    EXPECT_NE(out.find(where + ":"), std::string::npos)
        << "compiler output does not point at " << where << ": " << describe(build);
    return;
  }

  ASSERT_TRUE(build.ok()) << "a run-time bug must still build: " << describe(build);
  std::map<std::string, std::string> env;
  if (expected->category == "timeout") env["KWB_SIM_BLOCK_TIMEOUT_MS"] = "3000";
  const kwb::ProcessResult run = runApp(app, report, scratch.path(), env);
  ASSERT_TRUE(run.started) << describe(run);
  EXPECT_FALSE(run.timedOut) << "the emulator itself must end a hanging block: " << describe(run);
  EXPECT_FALSE(run.ok()) << "exit status must be non-zero on an error diagnostic: " << describe(run);

  std::string error;
  const auto j = readReport(report, &error);
  ASSERT_TRUE(j.has_value()) << error << "\n" << describe(run);
  EXPECT_EQ(j->value("status", ""), "error");
  ASSERT_TRUE(j->contains("diagnostics") && j->at("diagnostics").is_array()) << j->dump(2);

  bool matched = false;
  std::vector<std::string> others;
  for (const auto& d : j->at("diagnostics")) {
    if (!isErrorDiagnostic(d)) continue;
    const std::string category = d.value("category", "");
    if (category != expected->category) {
      others.push_back(d.dump());
      continue;
    }
    // A hang has no emulated call to attribute a line to (the spin loop makes none): block only.
    const bool lineOk =
        expected->category == "timeout" || (d.value("line", 0) == expected->line &&
                                            fs::path(d.value("file", "")).filename() == source.filename());
    const bool blockOk = !expected->block || (d.contains("block") && d.at("block").is_number_integer() &&
                                              d.at("block").get<int>() == *expected->block);
    if (lineOk && blockOk) matched = true;
  }
  EXPECT_TRUE(matched) << "no " << expected->category << " error at " << where
                       << (expected->block ? " in block " + std::to_string(*expected->block) : std::string())
                       << "; report: " << j->dump(2).substr(0, 6000);
  EXPECT_TRUE(others.empty()) << "errors of other categories (the check must be precise):\n"
                              << [&] {
                                   std::string s;
                                   for (const auto& o : others) s += o + "\n";
                                   return s;
                                 }();
}

INSTANTIATE_TEST_SUITE_P(EmulatorCorpus, EmulatorCorpusBroken, ::testing::ValuesIn(listBroken()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

TEST(EmulatorCorpusLayout, EveryCheckHasABrokenProgramAndEveryMarkerIsWellFormed) {
  const std::vector<std::string> broken = listBroken();
  for (const char* name :
       {"ub_overflow", "misaligned_copy", "gm_out_of_bounds", "ub_out_of_bounds", "queue_deque_empty",
        "queue_alloc_past_count", "queue_use_after_free", "queue_double_free", "missing_sync",
        "unpaired_flag", "multicore_overlap", "invalid_param_mask", "invalid_param_compare", "runtime_crash",
        "timeout", "unsupported_api", "unsupported_dtype",
        // The cube unit's checks (issue 14, docs/emulator.md "Cube unit").
        "cube_l0a_overflow", "cube_nd2nz_c0_stride", "cube_missing_sync", "cube_fixpipe_src_stride",
        "cube_fixpipe_quant_missing", "cube_l0c_stale_read",
        // Static tensor programming on the cube (docs/emulator.md "Cube unit", LocalMemAllocator).
        "cube_allocator_wrong_position", "cube_allocator_l0c_overflow",
        // The Matmul high-level API's checks (docs/emulator.md "Matmul API").
        "matmul_iterate_before_set_tensor", "matmul_iterate_after_end", "matmul_set_tail_too_large",
        "matmul_tiling_l0c_overflow", "matmul_gm_out_of_bounds", "matmul_unsupported_nz",
        // Device-faithful uninitialised memory (issue 15, docs/emulator.md "Uninitialised memory").
        "uninitialized_read_padding",
        // Mixed AIC/AIV kernels (issue 14, docs/emulator.md "Mixed AIC/AIV kernels").
        "mix_wait_without_set", "mix_set_never_waited", "mix_flag_id_out_of_range", "mix_aiv_cube_buffer",
        "mix_flags_deadlock"}) {
    EXPECT_NE(std::find(broken.begin(), broken.end(), name), broken.end())
        << "missing broken/" << name << ".cpp";
  }
  static const std::vector<std::string> known = {
      "compile-error",     "ub-overflow",     "misaligned-copy", "gm-out-of-bounds",  "ub-out-of-bounds",
      "queue-misuse",      "missing-sync",    "unpaired-flag",   "multicore-overlap", "invalid-param",
      "unsupported-dtype", "unsupported-api", "runtime-crash",   "timeout",           "uninitialized-read"};
  for (const auto& name : broken) {
    const auto e = readExpectation(kEmulatorTests / "broken" / (name + ".cpp"));
    ASSERT_TRUE(e.has_value()) << name;
    EXPECT_NE(std::find(known.begin(), known.end(), e->category), known.end()) << name << ": " << e->category;
  }
  EXPECT_GE(listCorpus().size(), 9u);
}

// ------------------------------------------------------------------------------------- public sample

TEST(EmulatorCorpusPublicStyle, AddCustomSampleRunsUnmodifiedAndVerifies) {
  const fs::path sample = kEmulatorTests / "public_style" / "add_custom";
  ScratchDir scratch("public_add_custom");
  const fs::path work = scratch.path() / "add_custom";
  fs::copy(sample, work, fs::copy_options::recursive);

  const char* python = "/usr/bin/python3";
  {
    kwb::ProcessSpec probe;
    probe.argv = {python, "-c", "import numpy"};
    probe.timeout = std::chrono::seconds(60);
    const auto r = kwb::ProcessRunner().run(probe);
    ASSERT_TRUE(r.ok()) << "the sample's scripts need numpy for " << python
                        << " (scripts/deps.sh installs python3-numpy): " << describe(r);
  }
  kwb::ProcessSpec gen;
  gen.argv = {python, "scripts/gen_data.py"};
  gen.workingDirectory = work.string();
  gen.timeout = std::chrono::seconds(120);
  const auto genResult = kwb::ProcessRunner().run(gen);
  ASSERT_TRUE(genResult.ok()) << describe(genResult);
  ASSERT_TRUE(fs::exists(work / "input" / "input_x.bin") && fs::exists(work / "output" / "golden.bin"));

  const fs::path app = work / "add_custom_cpu";
  const auto build = simBuild(app, {work / "add_custom.cpp", work / "main.cpp"}, work);
  ASSERT_TRUE(build.ok()) << describe(build);

  const fs::path report = scratch.path() / "report.json";
  const auto run = runApp(app, report, work);
  EXPECT_TRUE(run.ok()) << describe(run);
  ASSERT_TRUE(fs::exists(work / "output" / "output_z.bin")) << describe(run);
  EXPECT_EQ(fs::file_size(work / "output" / "output_z.bin"), 8u * 2048u * 2u);
  std::string error;
  const auto j = readReport(report, &error);
  ASSERT_TRUE(j.has_value()) << error;
  EXPECT_EQ(j->value("status", ""), "ok") << j->dump(2).substr(0, 4000);
  EXPECT_EQ(j->value("blocks", 0), 8);

  kwb::ProcessSpec verify;
  verify.argv = {python, "scripts/verify_result.py", "output/output_z.bin", "output/golden.bin"};
  verify.workingDirectory = work.string();
  verify.timeout = std::chrono::seconds(120);
  const auto v = kwb::ProcessRunner().run(verify);
  EXPECT_TRUE(v.ok()) << describe(v);
  EXPECT_NE(v.stdoutText.find("test pass"), std::string::npos) << describe(v);

  // The verifier itself must be able to fail: an all-zero output is rejected.
  {
    std::ofstream zeros(work / "output" / "output_z.bin", std::ios::binary | std::ios::trunc);
    const std::vector<char> bytes(8u * 2048u * 2u, 0);
    zeros.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  const auto bad = kwb::ProcessRunner().run(verify);
  EXPECT_FALSE(bad.ok()) << describe(bad);
  EXPECT_EQ(bad.stdoutText.find("test pass"), std::string::npos) << describe(bad);
}
