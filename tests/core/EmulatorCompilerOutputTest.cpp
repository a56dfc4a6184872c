// SPDX-License-Identifier: MIT
// cleanEmulatorCompilerOutput on real g++ captures (tests/fixtures/compiler, README.md there): errors
// reported inside the emulator's headers move to the user's line, refusals become one line, and no
// emulator internal is named; output that has nothing to do with the emulator passes unchanged.

#include "core/emulator/EmulatorCompilerOutput.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace fs = std::filesystem;

namespace {

const fs::path kFixtures = fs::path(KWB_FIXTURES_DIR) / "compiler";
constexpr const char* kHeaders = "emulator/include";  // where capture.sh puts the emulator's headers

std::string readFixture(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class EmulatorCompilerOutputGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(EmulatorCompilerOutputGolden, MatchesTheReviewedRewrite) {
  const std::string raw = readFixture(kFixtures / (GetParam() + ".txt"));
  ASSERT_FALSE(raw.empty()) << GetParam();
  const std::string expected = readFixture(kFixtures / "clean" / (GetParam() + ".txt"));
  ASSERT_FALSE(expected.empty()) << "clean/" << GetParam() << ".txt";
  const std::string cleaned = kwb::cleanEmulatorCompilerOutput(raw, kHeaders);
  EXPECT_EQ(cleaned, expected);
  EXPECT_EQ(cleaned.find("kwb_sim::"), std::string::npos) << cleaned;
  EXPECT_EQ(cleaned.find(kHeaders), std::string::npos) << "points into the emulator's headers:\n" << cleaned;
}

INSTANTIATE_TEST_SUITE_P(Captures, EmulatorCompilerOutputGolden,
                         ::testing::Values("gcc_kwb_sim_emulator_api", "gcc_kwb_sim_emulator_dtype",
                                           "gcc_kwb_sim_emulator_not_emulated",
                                           "gcc_kwb_sim_emulator_unsupported_in_helper",
                                           "gcc_kwb_sim_emulator_no_matching"));

TEST(EmulatorCompilerOutput, RefusalIsOneLineAtTheUsersCall) {
  const std::string cleaned = kwb::cleanEmulatorCompilerOutput(
      readFixture(kFixtures / "gcc_kwb_sim_emulator_unsupported_in_helper.txt"), kHeaders);
  // The raw capture has the chain (in instantiation, two "required from", macro notes, excerpts); the
  // API's call is line 11 of the user's helper template, not the kernel's call of the helper (line 22).
  EXPECT_EQ(cleaned,
            "src/emulator_unsupported_in_helper.cpp:11:8: error: kwb-sim: unsupported-api: Erf is not "
            "implemented by the kwb emulator\n");
}

TEST(EmulatorCompilerOutput, InternalSuggestionBecomesNotEmulated) {
  const std::string cleaned = kwb::cleanEmulatorCompilerOutput(
      readFixture(kFixtures / "gcc_kwb_sim_emulator_not_emulated.txt"), kHeaders);
  EXPECT_NE(cleaned.find("src/emulator_not_emulated.cpp:16:14: error: `AscendC::Copy` is not emulated yet"),
            std::string::npos)
      << cleaned;
  EXPECT_EQ(cleaned.find("did you mean"), std::string::npos) << cleaned;
  EXPECT_EQ(cleaned.find("declared here"), std::string::npos) << cleaned;
}

TEST(EmulatorCompilerOutput, SuggestionsOfRealNamesAreKept) {
  const std::string raw =
      "src/k.cpp:3:5: error: 'DataCopyy' is not a member of 'AscendC'; did you mean 'DataCopy'?\n";
  const std::string cleaned = kwb::cleanEmulatorCompilerOutput(raw, kHeaders);
  // Not an internal: the suggestion stays, and the name is reported as not emulated.
  EXPECT_NE(cleaned.find("`AscendC::DataCopyy` is not emulated yet"), std::string::npos) << cleaned;
}

TEST(EmulatorCompilerOutput, UnrelatedOutputPassesUnchanged) {
  int checked = 0;
  for (const auto& e : fs::directory_iterator(kFixtures)) {
    const std::string name = e.path().filename().string();
    if (e.path().extension() != ".txt" || name.find("kwb_sim_emulator") != std::string::npos) continue;
    const std::string raw = readFixture(e.path());
    EXPECT_EQ(kwb::cleanEmulatorCompilerOutput(raw, kHeaders), raw) << name;
    ++checked;
  }
  EXPECT_GE(checked, 20);
}

}  // namespace
