// SPDX-License-Identifier: MIT
// PromptBuilder: what goes into the system prompt and the user message, in which order, and what the
// budget trims (and never trims).
#include <gtest/gtest.h>

#include "core/agent/ConstraintEnforcer.h"
#include "core/agent/KnowledgePack.h"
#include "core/agent/PromptBuilder.h"

namespace kwb {
namespace {

Task smallTask() {
  Task t;
  t.name = "add_custom";
  t.description = "z = x + y";
  t.inputs = {{"x", DType::Float16, "ND"}, {"y", DType::Float16, "ND"}};
  t.outputs = {{"z", DType::Float16, "ND"}};
  VerificationCase c;
  c.name = "tail_16397";
  c.shapes = {{"x", {16397}}, {"y", {16397}}, {"z", {16397}}};
  t.cases.push_back(c);
  return t;
}

const char* kSource =
    "#include \"kwb_tiling.h\"\n"          // 1
    "struct T { uint32_t n; };\n"          // 2
    "#if KWB_COMPILE_KERNEL\n"             // 3
    "#include \"kernel_operator.h\"\n"     // 4
    "constexpr int32_t BUFFER_NUM = 2;\n"  // 5
    "void f() {\n"                         // 6
    "  DataCopy(xLocal, xGm[off], n);\n"   // 7
    "}\n"                                  // 8
    "#endif\n";                            // 9

Iteration failingIteration() {
  Iteration it;
  it.id = 3;
  it.candidate.files["kernel.cpp"] = kSource;
  it.verdict = Verdict::RuntimeError;
  it.state = IterationState::Done;
  RunResult run;
  run.status = RunStatus::Error;
  for (int block = 0; block < 3; ++block) {
    Diagnostic d;
    d.source = "emulator";
    d.category = "misaligned-copy";
    d.file = "/tmp/work/kernel.cpp";
    d.line = 7;
    d.api = "DataCopy";
    d.tensor = "xLocal";
    d.block = block;
    d.message = "DataCopy of 26 bytes is not a multiple of 32 bytes: truncated on hardware to 0 bytes";
    run.diagnostics.push_back(d);
  }
  it.run = run;
  VerifyReport v;
  v.verdict = Verdict::WrongAnswer;
  CaseResult cr;
  cr.caseName = "tail_16397";
  cr.tensor = "z";
  cr.elements = 16397;
  cr.mismatches = 13;
  cr.unwritten = 13;
  cr.pattern = "tail-only: only the last 13 elements are wrong";
  cr.firstMismatches.push_back({16384, 1.5, std::nan("")});
  v.cases.push_back(cr);
  it.verify = v;
  return it;
}

PromptResources resources() {
  PromptResources r;
  r.contract = "CONTRACT-TEXT: one Ascend C source file with kwb_tiling.";
  r.knowledge = {{"10-a.md", "KNOWLEDGE-A DataCopy needs 32-byte lengths."},
                 {"20-b.md", std::string(4000, 'k')}};
  return r;
}

TEST(PromptBuilder, SystemPromptHoldsContractKnowledgeAndReplyFormat) {
  const Task t = smallTask();
  PromptInput in;
  in.task = &t;
  const BuiltPrompt p = buildPrompt(resources(), in);
  EXPECT_NE(p.request.system.find("CONTRACT-TEXT"), std::string::npos);
  EXPECT_NE(p.request.system.find("KNOWLEDGE-A"), std::string::npos);
  EXPECT_NE(p.request.system.find("```cpp kernel.cpp"), std::string::npos);
  ASSERT_EQ(p.request.messages.size(), 1u);
  const std::string& user = p.request.messages[0].content;
  EXPECT_NE(user.find("# initial: add_custom"), std::string::npos);
  EXPECT_NE(user.find("tail_16397: x [16397]"), std::string::npos);
  EXPECT_NE(user.find("x (input, float16), y (input, float16), z (output, float16), workspace, tiling"),
            std::string::npos);
}

TEST(PromptBuilder, SystemBudgetDropsKnowledgeButNeverTheContract) {
  std::vector<std::string> trimmed;
  const std::string s = buildSystemPrompt(resources(), 400, &trimmed);
  EXPECT_NE(s.find("CONTRACT-TEXT"), std::string::npos);
  EXPECT_NE(s.find("KNOWLEDGE-A"), std::string::npos);
  EXPECT_EQ(s.find("kkkkkkkkkk"), std::string::npos);
  ASSERT_EQ(trimmed.size(), 1u);
  EXPECT_NE(trimmed[0].find("20-b.md"), std::string::npos);
}

TEST(PromptBuilder, RepairPromptPutsGroupedDiagnosticsWithExcerptBeforeTheCandidate) {
  const Task t = smallTask();
  const Iteration prev = failingIteration();
  PromptInput in;
  in.mode = PromptMode::Repair;
  in.task = &t;
  in.previous = &prev;
  const BuiltPrompt p = buildPrompt(resources(), in);
  const std::string& user = p.request.messages[0].content;
  const auto diag = user.find("[misaligned-copy] kernel.cpp:7");
  ASSERT_NE(diag, std::string::npos) << user;
  EXPECT_NE(user.find("API DataCopy, tensor xLocal, 3 blocks"), std::string::npos) << user;
  EXPECT_NE(user.find("(reported 3 times)"), std::string::npos);
  EXPECT_NE(user.find(">>   7 |   DataCopy(xLocal, xGm[off], n);"), std::string::npos) << user;
  EXPECT_NE(user.find("pattern: tail-only"), std::string::npos);
  EXPECT_NE(user.find("[16384] expected 1.5 got nan"), std::string::npos);
  const auto candidate = user.find("## Previous candidate (kernel.cpp, iteration 3)");
  ASSERT_NE(candidate, std::string::npos);
  EXPECT_LT(diag, candidate);
  EXPECT_LT(candidate, user.find("## Task specification"));
}

TEST(PromptBuilder, FeedbackListsTheCauseBeforeTheCrashAndTheWrongAnswerItLedTo) {
  Iteration it;
  it.id = 4;
  it.candidate.files["kernel.cpp"] = kSource;
  it.verdict = Verdict::RuntimeError;
  it.state = IterationState::Done;
  auto diag = [](std::string category, std::string source, int line, std::string message) {
    Diagnostic d;
    d.source = std::move(source);
    d.category = std::move(category);
    d.file = line > 0 ? "/tmp/work/kernel.cpp" : "";
    d.line = line;
    d.message = std::move(message);
    return d;
  };
  RunResult run;
  run.status = RunStatus::Error;
  run.diagnostics.push_back(diag("timeout", "runtime", 0, "block 1 ran past its time limit"));
  run.diagnostics.push_back(diag("runtime-crash", "runtime", 0, "block 0 died with SIGSEGV"));
  run.diagnostics.push_back(diag("invalid-param", "emulator", 0, "blockDim 0"));
  run.diagnostics.push_back(diag("queue-misuse", "emulator", 7, "nothing was EnQue'd after this DataCopy"));
  it.run = run;
  VerifyReport v;
  v.verdict = Verdict::WrongAnswer;
  v.diagnostics.push_back(diag("wrong-answer", "verifier", 0, "every element wrong"));
  it.verify = v;
  const std::string f = describeFeedback(it, "kernel.cpp", 8);
  const auto cause = f.find("1. [queue-misuse] kernel.cpp:7");
  ASSERT_NE(cause, std::string::npos) << f;
  const auto unlocated = f.find("2. [invalid-param]");
  ASSERT_NE(unlocated, std::string::npos) << f;
  // The consequences keep their own order after the causes.
  EXPECT_NE(f.find("3. [timeout]"), std::string::npos) << f;
  EXPECT_NE(f.find("4. [runtime-crash]"), std::string::npos) << f;
  EXPECT_NE(f.find("5. [wrong-answer]"), std::string::npos) << f;
}

TEST(PromptBuilder, FeedbackGroupsOneFindingAcrossBlocksAndCasesWhoseNumbersDiffer) {
  Iteration it;
  it.id = 5;
  it.candidate.files["kernel.cpp"] = kSource;
  it.verdict = Verdict::RuntimeError;
  it.state = IterationState::Done;
  RunResult run;
  run.status = RunStatus::Error;
  // The same overrun in three blocks (and two cases): only the byte range differs.
  for (int b = 0; b < 3; ++b) {
    Diagnostic d;
    d.source = "emulator";
    d.category = "gm-out-of-bounds";
    d.file = "/tmp/work/kernel.cpp";
    d.line = 7;
    d.block = b;
    d.message = "DataCopy reads GM bytes [" + std::to_string(512 * b) + ", " + std::to_string(512 * b + 96) +
                ") relative to the GlobalTensor's SetGlobalBuffer start";
    run.diagnostics.push_back(d);
  }
  // A different finding at the same line stays its own group.
  Diagnostic other;
  other.source = "emulator";
  other.category = "gm-out-of-bounds";
  other.file = "/tmp/work/kernel.cpp";
  other.line = 7;
  other.message = "DataCopy writes host memory";
  run.diagnostics.push_back(other);
  it.run = run;
  const std::string f = describeFeedback(it, "kernel.cpp", 8);
  EXPECT_NE(f.find("1. [gm-out-of-bounds] kernel.cpp:7 (3 blocks)"), std::string::npos) << f;
  EXPECT_NE(f.find("(reported 3 times)"), std::string::npos) << f;
  EXPECT_NE(f.find("2. [gm-out-of-bounds] kernel.cpp:7"), std::string::npos) << f;
  EXPECT_EQ(f.find("3. ["), std::string::npos) << f;
}

TEST(PromptBuilder, TightBudgetTrimsReadmeFirstAndKeepsConstraintsAndHint) {
  const Task t = smallTask();
  const Iteration prev = failingIteration();
  PromptInput in;
  in.mode = PromptMode::Repair;
  in.task = &t;
  in.previous = &prev;
  in.hint = "HINT: use DataCopyPad for the tail";
  in.constraints.push_back(Constraint::fixParameter("BUFFER_NUM", 2));
  in.constraints.push_back(Constraint::rule("RULE: never use PipeBarrier<PIPE_ALL>"));
  in.taskReadme = std::string(20000, 'r');
  in.budget.userTokens = 1500;
  const BuiltPrompt p = buildPrompt(resources(), in);
  const std::string& user = p.request.messages[0].content;
  EXPECT_NE(user.find("HINT: use DataCopyPad"), std::string::npos);
  EXPECT_NE(user.find("RULE: never use PipeBarrier"), std::string::npos);
  EXPECT_NE(user.find("BUFFER_NUM"), std::string::npos);
  EXPECT_EQ(user.find(std::string(5000, 'r')), std::string::npos);  // the README was cut to what fits
  EXPECT_NE(user.find("[... trimmed to fit the prompt budget ...]"), std::string::npos);
  EXPECT_NE(user.find("[misaligned-copy]"), std::string::npos);
  ASSERT_FALSE(p.trimmed.empty());
  EXPECT_NE(p.trimmed[0].find("Task README"), std::string::npos);
  EXPECT_LE(p.userTokens, 1500 + 50);
  // Hint and constraints come before the feedback: the most actionable parts first.
  EXPECT_LT(user.find("HINT:"), user.find("[misaligned-copy]"));
}

TEST(PromptBuilder, OptimizePromptSummarisesTheProfile) {
  const Task t = smallTask();
  Iteration best;
  best.id = 5;
  best.verdict = Verdict::Pass;
  best.candidate.files["kernel.cpp"] = kSource;
  ProfileReport pr;
  pr.totalUs = 40.0;
  pr.totalCycles = 74000;
  pr.bound = "mte2";
  pr.pipes["mte2"] = {70000, 0.95};
  pr.pipes["vector"] = {20000, 0.27};
  pr.floorUs = 10.0;
  best.profile = pr;
  PromptInput in;
  in.mode = PromptMode::Optimize;
  in.task = &t;
  in.previous = &best;
  in.baselineUs = 80.0;
  in.targetSpeedup = 3.0;
  const std::string user = buildPrompt(resources(), in).request.messages[0].content;
  EXPECT_NE(user.find("bound: mte2"), std::string::npos) << user;
  EXPECT_NE(user.find("mte2 95%, vector 27%"), std::string::npos) << user;
  EXPECT_NE(user.find("4.00x above it"), std::string::npos) << user;
  EXPECT_NE(user.find("speedup vs baseline (80.00 us): 2.00x"), std::string::npos) << user;
  EXPECT_NE(user.find("Target: 3.00x"), std::string::npos);
  EXPECT_NE(user.find("## Current best candidate"), std::string::npos);
}

TEST(PromptBuilder, EstimateAndExcerptEdges) {
  EXPECT_EQ(estimateTokens(""), 0);
  EXPECT_EQ(estimateTokens("abcd"), 1);
  EXPECT_EQ(estimateTokens("abcde"), 2);
  EXPECT_EQ(sourceExcerpt("a\nb\n", 9), "");
  EXPECT_EQ(sourceExcerpt("one\ntwo\nthree\n", 1, 1), ">>   1 | one\n     2 | two\n");
}

TEST(PromptBuilder, RealKnowledgePackAndContractLoad) {
  const PromptResources r = loadPromptResources();
  EXPECT_NE(r.contract.find("# The candidate contract"), std::string::npos);
  ASSERT_GE(r.knowledge.size(), 4u);
  std::string all;
  for (const auto& k : r.knowledge) all += k.text;
  for (const char* must : {"DataCopyPad", "double buffer", "EnQue", "192 KB", "kwb_tiling", "missing-sync"})
    EXPECT_NE(all.find(must), std::string::npos) << must;
  // The whole system prompt fits the default budget without dropping a document.
  std::vector<std::string> trimmed;
  buildSystemPrompt(r, PromptBudget{}.systemTokens, &trimmed);
  EXPECT_TRUE(trimmed.empty()) << trimmed.front();
}

TEST(AgentConstraintEnforcer, LockedRegionMayMoveButNotChange) {
  Candidate c;
  c.files["kernel.cpp"] = kSource;
  const Constraint lock = Constraint::lockRegion("kernel.cpp", kSource, 6, 8);
  EXPECT_TRUE(ConstraintEnforcer({lock}).before(c).empty());
  c.files["kernel.cpp"] = std::string("// moved down\n") + kSource;
  EXPECT_TRUE(ConstraintEnforcer({lock}).before(c).empty());
  std::string changed = kSource;
  changed.replace(changed.find("DataCopy("), 9, "DataCopyPad(");
  c.files["kernel.cpp"] = changed;
  const auto v = ConstraintEnforcer({lock}).before(c);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].category, "policy-violation");
  EXPECT_EQ(v[0].line, 6);
}

