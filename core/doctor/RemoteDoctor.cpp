// SPDX-License-Identifier: MIT
#include "core/doctor/RemoteDoctor.h"

#include <nlohmann/json.hpp>
#include <sstream>

namespace kwb {

namespace {
HostCheck check(std::string name, bool good, std::string detail, std::string fix, bool warnOnly = false) {
  return {std::move(name),
          good       ? "ok"
          : warnOnly ? "warn"
                     : "fail",
          std::move(detail), good ? std::string() : std::move(fix)};
}
}  // namespace

bool HostDoctorReport::ok() const {
  for (const auto& c : checks)
    if ((c.name == "reachable" || c.name == "authentication" || c.name == "cann toolkit" ||
         c.name == "bisheng") &&
        c.status != "ok")
      return false;
  return !checks.empty();
}

HostDoctorReport hostDoctorFrom(const std::string& host, const remote::RemoteHostFacts* facts,
                                remote::SshFailureKind failure, const std::string& error) {
  using remote::SshFailureKind;
  HostDoctorReport r;
  r.host = host;
  const bool reachable = failure != SshFailureKind::Unreachable && failure != SshFailureKind::Other;
  r.checks.push_back(
      check("reachable", reachable, reachable ? "sshd answered at " + host : error,
            "check the host name and port, that sshd runs there and that nothing blocks the port"));
  if (!reachable) {
    for (const char* n :
         {"authentication", "cann toolkit", "bisheng", "msprof", "npu device", "npu-smi", "sandbox"})
      r.checks.push_back({n, "skipped", "the host did not answer", ""});
    return r;
  }
  const bool authed = failure == SshFailureKind::None;
  r.checks.push_back(check(
      "authentication", authed, authed ? "logged in without a prompt (BatchMode)" : error,
      failure == SshFailureKind::HostKey
          ? "connect once with ssh, verify the host key's fingerprint and accept it (known_hosts)"
          : "load the key into ssh-agent (ssh-add) or name it with IdentityFile in ~/.ssh/config; kwb never "
            "asks for passwords and never stores keys"));
  if (!authed || !facts) {
    const std::string why = !authed ? "not logged in" : error;
    for (const char* n : {"cann toolkit", "bisheng", "msprof", "npu device", "npu-smi", "sandbox"})
      r.checks.push_back({n, "skipped", why, ""});
    if (authed && !facts)
      r.checks[1] = {"authentication", "fail", error,
                     "the login shell must not print to stdout before commands run"};
    return r;
  }
  const auto& f = *facts;
  if (f.cann)
    r.checks.push_back(check("cann toolkit", true,
                             "CANN " + f.cannVersion.value_or("(version unknown)") + " at " + f.cann->root +
                                 " (found via " + f.cannFoundVia + ")",
                             ""));
  else
    r.checks.push_back(
        check("cann toolkit", false,
              "no toolkit: ASCEND_TOOLKIT_HOME / ASCEND_HOME_PATH unset in the login environment and "
              "nothing under /usr/local/Ascend or ~/Ascend",
              "install the CANN toolkit there and set ASCEND_TOOLKIT_HOME for non-interactive logins, "
              "or pass --remote-cann DIR"));
  const bool haveCann = f.cann.has_value();
  r.checks.push_back(
      check("bisheng", haveCann && f.cann->bisheng,
            haveCann && f.cann->bisheng ? *f.cann->bisheng : "no compiler/ccec_compiler/bin/bisheng",
            "install the toolkit's compiler package (bisheng builds the kernels)"));
  r.checks.push_back(check("msprof", haveCann && f.cann->msprof,
                           haveCann && f.cann->msprof ? *f.cann->msprof : "no tools/profiler/bin/msprof",
                           "install the toolkit's profiler: without msprof runs are verified but not timed",
                           true));
  std::string devices;
  for (const auto& d : f.devices) devices += (devices.empty() ? "" : " ") + d;
  const std::string simulators = [&] {
    std::string s;
    for (const auto& soc : f.simulatorSocs) s += (s.empty() ? "" : ", ") + soc;
    return s;
  }();
  r.checks.push_back(
      check("npu device", !f.devices.empty(),
            !f.devices.empty() ? devices
                               : "no /dev/davinci* device: runs use the CANN simulator" +
                                     (simulators.empty() ? std::string(" (none installed) or CPU mode")
                                                         : " (" + simulators + ")") +
                                     ", never ran_on npu",
            "install the NPU driver and firmware, and give the login access to /dev/davinci*"));
  r.checks.push_back(check("npu-smi", f.npuSmi.has_value(), f.npuSmi.value_or("npu-smi not found"),
                           "npu-smi comes with the NPU driver (/usr/local/sbin/npu-smi)", f.devices.empty()));
  r.checks.push_back(
      check("sandbox", f.bubblewrap,
            f.bubblewrap ? "bubblewrap works: candidate programs run without network, the system "
                           "read-only"
                         : "no working bubblewrap: candidate programs get rlimits and a time limit only",
            "install bubblewrap there (apt-get install bubblewrap) and allow user namespaces", true));
  r.checks.push_back(check("tar, timeout", f.haveTar && f.haveTimeout,
                           f.haveTar && f.haveTimeout ? "present" : "tar or timeout missing",
                           "install tar and coreutils"));
  return r;
}

HostDoctorReport runHostDoctor(const remote::SshSettings& ssh, const std::string& cannRoot) {
  const remote::SshSession session(ssh);
  std::string error;
  remote::SshFailureKind failure = remote::SshFailureKind::None;
  auto facts = remote::probeRemoteHost(session, cannRoot, error, &failure);
  return hostDoctorFrom(ssh.target.url(), facts ? &*facts : nullptr, failure, error);
}

nlohmann::json toJson(const HostDoctorReport& r) {
  nlohmann::json checks = nlohmann::json::array();
  for (const auto& c : r.checks)
    checks.push_back({{"name", c.name}, {"status", c.status}, {"detail", c.detail}, {"fix", c.fix}});
  return {{"host", r.host}, {"ok", r.ok()}, {"checks", checks}};
}

std::string formatText(const HostDoctorReport& r) {
  std::ostringstream out;
  out << "kwb doctor --host " << r.host << "\n";
  for (const auto& c : r.checks) {
    const char* mark = c.status == "ok"     ? "[ok]  "
                       : c.status == "warn" ? "[warn]"
                       : c.status == "fail" ? "[fail]"
                                            : "[--]  ";
    out << mark << " " << c.name << ": " << c.detail << "\n";
    if (!c.fix.empty()) out << "       fix: " << c.fix << "\n";
  }
  out << (r.ok() ? "The ssh executor can build and run on this host.\n"
                 : "The ssh executor cannot use this host yet.\n");
  return out.str();
}

}  // namespace kwb
