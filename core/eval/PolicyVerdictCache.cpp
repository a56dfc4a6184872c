// SPDX-License-Identifier: MIT
#include "core/eval/PolicyVerdictCache.h"

#include <algorithm>
#include <utility>

#include "core/base/ExecutableSearch.h"
#include "core/base/PrivateCacheDir.h"
#include "core/model/Sha256.h"
#include "core/sandbox/VerifiedBlob.h"

namespace kwb {

namespace fs = std::filesystem;

namespace {

std::string fileStamp(const fs::path& p) {
  std::error_code ec;
  const auto size = fs::file_size(p, ec);
  const auto time = fs::last_write_time(p, ec).time_since_epoch().count();
  return p.string() + ":" + std::to_string(ec ? 0 : size) + ":" + std::to_string(time) + "\n";
}

constexpr const char* kEntryHeader = "kwb policy verdict clean ";

}  // namespace

std::string folderStamp(const std::vector<fs::path>& folders) {
  std::string out;
  for (const auto& folder : folders) {
    std::vector<fs::path> files;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(folder, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
      if (it->is_regular_file(ec)) files.push_back(it->path());
    std::sort(files.begin(), files.end());
    out += "folder " + folder.string() + "\n";
    for (const auto& f : files) out += fileStamp(f);
  }
  return out;
}

std::string selfExecutableStamp() {
  std::error_code ec;
  return fileStamp(fs::read_symlink("/proc/self/exe", ec));
}

std::string executableStamp(const std::string& program) {
  std::string out;
  const fs::path given(program);
  const auto found = given.has_parent_path() ? std::optional<fs::path>(given) : findExecutable(program);
  std::error_code ec;
  out += found ? fileStamp(fs::canonical(*found, ec)) : "missing " + program + "\n";
  return out + selfExecutableStamp();
}

PolicyVerdictCache::PolicyVerdictCache(fs::path dir) : dir_(std::move(dir)) {}

std::string PolicyVerdictCache::keyFor(const std::string& material,
                                       const std::vector<fs::path>& headerFolders,
                                       const std::string& compiler) const {
  return sha256Hex(std::string(kPolicyRulesVersion) + "\n--material--\n" + material + "\n--headers--\n" +
                   folderStamp(headerFolders) + "\n--tools--\n" + executableStamp(compiler));
}

bool PolicyVerdictCache::ready(std::vector<std::string>& warnings) const {
  if (dir_.empty()) return false;
  const PrivateDirResult pd = preparePrivateDir(dir_);
  for (const auto& w : pd.warnings) warnings.push_back(w);
  return pd.ok;
}

fs::path PolicyVerdictCache::entryPath(const std::string& key) const {
  return dir_ / ("policy-" + key);
}

bool PolicyVerdictCache::knownClean(const std::string& key, std::vector<std::string>& warnings) const {
  if (!ready(warnings)) return false;
  std::string payload, warning;
  const CacheLookup lookup = loadCacheBlob(entryPath(key), kEntryHeader + key, 4096, payload, warning);
  if (lookup == CacheLookup::Discarded) warnings.push_back(warning);
  return lookup == CacheLookup::Hit && payload.empty();
}

void PolicyVerdictCache::rememberClean(const std::string& key, std::vector<std::string>& warnings) const {
  if (!ready(warnings)) return;
  std::string error;
  if (!storeCacheBlob(entryPath(key), kEntryHeader + key, "", error))
    warnings.push_back("the policy verdict was not cached: " + error);
}

}  // namespace kwb
