// SPDX-License-Identifier: MIT
#pragma once
// File writes that a crash cannot tear: content goes to a temporary file in the target's directory,
// is flushed, and replaces the target with rename(2), which is atomic on POSIX file systems. Readers
// therefore see the old content or the new, never a mix. With sync on, the file and its directory are
// fsync'ed so the result also survives power loss; without it, it survives any process crash.

#include <filesystem>
#include <string>
#include <string_view>

namespace kwb {

enum class Durability {
  Sync,    // fsync file and directory: survives power loss (the default for real sessions)
  NoSync,  // survives a killed process but not a power cut; for scratch sessions and tests
};

// Temporary files start with this prefix; stores remove leftovers of crashed writers.
inline constexpr std::string_view kTempPrefix = ".tmp-";

bool isTempFileName(std::string_view name);

void writeFileAtomic(const std::filesystem::path& target, std::string_view content, Durability d);
// Copies a file produced elsewhere (a trace, a CSV) into place with the same guarantees.
void copyFileAtomic(const std::filesystem::path& source, const std::filesystem::path& target, Durability d);
// fsync on a directory makes entries created or renamed in it durable.
void syncDirectory(const std::filesystem::path& dir);
// Creates dir if missing; with Sync, makes the new entry durable in its parent. Returns true if created.
bool makeDirectory(const std::filesystem::path& dir, Durability d);
// Whole file as bytes; StoreError naming the path when it cannot be read.
std::string readWholeFile(const std::filesystem::path& path);

}  // namespace kwb
