// SPDX-License-Identifier: MIT
// The compiler runs in the sandbox (core/sandbox/CompileSandbox.h): a candidate that names a device
// or a host file in an #include gets a clear diagnostic, bounded memory and no host file contents.
#include <gtest/gtest.h>

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>

#include "core/base/TempWorkDir.h"
#include "core/emulator/SimBuilder.h"

using namespace kwb;
namespace fs = std::filesystem;

namespace {

fs::path writeSource(const fs::path& dir, const std::string& name, const std::string& text) {
  const fs::path p = dir / name;
  std::ofstream(p) << text;
  return p;
}

std::string messages(const SimBuildResult& r) {
  std::string all;
  for (const auto& d : r.diagnostics) all += d.format() + "\n";
  return all;
}

long childPeakRssKiB() {
  rusage ru{};
  getrusage(RUSAGE_CHILDREN, &ru);
  return ru.ru_maxrss;
}

}  // namespace

// Without the sandbox's address-space limit cc1plus reads /dev/zero until the host runs out of memory.
TEST(SandboxedCompile, IncludingDevZeroStopsAtTheMemoryLimitWithAClearDiagnostic) {
  std::string error;
  TempWorkDir dir(makeTempWorkDir("kwb-devzero-", error));
  ASSERT_FALSE(dir.path().empty()) << error;
  const fs::path src =
      writeSource(dir.path(), "zero.cpp", "#include \"/dev/zero\"\nint main() { return 0; }\n");
  SimBuildOptions o;
  o.output = (dir.path() / "app").string();
  o.sources = {src.string()};
  o.usePch = false;  // nothing of the emulator is needed to reach the include
  const auto t0 = std::chrono::steady_clock::now();
  const SimBuildResult r = SimBuilder().build(o);
  const auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(r.status, SimBuildResult::Status::BuildFailed) << r.message << "\n" << r.compilerOutput;
  EXPECT_LT(seconds, std::chrono::duration<double>(o.sandbox.wallTimeout).count() + 10.0);
  bool limitNamed = false;
  for (const auto& d : r.diagnostics)
    if ((d.category == "sandbox-violation" &&
         d.message.find("address-space limit of " + std::to_string(o.sandbox.addressSpaceBytes >> 30) +
                        " GiB") != std::string::npos) ||
        (d.category == "timeout" && d.message.find("limit") != std::string::npos))
      limitNamed = true;
  EXPECT_TRUE(limitNamed) << messages(r) << r.compilerOutput;
  // Resident peak of the processes whose exit reached this one (a g++ run directly, as before the
  // sandbox, is counted; inside bwrap the compiler is reaped in its pid namespace and the limit itself,
  // named in the diagnostic above, is the bound).
  EXPECT_LT(childPeakRssKiB(), static_cast<long>((o.sandbox.addressSpaceBytes >> 10) + (256 << 10)));
  EXPECT_FALSE(fs::exists(o.output));
}

// A host file outside the bound folders does not exist for the compiler: its contents never reach the
// diagnostics (which the agent, and so the LLM provider, would read).
TEST(SandboxedCompile, AHostFileOutsideTheBoundFoldersIsNotThere) {
  std::string error;
  TempWorkDir secretDir(makeTempWorkDir("kwb-secret-", error));
  ASSERT_FALSE(secretDir.path().empty()) << error;
  ::chmod(secretDir.path().c_str(), 0700);
  const std::string token = "kwb_secret_token_" + std::to_string(std::random_device{}());
  const fs::path secret = secretDir.path() / "secret.txt";
  std::ofstream(secret) << token << " leaked;\n";  // a compile error that g++ would quote
  ::chmod(secret.c_str(), 0600);

  TempWorkDir work(makeTempWorkDir("kwb-includer-", error));
  ASSERT_FALSE(work.path().empty()) << error;
  const fs::path src =
      writeSource(work.path(), "k.cpp", "#include \"" + secret.string() + "\"\nint main() { return 0; }\n");
  SimBuildOptions o;
  o.output = (work.path() / "app").string();
  o.sources = {src.string()};
  o.usePch = false;
  const SimBuildResult r = SimBuilder().build(o);
  EXPECT_EQ(r.status, SimBuildResult::Status::BuildFailed) << r.message;
  EXPECT_EQ(r.compilerOutput.find(token), std::string::npos) << r.compilerOutput;
  EXPECT_EQ(messages(r).find(token), std::string::npos) << messages(r);
  if (r.isolation == "bubblewrap") {
    EXPECT_NE(r.compilerOutput.find("No such file or directory"), std::string::npos) << r.compilerOutput;
  }
  // The diagnostic still points at the candidate's own file, at its real path.
  bool atSource = false;
  for (const auto& d : r.diagnostics) atSource = atSource || (d.file == src.string() && d.line == 1);
  EXPECT_TRUE(atSource) << messages(r);
}

// The sandboxed build still produces a working program where the caller asked, and leaves no scratch.
TEST(SandboxedCompile, AnHonestProgramBuildsAndTheScratchFolderIsRemoved) {
  std::string error;
  TempWorkDir work(makeTempWorkDir("kwb-honest-", error));
  ASSERT_FALSE(work.path().empty()) << error;
  const fs::path src =
      writeSource(work.path(), "k.cpp", "#include \"local.h\"\nint main() { return KWB_LOCAL; }\n");
  writeSource(work.path(), "local.h", "#define KWB_LOCAL 0\n");
  // A temp folder of its own, so that nothing else running creates entries in it meanwhile.
  const fs::path tmp = work.path() / "tmp";
  fs::create_directories(tmp);
  ::chmod(tmp.c_str(), 0755);
  const char* oldTmp = std::getenv("TMPDIR");
  const std::string saved = oldTmp ? oldTmp : "";
  ::setenv("TMPDIR", tmp.c_str(), 1);
  SimBuildOptions o;
  o.output = (work.path() / "app").string();
  o.sources = {src.string()};
  const SimBuildResult r = SimBuilder().build(o);
  if (oldTmp)
    ::setenv("TMPDIR", saved.c_str(), 1);
  else
    ::unsetenv("TMPDIR");
  ASSERT_TRUE(r.ok()) << r.message << "\n" << r.compilerOutput << messages(r);
  EXPECT_TRUE(fs::exists(o.output));
  EXPECT_EQ(r.outputSha256.size(), 64u);
  std::vector<std::string> left;
  for (const auto& e : fs::directory_iterator(tmp))
    if (e.path().filename().string().rfind("kwb-sandbox-", 0) != 0) left.push_back(e.path().string());
  EXPECT_TRUE(left.empty()) << left.front();
}
