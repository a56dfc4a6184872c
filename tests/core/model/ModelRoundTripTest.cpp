// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include <cmath>

#include "core/model/Hash.h"
#include "core/model/Session.h"
#include "core/model/Time.h"
#include "tests/core/model/ModelTestSupport.h"

using namespace kwb;

namespace {

template <typename T>
T viaJson(const T& value) {
  const nlohmann::json j = value;
  // Through text too: what matters is what a file holds.
  return nlohmann::json::parse(j.dump()).get<T>();
}

template <typename T>
std::string readError(const nlohmann::json& j) {
  try {
    j.get<T>();
  } catch (const LoadError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(ModelRoundTrip, TensorSpecAndDecl) {
  TensorSpec s{"x", DType::BFloat16, {3, 5, 7}, "ND"};
  EXPECT_EQ(viaJson(s), s);
  EXPECT_EQ(s.elements(), 105);
  EXPECT_EQ(s.bytes(), 210);
  TensorDecl d{"weight", DType::Int8, "NCHW"};
  EXPECT_EQ(viaJson(d), d);
  EXPECT_EQ(shapeToString({8, 2048}), "[8, 2048]");
  EXPECT_EQ(validateShape({}), "a shape needs at least one dimension (write [1] for a scalar)");
  EXPECT_NE(validateShape({1 << 30, 1 << 30, 1 << 30}).find("more than 2^40"), std::string::npos);
  EXPECT_EQ(readError<TensorSpec>({{"name", "x"}, {"dtype", "float16"}, {"shape", {2}}, {"format", "NZ"}}),
            "/format: expected one of ND, NCHW, NHWC, NC1HWC0, FRACTAL_NZ but found \"NZ\"");
}

TEST(ModelRoundTrip, ConstraintsOfEveryKind) {
  const std::string source = "line 1\nline 2\r\nline 3\nline 4\n";
  Constraint lock = Constraint::lockRegion("kernel.cpp", source, 2, 3);
  lock.id = 2;
  EXPECT_EQ(lock.text, "line 2\nline 3\n");
  EXPECT_EQ(lock.hash, hashHex("line 2\nline 3\n"));
  EXPECT_EQ(viaJson(lock), lock);
  Constraint rule = Constraint::rule("Use DataCopyPad for tails");
  rule.id = 1;
  EXPECT_EQ(viaJson(rule), rule);
  Constraint fixed = Constraint::fixParameter("BUFFER_NUM", 2);
  fixed.id = 3;
  EXPECT_EQ(viaJson(fixed), fixed);
  EXPECT_EQ(fixed.describe(), "Parameter BUFFER_NUM must be 2");
  EXPECT_THROW(Constraint::lockRegion("kernel.cpp", source, 3, 9), std::invalid_argument);

  nlohmann::json tampered = lock;
  tampered["text"] = "line 2 changed\nline 3\n";
  EXPECT_NE(readError<Constraint>(tampered).find("/hash: expected the hash of the locked text"),
            std::string::npos);
  EXPECT_EQ(readError<Constraint>({{"kind", "pin"}}),
            "/kind: expected one of rule, locked-region, fixed-parameter but found \"pin\"");
  EXPECT_EQ(readError<Constraint>({{"kind", 2}}),
            "/kind: expected one of rule, locked-region, fixed-parameter but found 2");
}

TEST(ModelRoundTrip, LockedRegionIsFoundAfterItMoves) {
  const std::string original = "a\nb\nc\nd\n";
  const Constraint lock = Constraint::lockRegion("kernel.cpp", original, 2, 3);
  EXPECT_EQ(findLockedRegion(lock, original), 2);
  EXPECT_EQ(findLockedRegion(lock, "new\nnew\na\nb\nc\nd\n"), 4);
  EXPECT_EQ(findLockedRegion(lock, "a\r\nb\r\nc\r\n"), 2);
  EXPECT_EQ(findLockedRegion(lock, "a\nb\nC\nd\n"), std::nullopt);
  EXPECT_EQ(findLockedRegion(lock, "b\nc\nx\nb\nc\n"), 1);  // nearest to where it was locked
}

TEST(ModelRoundTrip, CandidateAndItsHash) {
  Candidate c;
  c.origin = Origin::Human;
  c.files["kernel.cpp"] = "int main() {}\n";
  c.files["tiling.h"] = "#pragma once\n";
  EXPECT_EQ(viaJson(c), c);
  Candidate moved = c;
  moved.files["kernel.cpp"] = "int main() {}\n ";
  EXPECT_NE(moved.contentHash(), c.contentHash());
  Candidate replay = c;
  replay.origin = Origin::Replay;
  EXPECT_EQ(replay.contentHash(), c.contentHash());
  EXPECT_EQ(
      readError<Candidate>({{"origin", "agent"}, {"files", {{"../evil.cpp", ""}}}}),
      "/files/..~1evil.cpp: invalid candidate file name \"../evil.cpp\"; use letters, digits, '_', '-', '.' "
      "(no directories, not starting with '.')");
}

TEST(ModelRoundTrip, ResultsAndReports) {
  const Iteration it = kwb::test::exampleIteration(3);
  EXPECT_EQ(viaJson(*it.compile), *it.compile);
  RunResult run = *it.run;
  run.status = RunStatus::Crash;
  run.signal = 11;
  run.diagnostics.push_back(Diagnostic{.source = "emulator",
                                       .severity = Severity::Error,
                                       .category = "gm-out-of-bounds",
                                       .file = "kernel.cpp",
                                       .line = 40,
                                       .column = 3,
                                       .message = "read past x"});
  run.diagnostics.back().block = 7;
  EXPECT_EQ(viaJson(run), run);
  // NaN and infinity survive: the verifier reports them and JSON has no spelling for them.
  const VerifyReport v = viaJson(*it.verify);
  EXPECT_EQ(v, *it.verify);
  EXPECT_TRUE(std::isnan(v.cases[0].firstMismatches[0].actual));
  EXPECT_TRUE(std::isinf(v.cases[0].maxAbsError));
  EXPECT_EQ(v.seed, 0xfeedfacecafebeefULL);

  ProfileReport p;
  p.soc = "Ascend910B1";
  p.source = "emulator-model";
  p.totalCycles = 123456;
  p.totalUs = 66.7;
  p.pipes["mte2"] = PipeStat{100000, 0.81};
  p.pipes["vector"] = PipeStat{20000, 0.16};
  p.bound = "mte2";
  p.floorUs = 40.0;
  p.gmBytes = 98304;
  p.achievedGbps = 1.47;
  p.artifacts["trace"] = "trace.json";
  p.extra = {{"icache_miss_rate", 0.02}, {"per_block", {1, 2, 3}}};
  EXPECT_EQ(viaJson(p), p);
  nlohmann::json bad = p;
  bad["pipes"]["mte2"]["ratio"] = 1.5;
  EXPECT_EQ(readError<ProfileReport>(bad), "/pipes/mte2/ratio: expected a ratio in [0, 1] but found 1.5");
}

TEST(ModelRoundTrip, RunResultMustSayWhereItRan) {
  nlohmann::json j = *kwb::test::exampleIteration(1).run;
  j.erase("ran_on");
  EXPECT_EQ(readError<RunResult>(j), "/ran_on: missing required field \"ran_on\"");
  j["ran_on"] = "device";
  EXPECT_EQ(readError<RunResult>(j),
            "/ran_on: expected one of emulator, npu, cann-sim, cann-cpu but found \"device\"");
}

TEST(ModelRoundTrip, IterationWithEverything) {
  Iteration it = kwb::test::exampleIteration(4, 2);
  it.profile = ProfileReport{};
  it.profile->soc = "Ascend910B1";
  it.diagnostics.push_back(Diagnostic{.source = "policy",
                                      .severity = Severity::Error,
                                      .category = "policy-violation",
                                      .file = "kernel.cpp",
                                      .line = 3,
                                      .column = 1,
                                      .message = "system() call"});
  it.notes = "tail handled with DataCopyPad";
  EXPECT_EQ(viaJson(it), it);
  it.afterRollback = true;
  EXPECT_EQ(viaJson(it), it);
  EXPECT_EQ(nlohmann::json(it).value("after_rollback", false), true);

  nlohmann::json j = it;
  j["parent_id"] = 4;
  EXPECT_EQ(readError<Iteration>(j), "/parent_id: expected the id of an earlier iteration (< 4) but found 4");
  j = it;
  j["created_at"] = "2025-03-01 12:00";
  EXPECT_EQ(readError<Iteration>(j),
            "/created_at: expected an ISO-8601 UTC timestamp like \"2025-03-01T12:34:56.789Z\" but found "
            "\"2025-03-01 "
            "12:00\"");
  j = it;
  j["schema_version"] = 2;
  EXPECT_THROW(j.get<Iteration>(), SchemaVersionError);
}

TEST(ModelRoundTrip, SessionWithATree) {
  Session s = kwb::test::exampleSession();
  s.iterations = {kwb::test::exampleIteration(1), kwb::test::exampleIteration(2, 1),
                  kwb::test::exampleIteration(3, 1), kwb::test::exampleIteration(4, 3)};
  s.acceptedIteration = 4;
  Constraint rule = Constraint::rule("no scalar loops");
  rule.id = 1;
  s.constraints = {rule};
  const Session back = viaJson(s);
  EXPECT_EQ(back, s);
  EXPECT_EQ(back.childrenOf(1), (std::vector<int>{2, 3}));
  EXPECT_EQ(back.roots(), (std::vector<int>{1}));
  EXPECT_EQ(back.lineage(4), (std::vector<int>{1, 3, 4}));
  EXPECT_EQ(back.nextIterationId(), 5);
  EXPECT_EQ(back.nextConstraintId(), 2);
  EXPECT_EQ(back.schemaVersion, kSchemaVersion);
}

TEST(ModelRoundTrip, SessionTreeErrorsAreLocated) {
  Session s = kwb::test::exampleSession();
  s.iterations = {kwb::test::exampleIteration(1), kwb::test::exampleIteration(3, 2)};
  EXPECT_EQ(readError<Session>(s), "/iterations/1/parent_id: parent iteration 2 does not exist");
  s.iterations = {kwb::test::exampleIteration(1)};
  s.acceptedIteration = 9;
  EXPECT_EQ(readError<Session>(s), "/accepted_iteration: accepted iteration 9 does not exist");
  s.acceptedIteration.reset();
  nlohmann::json j = s;
  j["task"]["cases"][0]["shapes"].erase("z");
  EXPECT_EQ(readError<Session>(j),
            "/task/cases/0/shapes: missing shape for output \"z\" in case \"aligned\"");
  j = s;
  j["schema_version"] = 7;
  try {
    JsonReader r(j, "/tmp/s/session.json");
    Session out;
    read(r, out);
    FAIL() << "no exception";
  } catch (const SchemaVersionError& e) {
    EXPECT_STREQ(
        e.what(),
        "/tmp/s/session.json has schema version 7; this kwb understands up to 1; upgrade Kernel Workbench");
  }
}

TEST(ModelRoundTrip, SettingsNeverCarryKeys) {
  Session s = kwb::test::exampleSession();
  nlohmann::json j = s;
  j["settings"]["api_key"] = "sk-live-123";
  const std::string msg = readError<Session>(j);
  EXPECT_NE(msg.find("/settings/api_key: sessions never store API keys"), std::string::npos) << msg;
  EXPECT_EQ(msg.find("sk-live-123"), std::string::npos);

  EXPECT_EQ(redactUrl("https://user:sk-secret@api.example.com/v1?api-version=2024-06&key=abc&x=1#frag"),
            "https://api.example.com/v1?api-version=2024-06&x=1#frag");
  EXPECT_EQ(redactUrl("http://localhost:8000/v1"), "http://localhost:8000/v1");
  EXPECT_EQ(redactUrl("https://h/v1?token=t"), "https://h/v1");
  SessionSettings settings;
  settings.baseUrl = "https://h/v1?access_token=secret";
  const nlohmann::json sj = settings;
  EXPECT_EQ(sj.dump().find("secret"), std::string::npos);
  EXPECT_EQ(makeSession(kwb::test::exampleTask(), "", settings).settings.baseUrl, "https://h/v1");
}

TEST(ModelRoundTrip, TimestampsAreIsoUtc) {
  const std::string now = nowIso8601();
  ASSERT_TRUE(parseIso8601(now).has_value()) << now;
  EXPECT_EQ(now.size(), 24u);
  EXPECT_EQ(now.back(), 'Z');
  const auto t = parseIso8601("2024-02-29T23:59:59.5Z");
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(formatIso8601(*t), "2024-02-29T23:59:59.500Z");
  EXPECT_FALSE(parseIso8601("2023-02-29T00:00:00Z"));
  EXPECT_FALSE(parseIso8601("2024-01-01T00:00:00+01:00"));
  EXPECT_FALSE(parseIso8601("2024-01-01T00:00:00."));
  EXPECT_EQ(formatIso8601(std::chrono::system_clock::time_point{}), "1970-01-01T00:00:00.000Z");
}

TEST(ModelRoundTrip, EveryPartOnItsOwn) {
  EXPECT_EQ(viaJson(Mismatch{7, -0.0, INFINITY}), (Mismatch{7, -0.0, INFINITY}));
  const CaseResult cr = kwb::test::exampleIteration(1).verify->cases[0];
  EXPECT_EQ(viaJson(cr), cr);
  EXPECT_EQ(viaJson(PipeStat{42, 0.5}), (PipeStat{42, 0.5}));
  EXPECT_EQ(viaJson(LlmUsage{1, 2, "m", "anthropic", 3.5}), (LlmUsage{1, 2, "m", "anthropic", 3.5}));
  SessionSettings settings = kwb::test::exampleSession().settings;
  settings.limits.targetSpeedup = 1.5;
  settings.limits.patience = 3;
  EXPECT_EQ(viaJson(settings), settings);
  for (Origin o : {Origin::Agent, Origin::Human, Origin::Replay}) EXPECT_EQ(viaJson(o), o);
  for (Verdict v : {Verdict::Pass, Verdict::Rejected, Verdict::Timeout}) EXPECT_EQ(viaJson(v), v);
  EXPECT_EQ(viaJson(AttrType::IntList), AttrType::IntList);
  const AttrDecl attr{"axes", AttrType::IntList, nlohmann::json::array({0, 1})};
  EXPECT_EQ(viaJson(attr), attr);
  EXPECT_EQ(viaJson(Tolerance{1e-3, 2e-3, 0.5}), (Tolerance{1e-3, 2e-3, 0.5}));
  EXPECT_EQ(viaJson(Baseline{3.25, "msprof op"}), (Baseline{3.25, "msprof op"}));
  const ValueHint hint{Distribution::NearZero, -1e-3, 1e-3};
  EXPECT_EQ(viaJson(hint), hint);
  const VerificationCase c = kwb::test::exampleTask().cases[1];
  EXPECT_EQ(viaJson(c), c);
}

TEST(ModelRoundTrip, VerdictAndStateNames) {
  EXPECT_EQ(verdictName(Verdict::CompileError), "compile_error");
  EXPECT_EQ(parseVerdict("wrong_answer"), Verdict::WrongAnswer);
  EXPECT_FALSE(parseVerdict("passed"));
  EXPECT_EQ(iterationStateName(IterationState::Profiling), "profiling");
  EXPECT_TRUE(isFinal(IterationState::Stopped));
  EXPECT_FALSE(isFinal(IterationState::Running));
}
