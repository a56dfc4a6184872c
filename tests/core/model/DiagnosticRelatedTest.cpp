// SPDX-License-Identifier: MIT
// Diagnostic::related (the symptom's lines of a finding that sits at its cause) in JSON: written when
// present, absent in files written before it existed, read back through both readers.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/model/Diagnostic.h"
#include "core/model/JsonReader.h"

namespace kwb {
namespace {

TEST(DiagnosticRelated, RoundTripsThroughJsonWithRoles) {
  Diagnostic d;
  d.source = "emulator";
  d.category = "gm-out-of-bounds";
  d.file = "kernel.cpp";
  d.line = 35;
  d.message = "the length set here is not clamped";
  d.related = {{"the DataCopyPad that reads past the range (where it shows)", "kernel.cpp", 46},
               {"the call of CopyIn that passes n", "kernel.cpp", 36}};
  const nlohmann::json j = d;
  ASSERT_EQ(j.at("related").size(), 2u);
  EXPECT_EQ(j.at("related")[0].at("line"), 46);
  EXPECT_EQ(j.at("related")[0].at("role"), "the DataCopyPad that reads past the range (where it shows)");
  EXPECT_EQ(nlohmann::json::parse(j.dump()).get<Diagnostic>(), d);
  Diagnostic viaReader;
  read(JsonReader(nlohmann::json::parse(j.dump()), "iteration.json"), viaReader);
  EXPECT_EQ(viaReader, d);
  EXPECT_EQ(d.related[1].format(), "kernel.cpp:36: the call of CopyIn that passes n");
  d.related.clear();
  EXPECT_FALSE(nlohmann::json(d).contains("related"));
}

TEST(DiagnosticRelated, AbsentInOldFilesAndARoleIsRequired) {
  Diagnostic bare;
  read(JsonReader(nlohmann::json::parse(R"({"message": "m"})"), "x.json"), bare);
  EXPECT_TRUE(bare.related.empty());
  Diagnostic d;
  try {
    read(JsonReader(nlohmann::json::parse(R"({"message": "m", "related": [{"line": 3}]})"), "iteration.json"),
         d);
    FAIL() << "accepted a related location without a role";
  } catch (const LoadError& e) {
    EXPECT_NE(std::string(e.what()).find("/related/0"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace kwb
