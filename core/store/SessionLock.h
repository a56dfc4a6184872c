// SPDX-License-Identifier: MIT
#pragma once
// The single-writer lock of a session directory: `session.lock`, held with flock(2) and naming the
// holder's pid. flock is released by the kernel when the holder dies, so a crashed writer never leaves
// the session locked; the pid left in the file lets the next writer say whose lock it took over.
// The descriptor is close-on-exec so compilers and candidates spawned by the writer cannot keep the
// lock alive after it exits.

#include <filesystem>
#include <optional>

namespace kwb {

class SessionLock {
 public:
  static constexpr const char* kFileName = "session.lock";

  // Takes the lock of `sessionDir` or throws SessionLockedError naming the holder pid.
  static SessionLock acquire(const std::filesystem::path& sessionDir);

  SessionLock(SessionLock&& other) noexcept;
  SessionLock& operator=(SessionLock&& other) noexcept;
  SessionLock(const SessionLock&) = delete;
  SessionLock& operator=(const SessionLock&) = delete;
  ~SessionLock();

  // The pid recorded by a previous holder that died without releasing cleanly.
  std::optional<int> tookOverFrom() const { return tookOverFrom_; }
  // Pid recorded in the lock file of `sessionDir` while a writer holds it (nullopt when unlocked).
  static std::optional<int> holder(const std::filesystem::path& sessionDir);

 private:
  SessionLock(int fd, std::optional<int> tookOverFrom) : fd_(fd), tookOverFrom_(tookOverFrom) {}
  void release();

  int fd_ = -1;
  std::optional<int> tookOverFrom_;
};

}  // namespace kwb
