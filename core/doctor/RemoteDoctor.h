// SPDX-License-Identifier: MIT
#pragma once
// `kwb doctor --host ssh://user@host`: what a remote NPU host offers the ssh executor
// (docs/suites.md, "SSH"): reachable, authentication, the CANN toolkit (version), bisheng, msprof,
// an NPU device and npu-smi, bubblewrap, tar and timeout. Each line ok, fail, warn or skipped (when an
// earlier failure leaves nothing to look at), with the fix when it is not ok.

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/remote/RemoteHostProbe.h"

namespace kwb {

struct HostCheck {
  std::string name;    // "reachable", "authentication", "cann toolkit", ...
  std::string status;  // "ok", "fail", "warn", "skipped"
  std::string detail;
  std::string fix;  // empty when ok
};

struct HostDoctorReport {
  std::string host;  // the ssh:// address
  std::vector<HostCheck> checks;
  // Reachable, authenticated and a toolkit with bisheng: the ssh executor can build there.
  bool ok() const;
};

HostDoctorReport runHostDoctor(const remote::SshSettings& ssh, const std::string& cannRoot = {});
// The checks from a probe's outcome (pure, for tests): `facts` null when the probe failed with
// `failure` / `error`.
HostDoctorReport hostDoctorFrom(const std::string& host, const remote::RemoteHostFacts* facts,
                                remote::SshFailureKind failure, const std::string& error);

nlohmann::json toJson(const HostDoctorReport& report);
std::string formatText(const HostDoctorReport& report);

}  // namespace kwb
