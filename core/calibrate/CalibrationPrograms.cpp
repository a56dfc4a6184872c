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

// data_copy.cpp (GM->UB on the AIV cores) or data_copy_l1.cpp (GM->L1 ND->NZ on the AIC cores).
CalibrationPoint dataCopy(int scenario, long long rows, bool toL1 = false) {
  CalibrationPoint p{std::string(toL1 ? "data_copy_l1_s" : "data_copy_s") + std::to_string(scenario),
                     toL1 ? "data_copy_l1.cpp" : "data_copy.cpp",
                     toL1 ? "calibration_data_copy_l1" : "calibration_data_copy",
                     {{"CAL_SCENARIO", scenario}}};
  if (rows > 0) {
    p.tag += "_rows" + std::to_string(rows);
    p.defines.emplace_back("CAL_ROWS", rows);
  }
  return p;
}

CalibrationPoint matmul(int matrices) {
  return {"matmul_m" + std::to_string(matrices),
          "matmul.cpp",
          "calibration_matmul",
          {{"CAL_MATRICES", matrices}}};
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
    // The cube side: a GM->L1 ND->NZ copy (24 blocks of 64 rows) and one small matmul.
    points.push_back(dataCopy(1, 1536, true));
    points.push_back(matmul(1));
    return points;
  }
  // The batch sizes of the published add/mul/relu (1..64) and div (1..32) runs (published.json).
  for (int op : {1, 2, 3, 4})
    for (int batch = 1; batch <= (op == 4 ? 32 : 64); batch *= 2) points.push_back(elementwise(op, batch));
  for (int scenario = 1; scenario <= 8; ++scenario) points.push_back(dataCopy(scenario, 0));
  for (int scenario = 1; scenario <= 7; ++scenario) points.push_back(dataCopy(scenario, 0, true));
  points.push_back(matmul(1));  // one matrix per launch, as published (matmul.cpp)
  return points;
}

std::string calibrationKernelName(std::string_view program) {
  if (program == "elementwise.cpp") return "calibration_elementwise";
  if (program == "data_copy.cpp") return "calibration_data_copy";
  if (program == "data_copy_l1.cpp") return "calibration_data_copy_l1";
  if (program == "matmul.cpp") return "calibration_matmul";
  return {};
}

}  // namespace kwb::calibrate
