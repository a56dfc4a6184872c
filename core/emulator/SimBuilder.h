// SPDX-License-Identifier: MIT
#pragma once
// `kwb sim build`: compiles a CANN CPU-mode Ascend C program (kernel + host main) with g++ against the
// kwb emulator headers and links it with kwb_sim_runtime. A precompiled header of the emulator API is
// built once per (compiler, header contents, flags) into a cache folder and force-included.
// Every compiler run happens inside kwb::Sandbox (core/sandbox/CompileSandbox.h): the sources'
// folders, -I folders, the emulator headers and the runtime library are bound read-only at their own
// paths, a fresh private scratch folder is the only writable place, and the result is copied to
// `output` by kwb afterwards. Cached pieces (PCH, SoC object) carry SHA-256 sidecars checked on use.

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "core/model/Diagnostic.h"
#include "core/sandbox/CompileSandbox.h"

namespace kwb {

struct SimBuildOptions {
  std::string output;                // -o
  std::vector<std::string> sources;  // .cpp files (kernel and host, any order)
  // Objects built earlier by a compileOnly build with the same options (a task's harness, compiled
  // once per task): linked in with the sources.
  std::vector<std::string> objects;
  bool compileOnly = false;  // -c: `output` is one source's object, not a program
  std::string soc = "Ascend910B1";
  bool autoSync = true;                  // model --cce-auto-sync (off: every hazard flagged)
  std::string standard = "c++17";        // c++17 or c++20
  std::vector<std::string> includeDirs;  // -I
  std::vector<std::string> defines;      // -D
  bool usePch = true;
  std::string compiler;  // default: $KWB_SIM_CXX or g++
  std::string cacheDir;  // default: $KWB_SIM_CACHE_DIR, the build tree's, or userCacheRoot()/sim
  // Limits and isolation of every compiler run; scratchDir and readOnlyPaths are set by build() (paths
  // given here are bound in addition).
  SandboxPolicy sandbox = compilerSandboxPolicy();
};

struct SimBuildResult {
  enum class Status { Ok, BuildFailed, BadInput, InternalError };
  Status status = Status::InternalError;
  std::string message;                  // bad input / internal error explanation
  std::string compilerOutput;           // as the compiler printed it (stderr + stdout)
  std::string userOutput;               // compilerOutput at the user's lines, without emulator internals
                                        // (EmulatorCompilerOutput.h)
  std::vector<Diagnostic> diagnostics;  // parsed from the compiler output
  std::string command;                  // the compile+link command, re-runnable
  std::string pch;                      // "hit", "built", "off" or "failed"
  std::string isolation;                // of the compile: "bubblewrap", "rlimits-only" or "none"
  std::string outputSha256;             // of `output` as written (when ok)
  std::chrono::milliseconds elapsed{0};
  bool ok() const { return status == Status::Ok; }
};

// SoC names `--soc` accepts.
const std::vector<std::string>& simSocNames();

// The g++ flags of every emulated translation unit (shared with `kwb sim cc`, AscCompilerDriver.h).
std::vector<std::string> simCompileFlags(const std::string& standard, const std::string& soc, bool autoSync,
                                         const std::string& includeDir);
// The C++ source of the object that embeds a SoC's parameter file for the cost model in a program.
std::string simSocObjectSource(const std::string& socJsonText);

// g++ output of a `kwb sim build` -> diagnostics, through core/diag's compiler parser: the emulator's
// static_assert messages ("kwb-sim: unsupported-api: ...") become unsupported-api / unsupported-dtype
// diagnostics (source "emulator"), other errors compile-error, unresolved symbols link-error; anything
// reported inside the emulator's headers (under emulatorIncludeDir) moves to the user's line that
// instantiated it ("required from here").
std::vector<Diagnostic> parseGccDiagnostics(const std::string& output, const std::string& emulatorIncludeDir);

class SimBuilder {
 public:
  SimBuildResult build(const SimBuildOptions& options) const;
};

}  // namespace kwb
