// SPDX-License-Identifier: MIT
#pragma once
// Finds what `kwb calibrate fit` needs in one folder the user names (docs/calibration.md, "kwb calibrate"):
// the folder is a point folder of `kwb calibrate emit` (its msprof output under prof/), or any folder
// inside one (prof/, prof/OPPROF_...). The manifest is the nearest kwb-calibration.json at or above it
// (at most three levels), the measurement the newest OpBasicInfo.csv at or below it (msprof op names its
// folders OPPROF_<timestamp>_..., so the greatest path is the latest run).

#include <filesystem>
#include <string>

#include "core/calibrate/CalibrationMeasurement.h"

namespace kwb::calibrate {

struct MeasuredPoint {
  CalibrationPoint point;
  PointMeasurement measurement;
  std::filesystem::path manifestFile, opBasicInfoFile, pipeUtilizationFile;  // the last may be empty
  std::filesystem::path pointDir;                                            // where the manifest is
};

// Throws CalibrationInputError (no manifest, no OpBasicInfo.csv, unreadable file) or MsprofParseError.
MeasuredPoint loadMeasuredPoint(const std::filesystem::path& dir);

}  // namespace kwb::calibrate
