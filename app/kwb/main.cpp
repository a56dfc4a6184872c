// SPDX-License-Identifier: MIT
#include <exception>
#include <iostream>

#include "app/kwb/Cli.h"

// Only building the command tree can throw (a programming error); a crash report is right then
// NOLINTNEXTLINE(bugprone-exception-escape)
int main(int argc, char** argv) {
  CLI::App app{"kwb - Kernel Workbench command line: build, run, verify and profile Ascend C kernels"};
  app.set_version_flag("--version", std::string("kwb ") + KWB_VERSION);
  app.require_subcommand(1);
  kwb::cli::Context ctx;
  kwb::cli::addDoctorCommand(app, ctx);
  kwb::cli::addTaskCommand(app, ctx);
  kwb::cli::addEvalCommand(app, ctx);
  kwb::cli::addSuiteCommand(app, ctx);
  kwb::cli::addSimCommand(app, ctx);
  kwb::cli::addRunCommand(app, ctx);
  kwb::cli::addSessionCommand(app, ctx);
  kwb::cli::addLessonCommand(app, ctx);
  kwb::cli::addCalibrateCommand(app, ctx);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? kwb::cli::Success : kwb::cli::BadInput;
  }
  try {
    return ctx.action ? ctx.action() : kwb::cli::BadInput;
  } catch (const std::exception& e) {
    std::cerr << "kwb: internal error: " << e.what() << "\n";
    return kwb::cli::InternalError;
  }
}
