// SPDX-License-Identifier: MIT
#pragma once
// The calibration programs (bench/calibration/*.cpp, embedded into kwb at build time so that the emulator
// and the emitted device project compile the same text) and the points `kwb calibrate` runs them at:
// one program and one set of -D values each (docs/calibration.md, "kwb calibrate").

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kwb::calibrate {

struct CalibrationPoint {
  std::string tag;      // folder name of the point: "elementwise_op1_b4", "data_copy_s3"
  std::string program;  // file under bench/calibration: "elementwise.cpp"
  std::string kernel;   // its __global__ entry: "calibration_elementwise"
  std::vector<std::pair<std::string, long long>> defines;  // -D NAME=VALUE, in this order
};

// The published setups of docs/calibration.md (elementwise add/mul/relu/div over the batch sizes, the
// eight GM->UB and seven GM->L1 data_copy scenarios, the one-matrix matmul); quick: small shapes
// that emulate in well under a second each (one of them a GM->L1 copy and one a matmul) and one HBM-bound
// copy larger than the L2 (a few seconds), for tests and a first try on a device.
std::vector<CalibrationPoint> calibrationPoints(bool quick);

// The embedded text of bench/calibration/<program>; empty for an unknown name (generated file).
std::string_view calibrationProgramText(std::string_view program);

// The kernel entry of a program, "" when the program is unknown.
std::string calibrationKernelName(std::string_view program);

}  // namespace kwb::calibrate
