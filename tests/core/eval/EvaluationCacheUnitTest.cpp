// SPDX-License-Identifier: MIT
// The evaluation caches' entries (docs/architecture.md, "Evaluation caches"): a verified blob is used
// only when its bytes match their SHA-256 sidecar and its first line restates the key it was asked
// for; a clean policy verdict and a case's inputs and reference outputs are found again under the
// same content and missed under any other; a corrupt, truncated or swapped entry is discarded.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/base/TempWorkDir.h"
#include "core/eval/CaseDataCache.h"
#include "core/eval/PolicyVerdictCache.h"
#include "core/model/Task.h"
#include "core/sandbox/VerifiedBlob.h"

using namespace kwb;
namespace fs = std::filesystem;

namespace {

struct TempRoot {
  TempWorkDir dir;
  TempRoot() {
    std::string error;
    dir = TempWorkDir(makeTempWorkDir("kwb-evalcache-", error));
  }
  fs::path operator/(const std::string& name) const { return dir.path() / name; }
};

std::string readText(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void writeText(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary | std::ios::trunc) << text;
}

// The only regular file in `dir` whose name starts with `prefix` and is not a sidecar.
fs::path onlyEntry(const fs::path& dir, const std::string& prefix) {
  fs::path found;
  int count = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name.rfind(prefix, 0) == 0 && e.path().extension() != ".sha256") {
      found = e.path();
      ++count;
    }
  }
  EXPECT_EQ(count, 1) << "entries named " << prefix << "* in " << dir;
  return found;
}

Task addTask() {
  return loadTaskDir(fs::path(KWB_SOURCE_DIR) / "resources" / "tasks" / "add_custom");
}

}  // namespace

TEST(VerifiedBlobCache, StoredEntryIsFoundUnderItsOwnKeyOnly) {
  TempRoot root;
  const fs::path entry = root / "entry";
  std::string error, payload, warning;
  ASSERT_TRUE(storeCacheBlob(entry, "kind key-1", "pay\nload", error)) << error;
  EXPECT_EQ(loadCacheBlob(entry, "kind key-1", 1024, payload, warning), CacheLookup::Hit) << warning;
  EXPECT_EQ(payload, "pay\nload");
  // Asked for under another key (an entry renamed or copied to another name): never used, removed.
  EXPECT_EQ(loadCacheBlob(entry, "kind key-2", 1024, payload, warning), CacheLookup::Discarded);
  EXPECT_NE(warning.find("another key"), std::string::npos) << warning;
  EXPECT_FALSE(fs::exists(entry));
  EXPECT_FALSE(fs::exists(cacheDigestPath(entry)));
  EXPECT_EQ(loadCacheBlob(entry, "kind key-1", 1024, payload, warning), CacheLookup::Miss);
}

TEST(VerifiedBlobCache, TamperedTruncatedUnsignedOrLinkedEntriesAreDiscarded) {
  TempRoot root;
  const fs::path entry = root / "entry";
  std::string error, payload, warning;
  // One byte changed, the sidecar left as it was.
  ASSERT_TRUE(storeCacheBlob(entry, "k", "0123456789", error)) << error;
  writeText(entry, "k\n0123456780");
  EXPECT_EQ(loadCacheBlob(entry, "k", 1024, payload, warning), CacheLookup::Discarded);
  EXPECT_NE(warning.find("SHA-256"), std::string::npos) << warning;
  // No sidecar.
  ASSERT_TRUE(storeCacheBlob(entry, "k", "0123456789", error)) << error;
  fs::remove(cacheDigestPath(entry));
  EXPECT_EQ(loadCacheBlob(entry, "k", 1024, payload, warning), CacheLookup::Discarded);
  EXPECT_NE(warning.find("sidecar"), std::string::npos) << warning;
  // Larger than the caller allows.
  ASSERT_TRUE(storeCacheBlob(entry, "k", std::string(4096, 'x'), error)) << error;
  EXPECT_EQ(loadCacheBlob(entry, "k", 1024, payload, warning), CacheLookup::Discarded);
  // A symlink to a file with a matching sidecar next to it: not followed.
  const fs::path elsewhere = root / "elsewhere";
  ASSERT_TRUE(storeCacheBlob(elsewhere, "k", "planted", error)) << error;
  fs::create_symlink(elsewhere, entry);
  fs::copy_file(cacheDigestPath(elsewhere), cacheDigestPath(entry), fs::copy_options::overwrite_existing);
  EXPECT_EQ(loadCacheBlob(entry, "k", 1024, payload, warning), CacheLookup::Discarded);
  EXPECT_FALSE(fs::is_symlink(entry));
}

