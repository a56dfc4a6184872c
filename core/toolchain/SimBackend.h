// SPDX-License-Identifier: MIT
#pragma once
// `ascend-sim`: the candidate plus the generated CPU-mode harness, built with the emulator's
// SimBuilder (`kwb sim build`) and cached by content hash (an unchanged candidate is not recompiled;
// the emulator's precompiled header makes misses fast), run inside the sandbox with KWB_SIM_REPORT set.
// The report's diagnostics and profile come back with the run. ran_on is always "emulator".

#include <optional>

#include "core/emulator/SimBuilder.h"
#include "core/toolchain/Backend.h"
#include "core/toolchain/OpProjectForm.h"

namespace kwb {

class SimBackend : public Backend {
 public:
  explicit SimBackend(BackendOptions options);
  std::string name() const override { return "ascend-sim"; }
  std::string soc() const override { return options_.soc; }
  RanOn ranOn() const override { return RanOn::Emulator; }
  std::vector<Diagnostic> prepare(const Task& task, const std::string& candidateSource,
                                  const std::filesystem::path& workDir,
                                  const std::map<std::string, std::string>& companions = {}) override;
  CompileResult compile() override;
  // run() reads the prepared build and writes only into the case's own folder and result.
  bool runsCasesConcurrently() const override { return true; }
  CaseRunResult run(const verify::PreparedCase& prepared, const CaseFiles& files) override;
  std::map<std::string, std::string> artifacts() const override;

 private:
  BackendOptions options_;
  const Task* task_ = nullptr;
  SocInfo soc_;
  std::filesystem::path workDir_;
  std::filesystem::path kernelFile_;
  std::filesystem::path harnessFile_;
  std::filesystem::path binary_;
  std::string buildKey_;
  // The generated harness and the key of its object, compiled once per task and emulator and linked
  // with each candidate (docs/architecture.md, "Evaluation caches").
  std::string harnessSource_;
  std::string harnessKey_;
  SimBuildOptions harnessBuildOptions() const;
  // The cached harness object copied into the work folder, verified; on a miss, built and cached
  // when `buildOnMiss` (nullopt when it is not there or does not compile alone).
  std::optional<std::filesystem::path> harnessObject(const std::filesystem::path& cache,
                                                     std::vector<Diagnostic>& diagnostics,
                                                     bool buildOnMiss) const;
  std::optional<OpProjectForm> opForm_;  // the operator-project form (core/toolchain/OpProjectForm.h)
  std::vector<std::string> opDefines_;   // its -D flags (opProjectDefines)
  std::string candidateSource_;          // the workbench's own copy, for excerpts (never re-read from disk)
};

}  // namespace kwb
