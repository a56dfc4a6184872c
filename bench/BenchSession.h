// SPDX-License-Identifier: MIT
#pragma once
// A synthetic session for the workbench benchmarks: `iterations` iterations of a 6 KB kernel, each
// with a profile and a diagnostic, a branch every 50 iterations, written through SessionStore like a
// real run's (docs/benchmarks.md).

#include <filesystem>
#include <string>

#include "core/store/SessionStore.h"

namespace kwb::bench {

inline std::filesystem::path makeBenchSession(int iterations) {
  auto dir = std::filesystem::temp_directory_path() / ("kwb-bench-session-" + std::to_string(iterations));
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
  return dir;
}

}  // namespace kwb::bench
