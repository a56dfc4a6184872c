// SPDX-License-Identifier: MIT
#pragma once
// What running a compiled candidate produced. `ranOn` says where the code really executed, so no
// report can pass off an emulator run as a device run.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/model/Diagnostic.h"

namespace kwb {

class JsonReader;

enum class RunStatus { Ok, Error, Crash, Timeout };
enum class RanOn { Emulator, Npu, CannSim, CannCpu };

std::string_view runStatusName(RunStatus s);  // "ok", "error", "crash", "timeout"
std::string_view ranOnName(RanOn r);          // "emulator", "npu", "cann-sim", "cann-cpu"

struct RunResult {
  RunStatus status = RunStatus::Error;
  std::vector<Diagnostic> diagnostics;
  std::string stdoutExcerpt;
  std::string stderrExcerpt;
  double durationMs = 0.0;
  std::string backend;  // "ascend-sim", "ascend-cann"
  RanOn ranOn = RanOn::Emulator;
  std::optional<int> exitCode;
  std::optional<int> signal;
  bool operator==(const RunResult&) const = default;
};

void read(const JsonReader& r, RunResult& rr);
void to_json(nlohmann::json& j, const RunResult& rr);
void from_json(const nlohmann::json& j, RunResult& rr);

}  // namespace kwb
