// SPDX-License-Identifier: MIT
#include "core/base/BoundedFileRead.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace kwb {

namespace {

std::string mib(double bytes) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.1f MiB", bytes / (1024.0 * 1024.0));
  return buf;
}

const char* kindOf(mode_t m) {
  if (S_ISDIR(m)) return "a folder";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISFIFO(m)) return "a pipe";
  if (S_ISSOCK(m)) return "a socket";
  return "not a plain file";
}

}  // namespace

std::optional<std::string> readBoundedRegularFile(const std::filesystem::path& path, std::size_t maxBytes,
                                                  std::string& error) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer; the type is checked on the open descriptor
  // (no window between a stat and the open).
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    error = "cannot read " + path.string() + ": " + std::strerror(errno);
    return std::nullopt;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    error = path.string() + " is not a regular file (" + kindOf(st.st_mode) + ")";
    ::close(fd);
    return std::nullopt;
  }
  const auto tooBig = [&](double size) {
    error = path.string() + " is " + mib(size) + "; the limit is " + mib(static_cast<double>(maxBytes));
    ::close(fd);
    return std::nullopt;
  };
  if (static_cast<std::uint64_t>(st.st_size) > maxBytes) return tooBig(static_cast<double>(st.st_size));
  std::string out;
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      error = "cannot read " + path.string() + ": " + std::strerror(errno);
      ::close(fd);
      return std::nullopt;
    }
    if (n == 0) break;
    // The file may grow while it is read (a log being written): the cap holds regardless.
    if (out.size() + static_cast<std::size_t>(n) > maxBytes)
      return tooBig(static_cast<double>(out.size() + static_cast<std::size_t>(n)));
    out.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return out;
}

}  // namespace kwb
