// SPDX-License-Identifier: MIT
// The crash-test harness of docs/reliability.md ("Crash tests"): `kwb run` (replayed LLM, real
// emulator backend) is killed with SIGKILL at every commit point of the session store, through the
// store's test hook KWB_TEST_HOOK_KILL_AT_COMMIT_POINT (core/store/CrashTestHook.h), and at a few
// random instants. After each kill: every iteration kwb announced as finished is on disk, finished,
// and the session has no damage; a resume (`kwb run --session`) succeeds and leaves every finished
// iteration byte for byte as it was.

#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <map>
#include <mutex>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "core/agent/KnowledgePack.h"
#include "core/agent/Lesson.h"
#include "core/store/CrashTestHook.h"
#include "core/store/SessionStore.h"
#include "tests/core/model/ModelTestSupport.h"

using namespace kwb;
using kwb::test::TempDir;
namespace fs = std::filesystem;

namespace {

std::string readText(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The lesson's replies as a replay file: the first fails on the emulator, the second passes.
fs::path writeReplay(const fs::path& dir, int replies) {
  const Lesson lesson = loadLesson("unaligned-tail");
  nlohmann::json responses = nlohmann::json::array();
  for (int i = 0; i < replies; ++i) responses.push_back({{"text", lesson.steps.at(i).reply}});
  const fs::path file = dir / ("replay-" + std::to_string(replies) + ".json");
  std::ofstream(file) << nlohmann::json{{"responses", responses}}.dump();
  return file;
}

struct Trial {
  fs::path root;
  fs::path session() const { return root / "session"; }
  fs::path tmp() const { return root / "tmp"; }
};

// Starts kwb with stdout/stderr into files under the trial folder; returns its pid.
pid_t startKwb(const Trial& t, const std::vector<std::string>& args, const std::string& name,
               std::optional<long> killAtPoint) {
  std::vector<std::string> argv{KWB_KWB_EXE};
  argv.insert(argv.end(), args.begin(), args.end());
  const std::string out = (t.root / (name + ".out")).string();
  const std::string err = (t.root / (name + ".err")).string();
  const std::string tmp = t.tmp().string();
  const std::string hook = killAtPoint ? std::to_string(*killAtPoint) : std::string();
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::setenv("TMPDIR", tmp.c_str(), 1);
    if (killAtPoint)
      ::setenv(kKillAtCommitPointEnv, hook.c_str(), 1);
    else
      ::unsetenv(kKillAtCommitPointEnv);
    const int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (o < 0 || e < 0) ::_exit(126);
    ::dup2(o, 1);
    ::dup2(e, 2);
    std::vector<char*> cargv;
    for (auto& a : argv) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    ::execv(cargv[0], cargv.data());
    ::_exit(127);
  }
  return pid;
}

int waitFor(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

std::vector<std::string> runArgs(const Trial& t, const fs::path& replay, int maxIterations) {
  return {"run",
          "--task",
          (workbenchDataRoot() / "resources" / "tasks" / "add_custom").string(),
          "--provider",
          "replay",
          "--replay",
          replay.string(),
          "--max-iterations",
          std::to_string(maxIterations),
          "--seed",
          "7",
          "--session",
          t.session().string()};
}

// Ids kwb announced as finished on stderr ("kwb run: #N <verdict or final state>  ...").
std::set<int> announcedFinished(const std::string& err) {
  static const std::set<std::string> progress{"generating", "compiling", "running",  "verifying",
                                              "profiling",  "paused",    "deciding", "accepted,"};
  std::set<int> ids;
  static const std::regex line(R"(^kwb run: #(\d+) (\S+))");
  std::istringstream in(err);
  std::string l;
  std::smatch m;
  while (std::getline(in, l))
    if (std::regex_search(l, m, line) && !progress.count(m[2].str())) ids.insert(std::stoi(m[1].str()));
  return ids;
}

// Every file of each finished iteration's folder, by iteration id and relative path.
using Snapshot = std::map<int, std::map<std::string, std::string>>;

Snapshot finishedOnDisk(const fs::path& session, std::string& why, int* committed = nullptr) {
  Snapshot snap;
  if (!fs::exists(session / SessionStore::kIndexFile)) return snap;
  std::vector<StoreProblem> problems;
  Session s;
  try {
    s = SessionStore::load(session, &problems);
  } catch (const std::exception& e) {
    why += std::string("unreadable: ") + e.what() + "\n";
    return snap;
  }
  for (const auto& p : problems)
    if (p.severity == StoreProblem::Severity::Error) why += p.describe() + "\n";
  if (committed) *committed = static_cast<int>(s.iterations.size());
  for (const auto& it : s.iterations) {
    if (!isFinal(it.state)) continue;
    const fs::path folder = session / SessionStore::kIterationsDir / SessionStore::iterationFolderName(it.id);
    auto& files = snap[it.id];
    for (const auto& e : fs::recursive_directory_iterator(folder))
      if (e.is_regular_file()) files[fs::relative(e.path(), folder).string()] = readText(e.path());
  }
  return snap;
}

// Kills (or let the hook kill) one run, then checks the invariants and resumes. Returns false when
// the run finished before anything killed it (the commit points are exhausted).
bool killResumeAndCheck(const Trial& t, const fs::path& replay, int maxIterations, std::optional<long> point,
                        std::optional<std::chrono::milliseconds> after, const std::string& label) {
  fs::create_directories(t.tmp());
  const pid_t pid = startKwb(t, runArgs(t, replay, maxIterations), "run", point);
  if (after) {
    std::this_thread::sleep_for(*after);
    ::kill(pid, SIGKILL);
  }
  const int status = waitFor(pid);
  const std::string err = readText(t.root / "run.err");
  if (!(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)) {
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) <= 1) << label << ": status " << status << "\n"
                                                               << err;
    return false;
  }

