// SPDX-License-Identifier: MIT
#pragma once
// Reading a file someone else named (a candidate kernel, a task file) without trusting it: regular
// files only (not /dev/zero, a FIFO or a folder), and never more than a cap, checked before and while
// reading, so a huge or endless file is refused with a message instead of filling memory.

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

namespace kwb {

// The largest candidate source kwb reads (kwb eval --kernel, suite candidates): the largest bundled
// kernel is under 40 KiB; an LLM's reply is capped well below this too.
inline constexpr std::size_t kMaxSourceReadBytes = std::size_t{1} << 20;  // 1 MiB

// The file's bytes, or nullopt with `error` saying what is wrong ("PATH is not a regular file (a
// character device)", "PATH is 23.0 MiB; the limit is 1.0 MiB", "cannot read PATH: reason").
std::optional<std::string> readBoundedRegularFile(const std::filesystem::path& path, std::size_t maxBytes,
                                                  std::string& error);

}  // namespace kwb
