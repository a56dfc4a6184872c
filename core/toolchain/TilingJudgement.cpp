// SPDX-License-Identifier: MIT
#include "core/toolchain/TilingJudgement.h"

namespace kwb {

namespace {
Diagnostic harnessError(std::string category, std::string api, std::string message) {
  Diagnostic d;
  d.source = "harness";
  d.category = std::move(category);
  if (!api.empty()) d.api = std::move(api);
  d.message = std::move(message);
  return d;
}
}  // namespace

void judgeTilingRun(TilingPhaseResult& out, bool ranOk, const std::string& outcome,
                    const std::string& stderrText, const std::string& readError,
                    const std::string& commandLine) {
  out.ok = false;
  if (!ranOk || !out.tiling.called) {
    std::string why = !readError.empty() ? readError : "the tiling run " + outcome;
    if (!stderrText.empty()) why += ": " + stderrText.substr(0, 2000);
    out.diagnostics.push_back(harnessError(
        out.timedOut ? std::string(category::Timeout) : std::string(category::RuntimeCrash), "kwb_tiling",
        "the host tiling (kwb_tiling) did not complete: " + why + "\ncommand: " + commandLine));
    return;
  }
  if (out.tiling.rc != 0) {
    out.diagnostics.push_back(
        harnessError(std::string(category::InvalidParam), "kwb_tiling",
                     "kwb_tiling returned " + std::to_string(out.tiling.rc) +
                         " for this case: the tiling rejected its shapes" +
                         (stderrText.empty() ? std::string() : " (" + stderrText.substr(0, 1000) + ")")));
    return;
  }
  if (out.tiling.blockDim <= 0 || out.tiling.blockDim > 65535) {
    out.diagnostics.push_back(
        harnessError(std::string(category::InvalidParam), "kwb_set_block_dim",
                     "kwb_tiling chose blockDim " + std::to_string(out.tiling.blockDim) +
                         "; it must be 1..65535 (kwb_set_block_dim was not called, or with 0)"));
    return;
  }
  // A workspace beyond what the run may allocate would only fail later, less clearly.
  if (out.tiling.workspaceSize > (4ull << 30)) {
    out.diagnostics.push_back(harnessError(std::string(category::InvalidParam), "kwb_set_workspace",
                                           "kwb_tiling asked for " +
                                               std::to_string(out.tiling.workspaceSize) +
                                               " bytes of workspace; at most 4 GiB"));
    return;
  }
  out.ok = true;
}

}  // namespace kwb
