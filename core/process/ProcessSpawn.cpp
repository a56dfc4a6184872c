// SPDX-License-Identifier: MIT
#include "core/process/ProcessSpawn.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <set>

extern char** environ;

namespace kwb::detail {

namespace {

std::string errnoText(int err) {
  const char* text = strerrordesc_np(err);
  return text ? text : "error " + std::to_string(err);
}

std::string octalMode(mode_t mode) {
  char buf[8];
  snprintf(buf, sizeof buf, "%04o", static_cast<unsigned>(mode & 07777));
  return buf;
}

std::string currentDirectory() {
  std::string buf(4096, '\0');
  if (!getcwd(buf.data(), buf.size())) return ".";
  buf.resize(strlen(buf.c_str()));
  return buf;
}

// Where a relative path given to the child ends up, for checks done here in the parent.
std::string inChildDirectory(const ProcessSpec& spec, const std::string& path) {
  if (!path.empty() && path[0] == '/') return path;
  return (spec.workingDirectory ? *spec.workingDirectory : currentDirectory()) + "/" + path;
}

// Empty string when `path` is an executable regular file, else why not.
std::string checkExecutable(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return "'" + path + "': " + errnoText(errno);
  if (S_ISDIR(st.st_mode)) return "'" + path + "' is a directory, not a program";
  if (!S_ISREG(st.st_mode)) return "'" + path + "' is not a regular file";
  if (access(path.c_str(), X_OK) != 0)
    return "'" + path + "' is not executable (mode " + octalMode(st.st_mode) + "): " + errnoText(errno);
  return {};
}

void closeFd(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

}  // namespace

}  // namespace kwb::detail

namespace kwb {

bool isSecretEnvironmentName(std::string_view name, std::string_view keyVariable) {
  if (name.empty()) return false;
  if (!keyVariable.empty() && name == keyVariable) return true;
  std::string upper(name);
  for (char& c : upper)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  if (upper.rfind("KWB_LLM_", 0) == 0) return true;
  for (std::string_view suffix : {"_API_KEY", "_API_TOKEN", "_AUTH_TOKEN", "_ACCESS_TOKEN", "_SECRET_KEY"})
    if (upper.size() >= suffix.size() &&
        upper.compare(upper.size() - suffix.size(), suffix.size(), suffix) == 0)
      return true;
  return upper == "API_KEY";
}

}  // namespace kwb

namespace kwb::detail {

std::vector<std::string> buildEnvironment(const ProcessSpec& spec) {
  std::vector<std::string> env;
  std::set<std::string> drop(spec.unsetEnvironment.begin(), spec.unsetEnvironment.end());
  for (const auto& kv : spec.environment) drop.insert(kv.first);
  if (spec.inheritEnvironment) {
    const char* keyVariable = std::getenv("KWB_LLM_API_KEY_ENV");
    for (char** e = environ; e && *e; ++e) {
      std::string entry(*e);
      auto eq = entry.find('=');
      const std::string name = entry.substr(0, eq);
      if (drop.count(name) || isSecretEnvironmentName(name, keyVariable ? keyVariable : "")) continue;
      env.push_back(std::move(entry));
    }
  }
  for (const auto& [name, value] : spec.environment) env.push_back(name + "=" + value);
  return env;
}

bool resolveProgram(const ProcessSpec& spec, const std::vector<std::string>& env, std::string& path,
                    std::string& error) {
  const std::string& name = spec.argv.at(0);
  if (name.empty()) {
    error = "the program name (argv[0]) is empty";
    return false;
  }
  if (name.find('/') != std::string::npos) {
    std::string why = checkExecutable(inChildDirectory(spec, name));
    if (!why.empty()) {
      error = "cannot run " + why;
      return false;
    }
    path = name;  // resolved by the child after its chdir, exactly like the printed command line
    return true;
  }

  std::optional<std::string> pathVar;
  for (const auto& e : env)
    if (e.rfind("PATH=", 0) == 0) pathVar = e.substr(5);
  std::string searchPath;
  if (pathVar) {
    searchPath = *pathVar;
  } else {
    std::size_t n = confstr(_CS_PATH, nullptr, 0);
    searchPath.assign(n, '\0');
    confstr(_CS_PATH, searchPath.data(), n);
    searchPath.resize(n ? n - 1 : 0);
  }

  std::string firstProblem;
  std::size_t start = 0;
  while (start <= searchPath.size()) {
    std::size_t end = searchPath.find(':', start);
    if (end == std::string::npos) end = searchPath.size();
    std::string dir = searchPath.substr(start, end - start);
    start = end + 1;
    if (dir.empty()) dir = ".";
    std::string candidate = inChildDirectory(spec, dir + "/" + name);
    struct stat st {};
    if (stat(candidate.c_str(), &st) != 0) continue;
    std::string why = checkExecutable(candidate);
    if (why.empty()) {
      path = candidate;
      return true;
    }
    if (firstProblem.empty()) firstProblem = why;
  }
  error = "program '" + name + "' was not found in PATH (" + (pathVar ? "PATH=" : "default path ") +
          searchPath + ")";
  if (!firstProblem.empty()) error += "; found but unusable: " + firstProblem;
  return false;
}

bool spawnChild(const ProcessSpec& spec, SpawnedChild& child, std::string& error) {
  if (spec.argv.empty()) {
    error = "no program given (argv is empty)";
    return false;
  }
  if (spec.workingDirectory) {
    const std::string& dir = *spec.workingDirectory;
    struct stat st {};
    if (dir.empty()) {
      error = "the working directory is an empty path";
      return false;
    }
    if (stat(dir.c_str(), &st) != 0) {
      error = "working directory '" + dir + "': " + errnoText(errno);
      return false;
    }
    if (!S_ISDIR(st.st_mode)) {
      error = "working directory '" + dir + "' is not a directory";
      return false;
    }
    if (access(dir.c_str(), X_OK) != 0) {
      error = "working directory '" + dir + "' cannot be entered: " + errnoText(errno);
      return false;
    }
  }
  int maxInherited = 2;
  std::set<int> inheritedFds;
  for (const auto& f : spec.inheritedFiles) {
    if (f.fd < 3 || f.fd > 1000) {
      error = "inherited file '" + f.path + "' asks for descriptor " + std::to_string(f.fd) +
              "; only 3..1000 can be used (0-2 are the captured streams)";
      return false;
    }
    if (!inheritedFds.insert(f.fd).second) {
      error = "descriptor " + std::to_string(f.fd) + " is given two inherited files";
      return false;
    }
    std::string where = inChildDirectory(spec, f.path);
    int probe = open(where.c_str(), O_RDONLY | O_CLOEXEC);
    if (probe < 0) {
      error = "inherited file '" + where + "' cannot be opened for reading: " + errnoText(errno);
      return false;
    }
    close(probe);
    maxInherited = std::max(maxInherited, f.fd);
  }

  std::vector<std::string> env = buildEnvironment(spec);
  std::string program;
  if (!resolveProgram(spec, env, program, error)) return false;

  int outPipe[2] = {-1, -1}, errPipe[2] = {-1, -1}, inPipe[2] = {-1, -1};
  auto closeAll = [&] {
    for (int* p : {outPipe, errPipe, inPipe}) {
      closeFd(p[0]);
      closeFd(p[1]);
    }
  };
  if (pipe2(outPipe, O_CLOEXEC) != 0 || pipe2(errPipe, O_CLOEXEC) != 0 ||
      (spec.stdinData && pipe2(inPipe, O_CLOEXEC) != 0)) {
    error = "cannot create pipes: " + errnoText(errno);
    closeAll();
    return false;
  }

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);

