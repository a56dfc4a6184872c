// SPDX-License-Identifier: MIT
// kwb sim build: compile a CANN CPU-mode Ascend C program against the kwb emulator.

#include <iostream>

#include "app/kwb/Cli.h"
#include "core/emulator/SimBuilder.h"

namespace kwb::cli {

void addSimCommand(CLI::App& app, Context& ctx) {
  auto* sim =
      app.add_subcommand("sim", "Ascend C emulator: build CPU-mode programs that run kernels on the CPU");
  sim->require_subcommand(1);
  auto* build = sim->add_subcommand(
      "build",
      "Compile and link kernel + host sources (CANN CPU debug mode style) against the emulator; run ./APP "
      "(KWB_SIM_REPORT=PATH writes the JSON report)");
  struct Opts {
    SimBuildOptions o;
    bool noAutoSync = false;
    bool noPch = false;
    bool json = false;
  };
  auto opts = std::make_shared<Opts>();
  build->add_option("-o,--output", opts->o.output, "Program to write")->required();
  build->add_option("--soc", opts->o.soc, "Target SoC (capacities, dtype support, cost model)")
      ->check(CLI::IsMember(simSocNames()));
  build->add_flag("--no-auto-sync", opts->noAutoSync,
                  "Do not model --cce-auto-sync: every cross-pipe hazard without explicit sync is reported");
  build->add_option("-I", opts->o.includeDirs, "Include directory")->allow_extra_args(false);
  build->add_option("-D", opts->o.defines, "Preprocessor definition NAME[=VALUE]")->allow_extra_args(false);
  build->add_option("--std", opts->o.standard, "Language standard (c++17 or c++20)");
  build->add_flag("--no-pch", opts->noPch, "Do not use the precompiled emulator header");
  build->add_flag("--json", opts->json, "Print one JSON document");
  build->add_option("files", opts->o.sources, "Kernel and host .cpp files")->required();

  build->callback([&ctx, opts] {
    ctx.action = [opts]() -> int {
      SimBuildOptions o = opts->o;
      o.autoSync = !opts->noAutoSync;
      o.usePch = !opts->noPch;
      const SimBuildResult r = SimBuilder().build(o);
      const int code = r.status == SimBuildResult::Status::Ok            ? Success
                       : r.status == SimBuildResult::Status::BuildFailed ? Failed
                       : r.status == SimBuildResult::Status::BadInput    ? BadInput
                                                                         : InternalError;
      if (opts->json) {
        nlohmann::json j{
            {"ok", r.ok()},
            {"status", r.ok() ? "ok"
                              : (code == Failed ? "build-failed"
                                                : (code == BadInput ? "bad-input" : "internal-error"))},
            {"output", o.output},
            {"soc", o.soc},
            {"autoSync", o.autoSync},
            {"pch", r.pch},
            {"isolation", r.isolation},
            {"seconds", static_cast<double>(r.elapsed.count()) / 1000.0},
            {"command", r.command},
            {"compilerOutput", r.compilerOutput},
            {"diagnostics", r.diagnostics}};
        if (!r.message.empty()) j["message"] = r.message;
        printJson(j);
        return code;
      }
      if (!r.compilerOutput.empty()) std::cerr << r.compilerOutput;
      // What the compiler cannot say itself: a sandbox limit it hit, a cache entry discarded.
      for (const auto& d : r.diagnostics)
        if (d.source == "sandbox" || d.source == "toolchain")
          std::cerr << "kwb sim build: " << d.format() << "\n";
      if (!r.message.empty()) std::cerr << "kwb sim build: " << r.message << "\n";
      return code;
    };
  });
}

}  // namespace kwb::cli
