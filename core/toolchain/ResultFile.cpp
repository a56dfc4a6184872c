// SPDX-License-Identifier: MIT
#include "core/toolchain/ResultFile.h"

#include <algorithm>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace kwb {

namespace {
// Opens a result file the way the header describes; -1 with `error` set when it fails a check.
int openResultFile(const std::filesystem::path& file, std::optional<std::uint64_t> exactSize,
                   std::uint64_t maxBytes, std::uint64_t& size, std::string& error) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    error = file.filename().string() + ": cannot be opened (" + std::strerror(errno) +
            (errno == ELOOP ? "; it was replaced by a symbolic link" : "") + ")";
    return -1;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    error = file.filename().string() + ": is not a regular file";
    ::close(fd);
    return -1;
  }
  size = static_cast<std::uint64_t>(st.st_size);
  if (exactSize ? size != *exactSize : size > maxBytes) {
    error = file.filename().string() + ": holds " + std::to_string(size) + " bytes, expected " +
            (exactSize ? "exactly " + std::to_string(*exactSize) : "at most " + std::to_string(maxBytes));
    ::close(fd);
    return -1;
  }
  return fd;
}

// Reads exactly `length` bytes (or fewer when the file shrank under us).
std::size_t readFully(int fd, std::uint8_t* into, std::size_t length) {
  std::size_t got = 0;
  while (got < length) {
    const ssize_t n = ::read(fd, into + got, length - got);
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  return got;
}
}  // namespace

ResultFileRead readResultFile(const std::filesystem::path& file, std::optional<std::uint64_t> exactSize,
                              std::uint64_t maxBytes) {
  ResultFileRead r;
  std::uint64_t size = 0;
  const int fd = openResultFile(file, exactSize, maxBytes, size, r.error);
  if (fd < 0) return r;
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(size));
  const std::size_t got = readFully(fd, bytes.data(), bytes.size());
  ::close(fd);
  if (got != bytes.size()) {
    r.error = file.filename().string() + ": changed while it was read";
    return r;
  }
  r.bytes = std::move(bytes);
  return r;
}

std::string scanResultFile(
    const std::filesystem::path& file, std::uint64_t exactSize,
    const std::function<void(std::uint64_t, const std::uint8_t*, std::size_t)>& chunk) {
  std::string error;
  std::uint64_t size = 0;
  const int fd = openResultFile(file, exactSize, exactSize, size, error);
  if (fd < 0) return error;
  constexpr std::size_t kChunk = std::size_t{4} << 20;
  std::vector<std::uint8_t> buffer(static_cast<std::size_t>(std::min<std::uint64_t>(size, kChunk)));
  for (std::uint64_t at = 0; at < size;) {
    const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(size - at, kChunk));
    if (readFully(fd, buffer.data(), want) != want) {
      ::close(fd);
      return file.filename().string() + ": changed while it was read";
    }
    chunk(at, buffer.data(), want);
    at += want;
  }
  ::close(fd);
  return {};
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
