// SPDX-License-Identifier: MIT
#include "core/sandbox/VerifiedBlob.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "core/model/Sha256.h"

namespace kwb {

namespace fs = std::filesystem;

namespace {

// O_EXCL|O_NOFOLLOW on a name removed first: a symlink planted there is never followed.
bool writeFresh(const fs::path& path, std::string_view a, std::string_view b, std::string& error) {
  ::unlink(path.c_str());
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) {
    error = "cannot write " + path.string() + ": " + std::strerror(errno);
    return false;
  }
  bool ok = true;
  for (std::string_view part : {a, b}) {
    while (ok && !part.empty()) {
      const ssize_t w = ::write(fd, part.data(), part.size());
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) {
        ok = false;
        break;
      }
      part.remove_prefix(static_cast<std::size_t>(w));
    }
  }
  ok = ::close(fd) == 0 && ok;
  if (!ok) {
    error = "cannot write " + path.string() + ": " + std::strerror(errno);
    ::unlink(path.c_str());
  }
  return ok;
}

// The whole file, read through a descriptor opened without following a symlink; false when it is
// not a regular file, cannot be read or is larger than `maxBytes`.
bool readRegularFile(const fs::path& path, std::size_t maxBytes, std::string& bytes) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || static_cast<std::size_t>(st.st_size) > maxBytes) {
    ::close(fd);
    return false;
  }
  bytes.clear();
  bytes.reserve(static_cast<std::size_t>(st.st_size));
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      ::close(fd);
      return false;
    }
    if (n == 0) break;
    bytes.append(buf, static_cast<std::size_t>(n));
    if (bytes.size() > maxBytes) {
      ::close(fd);
      return false;
    }
  }
  ::close(fd);
  return true;
}

}  // namespace

bool storeCacheBlob(const fs::path& entry, std::string_view header, std::string_view payload,
                    std::string& error) {
  if (header.find('\n') != std::string_view::npos) {
    error = "a cache entry's header must be one line";
    return false;
  }
  const std::string head = std::string(header) + "\n";
  Sha256 hash;
  hash.update(head.data(), head.size());
  hash.update(payload.data(), payload.size());
  const std::string digest = hash.hexDigest();
  // Unique per store, also between threads of one process (cases are prepared side by side).
  static std::atomic<unsigned> serial{0};
  const std::string suffix = ".tmp" + std::to_string(::getpid()) + "-" + std::to_string(serial++);
  const fs::path tmp = entry.string() + suffix;
  const fs::path sidecarTmp = cacheDigestPath(entry).string() + suffix;
  if (!writeFresh(tmp, head, payload, error)) return false;
  if (!writeFresh(sidecarTmp, digest, "\n", error)) {
    ::unlink(tmp.c_str());
    return false;
  }
  // Sidecar first: an entry without its sidecar is discarded, never trusted.
  if (::rename(sidecarTmp.c_str(), cacheDigestPath(entry).c_str()) != 0 ||
      ::rename(tmp.c_str(), entry.c_str()) != 0) {
    error = "cannot move " + entry.string() + " into the cache: " + std::strerror(errno);
    ::unlink(tmp.c_str());
    ::unlink(sidecarTmp.c_str());
    return false;
  }
  return true;
}

CacheLookup loadCacheBlob(const fs::path& entry, std::string_view header, std::size_t maxBytes,
                          std::string& payload, std::string& warning) {
  struct stat st {};
  if (::lstat(entry.c_str(), &st) != 0) return CacheLookup::Miss;
  std::string why;
  std::string bytes;
  std::string expected;
  const bool read = readRegularFile(entry, maxBytes, bytes);
  if (!read) why = "is not a regular file kwb can read within " + std::to_string(maxBytes) + " bytes";
  if (why.empty()) {
    if (!readRegularFile(cacheDigestPath(entry), 256, expected)) expected.clear();
    while (!expected.empty() && (expected.back() == '\n' || expected.back() == '\r')) expected.pop_back();
    if (expected.size() != 64) why = "has no valid digest sidecar";
  }
  if (why.empty() && sha256Hex(bytes) != expected) why = "does not match its recorded SHA-256";
  const std::size_t eol = bytes.find('\n');
  if (why.empty() && (eol == std::string::npos || std::string_view(bytes).substr(0, eol) != header))
    why = "was stored under another key";
  if (why.empty()) {
    payload = bytes.substr(eol + 1);
    return CacheLookup::Hit;
  }
  std::error_code ec;
  fs::remove(entry, ec);
  fs::remove(cacheDigestPath(entry), ec);
  warning = "cache entry " + entry.string() + " " + why + "; discarded, recomputing";
  return CacheLookup::Discarded;
}

}  // namespace kwb