TEST(PolicyVerdictCacheEntries, CleanVerdictIsFoundForTheSameContentOnly) {
  TempRoot root;
  const PolicyVerdictCache cache(root / "policy");
  const std::vector<fs::path> headers = {fs::path(KWB_SOURCE_DIR) / "resources" / "tasks" / "include"};
  const std::string key = cache.keyFor("candidate A", headers, "g++");
  std::vector<std::string> warnings;
  EXPECT_FALSE(cache.knownClean(key, warnings));
  cache.rememberClean(key, warnings);
  EXPECT_TRUE(cache.knownClean(key, warnings));
  EXPECT_TRUE(warnings.empty());
  const std::string edited = cache.keyFor("candidate A ", headers, "g++");
  EXPECT_NE(edited, key);
  EXPECT_FALSE(cache.knownClean(edited, warnings));
  EXPECT_NE(cache.keyFor("candidate A", headers, "clang++"), key) << "the compiler is part of the key";
  EXPECT_NE(cache.keyFor("candidate A", {}, "g++"), key) << "the headers are part of the key";
}

TEST(PolicyVerdictCacheEntries, EntryCopiedToAnotherCandidatesKeyOrDamagedIsNotTrusted) {
  TempRoot root;
  const fs::path dir = root / "policy";
  const PolicyVerdictCache cache(dir);
  const std::string clean = cache.keyFor("clean candidate", {}, "g++");
  const std::string hostile = cache.keyFor("hostile candidate", {}, "g++");
  std::vector<std::string> warnings;
  cache.rememberClean(clean, warnings);
  const fs::path entry = onlyEntry(dir, "policy-");
  // The clean entry and its sidecar under the hostile candidate's name: its header names the other key.
  fs::copy_file(entry, dir / ("policy-" + hostile));
  fs::copy_file(cacheDigestPath(entry), cacheDigestPath(dir / ("policy-" + hostile)));
  EXPECT_FALSE(cache.knownClean(hostile, warnings));
  ASSERT_FALSE(warnings.empty());
  EXPECT_FALSE(fs::exists(dir / ("policy-" + hostile)));
  // The clean entry's own bytes changed.
  warnings.clear();
  writeText(entry, readText(entry) + "x");
  EXPECT_FALSE(cache.knownClean(clean, warnings));
  EXPECT_FALSE(warnings.empty());
  // Recomputed and stored again, it is found again.
  cache.rememberClean(clean, warnings);
  EXPECT_TRUE(cache.knownClean(clean, warnings));
}

TEST(CaseDataCacheEntries, InputsAndReferenceOutputsComeBackUnderTheSameKeyOnly) {
  TempRoot root;
  const Task task = addTask();
  const CaseDataCache cache(root / "cases", task, 7);
  std::vector<std::string> warnings;
  const std::vector<verify::Bytes> inputs = {{1, 2, 3, 4}, {}, {9}};
  const std::vector<std::vector<double>> outputs = {{1.5, -2.0}, {3.25}};
  EXPECT_FALSE(cache.inputs("c1", warnings));
  cache.storeInputs("c1", inputs, warnings);
  cache.storeReferenceOutputs("c1", std::string(64, 'a'), outputs, warnings);
  EXPECT_EQ(cache.inputs("c1", warnings), inputs);
  EXPECT_EQ(cache.referenceOutputs("c1", std::string(64, 'a'), warnings), outputs);
  EXPECT_TRUE(warnings.empty());
  EXPECT_FALSE(cache.inputs("c2", warnings)) << "another case";
  EXPECT_FALSE(cache.referenceOutputs("c1", std::string(64, 'b'), warnings)) << "another reference program";
  EXPECT_FALSE(CaseDataCache(root / "cases", task, 8).inputs("c1", warnings)) << "another seed";
  Task changed = task;
  changed.cases.front().name += "_changed";
  EXPECT_FALSE(CaseDataCache(root / "cases", changed, 7).inputs("c1", warnings)) << "another task";
  EXPECT_TRUE(warnings.empty());
}

TEST(CaseDataCacheEntries, DamagedEntriesAreDiscardedAndRecomputed) {
  TempRoot root;
  const Task task = addTask();
  const CaseDataCache cache(root / "cases", task, 7);
  std::vector<std::string> warnings;
  cache.storeInputs("c1", {{1, 2, 3, 4}}, warnings);
  const fs::path entry = onlyEntry(root / "cases", "inputs-");
  std::string bytes = readText(entry);
  bytes.back() ^= 1;
  writeText(entry, bytes);
  EXPECT_FALSE(cache.inputs("c1", warnings));
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_FALSE(fs::exists(entry));
  // A payload that does not parse, stored with a valid sidecar and header (a bug, or an older
  // format): refused too.
  warnings.clear();
  cache.storeInputs("c1", {{1, 2, 3, 4}}, warnings);
  const std::string stored = readText(entry);
  std::string error;
  ASSERT_TRUE(storeCacheBlob(entry, stored.substr(0, stored.find('\n')), "short", error)) << error;
  EXPECT_FALSE(cache.inputs("c1", warnings));
  EXPECT_EQ(warnings.size(), 1u);
  EXPECT_FALSE(fs::exists(entry));
}
