// SPDX-License-Identifier: MIT
#include "core/eval/CaseWork.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <stdexcept>

#include "core/eval/CaseMemory.h"

namespace kwb {

namespace fs = std::filesystem;

namespace {
void writeBytes(const fs::path& p, const verify::Bytes& b) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}
}  // namespace

bool caseRunSucceeded(const CaseRunResult& run) {
  if (run.run.status != RunStatus::Ok) return false;
  return std::none_of(run.run.diagnostics.begin(), run.run.diagnostics.end(),
                      [](const Diagnostic& d) { return d.category == category::Timeout && d.isError(); });
}

CaseWork runCaseWork(const CaseWorkContext& cx, const VerificationCase& vc) {
  CaseWork w;
  const CaseMemoryNeed need = caseMemoryNeed(cx.task, vc);
  if (const std::string problem = caseMemoryProblem(vc, need, availableMemoryBytes()); !problem.empty())
    throw std::runtime_error(problem);
  // Writing and hashing a large case's data into the cache costs more than drawing it again.
  const bool cached = !need.large();
  const auto started = std::chrono::steady_clock::now();
  auto say = [&](const std::string& what) {
    if (!need.large() || !cx.progress) return;
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    char at[32];
    std::snprintf(at, sizeof at, " (%.1f s)", s);
    cx.progress("case " + vc.name + ": " + what + at);
  };
  say("drawing " + bytesText(need.inputBytes) + " of inputs");
  {
    PhaseClock clock(w.inputsTiming);
    std::optional<std::vector<verify::Bytes>> fromCache;
    if (cached) fromCache = cx.caseData.inputs(vc.name, w.cacheWarnings);
    int lastTenth = 0;
    const verify::InputProgress tick = [&](std::int64_t done, std::int64_t total) {
      const int tenth = total ? static_cast<int>(done * 10 / total) : 10;
      if (tenth <= lastTenth) return;
      lastTenth = tenth;
      say("inputs " + std::to_string(tenth * 10) + " %");
    };
    w.prepared = verify::prepareCase(cx.task, vc, cx.seed,
                                     fromCache ? std::move(*fromCache) : std::vector<verify::Bytes>{}, tick);
    say("inputs drawn; writing the case's files");
    if (cached && !fromCache) cx.caseData.storeInputs(vc.name, w.prepared.inputData, w.cacheWarnings);
    const fs::path caseDir = cx.workDir / "cases" / vc.name;
    std::error_code ec;
    fs::remove_all(caseDir, ec);
    w.files = makeCaseFolders(caseDir, w.prepared);
    for (std::size_t k = 0; k < w.prepared.inputs.size(); ++k)
      writeBytes(w.files.inputs[k], w.prepared.inputData[k]);
    for (std::size_t k = 0; k < w.prepared.outputs.size(); ++k)
      writeBytes(w.files.outputsInit[k], w.prepared.outputPoison[k]);
    clock.lap("inputs", vc.name);
  }
  say("running the kernel (" + cx.backend.name() + ")");
  w.run = cx.backend.run(w.prepared, w.files);
  for (const auto& p : w.run.phases) w.runTimings.push_back({p.phase, vc.name, p.ms});
  if (!caseRunSucceeded(w.run)) return w;

  say("the kernel ran; computing the reference");
  PhaseClock clock(w.referenceTiming);
  // A Python reference's result also depends on the torch it imports, which no digest here covers.
  const std::string refDigest = cx.refBuild.python || !cached ? std::string() : cx.refBuild.sha256;
  w.expected = cx.caseData.referenceOutputs(vc.name, refDigest, w.cacheWarnings);
  if (!w.expected) {
    // The reference gets its own copy of the inputs, from memory, in a folder no run of the candidate
    // ever sees.
    std::vector<fs::path> refInputs;
    for (std::size_t k = 0; k < w.prepared.inputs.size(); ++k) {
      refInputs.push_back(w.files.refDir / ("input_" + w.prepared.inputs[k].name + ".bin"));
      writeBytes(refInputs.back(), w.prepared.inputData[k]);
    }
    auto ref = cx.refRunner.run(cx.refBuild, w.prepared, refInputs, w.files.refDir);
    if (ref.ok) {
      cx.caseData.storeReferenceOutputs(vc.name, refDigest, ref.outputs, w.cacheWarnings);
      w.expected = std::move(ref.outputs);
    } else {
      w.referenceError = ref.error;
    }
  }
  clock.lap("reference", vc.name);
  say("reference done; verifying");
  return w;
}

}  // namespace kwb
