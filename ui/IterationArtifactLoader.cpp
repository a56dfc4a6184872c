// SPDX-License-Identifier: MIT
#include "ui/IterationArtifactLoader.h"

#include <QCoreApplication>
#include <QMetaObject>
#include <QPointer>

#include <nlohmann/json.hpp>

#include "core/base/TextFile.h"
#include "core/model/PhaseTimings.h"
#include "core/store/SessionStore.h"

namespace kwb::ui {

IterationArtifactLoader::IterationArtifactLoader(QObject* parent) : QObject(parent) {
  pool_.setMaxThreadCount(1);  // one iteration at a time, in request order
}

IterationArtifactLoader::~IterationArtifactLoader() {
  pool_.waitForDone();
}

IterationArtifacts IterationArtifactLoader::read(const std::filesystem::path& dir, const Iteration& it) {
  IterationArtifacts out;
  out.iterationId = it.id;
  std::error_code ec;
  std::filesystem::path tracePath;
  if (it.profile)
    for (const auto& [label, rel] : it.profile->artifacts)
      if (label.find("trace") != std::string::npos) tracePath = dir / rel;
  if (tracePath.empty() && std::filesystem::exists(dir / "trace.json", ec)) tracePath = dir / "trace.json";
  if (!tracePath.empty() && std::filesystem::exists(tracePath, ec)) {
    try {
      out.trace = std::make_shared<const PipelineTrace>(readChromeTraceFile(tracePath));
    } catch (const std::exception& e) {
      out.traceError = QString::fromUtf8(e.what());
    }
  }
  auto first = [&](std::initializer_list<const char*> names) {
    for (const char* n : names)
      if (std::filesystem::exists(dir / n, ec)) return QString::fromStdString(readTextFileOrEmpty(dir / n));
    return QString();
  };
  out.prompt = first({"prompt.md", "prompt.txt"});
  out.reply = first({"reply.md", "reply.txt", "response.md", "response.txt"});
  out.feedback = first({"feedback.md", "feedback.txt"});
  if (std::filesystem::exists(dir / "eval.json", ec)) {
    const auto report = nlohmann::json::parse(readTextFileOrEmpty(dir / "eval.json"), nullptr, false);
    if (const auto line = reportTimingsSummaryLine(report)) out.evalTimings = QString::fromStdString(*line);
    // eval.json is the workbench's own report, but a damaged one must not throw here.
    const auto artifacts = report.is_object() ? report.find("artifacts") : report.end();
    if (artifacts != report.end() && artifacts->is_object()) {
      const auto host = artifacts->find("remote_host");
      const auto ranOn = report.find("ran_on");
      if (host != artifacts->end() && host->is_string())
        out.remoteRun = QStringLiteral("%1 on %2")
                            .arg(ranOn != report.end() && ranOn->is_string()
                                     ? QString::fromStdString(ranOn->get<std::string>())
                                     : QStringLiteral("?"),
                                 QString::fromStdString(host->get<std::string>()));
    }
  }
  return out;
}

void IterationArtifactLoader::request(const std::filesystem::path& sessionDir, const Iteration& iteration) {
  if (auto hit = cache_.find(iteration.id); hit != cache_.end()) {
    emit loaded(hit->second);
    return;
  }
  const auto dir = sessionDir / "iterations" / SessionStore::iterationFolderName(iteration.id);
  const bool finished = isFinal(iteration.state);
  const int generation = generation_;
  QPointer<IterationArtifactLoader> self(this);
  pool_.start([self, dir, iteration, finished, generation] {
    IterationArtifacts result = read(dir, iteration);
    // Back on the GUI thread; the loader may be gone by then (the application object outlives it).
    QMetaObject::invokeMethod(
        QCoreApplication::instance(),
        [self, result = std::move(result), finished, generation] {
          if (!self || generation != self->generation_) return;
          if (finished) self->cache_[result.iterationId] = result;
          emit self->loaded(result);
        },
        Qt::QueuedConnection);
  });
}

void IterationArtifactLoader::clear() {
  cache_.clear();
  ++generation_;
}

void IterationArtifactLoader::waitForIdle() {
  pool_.waitForDone();
  QCoreApplication::processEvents();
}

}  // namespace kwb::ui