TEST(AgentConstraintEnforcer, FixedParameterForms) {
  Candidate c;
  c.files["kernel.cpp"] = kSource;
  EXPECT_TRUE(ConstraintEnforcer({Constraint::fixParameter("BUFFER_NUM", 2)}).before(c).empty());
  const auto v = ConstraintEnforcer({Constraint::fixParameter("BUFFER_NUM", 1)}).before(c);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].line, 5);
  EXPECT_NE(v[0].message.find("sets it to 2"), std::string::npos);
  EXPECT_EQ(ConstraintEnforcer({Constraint::fixParameter("TILE_LENGTH", 128)}).before(c).size(),
            1u);  // missing
  EXPECT_TRUE(parameterValueMatches("8192u", 8192));
  EXPECT_TRUE(parameterValueMatches("(2.0f)", 2.0));
  EXPECT_FALSE(parameterValueMatches("2 * 4", 8));
  const auto defs = findParameterDefinitions(
      "#define TILE 256 // x\nif (TILE == 3) {}\nconstexpr uint32_t TILE{512};\n", "TILE");
  ASSERT_EQ(defs.size(), 2u);
  EXPECT_EQ(defs[0].value, "256");
  EXPECT_EQ(defs[1].value, "512");
}

}  // namespace
}  // namespace kwb
