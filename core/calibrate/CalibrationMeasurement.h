// SPDX-License-Identifier: MIT
#pragma once
// What `kwb calibrate fit` reads from one calibration point folder (docs/calibration.md, "kwb calibrate"):
// the manifest `kwb calibrate emit` wrote (which program, which shape) and the msprof op output of the
// device run (OpBasicInfo.csv "Task Duration(us)", PipeUtilization.csv per-pipe ratios). Pure functions
// over the files' text; anything wrong throws CalibrationInputError (or MsprofParseError from the CSV
// parser) naming the file and, where there is one, the line.

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "core/calibrate/CalibrationPrograms.h"

namespace kwb::calibrate {

class CalibrationInputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// kwb-calibration.json: program must be a known calibration program, kernel its entry, defines integers.
CalibrationPoint parsePointManifest(std::string_view json, std::string_view fileName);

struct PointMeasurement {
  double taskDurationUs = 0;             // median over the kernel's rows of OpBasicInfo.csv
  int rows = 0;                          // rows of the kernel that were measured
  int blockDim = 0;                      // "Block Dim" of those rows
  std::optional<double> currentFreqMHz;  // "Current Freq" when every row gives the same
  // Mean over the blocks of PipeUtilization.csv's <core>_<pipe>_ratio, core aiv or aic (whichever ran
  // the block): "vec", "scalar", "mte2", "mte3", and for cube kernels "mac", "mte1", "fixpipe".
  std::map<std::string, double> pipeRatios;
};

// kernel: the manifest's entry name; rows whose "Op Name" contains it count (msprof may decorate it).
// pipeUtilization may be empty (the ratios are then absent).
PointMeasurement parsePointMeasurement(std::string_view opBasicInfo, std::string_view opBasicInfoFile,
                                       std::string_view pipeUtilization, std::string_view pipeUtilizationFile,
                                       std::string_view kernel);

}  // namespace kwb::calibrate
