// SPDX-License-Identifier: MIT
#pragma once
// A synthetic session for the workbench benchmarks: `iterations` iterations of a 6 KB kernel, each
// with a profile and a diagnostic, a branch every 50 iterations, written through SessionStore like a
// real run's (docs/benchmarks.md).
//
// BenchSession removes its folder when it goes, so a benchmark leaves nothing in the temp directory.
// With KWB_BENCH_SESSION_DIR set, the session lives in that folder instead and is kept, and a session
// already there is reused: a profile of the GUI then holds no session writing (docs/benchmarks.md).

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

#include "core/store/SessionStore.h"

namespace kwb::bench {

inline void writeBenchSession(const std::filesystem::path& dir, int iterations) {
  std::filesystem::remove_all(dir);
  kwb::Task task = kwb::loadTaskDir(KWB_SOURCE_DIR "/resources/tasks/add_custom");
  kwb::Session s = kwb::makeSession(task, KWB_SOURCE_DIR "/resources/tasks/add_custom", {});
  kwb::SessionStore store = kwb::SessionStore::create(dir, s, kwb::Durability::NoSync);
  const std::string source(6000, 'x');
  for (int i = 1; i <= iterations; ++i) {
    kwb::Iteration it;
    it.id = i;
    if (i > 1) it.parentId = (i % 50 == 0) ? i / 2 : i - 1;  // a branch every 50 iterations
    it.state = kwb::IterationState::Done;
    it.verdict = i % 3 ? kwb::Verdict::Pass : kwb::Verdict::WrongAnswer;
    it.candidate.files["kernel.cpp"] = source + std::to_string(i);
    kwb::ProfileReport p;
    p.totalUs = 10.0 + i % 17;
    p.pipes["vector"] = {100, 0.3};
    p.pipes["mte2"] = {300, 0.9};
    it.profile = p;
    kwb::Diagnostic d;
    d.source = "verifier";
    d.category = "wrong-answer";
    d.message = "tail wrong";
    it.diagnostics.push_back(d);
    store.saveIteration(it);
  }
}

class BenchSession {
 public:
  explicit BenchSession(int iterations) {
    const std::string name = "kwb-bench-session-" + std::to_string(iterations);
    if (const char* keep = std::getenv("KWB_BENCH_SESSION_DIR"); keep && *keep) {
      dir_ = std::filesystem::path(keep) / name;
      keep_ = true;
      std::error_code ec;
      std::filesystem::create_directories(dir_.parent_path(), ec);
      if (std::filesystem::exists(dir_ / kwb::SessionStore::kIndexFile, ec)) return;
    } else {
      dir_ = std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::getpid()));
    }
    writeBenchSession(dir_, iterations);
  }
  ~BenchSession() {
    std::error_code ec;
    if (!keep_) std::filesystem::remove_all(dir_, ec);
  }
  BenchSession(const BenchSession&) = delete;
  BenchSession& operator=(const BenchSession&) = delete;
  const std::filesystem::path& dir() const { return dir_; }

 private:
  std::filesystem::path dir_;
  bool keep_ = false;
};

}  // namespace kwb::bench
