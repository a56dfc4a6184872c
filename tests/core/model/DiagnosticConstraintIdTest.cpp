// SPDX-License-Identifier: MIT
// Diagnostic::constraintId in JSON: written when set, absent in sessions written before it existed
// (read as none), refused when it is not an id.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/model/Iteration.h"
#include "core/model/JsonReader.h"

namespace kwb {
namespace {

TEST(DiagnosticConstraintId, RoundTripsThroughJson) {
  Diagnostic d;
  d.source = "policy";
  d.category = "policy-violation";
  d.message = "the locked region changed";
  d.constraintId = 3;
  const nlohmann::json j = d;
  EXPECT_EQ(j.at("constraint_id"), 3);
  EXPECT_EQ(nlohmann::json::parse(j.dump()).get<Diagnostic>(), d);
  Diagnostic viaReader;
  read(JsonReader(nlohmann::json::parse(j.dump()), "iteration.json"), viaReader);
  EXPECT_EQ(viaReader, d);
  EXPECT_EQ(d.format(), "error: [policy-violation] [constraint 3] the locked region changed");
  d.constraintId.reset();
  EXPECT_FALSE(nlohmann::json(d).contains("constraint_id"));  // nothing new in files without one
}

// An iteration.json as sessions wrote it before the field existed.
TEST(DiagnosticConstraintId, OldIterationJsonWithoutTheFieldLoads) {
  const char* old = R"({
    "schema_version": 1, "id": 2, "origin": "agent", "state": "done", "verdict": "rejected",
    "created_at": "2026-01-01T00:00:00Z", "updated_at": "2026-01-01T00:00:01Z",
    "candidate": {"origin": "agent", "files": {"kernel.cpp": "// k\n"}},
    "diagnostics": [{"source": "policy", "severity": "error", "category": "policy-violation",
                     "file": "kernel.cpp", "line": 3, "column": 0,
                     "message": "fixed parameter BUFFER_NUM must be 2 (constraint 1), the candidate sets it to 1"}]
  })";
  const Iteration it = nlohmann::json::parse(old).get<Iteration>();
  ASSERT_EQ(it.diagnostics.size(), 1u);
  EXPECT_EQ(it.diagnostics[0].constraintId, std::nullopt);
  EXPECT_EQ(it.diagnostics[0].line, 3);
  Diagnostic bare;
  read(JsonReader(nlohmann::json::parse(R"({"message": "m"})"), "x.json"), bare);
  EXPECT_EQ(bare.constraintId, std::nullopt);
}

TEST(DiagnosticConstraintId, ANonIdIsRefusedWhereItIs) {
  Diagnostic d;
  try {
    read(JsonReader(nlohmann::json::parse(R"({"message": "m", "constraint_id": "one"})"), "iteration.json"),
         d);
    FAIL() << "accepted a string id";
  } catch (const LoadError& e) {
    EXPECT_NE(std::string(e.what()).find("/constraint_id"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace kwb
