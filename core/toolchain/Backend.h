#pragma once
// One interface for every way of evaluating a candidate: prepare (write the candidate and a generated
// host harness), compile, run one verification case (inside the sandbox), verify (shared verifier) and
// profile. `ascend-sim` is the emulator (SimBackend), `ascend-cann` the real CANN toolchain
// (CannBackend). The Evaluator drives them; backends never decide pass/fail themselves.

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/model/CompileResult.h"
#include "core/model/Diagnostic.h"
#include "core/model/RunResult.h"
#include "core/model/Task.h"
#include "core/toolchain/SocInfo.h"
#include "core/verify/Verification.h"

namespace kwb {

// Files of one case: inputs and poisoned outputs written by the evaluator before the run; outputs and
// inputs-after read back afterwards.
struct CaseFiles {
  std::filesystem::path dir;
  std::vector<std::filesystem::path> inputs;       // input_<name>.bin
  std::vector<std::filesystem::path> inputsAfter;  // input_<name>.after.bin (written by the harness)
  std::vector<std::filesystem::path> outputsInit;  // output_<name>.poison.bin
  std::vector<std::filesystem::path> outputs;      // output_<name>.bin (written by the harness)
  std::filesystem::path manifest;                  // harness.manifest
  std::filesystem::path tilingResult;              // tiling.txt (block_dim, tiling size, workspace, rc)
  std::filesystem::path report;                    // emulator/runtime report
};

struct TilingResult {
  bool called = false;
  int rc = -1;
  int blockDim = 0;
  std::uint64_t tilingSize = 0;
  std::uint64_t workspaceSize = 0;
};

struct CaseRunResult {
  RunResult run;
  TilingResult tiling;
  std::vector<verify::Bytes> outputs;
  std::vector<verify::Bytes> inputsAfter;
  nlohmann::json profile;  // null when the backend has none for this run
};

struct BackendOptions {
  std::string soc = "Ascend910B1";
  std::filesystem::path cacheDir;                         // build cache (content hash)
  std::chrono::milliseconds caseTimeout{60000};
  std::string runMode;                                    // ascend-cann: "npu", "sim", "cpu" ("" = best available)
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;
  // Where runs of this backend really execute ("emulator", "npu", "cann-sim", "cann-cpu").
  virtual RanOn ranOn() const = 0;

  // Writes the candidate and the generated harness under workDir. Errors (e.g. no toolchain) come back
  // as diagnostics; nothing is compiled yet.
  virtual std::vector<Diagnostic> prepare(const Task& task, const std::string& candidateSource,
                                          const std::filesystem::path& workDir) = 0;
  virtual CompileResult compile() = 0;
  // Runs one case in the sandbox; the case files already exist.
  virtual CaseRunResult run(const verify::PreparedCase& prepared, const CaseFiles& files) = 0;
  // The backend's profile of a run (null when none).
  virtual nlohmann::json profile(const CaseRunResult& run) const { return run.profile; }
  // Verification is the same for every backend.
  verify::CaseCheck verify(const Task& task, const verify::PreparedCase& prepared,
                           const std::vector<std::vector<double>>& expected, const CaseRunResult& run) const {
    return verify::checkCase(task, prepared, expected, run.outputs, run.inputsAfter, run.tiling.blockDim);
  }
  // Paths a person may want to open (sources, binaries, logs), by label.
  virtual std::map<std::string, std::string> artifacts() const { return {}; }
};

// "ascend-sim" or "ascend-cann"; nullptr with `error` set for other names.
std::unique_ptr<Backend> makeBackend(const std::string& name, const BackendOptions& options, std::string& error);

// The generated CPU-mode host harness (main.cpp) for a task: reads harness.manifest, fills the
// KwbTilingInput, calls kwb_tiling, GmAllocs every tensor, loads inputs and poisoned outputs, runs
// ICPU_RUN_KF(<task>, blockDim, ...), writes outputs and the inputs as they are after the run.
std::string generateCpuHarness(const Task& task);

// The manifest the harness reads for one case.
std::string harnessManifest(const Task& task, const verify::PreparedCase& prepared, const CaseFiles& files,
                            const SocInfo& soc);

// Reads tiling.txt written by the harness.
TilingResult readTilingResult(const std::filesystem::path& file);

// ge::DataType code of a dtype (KwbDType in kwb_tiling.h).
int geDataType(DType t);

}  // namespace kwb
