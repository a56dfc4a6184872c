// SPDX-License-Identifier: MIT
// Issue 16, items 3-5 and 7, end to end: `kwb run` against the fault-injecting local LLM server. None of
// these scenarios compiles a kernel (the replies hold no code or never complete), so each run takes
// about a second: a cut stream retried and reported, a provider failure with its own exit code, bad
// bytes in the stream, a key in --base-url, bad KWB_LLM_* values, and problems found before any token
// is spent (TMPDIR with a space, an unknown SoC, no reference.cpp).
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/agent/KnowledgePack.h"
#include "tests/support/LlmTestServer.h"

namespace kwb {
namespace {

namespace fs = std::filesystem;
using testsupport::LlmFault;
using testsupport::LlmTestServer;
using testsupport::ScriptedReply;

struct KwbResult {
  int rc = -1;
  std::string out, err;
};

class KwbRunFaults : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("kwb-fault-e2e-" + std::to_string(::getpid()) + "-" +
                                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
    fs::create_directories(dir);
    task = (workbenchDataRoot() / "resources" / "tasks" / "add_custom").string();
  }
  void TearDown() override { fs::remove_all(dir); }

  // Runs kwb with `env` assignments in front and `args` after `kwb run`.
  KwbResult kwbRun(const std::string& env, const std::string& args) {
    const std::string errFile = (dir / "stderr.txt").string();
    const std::string cmd = "env " + env + " " + KWB_KWB_EXE + " run " + args + " 2>" + errFile;
    KwbResult r;
    FILE* p = ::popen(cmd.c_str(), "r");
    if (!p) return r;
    std::array<char, 4096> buf{};
    std::size_t n = 0;
    while ((n = std::fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
    const int status = ::pclose(p);
    r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.err = readAll(errFile);
    return r;
  }

  std::string common(const std::string& baseUrl) const {
    return "--task " + task + " --provider openai --base-url '" + baseUrl +
           "' --model m --api-key-env KWB_FAULT_E2E_UNSET --max-iterations 1 --session " +
           (dir / "session").string();
  }

  static std::string readAll(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }

  // Every file the session folder holds, concatenated.
  std::string sessionFiles() const {
    std::string all;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(dir / "session", ec); !ec && it != fs::end(it);
         it.increment(ec))
      if (it->is_regular_file()) all += readAll(it->path()) + "\n";
    return all;
  }

  fs::path dir;
  std::string task;
};

TEST_F(KwbRunFaults, ACutStreamIsRetriedReportedAndNoKeyFromTheUrlIsShown) {
  ScriptedReply cut;
  cut.fault = LlmFault::Cut;
  cut.text = "Here is the kernel: it starts like this and then the stream breaks";
  cut.cutAfterChars = 12;
  ScriptedReply noCode;
  noCode.text = "I have no kernel for you this time.";
  LlmTestServer server({cut, noCode});
  const std::string hostPort = server.baseUrl().substr(std::string("http://").size());
  const std::string url =
      "http://user:sk-userinfo-secret@" + hostPort + "/v1?api-version=1&api-key=sk-query-secret";
  const KwbResult r = kwbRun("KWB_LLM_MAX_RETRIES=abc KWB_LLM_IDLE_TIMEOUT_S=-5", common(url) + " --json");
  EXPECT_EQ(r.rc, 1) << r.err;  // no passing candidate, but no failure either
  EXPECT_FALSE(nlohmann::json::parse(r.out, nullptr, false).is_discarded()) << r.out;
  EXPECT_NE(r.err.find("#1 LLM retry 1 in"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("12 characters of partial reply discarded"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("warning: KWB_LLM_MAX_RETRIES=\"abc\" is not a number"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("warning: KWB_LLM_IDLE_TIMEOUT_S=\"-5\" is out of range"), std::string::npos) << r.err;
  EXPECT_EQ(server.requestCount(), 2u);
  const std::string everything = r.out + r.err + sessionFiles();
  EXPECT_EQ(everything.find("secret"), std::string::npos) << "a key in --base-url was shown";
  EXPECT_NE(r.err.find("api-version=1"), std::string::npos) << r.err;
}

TEST_F(KwbRunFaults, AProviderFailureHasItsOwnExitCodeAndSaysHowToResume) {
  LlmTestServer server;
  ScriptedReply down;
  down.fault = LlmFault::ServerError;
  down.status = 503;
  server.setFallback(down);
  const KwbResult r = kwbRun("KWB_LLM_MAX_RETRIES=0", common(server.baseUrl() + "/v1") + " --json");
  EXPECT_EQ(r.rc, 4) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["finish_reason"].get<std::string>().rfind("LLM request failed in iteration 1: ", 0), 0u)
      << j["finish_reason"];
  EXPECT_NE(r.err.find("HTTP 503"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("resume with: kwb run --task"), std::string::npos) << r.err;
}

TEST_F(KwbRunFaults, BadBytesInTheStreamNeverBreakTheJsonAndTheIterationEndsWithItsCause) {
  ScriptedReply bad;
  bad.fault = LlmFault::Raw;
  bad.status = 200;
  bad.contentType = "text/event-stream";
  bad.body =
      "data: {\"choices\":[{\"delta\":{\"content\":\"caf\xe9 \xff\"}}]}\n\n"
      "data: \xc3\x28{broken\n\ndata: [DONE]\n\n";
  LlmTestServer server({bad});
  const KwbResult r = kwbRun("KWB_LLM_MAX_RETRIES=0", common(server.baseUrl() + "/v1") + " --json");
  EXPECT_EQ(r.rc, 4) << r.err;
  const auto j = nlohmann::json::parse(r.out);  // throws (fails the test) if the output is not JSON
  EXPECT_NE(j["finish_reason"].get<std::string>().find("unparseable stream event"), std::string::npos)
      << j["finish_reason"];
  const std::string files = sessionFiles();
  EXPECT_EQ(files.find("\"generating\""), std::string::npos) << "the iteration must not stay generating";
  EXPECT_NE(files.find("\"failed\""), std::string::npos);
  const std::string show =
      std::string(KWB_KWB_EXE) + " session show " + (dir / "session").string() + " --json >/dev/null 2>&1";
  EXPECT_EQ(WEXITSTATUS(std::system(show.c_str())), 0);
}

TEST_F(KwbRunFaults, ProblemsThatWouldFailEveryIterationAreFoundBeforeAnyTokenIsSpent) {
  LlmTestServer server;
  const fs::path spaced = dir / "with space";
  fs::create_directories(spaced);
  KwbResult r = kwbRun("TMPDIR='" + spaced.string() + "'", common(server.baseUrl() + "/v1"));
  EXPECT_EQ(r.rc, 2) << r.err;
  EXPECT_NE(r.err.find("contains whitespace"), std::string::npos) << r.err;

  // A task copy with an unknown SoC, then one without its reference.
  const fs::path copy = dir / "task";
  fs::copy(task, copy, fs::copy_options::recursive);
  auto tj = nlohmann::json::parse(readAll(copy / "task.json"));
  tj["soc"] = "Ascend999Z";
  std::ofstream(copy / "task.json") << tj.dump(2);
  task = copy.string();
  r = kwbRun("", common(server.baseUrl() + "/v1"));
  EXPECT_EQ(r.rc, 2) << r.err;
  EXPECT_NE(r.err.find("unknown soc \"Ascend999Z\"; known: Ascend310P1"), std::string::npos) << r.err;

  tj["soc"] = "Ascend910B1";
  std::ofstream(copy / "task.json") << tj.dump(2);
  fs::remove(copy / "reference.cpp");
  r = kwbRun("", common(server.baseUrl() + "/v1"));
  EXPECT_EQ(r.rc, 2) << r.err;
  EXPECT_NE(r.err.find("no reference.cpp"), std::string::npos) << r.err;
  EXPECT_EQ(server.requestCount(), 0u) << "no LLM request before the checks pass";
}

}  // namespace
}  // namespace kwb
