// SPDX-License-Identifier: MIT
#pragma once
// The first of a case's two sandboxed runs: the candidate's kwb_tiling, called by the generated
// harness (`APP tiling MANIFEST RESULT`) in a sandbox that holds the program, the shapes-only manifest
// and one writable result file — no tensor data exists anywhere it can look, so the tiling cannot ship
// host-computed answers to the kernel. The workbench validates the result (rc, block dim, sizes) and
// hands it to the kernel run in that run's manifest (docs/sandbox.md, "Trusted evaluation").

#include <chrono>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "core/model/Diagnostic.h"
#include "core/toolchain/Backend.h"

namespace kwb {

struct TilingPhaseResult {
  TilingResult tiling;
  std::vector<Diagnostic> diagnostics;  // errors: the case cannot run
  bool ok = false;
  bool timedOut = false;
};

TilingPhaseResult runTilingPhase(const Task& task, const verify::PreparedCase& prepared,
                                 const CaseFiles& files, const SocInfo& soc,
                                 const std::filesystem::path& binary, std::chrono::milliseconds timeout,
                                 const std::vector<std::filesystem::path>& extraReadOnly = {},
                                 const std::map<std::string, std::string>& environment = {});

}  // namespace kwb
