// SPDX-License-Identifier: MIT
#include "core/toolchain/TilingPhase.h"

#include <fstream>

#include "core/sandbox/Sandbox.h"
#include "core/toolchain/TilingJudgement.h"

namespace kwb {

TilingPhaseResult runTilingPhase(const Task& task, const verify::PreparedCase& prepared,
                                 const CaseFiles& files, const SocInfo& soc,
                                 const std::filesystem::path& binary, std::chrono::milliseconds timeout,
                                 const std::vector<std::filesystem::path>& extraReadOnly,
                                 const std::map<std::string, std::string>& environment) {
  TilingPhaseResult out;
  {
    std::ofstream m(files.tilingManifest, std::ios::trunc);
    m << tilingManifest(task, prepared, soc);
  }
  SandboxPolicy policy;
  policy.scratchDir = files.scratch;
  policy.scratchTmpfsBytes = 16ull << 20;
  policy.readOnlyPaths = {binary, files.tilingDir};
  policy.readOnlyPaths.insert(policy.readOnlyPaths.end(), extraReadOnly.begin(), extraReadOnly.end());
  policy.writableFiles = {files.tilingResult};
  policy.environment = environment;
  policy.wallTimeout = std::min(timeout, std::chrono::milliseconds(30000));
  policy.cpuSeconds = static_cast<int>(policy.wallTimeout.count() / 1000) + 1;
  policy.maxProcesses = 8;
  policy.maxFileSizeBytes = 64u << 10;
  policy.addressSpaceBytes = 2ull << 30;
  policy.totalMemoryBytes = 2ull << 30;
  const SandboxResult r = Sandbox(policy).run(
      {binary.string(), "tiling", files.tilingManifest.string(), files.tilingResult.string()});
  for (const auto& d : r.diagnostics) out.diagnostics.push_back(d);
  out.timedOut = r.timedOut || r.hasCategory(category::Timeout);
  std::string error;
  out.tiling = readTilingResult(files.tilingResult, error);
  judgeTilingRun(out, r.ok(), r.process.describeOutcome(), r.stderrText(), error, r.commandLine());
  return out;
}

}  // namespace kwb
