// SPDX-License-Identifier: MIT
// A session folder whose creation was cut short: create() takes the lock (session.lock), makes
// iterations/ and writes session.json through a temporary file, so a writer killed before that rename
// leaves exactly those names and nothing else. Anything else in the folder is not ours and makes
// create() refuse it. See docs/reliability.md, "Kills before the first session.json".

#include <cctype>

#include "core/store/SessionStoreImpl.h"

namespace kwb {

namespace fs = std::filesystem;

namespace {

bool allDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

// ".tmp-<pid>-<counter>-session.json", as AtomicFile names the temporary file of session.json.
bool isTempIndexName(std::string_view name) {
  const std::string suffix = std::string("-") + SessionStore::kIndexFile;
  if (!isTempFileName(name) || name.size() <= kTempPrefix.size() + suffix.size()) return false;
  if (name.substr(name.size() - suffix.size()) != suffix) return false;
  const std::string_view middle =
      name.substr(kTempPrefix.size(), name.size() - kTempPrefix.size() - suffix.size());
  const auto dash = middle.find('-');
  return dash != std::string_view::npos && allDigits(middle.substr(0, dash)) &&
         allDigits(middle.substr(dash + 1));
}

// SessionLock writes "<pid>\n" and empties the file on release.
bool isLockFile(const fs::path& p) {
  std::error_code ec;
  if (fs::symlink_status(p, ec).type() != fs::file_type::regular) return false;
  const auto size = fs::file_size(p, ec);
  if (ec || size > 16) return false;
  const std::string content = readWholeFile(p);
  if (content.empty()) return true;
  return content.back() == '\n' && allDigits(std::string_view(content).substr(0, content.size() - 1));
}

}  // namespace

std::optional<std::string> firstForeignEntry(const fs::path& dir) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    const auto type = fs::symlink_status(entry.path(), ec).type();
    if (name == SessionLock::kFileName && isLockFile(entry.path())) continue;
    if (name == SessionStore::kIterationsDir && type == fs::file_type::directory &&
        fs::is_empty(entry.path(), ec) && !ec)
      continue;
    if (type == fs::file_type::regular && isTempIndexName(name)) continue;
    return name;
  }
  if (ec) return std::string("(the folder cannot be listed: ") + ec.message() + ")";
  return std::nullopt;
}

void removeUnfinishedTempIndex(const fs::path& dir) {
  std::error_code ec;
  std::vector<fs::path> temps;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (isTempIndexName(entry.path().filename().string()) &&
        fs::symlink_status(entry.path(), ec).type() == fs::file_type::regular)
      temps.push_back(entry.path());
  for (const auto& p : temps) fs::remove(p, ec);
}

bool SessionStore::isUnfinishedSession(const fs::path& dir) {
  std::error_code ec;
  if (fs::symlink_status(dir, ec).type() != fs::file_type::directory || fs::is_empty(dir, ec)) return false;
  return !firstForeignEntry(dir).has_value();
}

}  // namespace kwb
