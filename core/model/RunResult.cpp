// SPDX-License-Identifier: MIT
#include "core/model/RunResult.h"

#include <nlohmann/json.hpp>

#include "core/model/JsonReader.h"
#include "core/model/Utf8Text.h"

namespace kwb {

namespace {
constexpr std::pair<std::string_view, RunStatus> kStatus[] = {{"ok", RunStatus::Ok},
                                                              {"error", RunStatus::Error},
                                                              {"crash", RunStatus::Crash},
                                                              {"timeout", RunStatus::Timeout}};
constexpr std::pair<std::string_view, RanOn> kRanOn[] = {{"emulator", RanOn::Emulator},
                                                         {"npu", RanOn::Npu},
                                                         {"cann-sim", RanOn::CannSim},
                                                         {"cann-cpu", RanOn::CannCpu}};
}  // namespace

std::string_view runStatusName(RunStatus s) {
  return enumName(kStatus, s);
}
std::string_view ranOnName(RanOn r) {
  return enumName(kRanOn, r);
}

void read(const JsonReader& r, RunResult& rr) {
  rr = RunResult{};
  rr.status = r.at("status").asEnum(kStatus);
  if (auto d = r.find("diagnostics")) readList(*d, rr.diagnostics);
  rr.stdoutExcerpt = r.getString("stdout", "");
  rr.stderrExcerpt = r.getString("stderr", "");
  rr.durationMs = r.getNumber("duration_ms", 0.0);
  rr.backend = r.getString("backend", "");
  // Required on purpose: a run record that does not say where it ran cannot be trusted.
  rr.ranOn = r.at("ran_on").asEnum(kRanOn);
  if (auto e = r.optInt("exit_code")) rr.exitCode = static_cast<int>(*e);
  if (auto s = r.optInt("signal")) rr.signal = static_cast<int>(*s);
}

void to_json(nlohmann::json& j, const RunResult& rr) {
  j = {{"status", runStatusName(rr.status)},
       {"diagnostics", rr.diagnostics},
       {"stdout", toValidUtf8(rr.stdoutExcerpt)},
       {"stderr", toValidUtf8(rr.stderrExcerpt)},
       {"duration_ms", rr.durationMs},
       {"backend", rr.backend},
       {"ran_on", ranOnName(rr.ranOn)}};
  if (rr.exitCode) j["exit_code"] = *rr.exitCode;
  if (rr.signal) j["signal"] = *rr.signal;
}

void from_json(const nlohmann::json& j, RunResult& rr) {
  read(JsonReader(j, ""), rr);
}

}  // namespace kwb
