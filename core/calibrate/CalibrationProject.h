// SPDX-License-Identifier: MIT
#pragma once
// `kwb calibrate emit`: the calibration points as CANN kernel-launch projects for a device, one folder per
// point (docs/calibration.md, "kwb calibrate"):
//
//   <out>/README.md, run_all.sh      build every point, run it under `msprof op --output=<point>/prof`
//   <out>/<point>/<program>.cpp      bench/calibration/<program>, byte for byte (the emulator's source)
//   <out>/<point>/main.cpp           ACL host: takes the launch constants from the same file
//                                    (CAL_HOST_SHAPES) and launches the kernel once
//   <out>/<point>/CMakeLists.txt, cmake/cpu_lib.cmake   the kernel-launch layout (CannProjectExporter's)
//   <out>/<point>/run.sh             build (RUN_MODE=npu) and profile this point
//   <out>/<point>/kwb-calibration.json   the manifest `kwb calibrate fit` identifies the point by
//
// msprof writes nothing of the manifest into its output, so fit is given the point folders (or the prof
// folders inside them) and reads the manifest next to the measurement.

#include <filesystem>
#include <string>
#include <vector>

#include "core/calibrate/CalibrationPrograms.h"

namespace kwb::calibrate {

inline constexpr const char* kManifestFileName = "kwb-calibration.json";
inline constexpr const char* kProfFolderName = "prof";

// Writes the projects; outDir must not exist or be empty. Throws std::invalid_argument (non-empty
// folder, unknown program) or std::runtime_error (I/O).
void emitCalibrationProject(const std::vector<CalibrationPoint>& points, const std::string& soc,
                            const std::filesystem::path& outDir);

// The generated texts (exposed for tests).
std::string calibrationHostMain(const CalibrationPoint& point);
std::string calibrationManifest(const CalibrationPoint& point, const std::string& soc);
std::string calibrationReadme(const std::vector<CalibrationPoint>& points, const std::string& soc);

}  // namespace kwb::calibrate
