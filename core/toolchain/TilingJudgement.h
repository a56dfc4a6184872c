// SPDX-License-Identifier: MIT
#pragma once
// The workbench's judgement of a finished tiling run (docs/sandbox.md, "Trusted evaluation"), shared by
// the local sandboxed run (TilingPhase.h) and the remote one (core/remote/RemoteCannBackend.h).

#include <string>

#include "core/toolchain/TilingPhase.h"

namespace kwb {

// The run's result is already in out.tiling (readTilingResult; `readError` what was wrong with the
// file): did it run (`ranOk`, `outcome` for the message), did kwb_tiling accept the shapes, are block
// dim and workspace in range. Sets out.ok, or appends the diagnostic that says why not.
void judgeTilingRun(TilingPhaseResult& out, bool ranOk, const std::string& outcome,
                    const std::string& stderrText, const std::string& readError,
                    const std::string& commandLine);

}  // namespace kwb