  std::string damage;
  int committed = 0;
  const Snapshot before = finishedOnDisk(t.session(), damage, &committed);
  EXPECT_EQ(damage, "") << label << ": a kill damaged the session";
  for (int id : announcedFinished(err))
    EXPECT_TRUE(before.count(id)) << label << ": iteration " << id << " was announced finished but is not\n"
                                  << err;

  // Resume without the hook, with a budget of what is committed (at least one): resuming is what is
  // tested, not more agent work.
  const int resumeIterations = std::max(1, committed);
  const pid_t again = startKwb(t, runArgs(t, replay, resumeIterations), "resume", std::nullopt);
  const int st = waitFor(again);
  const std::string resumeErr = readText(t.root / "resume.err");
  EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) <= 1) << label << ": resume failed (status " << st << ")\n"
                                                     << resumeErr << "\nfirst run:\n"
                                                     << err;
  std::string damageAfter;
  const Snapshot afterResume = finishedOnDisk(t.session(), damageAfter);
  EXPECT_EQ(damageAfter, "") << label << ": damaged after resume";
  for (const auto& [id, files] : before) {
    auto it = afterResume.find(id);
    if (it == afterResume.end()) {
      ADD_FAILURE() << label << ": finished iteration " << id << " lost by the resume";
      continue;
    }
    for (const auto& [name, content] : files) {
      auto f = it->second.find(name);
      EXPECT_TRUE(f != it->second.end() && f->second == content)
          << label << ": iteration " << id << " file " << name << " changed by the resume";
    }
  }
  return true;
}

// Every commit point with the given remainder modulo 2, so that two ctest jobs share the points. A
// run mostly waits (fsync, the sandbox), so three trials run at a time; a run that gets through
// unkilled at point P means every later point is past the end too.
void killAtEveryCommitPoint(int parity) {
  TempDir tmp;
  const fs::path replay = writeReplay(tmp.path(), 1);
  std::atomic<long> next{1 + parity};
  std::atomic<long> end{400};
  std::atomic<int> killed{0};
  std::mutex failMutex;
  auto worker = [&] {
    for (;;) {
      const long point = next.fetch_add(2);
      if (point >= end.load() || ::testing::Test::HasFailure()) return;
      Trial t{tmp / ("point-" + std::to_string(point))};
      fs::create_directories(t.root);
      const bool wasKilled =
          killResumeAndCheck(t, replay, 1, point, std::nullopt, "commit point " + std::to_string(point));
      if (::testing::Test::HasFailure()) {
        std::lock_guard lock(failMutex);
        const fs::path kept = fs::temp_directory_path() / ("kwb-crash-failed-" + std::to_string(point));
        std::error_code ec;
        fs::rename(t.root, kept, ec);
        std::cerr << "kept for inspection: " << kept << "\n";
        return;
      }
      fs::remove_all(t.root);
      if (!wasKilled) {
        long seen = end.load();
        while (point < seen && !end.compare_exchange_weak(seen, point)) {
        }
        return;
      }
      ++killed;
    }
  };
  std::vector<std::thread> workers;
  for (int i = 0; i < 3; ++i) workers.emplace_back(worker);
  for (auto& w : workers) w.join();
  std::cout << "killed kwb run at " << killed.load() << " commit points\n";
  EXPECT_GT(killed.load(), 10);  // the hook works: a 1-iteration run has dozens of commit points
}

}  // namespace

TEST(KwbRunCrash, KillAtEveryOddCommitPointLosesNothingAndResumes) {
  killAtEveryCommitPoint(0);
}

TEST(KwbRunCrash, KillAtEveryEvenCommitPointLosesNothingAndResumes) {
  killAtEveryCommitPoint(1);
}

TEST(KwbRunCrash, KillsAtRandomInstantsLoseNothingAndResume) {
  TempDir tmp;
  const fs::path replay = writeReplay(tmp.path(), 2);
  const unsigned seed = static_cast<unsigned>(std::random_device{}());
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> ms(20, 3000);
  for (int trial = 0; trial < 4 && !::testing::Test::HasFailure(); ++trial) {
    Trial t{tmp / ("random-" + std::to_string(trial))};
    fs::create_directories(t.root);
    const int at = ms(rng);
    killResumeAndCheck(t, replay, 2, std::nullopt, std::chrono::milliseconds(at),
                       "random kill after " + std::to_string(at) + " ms (seed " + std::to_string(seed) + ")");
    fs::remove_all(t.root);
  }
}
