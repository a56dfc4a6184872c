// SPDX-License-Identifier: MIT
#pragma once
// One interface for every way of evaluating a candidate: prepare (write the candidate and a generated
// host harness), compile, run one verification case (inside the sandbox), verify (shared verifier) and
// profile. `ascend-sim` is the emulator (SimBackend), `ascend-cann` the real CANN toolchain
// (CannBackend). The Evaluator drives them; backends never decide pass/fail themselves.

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/model/CompileResult.h"
#include "core/model/Diagnostic.h"
#include "core/model/PhaseTimings.h"
#include "core/model/RunResult.h"
#include "core/model/Task.h"
#include "core/toolchain/SocInfo.h"
#include "core/verify/Verification.h"

namespace kwb {

// The folders and files of one case (docs/sandbox.md, "Trusted evaluation"). The case folder belongs
// to the workbench; a run sees parts of it, each read-only except the pre-created result files:
//   in/      manifest, input_<name>.bin, output_<name>.poison.bin   (read-only to the kernel run)
//   tiling/  manifest with shapes, dtypes, attributes only          (read-only to the tiling run)
//   out/     output_<name>.bin, input_<name>.after.bin, records.bin, tiling.out: created empty by the
//            workbench; the folder is bound read-only and only these files writable, so a run can
//            fill them but never add, replace or link an entry
//   work/    mount point of the run's private, size-capped tmpfs (its working folder and HOME)
//   ref/     the reference's own run, from the workbench's in-memory inputs
// After a run the workbench reads only the expected files in out/, each through readResultFile.
struct CaseFiles {
  std::filesystem::path dir;
  std::filesystem::path inDir, tilingDir, outDir, scratch, refDir;
  std::vector<std::filesystem::path> inputs;       // in/input_<name>.bin
  std::vector<std::filesystem::path> inputsAfter;  // out/input_<name>.after.bin (written by the harness)
  std::vector<std::filesystem::path> outputsInit;  // in/output_<name>.poison.bin
  std::vector<std::filesystem::path> outputs;      // out/output_<name>.bin (written by the harness)
  std::filesystem::path manifest;                  // in/harness.manifest
  std::filesystem::path tilingManifest;            // tiling/harness.manifest
  std::filesystem::path tilingResult;              // out/tiling.out (binary, written by the tiling run)
  std::filesystem::path records;                   // out/records.bin (the emulator's raw records)
};

struct TilingResult {
  bool called = false;
  int rc = -1;
  int blockDim = 0;
  std::uint64_t tilingSize = 0;
  std::uint64_t workspaceSize = 0;
  std::uint64_t tilingKey = 0;     // context->SetTilingKey in the op-project form; 0 otherwise
  std::vector<std::uint8_t> data;  // the tiling struct's bytes (tilingSize of them)
};

// clang-tidy flags the implicit noexcept move constructor: it cannot prove nlohmann::json's noexcept
// move (its invariant checks) non-throwing.
// NOLINTNEXTLINE(bugprone-exception-escape)
struct CaseRunResult {
  RunResult run;
  TilingResult tiling;
  std::vector<verify::Bytes> outputs;
  // Inputs whose copy after the run differs from what went in (compared a piece at a time from the
  // run's files, never held whole).
  std::vector<verify::InputCheck> inputsChanged;
  nlohmann::json profile;  // null when the backend has none for this run
  // Inputs the trusted side saw recorded writes into (whatever the harness wrote back): the verifier
  // fails the case for them like for any modified input.
  std::vector<verify::InputCheck> inputsWritten;
  // Per output (prepared order), the element slices each block wrote, from the trusted records; empty
  // when the backend cannot tell.
  std::vector<verify::BlockSlices> outputBlockWrites;
  // Per output (prepared order), the candidate line of the one SetGlobalBuffer its writes went through (0:
  // unknown, several, or not in the candidate file); for the verifier's cause lines.
  std::vector<int> outputRangeSetLines;
  // Where the run's time went, in order (the backend's own phases: tiling, sandbox setup, the program,
  // the trusted analysis of its records, reading its results back). caseName is left empty: the
  // evaluator knows the case.
  PhaseTimings phases;
};

struct BackendOptions {
  std::string soc = "Ascend910B1";
  std::filesystem::path cacheDir;  // build cache (content hash)
  std::chrono::milliseconds caseTimeout{60000};
  std::string runMode;  // ascend-cann: "npu", "sim", "cpu" ("" = best available)
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;
  // The SoC it builds and runs for ("" = the task's).
  virtual std::string soc() const { return {}; }
  // Where runs of this backend really execute ("emulator", "npu", "cann-sim", "cann-cpu").
  virtual RanOn ranOn() const = 0;

