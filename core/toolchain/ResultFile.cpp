// SPDX-License-Identifier: MIT
#include "core/toolchain/ResultFile.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace kwb {

ResultFileRead readResultFile(const std::filesystem::path& file, std::optional<std::uint64_t> exactSize,
                              std::uint64_t maxBytes) {
  ResultFileRead r;
  const int fd = ::open(file.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    r.error = file.filename().string() + ": cannot be opened (" + std::strerror(errno) +
              (errno == ELOOP ? "; it was replaced by a symbolic link" : "") + ")";
    return r;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    r.error = file.filename().string() + ": is not a regular file";
    ::close(fd);
    return r;
  }
  const auto size = static_cast<std::uint64_t>(st.st_size);
  if (exactSize ? size != *exactSize : size > maxBytes) {
    r.error = file.filename().string() + ": holds " + std::to_string(size) + " bytes, expected " +
              (exactSize ? "exactly " + std::to_string(*exactSize) : "at most " + std::to_string(maxBytes));
    ::close(fd);
    return r;
  }
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(size));
  std::size_t got = 0;
  while (got < bytes.size()) {
    const ssize_t n = ::read(fd, bytes.data() + got, bytes.size() - got);
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  ::close(fd);
  if (got != bytes.size()) {
    r.error = file.filename().string() + ": changed while it was read";
    return r;
  }
  r.bytes = std::move(bytes);
  return r;
}

bool createEmptyFile(const std::filesystem::path& file, std::string& error) {
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) {
    error = "cannot create " + file.string() + ": " + std::strerror(errno);
    return false;
  }
  ::close(fd);
  return true;
}

}  // namespace kwb
