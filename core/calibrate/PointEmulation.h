// SPDX-License-Identifier: MIT
#pragma once
// Runs one calibration point on the emulator once and keeps its launch trace, so that `kwb calibrate fit`
// can cost the same instructions with any candidate SoC parameters (kwb::sim::simulate) without running
// the program again (docs/calibration.md, "kwb calibrate").

#include <filesystem>
#include <string>

#include "core/calibrate/CalibrationPrograms.h"
#include "core/emulator/include/kwb_sim/trace.h"

namespace kwb::calibrate {

// Builds the point's program (the embedded text, written into workDir) with `kwb sim build`'s builder for
// `soc`, runs it with a records file and returns the trace. Throws std::runtime_error with the build or
// run output when either fails.
kwb_sim::LaunchTrace emulatePoint(const CalibrationPoint& point, const std::string& soc,
                                  const std::filesystem::path& workDir);

}  // namespace kwb::calibrate
