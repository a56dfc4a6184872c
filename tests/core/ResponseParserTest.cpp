// SPDX-License-Identifier: MIT
// The response parser on realistic replies (tests/fixtures/llm/replies/).

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/agent/ResponseParser.h"

using namespace kwb;

namespace {

std::string fixture(const std::string& name) {
  const std::string path = std::string(KWB_FIXTURES_DIR) + "/llm/replies/" + name;
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << path;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool contains(const std::string& s, const std::string& needle) {
  return s.find(needle) != std::string::npos;
}

std::string allNotes(const ParsedReply& r) {
  std::string out;
  for (const auto& n : r.notes) out += n + "\n";
  for (const auto& w : r.warnings) out += w + "\n";
  return out;
}

}  // namespace

TEST(ResponseParser, SingleBlockWithProseAround) {
  auto r = parseLlmReply(fixture("single_cpp_block.md"));
  ASSERT_TRUE(r.hasCandidate()) << r.feedback;
  ASSERT_EQ(r.files.size(), 1u);
  EXPECT_EQ(r.primary()->name, "kernel.cpp");
  EXPECT_FALSE(r.primary()->named);
  EXPECT_EQ(r.primary()->language, "cpp");
  EXPECT_EQ(r.primary()->firstLine, 5);  // prose, prose, blank, fence
  EXPECT_TRUE(contains(r.primary()->content, "extern \"C\" __global__ __aicore__ void add_custom"));
  EXPECT_FALSE(contains(r.primary()->content, "```"));
  EXPECT_TRUE(contains(r.prose, "DataCopyPad"));
  EXPECT_FALSE(r.truncated);
  EXPECT_TRUE(r.feedback.empty());
}

TEST(ResponseParser, BoldFileNamesMapBlocksToFilesAndShellIsIgnored) {
  auto r = parseLlmReply(fixture("named_files_bold.md"));
  ASSERT_TRUE(r.hasCandidate()) << r.feedback;
  ASSERT_EQ(r.files.size(), 2u);
  EXPECT_EQ(r.files[0].name, "kernel.cpp");
  EXPECT_TRUE(r.files[0].named);
  EXPECT_EQ(r.files[0].language, "c++");
  ASSERT_NE(r.file("tiling.h"), nullptr);
  EXPECT_TRUE(contains(r.file("tiling.h")->content, "TILE_LENGTH = 128"));
  EXPECT_TRUE(contains(allNotes(r), "bash")) << allNotes(r);
}

TEST(ResponseParser, NamesInFenceInfoAndKernelComesFirst) {
  auto r = parseLlmReply(fixture("name_in_fence_info.md"));
  ASSERT_EQ(r.files.size(), 2u) << r.feedback;
  EXPECT_EQ(r.files[0].name, "add_custom.cpp") << "the file with the entry point is the primary";
  EXPECT_EQ(r.files[1].name, "tiling.h");
  EXPECT_EQ(r.files[0].language, "cpp");
}

TEST(ResponseParser, SeveralUnnamedBlocksPickTheKernelAndSaySo) {
  auto r = parseLlmReply(fixture("several_unnamed_blocks.md"));
  ASSERT_TRUE(r.hasCandidate()) << r.feedback;
  ASSERT_EQ(r.files.size(), 1u);
  EXPECT_EQ(r.primary()->name, "kernel.cpp");
  EXPECT_TRUE(contains(r.primary()->content, "class KernelAdd"));
  EXPECT_TRUE(contains(allNotes(r), "picked code block 3 of 4")) << allNotes(r);
  EXPECT_TRUE(contains(allNotes(r), "__global__/__aicore__")) << allNotes(r);
}

TEST(ResponseParser, ReasoningIsStrippedIncludingCodeInsideIt) {
  auto r = parseLlmReply(fixture("think_then_code.md"));
  ASSERT_TRUE(r.hasCandidate()) << r.feedback;
  ASSERT_EQ(r.files.size(), 1u);
  EXPECT_FALSE(contains(r.primary()->content, "draft()"));
  EXPECT_TRUE(contains(r.reasoning, "double buffering"));
  EXPECT_TRUE(contains(r.prose, "Double buffering is now enabled"));
}

TEST(ResponseParser, OrphanClosingThinkTagEndsTheReasoning) {
  auto r = parseLlmReply(fixture("orphan_think_close.md"));
  ASSERT_TRUE(r.hasCandidate()) << r.feedback;
  EXPECT_TRUE(contains(r.reasoning, "GetBlockIdx"));
  EXPECT_FALSE(contains(r.prose, "verifier says"));
}

TEST(ResponseParser, FirstLineCommentNamesATildeFencedBlock) {
  auto r = parseLlmReply(fixture("first_line_comment_name.md"));
  ASSERT_TRUE(r.hasCandidate()) << r.feedback;
  EXPECT_EQ(r.primary()->name, "add_custom.cpp");
  EXPECT_TRUE(r.primary()->named);
}

TEST(ResponseParser, ReplyCutInsideTheKernelBecomesFeedback) {
  auto r = parseLlmReply(fixture("truncated_mid_block.md"));
  EXPECT_FALSE(r.hasCandidate());
  EXPECT_TRUE(r.truncated);
  EXPECT_TRUE(contains(r.feedback, "cut off")) << r.feedback;
  EXPECT_TRUE(contains(r.feedback, "kernel.cpp")) << r.feedback;
  EXPECT_TRUE(contains(allNotes(r), "after 18 lines")) << allNotes(r);
}

TEST(ResponseParser, MissingClosingFenceWithCompleteCodeIsAccepted) {
  auto r = parseLlmReply(fixture("truncated_fence_only.md"));
  ASSERT_TRUE(r.hasCandidate()) << r.feedback;
  EXPECT_TRUE(r.truncated);
  EXPECT_TRUE(contains(allNotes(r), "braces balance")) << allNotes(r);
}

TEST(ResponseParser, NoCodeAtAllBecomesFeedbackNotAnException) {
  auto r = parseLlmReply(fixture("no_code.md"));
  EXPECT_FALSE(r.hasCandidate());
  EXPECT_TRUE(contains(r.feedback, "no code block")) << r.feedback;
  EXPECT_TRUE(contains(r.feedback, "```cpp kernel.cpp")) << r.feedback;
  EXPECT_TRUE(contains(r.prose, "multiple of 16"));
}

TEST(ResponseParser, NonCppBlocksAreNamedInTheFeedback) {
  auto r = parseLlmReply(fixture("only_shell_and_json.md"));
  EXPECT_FALSE(r.hasCandidate());
  EXPECT_TRUE(contains(r.feedback, "bash, json")) << r.feedback;
}

TEST(ResponseParser, DiffsAreNotAppliedAndTheModelIsToldSo) {
  auto r = parseLlmReply(fixture("diff_only.md"));
  EXPECT_FALSE(r.hasCandidate());
  EXPECT_TRUE(contains(r.feedback, "diff")) << r.feedback;
  EXPECT_TRUE(contains(r.feedback, "complete source")) << r.feedback;
}

TEST(ResponseParser, ElidedCodeIsRejectedWithTheLineQuoted) {
  auto r = parseLlmReply(fixture("elided_code.md"));
  EXPECT_FALSE(r.hasCandidate());
  EXPECT_TRUE(contains(r.feedback, "line 5")) << r.feedback;
  EXPECT_TRUE(contains(r.feedback, "rest of the class unchanged")) << r.feedback;
}

TEST(ResponseParser, RawCodeWithoutFenceIsTakenWhole) {
  auto r = parseLlmReply(fixture("raw_code_no_fence.md"));
  ASSERT_TRUE(r.hasCandidate()) << r.feedback;
  EXPECT_EQ(r.primary()->name, "kernel.cpp");
  EXPECT_TRUE(contains(allNotes(r), "no code fence")) << allNotes(r);
}

TEST(ResponseParser, EmptyAndReasoningOnlyRepliesExplainThemselves) {
  auto empty = parseLlmReply("   \n");
  EXPECT_FALSE(empty.hasCandidate());
  EXPECT_TRUE(contains(empty.feedback, "empty")) << empty.feedback;
  auto thinking = parseLlmReply("<think>the tail needs padding, and then");
  EXPECT_FALSE(thinking.hasCandidate());
  EXPECT_TRUE(contains(thinking.feedback, "only reasoning")) << thinking.feedback;
  EXPECT_TRUE(contains(thinking.reasoning, "tail needs padding"));
}

TEST(ResponseParser, CrlfRepliesAndTheDefaultNameOptionWork) {
  std::string reply = fixture("single_cpp_block.md");
  std::string crlf;
  for (char c : reply) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  ResponseParserOptions opt;
  opt.defaultFileName = "add_custom.cpp";
  auto r = parseLlmReply(crlf, opt);
  ASSERT_TRUE(r.hasCandidate()) << r.feedback;
  EXPECT_EQ(r.primary()->name, "add_custom.cpp");
  EXPECT_FALSE(contains(r.primary()->content, "\r"));
}

TEST(ResponseParser, RepeatedFileNameKeepsTheLastVersion) {
  const std::string reply =
      "```cpp kernel.cpp\nextern \"C\" __global__ __aicore__ void k() { int v1; }\n```\n"
      "Actually, better:\n"
      "```cpp kernel.cpp\nextern \"C\" __global__ __aicore__ void k() { int v2; }\n```\n";
  auto r = parseLlmReply(reply);
  ASSERT_EQ(r.files.size(), 1u);
  EXPECT_TRUE(contains(r.primary()->content, "v2"));
  EXPECT_TRUE(contains(allNotes(r), "appeared more than once")) << allNotes(r);
}

TEST(ResponseParser, InlineTripleBackticksInProseAreNotFences) {
  const std::string reply =
      "Use ```cpp``` fences please.\n```cpp\nextern \"C\" __global__ __aicore__ void k() {}\n```\n";
  auto r = parseLlmReply(reply);
  ASSERT_TRUE(r.hasCandidate()) << r.feedback;
  EXPECT_EQ(r.primary()->content, "extern \"C\" __global__ __aicore__ void k() {}\n");
}

TEST(ResponseParser, EveryPrefixOfEveryFixtureYieldsACandidateOrFeedback) {
  std::size_t parsed = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(KWB_FIXTURES_DIR) + "/llm/replies")) {
    const std::string reply = fixture(entry.path().filename().string());
    for (std::size_t len = 0; len <= reply.size(); len += 5) {
      ParsedReply r;
      ASSERT_NO_THROW(r = parseLlmReply(std::string_view(reply).substr(0, len)))
          << entry.path() << " prefix " << len;
      EXPECT_NE(r.hasCandidate(), !r.feedback.empty()) << entry.path() << " prefix " << len;
      for (const auto& f : r.files) EXPECT_FALSE(f.name.empty());
      ++parsed;
    }
  }
  EXPECT_GT(parsed, 500u);
}

