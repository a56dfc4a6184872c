// SPDX-License-Identifier: MIT
#include "core/calibrate/CalibrationPrograms.h"

#include <string>

namespace kwb::calibrate {

namespace {

CalibrationPoint elementwise(int op, int batch) {
  static const char* const kOpNames[] = {"", "add", "mul", "relu", "div"};
  return {"elementwise_" + std::string(kOpNames[op]) + "_b" + std::to_string(batch),
          "elementwise.cpp",
          "calibration_elementwise",
          {{"CAL_OP", op}, {"CAL_BATCH", batch}}};
}

CalibrationPoint dataCopy(int scenario, long long rows) {
  CalibrationPoint p{"data_copy_s" + std::to_string(scenario),
                     "data_copy.cpp",
                     "calibration_data_copy",
                     {{"CAL_SCENARIO", scenario}}};
  if (rows > 0) {
    p.tag += "_rows" + std::to_string(rows);
    p.defines.emplace_back("CAL_ROWS", rows);
  }
  return p;
}

}  // namespace

std::vector<CalibrationPoint> calibrationPoints(bool quick) {
  std::vector<CalibrationPoint> points;
  if (quick) {
    // data_copy needs at least one tile of rows per block (48 blocks): 48 rows for Tile[1,64], 48 * 64
    // for the 64-row tiles.
    points.push_back(elementwise(1, 1));
    points.push_back(elementwise(3, 1));
    points.push_back(dataCopy(1, 96));
    points.push_back(dataCopy(3, 3072));
    // The one point that streams from HBM: 9216 rows (226 MB) read 4 times overflow a 192 MB L2, so the
    // L2-resident points above leave the HBM bandwidth to this one (docs/calibration.md).
    points.push_back(dataCopy(5, 9216));
    return points;
  }
  // The batch sizes of the published add/mul/relu (1..64) and div (1..32) runs (published.json).
  for (int op : {1, 2, 3, 4})
    for (int batch = 1; batch <= (op == 4 ? 32 : 64); batch *= 2) points.push_back(elementwise(op, batch));
  for (int scenario = 1; scenario <= 6; ++scenario) points.push_back(dataCopy(scenario, 0));
  return points;
}

std::string calibrationKernelName(std::string_view program) {
  if (program == "elementwise.cpp") return "calibration_elementwise";
  if (program == "data_copy.cpp") return "calibration_data_copy";
  return {};
}

}  // namespace kwb::calibrate
