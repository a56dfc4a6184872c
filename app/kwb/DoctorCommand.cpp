// SPDX-License-Identifier: MIT
#include <iostream>

#include "app/kwb/Cli.h"
#include "core/doctor/Doctor.h"
#include "core/doctor/RemoteDoctor.h"
#include "core/remote/SshExecutorSetup.h"

namespace kwb::cli {

using remote::SshExecutorSetup;
using remote::SshOptions;

namespace {
struct DoctorArgs {
  bool json = false;
  SshOptions ssh;  // ssh.url set: check that remote host instead of this machine
};
}  // namespace

void addDoctorCommand(CLI::App& app, Context& ctx) {
  auto* cmd = app.add_subcommand("doctor", "Report compilers, CANN, sandbox and LLM configuration");
  auto a = std::make_shared<DoctorArgs>();
  cmd->add_flag("--json", a->json, "Print one JSON document");
  cmd->add_option("--host", a->ssh.url,
                  "Check a remote NPU host for the ssh executor instead: ssh://user@host[:port]");
  cmd->add_option("--ssh-config", a->ssh.configFile,
                  "ssh config file (default $KWB_SSH_CONFIG, else ~/.ssh/config)");
  cmd->add_option("--remote-cann", a->ssh.remoteCann,
                  "The CANN toolkit on the remote host (default: detected)");
  cmd->callback([&ctx, a] {
    ctx.action = [a] {
      if (!a->ssh.url.empty()) {
        std::string error;
        auto setup = SshExecutorSetup::make(a->ssh, error);
        if (!setup) {
          std::cerr << "kwb doctor: --host: " << error << "\n";
          return BadInput;
        }
        const HostDoctorReport report = runHostDoctor(setup->settings().ssh, setup->remoteCann());
        if (a->json)
          printJson(toJson(report));
        else
          std::cout << formatText(report);
        return report.ok() ? Success : Failed;
      }
      DoctorReport report = runDoctor();
      if (a->json)
        printJson(toJson(report));
      else
        std::cout << formatText(report);
      return report.ok() ? Success : Failed;
    };
  });
}

}  // namespace kwb::cli
