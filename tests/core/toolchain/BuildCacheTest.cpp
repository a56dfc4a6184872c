// SPDX-License-Identifier: MIT
// Caches of executed binaries are private and verified: a cache folder others can write to (or a
// symlink) is refused or recreated, and an entry whose bytes do not match the SHA-256 kwb recorded is
// discarded and rebuilt, never run.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/base/PrivateCacheDir.h"
#include "core/base/TempWorkDir.h"
#include "core/model/Sha256.h"
#include "core/model/Task.h"
#include "core/sandbox/VerifiedCache.h"
#include "core/toolchain/SimBackend.h"
#include "core/verify/ReferenceRunner.h"

using namespace kwb;
namespace fs = std::filesystem;

namespace {

std::string readText(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

mode_t modeOf(const fs::path& p) {
  struct stat st {};
  lstat(p.c_str(), &st);
  return st.st_mode & 07777;
}

struct TempRoot {
  TempWorkDir dir;
  TempRoot() {
    std::string error;
    dir = TempWorkDir(makeTempWorkDir("kwb-cachetest-", error));
  }
  fs::path operator/(const std::string& name) const { return dir.path() / name; }
};

bool hasCategory(const std::vector<Diagnostic>& ds, std::string_view c) {
  for (const auto& d : ds)
    if (d.category == c) return true;
  return false;
}

const char* kPlanted = "#!/bin/sh\necho planted\n";

}  // namespace

TEST(Sha256, KnownVectors) {
  EXPECT_EQ(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256Hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(PrivateCacheDir, IsCreatedPrivateAndDefaultsUnderTheUsersCache) {
  TempRoot root;
  const fs::path dir = root / "cache";
  const auto r = preparePrivateDir(dir);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(modeOf(dir), 0700u);
  ::setenv("XDG_CACHE_HOME", (root / "xdg").c_str(), 1);
  ::unsetenv("KWB_EVAL_CACHE_DIR");
  EXPECT_EQ(defaultEvalCacheDir(), root / "xdg" / "kernel-workbench");
  ::setenv("KWB_EVAL_CACHE_DIR", (root / "override").c_str(), 1);
  EXPECT_EQ(defaultEvalCacheDir(), root / "override");
  ::unsetenv("KWB_EVAL_CACHE_DIR");
  ::unsetenv("XDG_CACHE_HOME");
  EXPECT_EQ(defaultEvalCacheDir().filename(), "kernel-workbench");
  EXPECT_EQ(defaultEvalCacheDir().string().find(fs::temp_directory_path().string()), std::string::npos);
}

TEST(PrivateCacheDir, ASymlinkIsRefused) {
  TempRoot root;
  fs::create_directories(root / "elsewhere");
  fs::create_directory_symlink(root / "elsewhere", root / "cache");
  const auto r = preparePrivateDir(root / "cache");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("symbolic link"), std::string::npos) << r.error;
  EXPECT_TRUE(fs::is_directory(root / "elsewhere")) << "the link's target must be left alone";
}

TEST(PrivateCacheDir, AGroupWritableFolderIsEmptiedAndRecreated) {
  TempRoot root;
  const fs::path dir = root / "cache";
  fs::create_directories(dir);
  ::chmod(dir.c_str(), 0775);
  std::ofstream(dir / "sim-planted") << kPlanted;
  const auto r = preparePrivateDir(dir);
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("0775"), std::string::npos) << r.warnings[0];
  EXPECT_FALSE(fs::exists(dir / "sim-planted"));
  EXPECT_EQ(modeOf(dir), 0700u);
}

TEST(PrivateCacheDir, AFolderOwnedBySomeoneElseIsRefused) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to give a folder away";
  TempRoot root;
  const fs::path dir = root / "cache";
  fs::create_directories(dir);
  ::chmod(dir.c_str(), 0755);
  ASSERT_EQ(::chown(dir.c_str(), 65534, 65534), 0);
  const auto r = preparePrivateDir(dir);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("owned by uid 65534"), std::string::npos) << r.error;
}

