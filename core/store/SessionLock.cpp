// SPDX-License-Identifier: MIT
#include "core/store/SessionLock.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "core/store/StoreError.h"

// Open file description locks (Linux >= 3.15): owned by the open file like flock(2), so two stores in
// one process exclude each other and the kernel drops the lock when the holder dies; unlike flock they
// can be queried (F_OFD_GETLK) without taking them, so holder() never makes a writer fail spuriously.

namespace kwb {

namespace {

struct flock wholeFile(short type) {
  struct flock fl {};
  fl.l_type = type;
  fl.l_whence = SEEK_SET;
  fl.l_start = 0;
  fl.l_len = 0;
  fl.l_pid = 0;
  return fl;
}

std::optional<int> readPid(int fd) {
  char buf[64] = {};
  const ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
  if (n <= 0) return std::nullopt;
  char* end = nullptr;
  const long pid = std::strtol(buf, &end, 10);
  if (end == buf || pid <= 0 || pid > 0x7fffffff) return std::nullopt;
  return static_cast<int>(pid);
}

}  // namespace

SessionLock SessionLock::acquire(const std::filesystem::path& sessionDir) {
  const auto path = sessionDir / kFileName;
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) throw StoreError(path, std::string("cannot open lock file: ") + std::strerror(errno));
  struct flock fl = wholeFile(F_WRLCK);
  if (::fcntl(fd, F_OFD_SETLK, &fl) != 0) {
    const int err = errno;
    if (err != EAGAIN && err != EACCES) {
      ::close(fd);
      throw StoreError(path, std::string("cannot lock: ") + std::strerror(err));
    }
    // The holder writes its pid right after locking; give it a moment if we raced that write.
    std::optional<int> pid = readPid(fd);
    for (int i = 0; i < 5 && !pid; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      pid = readPid(fd);
    }
    ::close(fd);
    std::string who = pid ? "process " + std::to_string(*pid) : "another process (pid not recorded)";
    if (pid && *pid == ::getpid()) who = "this process (pid " + std::to_string(*pid) + ")";
    throw SessionLockedError(path, pid.value_or(0),
                             "session " + sessionDir.string() + " is already open for writing by " + who +
                                 "; close it there or open the session read-only");
  }
  // A pid left in the file belongs to a writer that died without unlocking (a clean release empties
  // the file); the lock itself was freed by the kernel, so it is taken over and reported.
  std::optional<int> previous = readPid(fd);
  const std::string content = std::to_string(::getpid()) + "\n";
  if (::ftruncate(fd, 0) != 0 ||
      ::pwrite(fd, content.data(), content.size(), 0) != static_cast<ssize_t>(content.size())) {
    const int err = errno;
    ::close(fd);
    throw StoreError(path, std::string("cannot record the lock holder: ") + std::strerror(err));
  }
  return SessionLock(fd, previous);
}

std::optional<int> SessionLock::holder(const std::filesystem::path& sessionDir) {
  const auto path = sessionDir / kFileName;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  // F_OFD_GETLK wants a lock type it could place; F_WRLCK asks "would anything conflict".
  struct flock fl = wholeFile(F_WRLCK);
  std::optional<int> out;
  if (::fcntl(fd, F_OFD_GETLK, &fl) == 0 && fl.l_type != F_UNLCK) out = readPid(fd).value_or(0);
  ::close(fd);
  return out;
}

SessionLock::SessionLock(SessionLock&& other) noexcept : fd_(other.fd_), tookOverFrom_(other.tookOverFrom_) {
  other.fd_ = -1;
}

SessionLock& SessionLock::operator=(SessionLock&& other) noexcept {
  if (this != &other) {
    release();
    fd_ = other.fd_;
    tookOverFrom_ = other.tookOverFrom_;
    other.fd_ = -1;
  }
  return *this;
}

SessionLock::~SessionLock() {
  release();
}

void SessionLock::release() {
  if (fd_ < 0) return;
  // Empty file = released cleanly; closing the descriptor drops the lock.
  [[maybe_unused]] const int rc = ::ftruncate(fd_, 0);
  ::close(fd_);
  fd_ = -1;
}

}  // namespace kwb
