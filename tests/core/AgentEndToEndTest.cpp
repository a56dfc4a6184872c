// SPDX-License-Identifier: MIT
// End to end: `kwb run` against the local LLM test server (OpenAI wire format) and the real emulator
// backend. The first reply is a kernel whose tail copies use DataCopy (misaligned-copy on the emulator);
// the second is the repair. The server's recorded second request must carry the first candidate's
// diagnostic: its category and its source line.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/agent/KnowledgePack.h"
#include "core/agent/Lesson.h"
#include "core/store/SessionStore.h"
#include "tests/support/LlmTestServer.h"

namespace kwb {
namespace {

namespace fs = std::filesystem;

struct Command {
  int rc = -1;
  std::string out;
};

Command runCommand(const std::string& cmd) {
  Command c;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return c;
  std::array<char, 4096> buf{};
  std::size_t n = 0;
  while ((n = std::fread(buf.data(), 1, buf.size(), p)) > 0) c.out.append(buf.data(), n);
  const int status = ::pclose(p);
  c.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return c;
}

std::string readAll(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string codeOf(const std::string& reply) {
  const auto start = reply.find("```cpp kernel.cpp\n");
  const auto body = start + std::string("```cpp kernel.cpp\n").size();
  return reply.substr(body, reply.find("```", body) - body);
}

TEST(AgentEndToEnd, KwbRunRepairsABrokenCandidateFromTheEmulatorsDiagnostic) {
  const Lesson lesson = loadLesson("unaligned-tail");
  ASSERT_EQ(lesson.steps.size(), 2u);
  testsupport::ScriptedReply broken;
  broken.text = lesson.steps[0].reply;
  broken.chunkChars = 200;
  testsupport::ScriptedReply fixed;
  fixed.text = lesson.steps[1].reply;
  fixed.chunkChars = 200;
  testsupport::LlmTestServer server({broken, fixed});

  const fs::path dir = fs::temp_directory_path() / ("kwb-e2e-run-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string task = (workbenchDataRoot() / "resources" / "tasks" / "add_custom").string();
  const std::string cmd =
      std::string(KWB_KWB_EXE) + " run --task " + task + " --provider openai --base-url " + server.baseUrl() +
      " --model test-model --api-key-env KWB_E2E_UNSET_KEY --max-iterations 2 --session " +
      (dir / "session").string() + " --json 2>" + (dir / "stderr.txt").string();
  const Command run = runCommand(cmd);
  const std::string err = readAll(dir / "stderr.txt");
  ASSERT_EQ(run.rc, 0) << run.out << "\n" << err;
  const auto j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j["iterations"], 2);
  EXPECT_EQ(j["best_iteration"], 2);
  EXPECT_EQ(j["tree"][0]["verdict"].get<std::string>() == "pass", false);
  EXPECT_EQ(j["tree"][1]["verdict"], "pass");
  EXPECT_EQ(j["tree"][1]["parent"], 1);
  EXPECT_NE(err.find("#1 compiling"), std::string::npos) << err;  // one progress line per step
  EXPECT_NE(err.find("#2 running"), std::string::npos) << err;

  // The server saw two requests; the second carries the first candidate's diagnostic at its line.
  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 2u);
  const std::string second = requests[1].allText();
  EXPECT_NE(second.find("misaligned-copy"), std::string::npos);
  const std::string code = codeOf(lesson.steps[0].reply);
  std::istringstream lines(code);
  std::string line;
  int lineNo = 0;
  bool found = false;
  while (std::getline(lines, line)) {
    ++lineNo;
    if (line.find("DataCopy(") == std::string::npos) continue;
    if (second.find("[misaligned-copy] kernel.cpp:" + std::to_string(lineNo)) != std::string::npos)
      found = true;
  }
  EXPECT_TRUE(found) << second.substr(second.find("## Feedback"), 3000);
  EXPECT_EQ(requests[0].allText().find("misaligned-copy] kernel.cpp"), std::string::npos);

  // Each evaluated iteration keeps the feedback the next prompt got about it.
  const std::string feedback1 =
      readAll(dir / "session" / "iterations" / SessionStore::iterationFolderName(1) / "feedback.md");
  EXPECT_NE(feedback1.find("misaligned-copy"), std::string::npos) << feedback1;

  // The passing iteration keeps its emulator trace and msprof-style CSVs, named in its profile.
  const Session saved = SessionStore::load(dir / "session");
  ASSERT_TRUE(saved.iterations[1].profile.has_value());
  const auto& arts = saved.iterations[1].profile->artifacts;
  ASSERT_TRUE(arts.count("trace")) << "no trace artifact";
  const fs::path iterDir = dir / "session" / "iterations" / SessionStore::iterationFolderName(2);
  EXPECT_TRUE(nlohmann::json::parse(readAll(iterDir / arts.at("trace"))).contains("traceEvents"));
  ASSERT_TRUE(arts.count("pipe_utilization"));
  EXPECT_NE(readAll(iterDir / arts.at("pipe_utilization")).find("aiv_vec_ratio"), std::string::npos);

  // kwb session show reads the same tree back.
  const Command show =
      runCommand(std::string(KWB_KWB_EXE) + " session show " + (dir / "session").string() + " --json");
  ASSERT_EQ(show.rc, 0) << show.out;
  const auto sj = nlohmann::json::parse(show.out);
  ASSERT_EQ(sj["tree"].size(), 2u);
  EXPECT_EQ(sj["tree"][1]["verdict"], "pass");
  EXPECT_TRUE(sj["tree"][1]["compile_ms"].is_number());
  const Command text = runCommand(std::string(KWB_KWB_EXE) + " session show " + (dir / "session").string());
  EXPECT_EQ(text.rc, 0);
  EXPECT_NE(text.out.find("#2 agent  pass"), std::string::npos) << text.out;
  fs::remove_all(dir);
}

TEST(AgentEndToEnd, KwbRunRejectsBadInput) {
  const Command c =
      runCommand(std::string(KWB_KWB_EXE) +
                 " run --task /nonexistent/task --provider replay --replay /x.json --json 2>/dev/null");
  EXPECT_EQ(c.rc, 2);
  EXPECT_TRUE(nlohmann::json::parse(c.out).contains("error"));
  const Command s = runCommand(std::string(KWB_KWB_EXE) + " session show /nonexistent/session 2>/dev/null");
  EXPECT_EQ(s.rc, 2);
}

}  // namespace
}  // namespace kwb
