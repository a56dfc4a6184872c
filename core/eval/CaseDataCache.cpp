// SPDX-License-Identifier: MIT
#include "core/eval/CaseDataCache.h"

#include <cstring>
#include <utility>

#include <nlohmann/json.hpp>

#include "core/base/PrivateCacheDir.h"
#include "core/eval/PolicyVerdictCache.h"
#include "core/model/Sha256.h"
#include "core/sandbox/VerifiedBlob.h"

namespace kwb {

namespace fs = std::filesystem;

namespace {

// Generated inputs of the largest built-in cases are a few MiB; far above that is not ours.
constexpr std::size_t kMaxEntryBytes = std::size_t{1} << 30;

constexpr const char* kInputsVersion = "case-inputs-1";
constexpr const char* kReferenceVersion = "case-reference-1";

void putCount(std::string& out, std::uint64_t n) {
  out.append(reinterpret_cast<const char*>(&n), sizeof n);
}

bool takeCount(std::string_view& in, std::uint64_t& n) {
  if (in.size() < sizeof n) return false;
  std::memcpy(&n, in.data(), sizeof n);
  in.remove_prefix(sizeof n);
  return true;
}

// Count, then each piece as its byte count and bytes: a payload that does not parse to the end
// exactly is refused.
template <typename Element>
std::string encodePieces(const std::vector<std::vector<Element>>& pieces) {
  std::string out;
  putCount(out, pieces.size());
  for (const auto& p : pieces) {
    putCount(out, p.size() * sizeof(Element));
    out.append(reinterpret_cast<const char*>(p.data()), p.size() * sizeof(Element));
  }
  return out;
}

template <typename Element>
std::optional<std::vector<std::vector<Element>>> decodePieces(std::string_view in) {
  std::uint64_t count = 0;
  if (!takeCount(in, count) || count > in.size()) return std::nullopt;
  std::vector<std::vector<Element>> pieces;
  for (std::uint64_t k = 0; k < count; ++k) {
    std::uint64_t bytes = 0;
    if (!takeCount(in, bytes) || bytes > in.size() || bytes % sizeof(Element) != 0) return std::nullopt;
    auto& p = pieces.emplace_back(bytes / sizeof(Element));
    std::memcpy(p.data(), in.data(), bytes);
    in.remove_prefix(bytes);
  }
  if (!in.empty()) return std::nullopt;
  return pieces;
}

}  // namespace

CaseDataCache::CaseDataCache(fs::path dir, const Task& task, std::uint64_t seed)
    : dir_(std::move(dir)),
      taskKey_(sha256Hex(nlohmann::json(task).dump() + "\n--seed--\n" + std::to_string(seed) +
                         "\n--generator--\n" + selfExecutableStamp())) {}

bool CaseDataCache::ready(std::vector<std::string>& warnings) const {
  if (dir_.empty()) return false;
  const PrivateDirResult pd = preparePrivateDir(dir_);
  for (const auto& w : pd.warnings) warnings.push_back(w);
  return pd.ok;
}

std::string CaseDataCache::inputsKey(const std::string& caseName) const {
  return sha256Hex(std::string(kInputsVersion) + "\n" + taskKey_ + "\n" + caseName);
}

std::string CaseDataCache::referenceKey(const std::string& caseName,
                                        const std::string& referenceSha256) const {
  return sha256Hex(std::string(kReferenceVersion) + "\n" + taskKey_ + "\n" + caseName + "\n" +
                   referenceSha256);
}

std::optional<std::vector<verify::Bytes>> CaseDataCache::inputs(const std::string& caseName,
                                                                std::vector<std::string>& warnings) const {
  if (!ready(warnings)) return std::nullopt;
  const std::string key = inputsKey(caseName);
  std::string payload, warning;
  const fs::path entry = dir_ / ("inputs-" + key);
  const CacheLookup lookup =
      loadCacheBlob(entry, kInputsVersion + (" " + key), kMaxEntryBytes, payload, warning);
  if (lookup == CacheLookup::Discarded) warnings.push_back(warning);
  if (lookup != CacheLookup::Hit) return std::nullopt;
  auto pieces = decodePieces<std::uint8_t>(payload);
  if (!pieces) {
    std::error_code ec;
    fs::remove(entry, ec);
    warnings.push_back("cache entry " + entry.string() + " does not parse; discarded, recomputing");
  }
  return pieces;
}

void CaseDataCache::storeInputs(const std::string& caseName, const std::vector<verify::Bytes>& inputs,
                                std::vector<std::string>& warnings) const {
  if (!ready(warnings)) return;
  const std::string key = inputsKey(caseName);
  std::string error;
  if (!storeCacheBlob(dir_ / ("inputs-" + key), kInputsVersion + (" " + key), encodePieces(inputs), error))
    warnings.push_back("the generated inputs were not cached: " + error);
}

std::optional<std::vector<std::vector<double>>> CaseDataCache::referenceOutputs(
    const std::string& caseName, const std::string& referenceSha256,
    std::vector<std::string>& warnings) const {
  if (referenceSha256.empty() || !ready(warnings)) return std::nullopt;
  const std::string key = referenceKey(caseName, referenceSha256);
  std::string payload, warning;
  const fs::path entry = dir_ / ("reference-" + key);
  const CacheLookup lookup =
      loadCacheBlob(entry, kReferenceVersion + (" " + key), kMaxEntryBytes, payload, warning);
  if (lookup == CacheLookup::Discarded) warnings.push_back(warning);
  if (lookup != CacheLookup::Hit) return std::nullopt;
  auto pieces = decodePieces<double>(payload);
  if (!pieces) {
    std::error_code ec;
    fs::remove(entry, ec);
    warnings.push_back("cache entry " + entry.string() + " does not parse; discarded, recomputing");
  }
  return pieces;
}

void CaseDataCache::storeReferenceOutputs(const std::string& caseName, const std::string& referenceSha256,
                                          const std::vector<std::vector<double>>& outputs,
                                          std::vector<std::string>& warnings) const {
  if (referenceSha256.empty() || !ready(warnings)) return;
  const std::string key = referenceKey(caseName, referenceSha256);
  std::string error;
  if (!storeCacheBlob(dir_ / ("reference-" + key), kReferenceVersion + (" " + key), encodePieces(outputs),
                      error))
    warnings.push_back("the reference outputs were not cached: " + error);
}

}  // namespace kwb
