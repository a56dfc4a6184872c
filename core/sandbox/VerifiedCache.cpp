// SPDX-License-Identifier: MIT
#include "core/sandbox/VerifiedCache.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <vector>

#include "core/model/Sha256.h"

namespace kwb {

namespace fs = std::filesystem;

namespace {

std::string readSidecar(const fs::path& entry) {
  std::ifstream in(cacheDigestPath(entry), std::ios::binary);
  std::string digest;
  in >> digest;
  return digest;
}

bool isHexDigest(const std::string& s) {
  if (s.size() != 64) return false;
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

void discard(const fs::path& entry) {
  std::error_code ec;
  fs::remove(entry, ec);
  fs::remove(cacheDigestPath(entry), ec);
}

// Writes through O_EXCL|O_NOFOLLOW on a fresh name: a symlink planted at the path is never followed.
bool writeFileExclusive(const fs::path& path, const std::string& text, std::string& error) {
  ::unlink(path.c_str());
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) {
    error = "cannot write " + path.string() + ": " + std::strerror(errno);
    return false;
  }
  bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ok = ::close(fd) == 0 && ok;
  if (!ok) error = "cannot write " + path.string() + ": " + std::strerror(errno);
  return ok;
}

}  // namespace

fs::path cacheDigestPath(const fs::path& entry) {
  return entry.string() + ".sha256";
}

std::optional<std::string> copyAndHash(const fs::path& src, const fs::path& dest, unsigned mode,
                                       std::string& error) {
  const int in = ::open(src.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0) {
    error = "cannot read " + src.string() + ": " + std::strerror(errno);
    return std::nullopt;
  }
  ::unlink(dest.c_str());
  const int out = ::open(dest.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (out < 0) {
    error = "cannot create " + dest.string() + ": " + std::strerror(errno);
    ::close(in);
    return std::nullopt;
  }
  // The digest is taken of the bytes written, in the same pass, so it describes the copy.
  Sha256 hash;
  std::vector<char> buf(1 << 16);
  bool ok = true;
  for (;;) {
    const ssize_t n = ::read(in, buf.data(), buf.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      ok = false;
      error = "cannot read " + src.string() + ": " + std::strerror(errno);
      break;
    }
    if (n == 0) break;
    hash.update(buf.data(), static_cast<std::size_t>(n));
    for (ssize_t off = 0; off < n;) {
      const ssize_t w = ::write(out, buf.data() + off, static_cast<std::size_t>(n - off));
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) {
        ok = false;
        error = "cannot write " + dest.string() + ": " + std::strerror(errno);
        break;
      }
      off += w;
    }
    if (!ok) break;
  }
  ::close(in);
  if (::fchmod(out, static_cast<mode_t>(mode)) != 0 && ok) {
    ok = false;
    error = "cannot set the mode of " + dest.string() + ": " + std::strerror(errno);
  }
  if (::close(out) != 0 && ok) {
    ok = false;
    error = "cannot write " + dest.string() + ": " + std::strerror(errno);
  }
  if (!ok) {
    ::unlink(dest.c_str());
    return std::nullopt;
  }
  return hash.hexDigest();
}

std::optional<std::string> storeCacheEntry(const fs::path& built, const fs::path& entry, std::string& error) {
  // Unique per store, also between threads of one process (two builds may store the same PCH at once).
  static std::atomic<unsigned> serial{0};
  const fs::path tmp = entry.string() + ".tmp" + std::to_string(::getpid()) + "-" + std::to_string(serial++);
  auto digest = copyAndHash(built, tmp, 0700, error);
  if (!digest) return std::nullopt;
  // Sidecar first: an entry without its sidecar is discarded, never trusted.
  const fs::path sidecarTmp = cacheDigestPath(tmp);
  if (!writeFileExclusive(sidecarTmp, *digest + "\n", error)) {
    ::unlink(tmp.c_str());
    return std::nullopt;
  }
  if (::rename(sidecarTmp.c_str(), cacheDigestPath(entry).c_str()) != 0 ||
      ::rename(tmp.c_str(), entry.c_str()) != 0) {
    error = "cannot move the build into the cache as " + entry.string() + ": " + std::strerror(errno);
    ::unlink(tmp.c_str());
    ::unlink(sidecarTmp.c_str());
    return std::nullopt;
  }
  return digest;
}

CacheLookup fetchCacheEntry(const fs::path& entry, const fs::path& dest, unsigned mode, std::string& digest,
                            std::string& warning) {
  struct stat st {};
  if (::lstat(entry.c_str(), &st) != 0) return CacheLookup::Miss;
  const std::string expected = readSidecar(entry);
  std::string error;
  std::optional<std::string> actual;
  if (S_ISREG(st.st_mode) && isHexDigest(expected)) actual = copyAndHash(entry, dest, mode, error);
  if (actual && *actual == expected) {
    digest = *actual;
    return CacheLookup::Hit;
  }
  std::error_code ec;
  fs::remove(dest, ec);
  discard(entry);
  if (!S_ISREG(st.st_mode))
    warning = "cache entry " + entry.string() + " is not a regular file";
  else if (!isHexDigest(expected))
    warning = "cache entry " + entry.string() + " has no valid digest sidecar";
  else if (!actual)
    warning = "cache entry " + entry.string() + " could not be read: " + error;
  else
    warning = "cache entry " + entry.string() + " does not match its recorded SHA-256 (expected " + expected +
              ", found " + *actual + ")";
  warning += "; discarded, rebuilding";
  return CacheLookup::Discarded;
}

CacheLookup checkCacheEntry(const fs::path& entry, std::string& digest, std::string& warning) {
  struct stat st {};
  if (::lstat(entry.c_str(), &st) != 0) return CacheLookup::Miss;
  const std::string expected = readSidecar(entry);
  std::optional<std::string> actual;
  if (S_ISREG(st.st_mode) && isHexDigest(expected)) actual = sha256FileHex(entry);
  if (actual && *actual == expected) {
    digest = *actual;
    return CacheLookup::Hit;
  }
  discard(entry);
  if (!S_ISREG(st.st_mode))
    warning = "cache entry " + entry.string() + " is not a regular file";
  else if (!isHexDigest(expected))
    warning = "cache entry " + entry.string() + " has no valid digest sidecar";
  else if (!actual)
    warning = "cache entry " + entry.string() + " could not be read";
  else
    warning = "cache entry " + entry.string() + " does not match its recorded SHA-256 (expected " + expected +
              ", found " + *actual + ")";
  warning += "; discarded, rebuilding";
  return CacheLookup::Discarded;
}

}  // namespace kwb
