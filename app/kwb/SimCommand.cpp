// SPDX-License-Identifier: MIT
// kwb sim build: compile a CANN CPU-mode Ascend C program against the kwb emulator.
// kwb sim cc: the ASC compiler the emulator's CMake package (find_package(ASC)) hands to CMake.

#include <iostream>

#include "app/kwb/Cli.h"
#include "core/base/SampleBuildFiles.h"
#include "core/emulator/AclrtLaunchStubs.h"
#include "core/emulator/AscCompilerDriver.h"
#include "core/emulator/SimBuilder.h"
#include "core/process/ProcessRunner.h"

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

  auto* cc = sim->add_subcommand(
      "cc",
      "Compiler driver for CMake's ASC language (find_package(ASC), -DCMAKE_ASC_RUN_MODE=cpu): takes "
      "g++-style "
      "arguments, -c SRC -o OBJ to compile an .asc/.cpp source, objects -o APP to link against the emulator");
  cc->prefix_command();
  cc->set_help_flag();
  cc->callback([&ctx, cc] {
    ctx.action = [args = cc->remaining()]() -> int { return runAscInvocation(parseAscInvocation(args)); };
  });

  auto* stubs =
      sim->add_subcommand("launch-stubs",
                          "For the emulator's ascendc_library() (CANN-layout folder): write "
                          "aclrtlaunch_<kernel>.h for every kernel "
                          "of a source, and the translation unit that defines those launch functions");
  struct StubOpts {
    std::string source, headerDir, output;
  };
  auto stubOpts = std::make_shared<StubOpts>();
  stubs->add_option("source", stubOpts->source, "Kernel source (.cpp or .asc)")->required();
  stubs->add_option("--header-dir", stubOpts->headerDir, "Folder for the aclrtlaunch_<kernel>.h headers")
      ->required();
  stubs->add_option("-o,--output", stubOpts->output, "Translation unit to write")->required();
  stubs->callback([&ctx, stubOpts] {
    ctx.action = [stubOpts]() -> int {
      const int rc = writeAclrtLaunchStubs(stubOpts->source, stubOpts->headerDir, stubOpts->output);
      return rc == 0 ? Success : (rc == 1 ? BadInput : InternalError);
    };
  });

  auto* env = sim->add_subcommand(
      "env",
      "Print the shell variables that point the samples' own build files at the emulator (eval \"$(kwb sim "
      "env)\"): "
      "ASCEND_HOME_PATH for the kernel-launch samples' run.sh, CMAKE_PREFIX_PATH for find_package(ASC)");
  auto envJson = std::make_shared<bool>(false);
  env->add_flag("--json", *envJson, "Print one JSON document");
  env->callback([&ctx, envJson] {
    ctx.action = [envJson]() -> int {
      const InstallLayout layout = currentInstallLayout();
      if (!layout.installed) {
        const std::string why =
            "this kwb runs from a build tree: the CANN-layout folder and the ASC CMake package come with "
            "`cmake --install` (docs/emulator.md)";
        if (*envJson)
          printJson({{"ok", false}, {"message", why}});
        else
          std::cerr << "kwb sim env: " << why << "\n";
        return Failed;
      }
      const std::string cann = cannLayoutDirectory(layout).string();
      const std::string prefix = installPrefix(layout).string();
      const std::string tiki = cann + "/tools/tikicpulib/lib/cmake";
      if (*envJson) {
        printJson({{"ok", true},
                   {"ASCEND_HOME_PATH", cann},
                   {"ASCEND_TOOLKIT_HOME", cann},
                   {"ASCEND_INSTALL_PATH", cann},
                   {"ASCEND_HOME_DIR", cann},
                   {"CMAKE_PREFIX_PATH", prefix + ":" + tiki}});
        return Success;
      }
      // ASCEND_HOME_DIR: the name the older kernel-launch samples' run.sh reads.
      for (const char* name :
           {"ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME", "ASCEND_INSTALL_PATH", "ASCEND_HOME_DIR"})
        std::cout << "export " << name << "=" << shellQuote(cann) << "\n";
      std::cout << "export CMAKE_PREFIX_PATH=" << shellQuote(prefix + ":" + tiki)
                << "${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}\n";
      return Success;
    };
  });

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
      // The compiler's output at the user's lines (the raw text is in --json's compilerOutput).
      if (!r.compilerOutput.empty()) std::cerr << (r.userOutput.empty() ? r.compilerOutput : r.userOutput);
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
