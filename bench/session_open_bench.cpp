// SPDX-License-Identifier: MIT
// Opening a 1,000-iteration session in the workbench: SessionStore::load plus MainWindow::showSession
// (timeline model, latency chart, selection of the last iteration), offscreen. Goal: under 1 second.
#include <benchmark/benchmark.h>

#include <QApplication>
#include <filesystem>

#include "core/store/SessionStore.h"
#include "ui/MainWindow.h"

namespace {

std::filesystem::path makeSession(int iterations) {
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

void BM_OpenThousandIterationSession(benchmark::State& state) {
  static const auto dir = makeSession(1000);
  for (auto _ : state) {
    kwb::ui::MainWindow w;
    kwb::Session s = kwb::SessionStore::load(dir);
    w.showSession(s, dir);
    benchmark::DoNotOptimize(w.session().iterations.size());
  }
}

}  // namespace

BENCHMARK(BM_OpenThousandIterationSession)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(3.0);

int main(int argc, char** argv) {
  qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
