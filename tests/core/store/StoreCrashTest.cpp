// SPDX-License-Identifier: MIT
// Kills a writer at random instants and checks that the session reopens with every iteration the
// writer reported as committed intact, and nothing half-written visible.

#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <optional>
#include <random>
#include <set>
#include <thread>

#include "core/store/SessionLock.h"
#include "core/store/SessionStore.h"
#include "tests/core/model/ModelTestSupport.h"

using namespace kwb;
using kwb::test::TempDir;
namespace fs = std::filesystem;

namespace {

std::string promptFor(int id) {
  return "prompt of iteration " + std::to_string(id) + "\n" + std::string(id % 7 * 100, 'p');
}
std::string logFor(int id) {
  return "compile log of iteration " + std::to_string(id) + "\n" + std::string(id % 5 * 300, 'l');
}

Iteration iterationFor(int id, std::optional<int> parent, IterationState state) {
  Iteration it = kwb::test::exampleIteration(id, parent);
  it.state = state;
  // Sizes vary so that torn writes could not hide behind equal lengths.
  it.candidate.files["kernel.cpp"] = kwb::test::kernelSource(id) + std::string(id * 37 % 4096, 'k');
  if (state != IterationState::Done) {
    it.verdict.reset();
    it.compile.reset();
    it.run.reset();
    it.verify.reset();
  }
  return it;
}

// The child: append iterations forever; after each completed commit, tell the parent its id.
[[noreturn]] void writerLoop(const fs::path& dir, Durability durability, unsigned seed, int reportFd) {
  try {
    auto store = SessionStore::open(dir, {OpenMode::ReadWrite, false, durability});
    const std::int32_t ready = 0;
    if (::write(reportFd, &ready, sizeof ready) != sizeof ready) ::_exit(3);
    std::mt19937 rng(seed);
    for (;;) {
      const Session s = store.session();
      const int id = store.nextIterationId();
      std::optional<int> parent;
      if (!s.iterations.empty() && rng() % 4 != 0) parent = s.iterations[rng() % s.iterations.size()].id;
      store.writeArtifact(id, "prompt.txt", promptFor(id));
      store.saveIteration(iterationFor(id, parent, IterationState::Compiling));
      store.writeArtifact(id, "logs/compile.log", logFor(id));
      store.saveIteration(iterationFor(id, parent, IterationState::Done));
      if (rng() % 3 == 0) store.setAccepted(id);
      const std::int32_t done = id;
      if (::write(reportFd, &done, sizeof done) != sizeof done) ::_exit(3);
    }
  } catch (const std::exception&) {
    const std::int32_t failed = -1;
    [[maybe_unused]] auto n = ::write(reportFd, &failed, sizeof failed);
    ::_exit(2);
  }
}

struct TrialOutcome {
  std::set<int> reported;
  bool childFailed = false;
};

// How a trial picks its kill instant. Fixed delays would land in the same phase on a fast and a slow
// (loaded, sanitized) machine alike only by luck, so the parent waits for `commitsFirst` reported
// commits and then sleeps a random fraction of the measured time one iteration takes: the kill lands
// anywhere inside the next iteration's writes, whatever the machine's speed.
struct KillPlan {
  bool waitForReady = true;  // false: some kills land in open() itself (reconcile, temp sweep)
  int commitsFirst = 0;
  double fraction = 0.0;  // of one iteration's duration, in [0, 1.5)
};

struct Clock {
  using C = std::chrono::steady_clock;
  double iterationUs = 2000.0;  // running estimate, refined from every trial's reports
};

TrialOutcome runTrial(const fs::path& dir, Durability durability, unsigned seed, const KillPlan& plan,
                      Clock& clock) {
  int fds[2];
  EXPECT_EQ(::pipe2(fds, O_CLOEXEC), 0);
  const pid_t child = ::fork();
  if (child == 0) {
    ::close(fds[0]);
    writerLoop(dir, durability, seed, fds[1]);
  }
  ::close(fds[1]);
  TrialOutcome out;
  std::int32_t v = 0;
  auto take = [&] {
    if (v < 0)
      out.childFailed = true;
    else if (v > 0)
      out.reported.insert(v);
  };
  auto readOne = [&] {
    if (::read(fds[0], &v, sizeof v) != sizeof v) return false;
    take();
    return v >= 0;
  };
  if (plan.waitForReady && readOne()) {
    auto last = Clock::C::now();
    for (int i = 0; i < plan.commitsFirst && readOne(); ++i) {
      const auto now = Clock::C::now();
      const double us = std::chrono::duration<double, std::micro>(now - last).count();
      clock.iterationUs = 0.8 * clock.iterationUs + 0.2 * us;
      last = now;
    }
    std::this_thread::sleep_for(
        std::chrono::microseconds(static_cast<long>(plan.fraction * clock.iterationUs)));
  }
  ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
  while (::read(fds[0], &v, sizeof v) == sizeof v) take();
  ::close(fds[0]);
  return out;
}

// Every visible iteration is whole; every reported one is visible and finished.
void checkSession(const fs::path& dir, const std::set<int>& reportedEver, int trial) {
  SCOPED_TRACE("trial " + std::to_string(trial));
  std::optional<SessionStore> opened;
  ASSERT_NO_THROW(opened.emplace(SessionStore::open(dir, {OpenMode::ReadOnly})));
  const SessionStore& store = *opened;
  for (const auto& p : store.problems())
    ASSERT_EQ(p.severity, StoreProblem::Severity::Warning) << p.describe();
  const Session s = store.session();
  for (const auto& it : s.iterations) {
    const bool done = it.state == IterationState::Done;
    ASSERT_TRUE(done || it.state == IterationState::Compiling) << it.id;
    ASSERT_EQ(it, iterationFor(it.id, it.parentId, it.state)) << "iteration " << it.id << " differs";
    if (it.parentId) {
      ASSERT_NE(s.findIteration(*it.parentId), nullptr) << it.id;
    }
    ASSERT_EQ(store.readArtifact(it.id, "prompt.txt"), promptFor(it.id));
    if (done) {
      ASSERT_EQ(store.readArtifact(it.id, "logs/compile.log"), logFor(it.id));
    }
  }
  for (int id : reportedEver) {
    const Iteration* it = s.findIteration(id);
    ASSERT_NE(it, nullptr) << "iteration " << id << " was reported committed but is missing";
    ASSERT_EQ(it->state, IterationState::Done) << id;
  }
  if (s.acceptedIteration) {
    ASSERT_NE(s.findIteration(*s.acceptedIteration), nullptr);
  }
}

void crashTrials(int trials, Durability durability, int trialsPerSession) {
  TempDir tmp;
  Clock clock;
  const fs::path templateDir = tmp / "template";
  SessionStore::create(templateDir, kwb::test::exampleSession(), durability);
  std::mt19937 rng(12345);
  fs::path dir;
  std::set<int> reportedEver;
  int committedTotal = 0;
  int trialsWithoutCommit = 0;
  for (int t = 0; t < trials; ++t) {
    // Several consecutive crashes on one session: a writer reopening after a crash must clean up
    // and continue without disturbing what the previous writers committed.
    if (t % trialsPerSession == 0) {
      dir = tmp / ("s" + std::to_string(t));
      fs::copy(templateDir, dir, fs::copy_options::recursive);
      reportedEver.clear();
    }
    KillPlan plan;
    plan.waitForReady = rng() % 10 != 0;
    plan.commitsFirst = static_cast<int>(rng() % 2);
    plan.fraction = std::uniform_real_distribution<double>(0.0, 1.5)(rng);
    const TrialOutcome out = runTrial(dir, durability, static_cast<unsigned>(rng()), plan, clock);
    ASSERT_FALSE(out.childFailed) << "the writer threw in trial " << t;
    reportedEver.insert(out.reported.begin(), out.reported.end());
    committedTotal += static_cast<int>(out.reported.size());
    trialsWithoutCommit += out.reported.empty() ? 1 : 0;
    checkSession(dir, reportedEver, t);
    if (::testing::Test::HasFatalFailure()) return;
  }
  // Kills must have landed after commits too, or the test would only cover empty sessions (the kill
  // plan waits for a commit in about half the trials, so this holds on any machine).
  EXPECT_GT(committedTotal, 0);
  std::printf(
      "%d trials: %d iterations reported committed, %d trials killed before any commit, ~%.0f us per "
      "iteration\n",
      trials, committedTotal, trialsWithoutCommit, clock.iterationUs);
}

}  // namespace

// No fsync: exercises the commit ordering and atomic renames at a high rate (a killed process loses
// nothing its kernel already has, so the result must be the same as with sync).
TEST(StoreCrash, KilledWriterNeverLeavesAPartialIteration) {
  crashTrials(200, Durability::NoSync, 5);
}

// With fsync on: fewer trials, as each commit waits for the disk.
TEST(StoreCrash, KilledWriterWithSyncNeverLeavesAPartialIteration) {
  crashTrials(12, Durability::Sync, 4);
}
