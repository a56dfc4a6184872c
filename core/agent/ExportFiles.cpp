// SPDX-License-Identifier: MIT
#include "core/agent/ExportFiles.h"

#include <fstream>
#include <stdexcept>
#include <system_error>

namespace kwb {

namespace fs = std::filesystem;

void prepareExportFolder(const fs::path& dir) {
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_empty(dir, ec))
    throw std::invalid_argument("export folder " + dir.string() + " exists and is not empty");
  fs::create_directories(dir, ec);
  if (ec) throw std::runtime_error("cannot create " + dir.string() + ": " + ec.message());
}

void writeExportFile(const fs::path& path, const std::string& text, bool executable) {
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) throw std::runtime_error("cannot write " + path.string());
  if (executable)
    fs::permissions(path, fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                    fs::perm_options::add, ec);
}

}  // namespace kwb
