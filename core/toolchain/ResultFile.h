// SPDX-License-Identifier: MIT
#pragma once
// Reading back what a sandboxed run left, as hostile input (docs/sandbox.md, "Trusted evaluation"):
// the file is opened without following a link and without blocking (a FIFO or device planted in its
// place cannot hang or feed the workbench), must be a regular file, and must have exactly the size
// the workbench expects (or at most a cap). Nothing else a run wrote is ever read.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace kwb {

struct ResultFileRead {
  std::optional<std::vector<std::uint8_t>> bytes;
  std::string error;  // why not, naming the file and what was wrong with it
};

// exactSize: the file must have this many bytes. Otherwise (exactSize == nullopt) at most maxBytes.
ResultFileRead readResultFile(const std::filesystem::path& file, std::optional<std::uint64_t> exactSize,
                              std::uint64_t maxBytes);

// The same checks, but the bytes are handed to `chunk` a piece at a time (offset, data, length) and
// never held whole: for results as large as a case's tensors. Returns "" or the error, as above.
std::string scanResultFile(const std::filesystem::path& file, std::uint64_t exactSize,
                           const std::function<void(std::uint64_t, const std::uint8_t*, std::size_t)>& chunk);

// Creates an empty regular file (replacing nothing: it must not exist yet), mode 0644.
bool createEmptyFile(const std::filesystem::path& file, std::string& error);

}  // namespace kwb
