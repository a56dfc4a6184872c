// SPDX-License-Identifier: MIT
#pragma once
// `kwb doctor`: what this machine offers the workbench. Never prints secrets: for the LLM key it
// reports only the variable's name and whether it is set.

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/llm/LlmEndpointConfig.h"
#include "core/toolchain/CannInstallation.h"

namespace kwb {

struct DoctorCheck {
  std::string name;    // "c++ compiler", "bubblewrap", ...
  std::string status;  // "ok", "missing", "warning"
  std::string detail;  // one human sentence
  std::optional<std::string> path;
  std::optional<std::string> version;
};

struct DoctorReport {
  std::vector<DoctorCheck> checks;
  std::optional<CannInstallation> cann;
  LlmEndpointConfig llm;
  // The emulator is always available (built in); the CANN path needs a toolkit and, for npu mode, a device.
  bool emulatorAvailable = true;
  bool ok() const;  // false only when something required (the C++ compiler) is missing
};

struct DoctorOptions {
  EnvLookup env = processEnvironment();
  bool probeVersions = true;  // run `tool --version` (bounded by a short timeout)
};

DoctorReport runDoctor(const DoctorOptions& options = {});

nlohmann::json toJson(const DoctorReport& report);
std::string formatText(const DoctorReport& report);

}  // namespace kwb
