// SPDX-License-Identifier: MIT
#pragma once
// `kwb sim cc`: the ASC compiler of the emulator's CMake package (cmake/asc, docs/emulator.md, "The
// samples' own build files"). CMake calls it like a compiler, `-c SRC -o OBJ` to compile and with object
// files to link; it rewrites <<<>>> launches (ChevronRewrite.h), adds the emulator's headers and flags,
// runs g++, and links the emulator runtime and the SoC's cost-model parameters. Unlike `kwb sim build`
// it is not sandboxed: it runs in the user's own build, as their compiler would.

#include <string>
#include <vector>

namespace kwb {

struct AscInvocation {
  bool compileOnly = false;             // -c
  std::vector<std::string> sources;     // .asc / .cpp / .cc / .cxx / .c sources
  std::vector<std::string> linkInputs;  // .o / .a / .so files
  std::string output;                   // -o
  std::vector<std::string> passFlags;   // handed to g++ as given (-I, -D, -O, -g, -std, -M*, -l, ...)
  std::string soc = "Ascend910B1";      // from --npu-arch=dav-XXXX or --kwb-soc=NAME
  bool autoSync = true;
  std::vector<std::string> errors;  // bad arguments, each a full sentence
};

// Reads the command line CMake (or a user) gives the ASC compiler; pure.
AscInvocation parseAscInvocation(const std::vector<std::string>& args);

// Runs the invocation; the compiler's output goes to stderr. Returns the exit status (0: ok, 2: bad
// arguments, else the compiler's).
int runAscInvocation(const AscInvocation& inv);

}  // namespace kwb
