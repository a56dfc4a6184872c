// SPDX-License-Identifier: MIT
// The mutation runner's scratch folders are swept like the agent loop's: a killed run's folder goes,
// a live run's folder and folders that are not provably kwb's stay (docs/reliability.md, "Leftovers").
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "bench/mutation/MutationRunner.h"
#include "core/agent/WorkRootJanitor.h"
#include "core/base/TempWorkDir.h"

namespace kwb::mutation {
namespace {

namespace fs = std::filesystem;

// A marker written by a child process that has exited since: the folder of a run killed mid-way.
void markByAProcessThatIsGone(const fs::path& dir) {
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) ::_exit(writeScratchOwner(dir).empty() ? 0 : 1);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

TEST(MutationScratch, AKilledRunsFolderIsRemovedAndOthersStay) {
  std::string error;
  TempWorkDir tmp(makeTempWorkDir("kwb-test-tmpdir-", error));
  ASSERT_FALSE(tmp.path().empty()) << error;
  const char* oldTmp = std::getenv("TMPDIR");
  const std::string saved = oldTmp ? oldTmp : "";
  ::setenv("TMPDIR", tmp.path().c_str(), 1);

  const fs::path killed = tmp.path() / (std::string(kMutationScratchPrefix) + "add_custom-killed");
  const fs::path live = tmp.path() / (std::string(kMutationScratchPrefix) + "add_custom-live");
  const fs::path unmarked = tmp.path() / (std::string(kMutationScratchPrefix) + "add_custom-unmarked");
  for (const auto& d : {killed, live, unmarked}) fs::create_directory(d);
  markByAProcessThatIsGone(killed);
  ASSERT_EQ(writeScratchOwner(live), "");

  EXPECT_EQ(removeAbandonedMutationScratch(), 1u);
  EXPECT_FALSE(fs::exists(killed));
  EXPECT_TRUE(fs::exists(live));
  EXPECT_TRUE(fs::exists(unmarked));

  if (oldTmp)
    ::setenv("TMPDIR", saved.c_str(), 1);
  else
    ::unsetenv("TMPDIR");
}

}  // namespace
}  // namespace kwb::mutation
