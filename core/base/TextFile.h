// SPDX-License-Identifier: MIT
#pragma once
// Reading a whole file into memory, the one way tool code does it: always through
// readBoundedRegularFile (core/base/BoundedFileRead.h), so only regular files within a size limit are
// read (a FIFO, /dev/zero or a huge file is an error, not a hang or an OOM). For files a run writes
// back, see core/toolchain/ResultFile.h, which is stricter still.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace kwb {

// Generous for sources, task files and reports; far below what could exhaust memory.
inline constexpr std::uintmax_t kDefaultTextFileLimit = 64ull << 20;

struct TextFileRead {
  std::optional<std::string> text;  // nullopt on any failure
  std::string error;                // what is wrong, naming the path, when text is nullopt
};

// Follows symlinks (a task folder may link its files) but requires a regular file of at most maxBytes.
TextFileRead readTextFile(const std::filesystem::path& path, std::uintmax_t maxBytes = kDefaultTextFileLimit);

// The text; throws std::runtime_error carrying readTextFile's error when it cannot be read.
std::string readTextFileOrThrow(const std::filesystem::path& path,
                                std::uintmax_t maxBytes = kDefaultTextFileLimit);

// The text, or "" when the file cannot be read: for optional files (a missing file means "none").
std::string readTextFileOrEmpty(const std::filesystem::path& path,
                                std::uintmax_t maxBytes = kDefaultTextFileLimit);

}  // namespace kwb
