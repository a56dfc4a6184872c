// SPDX-License-Identifier: MIT
#pragma once
// Small cached results (a policy verdict, a case's generated inputs and reference outputs) kept in a
// private cache folder next to the cached binaries, with the same SHA-256 sidecar (VerifiedCache.h).
// Each entry starts with a header line that restates the full key it was stored under: an entry that
// was renamed, swapped or cut short, or whose bytes do not match its sidecar, is discarded (and
// recomputed by the caller), never used. Only trusted code writes these entries, into a folder that
// passed preparePrivateDir() and that no sandboxed run is given (docs/architecture.md, "Evaluation
// caches").

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

#include "core/sandbox/VerifiedCache.h"

namespace kwb {

// Writes `header` (one line, no newline in it), a newline and `payload` as `entry`, through a fresh
// temporary name and a rename, sidecar first. False with `error` set when it could not be written.
bool storeCacheBlob(const std::filesystem::path& entry, std::string_view header, std::string_view payload,
                    std::string& error);

// Reads `entry` into memory (at most `maxBytes`), checks the bytes read against the sidecar and the
// first line against `header`, and hands back the rest as `payload` on Hit. Anything else that is
// there is removed (Discarded, `warning` says why).
CacheLookup loadCacheBlob(const std::filesystem::path& entry, std::string_view header, std::size_t maxBytes,
                          std::string& payload, std::string& warning);

}  // namespace kwb
