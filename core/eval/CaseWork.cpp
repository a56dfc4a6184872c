// SPDX-License-Identifier: MIT
#include "core/eval/CaseWork.h"

#include <algorithm>
#include <fstream>

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
  {
    PhaseClock clock(w.inputsTiming);
    std::optional<std::vector<verify::Bytes>> cached = cx.caseData.inputs(vc.name, w.cacheWarnings);
    w.prepared = cached ? verify::prepareCase(cx.task, vc, cx.seed, std::move(*cached))
                        : verify::prepareCase(cx.task, vc, cx.seed);
    if (!cached) cx.caseData.storeInputs(vc.name, w.prepared.inputData, w.cacheWarnings);
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
  w.run = cx.backend.run(w.prepared, w.files);
  for (const auto& p : w.run.phases) w.runTimings.push_back({p.phase, vc.name, p.ms});
  if (!caseRunSucceeded(w.run)) return w;

  PhaseClock clock(w.referenceTiming);
  // A Python reference's result also depends on the torch it imports, which no digest here covers.
  const std::string refDigest = cx.refBuild.python ? std::string() : cx.refBuild.sha256;
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
  return w;
}

}  // namespace kwb
