// SPDX-License-Identifier: MIT
#pragma once
// Reads what an iteration left in its session folder (the pipeline trace, the prompt, the reply and
// the feedback) on a worker thread, never on the GUI thread (docs/architecture.md, "The workbench").
// Results of finished iterations are cached, since their folder no longer changes; an iteration still
// in flight is read again on each request. `loaded` is emitted on the GUI thread; the window applies a
// result only if that iteration is still the one selected.

#include <QObject>
#include <QString>
#include <QThreadPool>
#include <filesystem>
#include <map>
#include <memory>

#include "core/model/Iteration.h"
#include "core/profile/PipelineTrace.h"

namespace kwb::ui {

struct IterationArtifacts {
  int iterationId = 0;
  std::shared_ptr<const PipelineTrace> trace;  // null: the iteration has no trace
  QString traceError;                          // the trace exists but cannot be read
  QString prompt, reply, feedback;
  // Where the iteration's evaluation spent its time, one line (eval.json's "timings"); empty: none.
  QString evalTimings;
  // Where a remote evaluation ran: "cann-sim on ssh://user@host" (eval.json's ran_on and
  // artifacts.remote_host); empty for one that ran on this machine.
  QString remoteRun;
};

class IterationArtifactLoader : public QObject {
  Q_OBJECT
 public:
  explicit IterationArtifactLoader(QObject* parent = nullptr);
  ~IterationArtifactLoader() override;  // waits for reads in flight

  // Starts reading `iteration`'s artifacts under sessionDir/iterations/<id>. A cached result is
  // delivered at once (still through `loaded`, before this returns).
  void request(const std::filesystem::path& sessionDir, const Iteration& iteration);
  // Forgets every cached result (another session is shown); reads in flight are ignored when they end.
  void clear();
  bool isCached(int iterationId) const { return cache_.count(iterationId) > 0; }
  // Blocks until no read is in flight (tests).
  void waitForIdle();

  // What a request reads, as a pure function of the folder (tests use it directly).
  static IterationArtifacts read(const std::filesystem::path& iterationDir, const Iteration& iteration);

 signals:
  void loaded(const kwb::ui::IterationArtifacts& artifacts);

 private:
  QThreadPool pool_;
  std::map<int, IterationArtifacts> cache_;
  int generation_ = 0;  // bumped by clear(): results of an older session are dropped
};

}  // namespace kwb::ui