// docs/candidate-contract.md, "Several files": one rule picks the primary file, and choices the
// model should hear about are warnings (they go into the next prompt's feedback).
TEST(ResponseParser, TwoFullKernelsUseTheLastAndSayWhichInAWarning) {
  const std::string reply =
      "First try:\n```cpp\nextern \"C\" __global__ __aicore__ void add_custom() { int first; }\n```\n"
      "Or this one:\n```cpp\nextern \"C\" __global__ __aicore__ void add_custom() { int second; }\n```\n";
  auto r = parseLlmReply(reply);
  ASSERT_TRUE(r.hasCandidate()) << r.feedback;
  ASSERT_EQ(r.files.size(), 1u);
  EXPECT_TRUE(contains(r.primary()->content, "second"));
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_TRUE(contains(r.warnings[0], "2 full kernels")) << r.warnings[0];
  EXPECT_TRUE(contains(r.warnings[0], "the last one (code block 2) was used as kernel.cpp")) << r.warnings[0];
}

TEST(ResponseParser, TwoNamedKernelFilesFollowThePrimaryRuleAndSaySo) {
  const std::string reply =
      "```cpp add_custom_v2.cpp\nextern \"C\" __global__ __aicore__ void add_custom() { int v2; }\n```\n"
      "```cpp add_custom.cpp\nextern \"C\" __global__ __aicore__ void add_custom() { int v1; }\n```\n";
  auto r = parseLlmReply(reply);
  ASSERT_TRUE(r.hasCandidate()) << r.feedback;
  EXPECT_EQ(r.primary()->name, "add_custom.cpp");  // no kernel.cpp: the first by name
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_TRUE(contains(r.warnings[0], "add_custom.cpp was compiled and add_custom_v2.cpp")) << r.warnings[0];
}

