// SPDX-License-Identifier: MIT
// Opening a session of 1,000 and of 10,000 iterations in the workbench: SessionStore::load plus
// MainWindow::showSession (timeline model, latency chart, selection of the last iteration), offscreen,
// and the two halves apart so the profile says which one bounds it. Goal: 10,000 under 1 second
// (docs/benchmarks.md).
#include <benchmark/benchmark.h>

#include <QApplication>
#include <filesystem>
#include <map>
#include <memory>

#include "bench/BenchSession.h"
#include "core/store/SessionStore.h"
#include "ui/MainWindow.h"

namespace {

// Made on first use, removed when main returns (BenchSession.h).
std::map<int, std::unique_ptr<kwb::bench::BenchSession>>& sessions() {
  static std::map<int, std::unique_ptr<kwb::bench::BenchSession>> made;
  return made;
}

const std::filesystem::path& sessionOf(int iterations) {
  auto& made = sessions();
  auto it = made.find(iterations);
  if (it == made.end())
    it = made.emplace(iterations, std::make_unique<kwb::bench::BenchSession>(iterations)).first;
  return it->second->dir();
}

void BM_OpenSession(benchmark::State& state) {
  const auto& dir = sessionOf(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    kwb::ui::MainWindow w;
    kwb::Session s = kwb::SessionStore::load(dir);
    w.showSession(s, dir);
    benchmark::DoNotOptimize(w.session().iterations.size());
  }
}

void BM_LoadSession(benchmark::State& state) {
  const auto& dir = sessionOf(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    kwb::Session s = kwb::SessionStore::load(dir);
    benchmark::DoNotOptimize(s.iterations.size());
  }
}

void BM_ShowLoadedSession(benchmark::State& state) {
  const auto& dir = sessionOf(static_cast<int>(state.range(0)));
  const kwb::Session s = kwb::SessionStore::load(dir);
  for (auto _ : state) {
    kwb::ui::MainWindow w;
    w.showSession(s, dir);
    benchmark::DoNotOptimize(w.session().iterations.size());
  }
}

// Accepting an iteration in an open session: one journal line, whatever the session's size (issue 20,
// "header writes"). Before, each acceptance rewrote session.json with every iteration's index entry.
void BM_AcceptIteration(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const auto& dir = sessionOf(n);
  auto store = kwb::SessionStore::open(dir, {kwb::OpenMode::ReadWrite, false, kwb::Durability::NoSync});
  int id = 0;
  for (auto _ : state) store.setAccepted(1 + (id++ % n));
}

}  // namespace

BENCHMARK(BM_AcceptIteration)
    ->Arg(1000)
    ->Arg(10000)
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime()
    ->MinTime(1.0);
BENCHMARK(BM_OpenSession)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(3.0);
BENCHMARK(BM_LoadSession)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(3.0);
BENCHMARK(BM_ShowLoadedSession)
    ->Arg(1000)
    ->Arg(10000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MinTime(3.0);

int main(int argc, char** argv) {
  qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  sessions().clear();
  return 0;
}