  // Writes the candidate and the generated harness under workDir. `companions` are the candidate's
  // other files (headers its primary file includes, docs/candidate-contract.md "Several files"): they
  // are written next to the candidate under their names (already checked: writeCompanionFiles) and take
  // part in the build's identity. Errors (e.g. no toolchain) come back as diagnostics; nothing is
  // compiled yet.
  virtual std::vector<Diagnostic> prepare(const Task& task, const std::string& candidateSource,
                                          const std::filesystem::path& workDir,
                                          const std::map<std::string, std::string>& companions = {}) = 0;
  virtual CompileResult compile() = 0;
  // Runs one case in the sandbox; the case files already exist.
  virtual CaseRunResult run(const verify::PreparedCase& prepared, const CaseFiles& files) = 0;
  // True when run() may be called for several cases at once, from different threads (it changes no
  // state of the backend); the evaluator then runs cases side by side.
  virtual bool runsCasesConcurrently() const { return false; }
  // The backend's profile of a run (null when none).
  virtual nlohmann::json profile(const CaseRunResult& run) const { return run.profile; }
  // Verification is the same for every backend.
  verify::CaseCheck verify(const Task& task, const verify::PreparedCase& prepared,
                           const std::vector<std::vector<double>>& expected, const CaseRunResult& run) const {
    verify::CaseCheck c = verify::checkCase(task, prepared, expected, run.outputs, {}, run.tiling.blockDim,
                                            run.outputBlockWrites);
    for (const auto& changed : run.inputsChanged) {
      c.modifiedInputs.push_back(changed);
      c.passed = false;
    }
    for (std::size_t k = 0; k < prepared.outputs.size() && k < run.outputRangeSetLines.size(); ++k)
      for (auto& t : c.outputs)
        if (t.tensor == prepared.outputs[k].name) t.rangeSetLine = run.outputRangeSetLines[k];
    for (const auto& w : run.inputsWritten) {
      const bool known = std::any_of(c.modifiedInputs.begin(), c.modifiedInputs.end(),
                                     [&](const verify::InputCheck& m) { return m.tensor == w.tensor; });
      if (!known) c.modifiedInputs.push_back(w);
      c.passed = false;
    }
    return c;
  }
  // The compiler flags that decide what a candidate's translation unit sees (standard, include folders,
  // defines, forced includes), for the policy's preprocessed check (core/policy/CandidatePreprocess.h).
  std::vector<std::string> preprocessFlags(const Task& task) const;
  // Paths a person may want to open (sources, binaries, logs), by label.
  virtual std::map<std::string, std::string> artifacts() const { return {}; }
};

// Names a companion file may not have: those the backends generate next to the candidate.
bool isReservedCandidateFileName(const std::string& name);
// Writes `companions` into `dir` (the candidate's folder). Every name must be a plain file name that is
// not reserved; false with `error` set otherwise or on I/O failure (nothing is written outside `dir`).
bool writeCompanionFiles(const std::filesystem::path& dir,
                         const std::map<std::string, std::string>& companions, std::string& error);
// The companions' identity for build caches (names and contents).
std::string companionFilesKey(const std::map<std::string, std::string>& companions);

// "ascend-sim" or "ascend-cann"; nullptr with `error` set for other names.
std::unique_ptr<Backend> makeBackend(const std::string& name, const BackendOptions& options,
                                     std::string& error);

// The generated CPU-mode host harness (main.cpp) for a task, run in two sandboxes per case:
// `tiling MANIFEST RESULT` calls kwb_tiling where no tensor data exists and writes its result;
// `kernel MANIFEST` GmAllocs every tensor, loads inputs and poisoned outputs, runs
// ICPU_RUN_KF(<task>, blockDim, ...) on the tiling the workbench validated, writes outputs and the
// inputs as they are after the run. `entrySymbol`: the kernel entry's symbol when it is not the task's
// name (the operator-project form renames it, core/toolchain/OpProjectForm.h).
std::string generateCpuHarness(const Task& task, const std::string& entrySymbol = {});

// The manifest of the tiling run (no tensor files) and of the kernel run (with the validated tiling).
std::string tilingManifest(const Task& task, const verify::PreparedCase& prepared, const SocInfo& soc);
std::string harnessManifest(const Task& task, const verify::PreparedCase& prepared, const CaseFiles& files,
                            const SocInfo& soc, const TilingResult& tiling);

// Creates the case's folders and the empty result files (see CaseFiles); throws on failure.
CaseFiles makeCaseFolders(const std::filesystem::path& dir, const verify::PreparedCase& prepared);

// Reads the run's outputs back (readResultFile: regular files of exactly the tensors' sizes) into
// `run.outputs`, an empty entry for each that cannot be read, and compares the inputs-after files with
// the inputs a piece at a time (scanResultFile) into `run.inputsChanged`. Returns
// one runtime-crash diagnostic (source `source`) per such file, naming it and what was wrong.
std::vector<Diagnostic> readCaseResults(const CaseFiles& files, const verify::PreparedCase& prepared,
                                        CaseRunResult& run, const std::string& source);

// Reads and validates the tiling run's result file (hostile input). `error` says what was wrong.
TilingResult readTilingResult(const std::filesystem::path& file, std::string& error);

// ge::DataType code of a dtype (KwbDType in kwb_tiling.h).
int geDataType(DType t);

}  // namespace kwb