TEST(VerifiedCache, AnEntryThatDoesNotMatchItsDigestIsDiscarded) {
  TempRoot root;
  ASSERT_TRUE(preparePrivateDir(root / "cache").ok);
  std::ofstream(root / "built") << "honest bytes";
  std::string error, digest, warning;
  const fs::path entry = root / "cache" / "sim-x";
  ASSERT_TRUE(storeCacheEntry(root / "built", entry, error)) << error;
  EXPECT_EQ(fetchCacheEntry(entry, root / "copy", 0755, digest, warning), CacheLookup::Hit) << warning;
  EXPECT_EQ(digest, sha256Hex("honest bytes"));
  std::ofstream(entry, std::ios::trunc) << kPlanted;
  EXPECT_EQ(fetchCacheEntry(entry, root / "copy2", 0755, digest, warning), CacheLookup::Discarded);
  EXPECT_NE(warning.find("does not match its recorded SHA-256"), std::string::npos) << warning;
  EXPECT_FALSE(fs::exists(entry));
  EXPECT_FALSE(fs::exists(root / "copy2"));
  // No sidecar at all: never trusted either.
  std::ofstream(entry) << kPlanted;
  EXPECT_EQ(checkCacheEntry(entry, digest, warning), CacheLookup::Discarded);
  EXPECT_FALSE(fs::exists(entry));
}

// The whole path: SimBackend builds, someone swaps the cached program (keeping the old sidecar), the
// next compile of the same candidate rebuilds instead of running the planted file.
TEST(BuildCache, APlantedSimBuildIsRebuiltNotRun) {
  TempRoot root;
  const fs::path tasks = fs::path(KWB_SOURCE_DIR) / "resources" / "tasks";
  const Task task = loadTaskDir(tasks / "add_custom");
  const std::string src = readText(tasks / "add_custom" / "expert_candidate.cpp");
  BackendOptions o;
  o.soc = "Ascend910B1";
  o.cacheDir = root / "cache";
  auto compileOnce = [&](const std::string& work) {
    SimBackend backend(o);
    EXPECT_TRUE(backend.prepare(task, src, root / work).empty());
    return backend.compile();
  };
  const CompileResult first = compileOnce("w1");
  ASSERT_TRUE(first.ok) << first.log;
  fs::path entry;
  for (const auto& e : fs::directory_iterator(o.cacheDir))
    if (e.path().filename().string().rfind("sim-", 0) == 0 && e.path().extension() != ".sha256")
      entry = e.path();
  ASSERT_FALSE(entry.empty());
  EXPECT_TRUE(fs::exists(cacheDigestPath(entry)));
  EXPECT_TRUE(compileOnce("w2").cached) << "an intact entry is reused";

  std::ofstream(entry, std::ios::trunc) << kPlanted;
  const CompileResult again = compileOnce("w3");
  ASSERT_TRUE(again.ok) << again.log;
  EXPECT_FALSE(again.cached) << "the planted entry was used";
  EXPECT_TRUE(hasCategory(again.diagnostics, "cache-integrity"));
  EXPECT_NE(readText(root / "w3" / "kernel_app"), kPlanted);
  EXPECT_NE(readText(entry), kPlanted) << "the rebuilt program replaces the planted one";
}

TEST(BuildCache, APlantedReferenceBuildIsRebuiltAndAChangedCopyIsNotRun) {
  TempRoot root;
  const Task task = loadTaskDir(fs::path(KWB_FIXTURES_DIR) / "tasks" / "tiny_add");
  const verify::ReferenceRunner runner(root / "cache");
  const auto a = runner.build(task);
  ASSERT_TRUE(a.ok) << a.log;
  EXPECT_FALSE(a.cached);
  EXPECT_EQ(a.sha256, sha256FileHex(a.binary).value_or(""));
  EXPECT_TRUE(runner.build(task).cached);

  std::ofstream(a.binary, std::ios::trunc) << kPlanted;
  const auto b = runner.build(task);
  ASSERT_TRUE(b.ok) << b.log;
  EXPECT_FALSE(b.cached) << "the planted reference was reused";
  ASSERT_FALSE(b.warnings.empty());
  EXPECT_NE(b.warnings[0].find("SHA-256"), std::string::npos) << b.warnings[0];

  // Changed after build() verified it: run() refuses the copy.
  std::ofstream(b.binary, std::ios::trunc) << kPlanted;
  fs::create_directories(root / "case");
  const auto out = runner.run(b, verify::PreparedCase{}, {}, root / "case");
  EXPECT_FALSE(out.ok);
  EXPECT_NE(out.error.find("changed since it was verified"), std::string::npos) << out.error;
}
