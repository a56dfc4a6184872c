// SPDX-License-Identifier: MIT
#include <iostream>

#include "app/kwb/Cli.h"
#include "core/doctor/Doctor.h"

namespace kwb::cli {

void addDoctorCommand(CLI::App& app, Context& ctx) {
  auto* cmd = app.add_subcommand("doctor", "Report compilers, CANN, sandbox and LLM configuration");
  auto json = std::make_shared<bool>(false);
  cmd->add_flag("--json", *json, "Print one JSON document");
  cmd->callback([&ctx, json] {
    ctx.action = [json] {
      DoctorReport report = runDoctor();
      if (*json)
        printJson(toJson(report));
      else
        std::cout << formatText(report);
      return report.ok() ? Success : Failed;
    };
  });
}

}  // namespace kwb::cli