TEST(ResponseParser, AHeaderFirstInTheReplyIsNotThePrimary) {
  const std::string reply =
      "```cpp add_custom_tiling.h\n#pragma once\ninline __aicore__ void h() {}\n```\n"
      "```cpp kernel.cpp\n#include \"add_custom_tiling.h\"\nextern \"C\" __global__ __aicore__ void "
      "add_custom() "
      "{}\n```\n";
  auto r = parseLlmReply(reply);
  ASSERT_EQ(r.files.size(), 2u) << r.feedback;
  EXPECT_EQ(r.files[0].name, "kernel.cpp");
  EXPECT_EQ(r.files[1].name, "add_custom_tiling.h");
  EXPECT_TRUE(r.warnings.empty());
}

TEST(ResponseParser, RepeatedFileNameWarnsWhichVersionWasUsed) {
  const std::string reply =
      "```cpp kernel.cpp\nextern \"C\" __global__ __aicore__ void k() { int v1; }\n```\n"
      "```cpp kernel.cpp\nextern \"C\" __global__ __aicore__ void k() { int v2; }\n```\n";
  auto r = parseLlmReply(reply);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_TRUE(contains(r.warnings[0], "the last version (code block 2) was used")) << r.warnings[0];
}

TEST(ResponseParser, UnsafeFileNamesFromTheModelAreRefusedWithFeedback) {
  for (const std::string name : {"../kernel.cpp", "include/kernel_tiling.h", "a/../../x.h"}) {
    const std::string reply =
        "```cpp kernel.cpp\nextern \"C\" __global__ __aicore__ void k() {}\n```\n```cpp " + name +
        "\n#pragma once\n```\n";
    auto r = parseLlmReply(reply);
    EXPECT_FALSE(r.hasCandidate()) << name;
    EXPECT_TRUE(contains(r.feedback, "Your reply's files cannot be used")) << r.feedback;
    EXPECT_TRUE(contains(r.feedback, name)) << r.feedback;
  }
  std::string many = "```cpp kernel.cpp\nextern \"C\" __global__ __aicore__ void k() {}\n```\n";
  for (int k = 0; k < 9; ++k) many += "```cpp h" + std::to_string(k) + ".h\n#pragma once\n```\n";
  auto r = parseLlmReply(many);
  EXPECT_FALSE(r.hasCandidate());
  EXPECT_TRUE(contains(r.feedback, "at most 8 are accepted")) << r.feedback;
}

TEST(ResponseParser, OperatorProjectPathsBecomeCandidateNames) {
  auto r = parseLlmReply(fixture("op_project_paths.md"));
  ASSERT_TRUE(r.hasCandidate()) << r.feedback;
  ASSERT_EQ(r.files.size(), 3u);
  EXPECT_EQ(r.files[0].name, "add_custom.cpp") << "op_kernel/add_custom.cpp holds the entry: the primary";
  ASSERT_NE(r.file("add_custom_host.cpp"), nullptr) << "op_host/add_custom.cpp";
  EXPECT_TRUE(contains(r.file("add_custom_host.cpp")->content, "OP_ADD(AddCustom)"));
  ASSERT_NE(r.file("add_custom_tiling.h"), nullptr) << "op_host/add_custom_tiling.h";
  EXPECT_TRUE(r.feedback.empty()) << r.feedback;
}
