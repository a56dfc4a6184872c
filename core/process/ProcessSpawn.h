// SPDX-License-Identifier: MIT
#pragma once
// The spawning half of ProcessRunner: environment, PATH lookup, pre-flight checks with clear messages,
// and posix_spawn into a new process group with pipes on 0/1/2. Internal to core/process.

#include <string>
#include <vector>

#include "core/process/ProcessRunner.h"

namespace kwb::detail {

struct SpawnedChild {
  int pid = -1;
  int stdinFd = -1;   // write end of the child's stdin, -1 when no stdinData (child reads /dev/null)
  int stdoutFd = -1;  // read ends, non-blocking, close-on-exec
  int stderrFd = -1;
};

// The environment the child gets, as NAME=value strings.
std::vector<std::string> buildEnvironment(const ProcessSpec& spec);

// Resolves argv[0] like execvp would with the child's PATH (or the default path when it has none),
// relative names against the working directory. Returns false with a message naming what is wrong.
bool resolveProgram(const ProcessSpec& spec, const std::vector<std::string>& env, std::string& path,
                    std::string& error);

// Spawns the child. On failure returns false, closes everything it opened and fills `error`.
bool spawnChild(const ProcessSpec& spec, SpawnedChild& child, std::string& error);

}  // namespace kwb::detail