  // The working directory first so that relative paths below (and the program) resolve in it, as in
  // the printed `cd DIR && ...` form.
  if (spec.workingDirectory) posix_spawn_file_actions_addchdir_np(&actions, spec.workingDirectory->c_str());
  if (spec.stdinData)
    posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0);
  else
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2);
  for (int fd = 3; fd <= maxInherited; ++fd) {
    // Descriptors in the inherited range that were not asked for are pointed at /dev/null, so nothing
    // of ours leaks through them; everything above is closed.
    if (!inheritedFds.count(fd)) posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", O_RDONLY, 0);
  }
  for (const auto& f : spec.inheritedFiles)
    posix_spawn_file_actions_addopen(&actions, f.fd, f.path.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_addclosefrom_np(&actions, maxInherited + 1);

  // Own process group (so the whole group can be killed), empty signal mask and default dispositions
  // (ignored signals and blocked masks of the parent are inherited across exec otherwise).
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  posix_spawnattr_setpgroup(&attr, 0);
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &all);

  std::vector<char*> argv;
  for (const auto& a : spec.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::vector<char*> envp;
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);

  pid_t pid = -1;
  int rc = posix_spawn(&pid, program.c_str(), &actions, &attr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) {
    error = "cannot execute '" + program + "'";
    if (spec.workingDirectory) error += " in '" + *spec.workingDirectory + "'";
    error += ": " + errnoText(rc);
    if (rc == ENOEXEC) error += " (not a binary and no #! line)";
    closeAll();
    return false;
  }

  closeFd(outPipe[1]);
  closeFd(errPipe[1]);
  closeFd(inPipe[0]);
  for (int fd : {outPipe[0], errPipe[0], inPipe[1]})
    if (fd >= 0) fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  child.pid = pid;
  child.stdoutFd = outPipe[0];
  child.stderrFd = errPipe[0];
  child.stdinFd = inPipe[1];
  return true;
}

}  // namespace kwb::detail
