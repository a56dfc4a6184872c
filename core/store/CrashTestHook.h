// SPDX-License-Identifier: MIT
#pragma once
// TEST HOOK for the crash tests (docs/reliability.md, "Crash tests"): with the environment variable
// KWB_TEST_HOOK_KILL_AT_COMMIT_POINT=N (N >= 1) the process sends itself SIGKILL at the Nth commit
// point of the session store, counted from process start: just before and just after each atomic
// rename of a file (AtomicFile), just after each directory creation and just after each append to the
// index journal (IndexJournal). That is the instant a crash would leave the store in each of its
// intermediate states, so the tests can reach them all without guessing timings. The hook can only end the
// process early; it changes no write, flag or check, so setting it never weakens durability or validation (an
// unset, empty or malformed value does nothing).

namespace kwb {

inline constexpr const char* kKillAtCommitPointEnv = "KWB_TEST_HOOK_KILL_AT_COMMIT_POINT";

// Called by AtomicFile at each commit point; a no-op unless the test hook is set.
void storeCommitPoint();

}  // namespace kwb
