// SPDX-License-Identifier: MIT
#include "core/base/TextFile.h"

#include <stdexcept>

#include "core/base/BoundedFileRead.h"

namespace kwb {

TextFileRead readTextFile(const std::filesystem::path& path, std::uintmax_t maxBytes) {
  TextFileRead r;
  r.text = readBoundedRegularFile(path, static_cast<std::size_t>(maxBytes), r.error);
  return r;
}

std::string readTextFileOrThrow(const std::filesystem::path& path, std::uintmax_t maxBytes) {
  auto r = readTextFile(path, maxBytes);
  if (!r.text) throw std::runtime_error(r.error);
  return std::move(*r.text);
}

std::string readTextFileOrEmpty(const std::filesystem::path& path, std::uintmax_t maxBytes) {
  auto r = readTextFile(path, maxBytes);
  return r.text ? std::move(*r.text) : std::string();
}

}  // namespace kwb
