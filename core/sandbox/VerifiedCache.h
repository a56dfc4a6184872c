// SPDX-License-Identifier: MIT
#pragma once
// Cached binaries with a SHA-256 sidecar. kwb writes `ENTRY.sha256` (the digest of ENTRY's bytes) right
// after a successful build, and recomputes the digest whenever the entry is about to be used: on the
// copy that will actually run, so the file cannot change between the check and the use. An entry
// whose digest is missing or wrong is discarded (and rebuilt by the caller), with a warning.
// The cache folder itself must have passed preparePrivateDir() (core/base/PrivateCacheDir.h).

#include <filesystem>
#include <optional>
#include <string>

namespace kwb {

// The sidecar path of an entry: ENTRY.sha256.
std::filesystem::path cacheDigestPath(const std::filesystem::path& entry);

// Copies `built` into the cache as `entry` (through a temporary name, then rename, so readers never see
// half a file) and writes its sidecar. Returns the digest, or nullopt with `error` set.
std::optional<std::string> storeCacheEntry(const std::filesystem::path& built,
                                           const std::filesystem::path& entry, std::string& error);

// Copies `src` to `dest` (replacing it; never through a symlink at dest) with mode `mode`, hashing the
// bytes written. Returns the digest of the copy, or nullopt with `error` set.
std::optional<std::string> copyAndHash(const std::filesystem::path& src, const std::filesystem::path& dest,
                                       unsigned mode, std::string& error);

enum class CacheLookup {
  Miss,      // no entry: build it
  Hit,       // dest holds the entry's bytes and they match the sidecar
  Discarded  // an entry was there but its digest was missing or wrong: removed, `warning` says so
};

// Copies a cached entry to `dest` and verifies the copy against the sidecar. On Discarded the entry,
// its sidecar and dest are removed. `digest` receives the verified digest on Hit.
CacheLookup fetchCacheEntry(const std::filesystem::path& entry, const std::filesystem::path& dest,
                            unsigned mode, std::string& digest, std::string& warning);

// Verifies an entry in place (for entries used where they are, e.g. copied again later by the user of
// the digest). Same outcomes as fetchCacheEntry.
CacheLookup checkCacheEntry(const std::filesystem::path& entry, std::string& digest, std::string& warning);

}  // namespace kwb
