// SPDX-License-Identifier: MIT
#include "core/calibrate/CalibrationMeasurement.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <vector>

#include "core/diag/MsprofParser.h"

namespace kwb::calibrate {

namespace {

[[noreturn]] void fail(std::string_view file, const std::string& what) {
  throw CalibrationInputError(std::string(file) + ": " + what);
}

std::string requiredString(const nlohmann::json& j, const char* key, std::string_view file) {
  if (!j.contains(key) || !j[key].is_string() || j[key].get<std::string>().empty())
    fail(file, std::string("\"") + key + "\" is missing or not a non-empty string");
  return j[key].get<std::string>();
}

}  // namespace

CalibrationPoint parsePointManifest(std::string_view json, std::string_view fileName) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(json);
  } catch (const nlohmann::json::parse_error& e) {
    // e.byte is 1-based; name the line so the user can find it.
    const std::size_t at = std::min<std::size_t>(e.byte == 0 ? 0 : e.byte - 1, json.size());
    const auto line = 1 + std::count(json.begin(), json.begin() + static_cast<std::ptrdiff_t>(at), '\n');
    fail(fileName, "line " + std::to_string(line) + ": not valid JSON (" + e.what() + ")");
  }
  if (!j.is_object()) fail(fileName, "not a JSON object");
  if (!j.contains("schema") || j["schema"] != "kwb-calibration-point/1")
    fail(fileName, "\"schema\" is not \"kwb-calibration-point/1\" (not a manifest of kwb calibrate emit)");
  CalibrationPoint p;
  p.tag = requiredString(j, "tag", fileName);
  p.program = requiredString(j, "program", fileName);
  p.kernel = requiredString(j, "kernel", fileName);
  if (calibrationProgramText(p.program).empty())
    fail(fileName, "unknown calibration program \"" + p.program +
                       "\" (this kwb has elementwise.cpp, data_copy.cpp, data_copy_l1.cpp, matmul.cpp)");
  if (calibrationKernelName(p.program) != p.kernel)
    fail(fileName, "kernel \"" + p.kernel + "\" is not the entry of " + p.program + " (" +
                       calibrationKernelName(p.program) + ")");
  if (!j.contains("defines") || !j["defines"].is_object())
    fail(fileName, "\"defines\" is missing or not an object");
  for (const auto& [name, value] : j["defines"].items()) {
    if (name.rfind("CAL_", 0) != 0 ||
        name.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789") != std::string::npos)
      fail(fileName, "define \"" + name + "\" is not a CAL_* name");
    if (!value.is_number_integer()) fail(fileName, "define \"" + name + "\" is not an integer");
    p.defines.emplace_back(name, value.get<long long>());
  }
  return p;
}

PointMeasurement parsePointMeasurement(std::string_view opBasicInfo, std::string_view opBasicInfoFile,
                                       std::string_view pipeUtilization, std::string_view pipeUtilizationFile,
                                       std::string_view kernel) {
  const auto rows = parseOpBasicInfo(opBasicInfo, opBasicInfoFile);
  std::vector<double> durations;
  PointMeasurement m;
  std::optional<double> freq;
  bool freqSame = true;
  for (const auto& r : rows) {
    if (r.opName.find(kernel) == std::string::npos) continue;
    if (!(r.taskDurationUs > 0))
      fail(opBasicInfoFile, "\"Task Duration(us)\" of " + r.opName + " is not positive");
    durations.push_back(r.taskDurationUs);
    m.blockDim = r.blockDim;
    if (r.currentFreqMHz) {
      if (freq && *freq != *r.currentFreqMHz) freqSame = false;
      freq = r.currentFreqMHz;
    }
  }
  if (durations.empty())
    fail(opBasicInfoFile, "no row for kernel " + std::string(kernel) + " (\"Op Name\" of " +
                              std::to_string(rows.size()) +
                              " row(s)): the folder does not hold this point's run");
  std::sort(durations.begin(), durations.end());
  const std::size_t n = durations.size();
  m.taskDurationUs = n % 2 ? durations[n / 2] : (durations[n / 2 - 1] + durations[n / 2]) / 2;
  m.rows = static_cast<int>(n);
  if (freqSame && freq && *freq > 0) m.currentFreqMHz = freq;
  if (!pipeUtilization.empty()) {
    const auto pipes = parsePipeUtilization(pipeUtilization, pipeUtilizationFile);
    // A vector kernel's blocks run on the AIV cores, a cube kernel's on the AIC cores: a row's ratios are
    // those of the core kind that spent the time (msprof fills both column sets on the split 910B).
    const auto coreOf = [](const MsprofPipeRow& row) -> const char* {
      return row.aicTimeUs.value_or(0) > row.aivTimeUs.value_or(0) ? "aic" : "aiv";
    };
    for (const char* pipe : {"vec", "scalar", "mte2", "mte3", "mac", "mte1", "fixpipe"}) {
      double sum = 0;
      int count = 0;
      for (const auto& row : pipes)
        if (const auto* t = row.pipe(coreOf(row), pipe); t && t->ratio) {
          if (*t->ratio < 0 || *t->ratio > 1.0001)
            fail(pipeUtilizationFile, std::string(coreOf(row)) + "_" + pipe + "_ratio of block " +
                                          std::to_string(row.blockId) + " is outside 0..1");
          sum += *t->ratio;
          ++count;
        }
      if (count) m.pipeRatios[pipe] = sum / count;
    }
  }
  return m;
}

}  // namespace kwb::calibrate
