// SPDX-License-Identifier: MIT
#include "core/store/CrashTestHook.h"

#include "core/base/Environment.h"

#include <signal.h>

#include <atomic>
#include <cstdlib>
#include <string>

namespace kwb {

namespace {

// Read once: the count must be stable for the life of the process. 0 = hook off.
long killAtPoint() {
  static const long point = [] {
    const auto v = environmentValue(kKillAtCommitPointEnv);
    if (!v) return 0L;
    char* end = nullptr;
    const long n = std::strtol(v->c_str(), &end, 10);
    return (*end == '\0' && n > 0) ? n : 0L;
  }();
  return point;
}

}  // namespace

void storeCommitPoint() {
  const long target = killAtPoint();
  if (target == 0) return;
  static std::atomic<long> reached{0};
  if (reached.fetch_add(1) + 1 == target) ::raise(SIGKILL);
}

}  // namespace kwb
