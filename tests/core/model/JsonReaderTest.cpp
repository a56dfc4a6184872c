// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "core/model/JsonReader.h"
#include "tests/core/model/ModelTestSupport.h"

using namespace kwb;

TEST(ModelJsonReader, SyntaxErrorsGiveLineAndColumn) {
  // The second comma of line 3 is at column 19.
  const std::string text = "{\n  \"name\": \"add\",\n  \"inputs\": [1, 2,, 3]\n}\n";
  try {
    parseJsonText(text, "tasks/add/task.json");
    FAIL() << "no exception";
  } catch (const LoadError& e) {
    EXPECT_EQ(e.file(), "tasks/add/task.json:3:19");
    const std::string msg = e.what();
    EXPECT_EQ(msg.rfind("tasks/add/task.json:3:19: invalid JSON: ", 0), 0u) << msg;
    EXPECT_EQ(msg.find("[json.exception"), std::string::npos) << msg;
  }
}

TEST(ModelJsonReader, TruncatedDocumentPointsAtItsEnd) {
  const std::string text = "{\n  \"a\": [1,\n";
  try {
    parseJsonText(text, "s.json");
    FAIL() << "no exception";
  } catch (const LoadError& e) {
    EXPECT_NE(std::string(e.what()).find("s.json:3:1: invalid JSON"), std::string::npos) << e.what();
  }
  try {
    parseJsonText("  \n", "empty.json");
    FAIL() << "no exception";
  } catch (const LoadError& e) {
    EXPECT_STREQ(e.what(), "empty.json: invalid JSON: the file is empty");
  }
}

TEST(ModelJsonReader, LineColumnCountsCodePoints) {
  EXPECT_EQ(lineColumnAt("ab\ncd", 4), std::make_pair(2, 2));
  EXPECT_EQ(lineColumnAt("\xc3\xa9x", 2), std::make_pair(1, 2));  // after "é"
  EXPECT_EQ(lineColumnAt("", 10), std::make_pair(1, 1));
}

TEST(ModelJsonReader, MissingFileIsALoadErrorNamingIt) {
  try {
    readJsonFile("/nonexistent/dir/task.json");
    FAIL() << "no exception";
  } catch (const LoadError& e) {
    EXPECT_EQ(std::string(e.what()), "/nonexistent/dir/task.json: cannot open: No such file or directory");
  }
}

TEST(ModelJsonReader, ErrorsNameFilePointerExpectedAndFound) {
  const auto doc = nlohmann::json::parse(R"({"cases": [{}, {}, {"shapes": {"a/b": [4, "x"]}}]})");
  JsonReader root(doc, "t.json");
  try {
    root.at("cases").at(2).at("shapes").at("a/b").at(1).asInt();
    FAIL() << "no exception";
  } catch (const LoadError& e) {
    EXPECT_EQ(e.pointer(), "/cases/2/shapes/a~1b/1");
    EXPECT_STREQ(e.what(), "t.json: /cases/2/shapes/a~1b/1: expected an integer but found \"x\"");
  }
  try {
    root.at("cases").at(0).at("name");
    FAIL() << "no exception";
  } catch (const LoadError& e) {
    EXPECT_STREQ(e.what(), "t.json: /cases/0/name: missing required field \"name\"");
  }
  try {
    root.at("cases").asString();
    FAIL() << "no exception";
  } catch (const LoadError& e) {
    EXPECT_STREQ(e.what(), "t.json: /cases: expected a string but found an array of 3");
  }
}

TEST(ModelJsonReader, IntegerRangesAndWholeFloats) {
  const auto doc = nlohmann::json::parse(R"({"a": 4.0, "b": 4.5, "c": -1, "d": 18446744073709551615})");
  JsonReader r(doc, "");
  EXPECT_EQ(r.at("a").asInt(), 4);
  EXPECT_THROW(r.at("b").asInt(), LoadError);
  EXPECT_THROW(r.at("c").asInt(0, 10), LoadError);
  EXPECT_THROW(r.at("d").asInt(), LoadError);
  EXPECT_EQ(r.at("d").asUInt64(), 18446744073709551615ULL);
  try {
    r.at("c").asInt(1, 8);
  } catch (const LoadError& e) {
    EXPECT_STREQ(e.what(), "/c: expected an integer in [1, 8] but found -1");
  }
}

TEST(ModelJsonReader, UnknownFieldsAreNamedWithTheValidOnes) {
  const auto doc = nlohmann::json::parse(R"({"name": "x", "tolerance": {}})");
  try {
    JsonReader(doc, "f.json").allowOnly({"name", "tolerances"});
    FAIL() << "no exception";
  } catch (const LoadError& e) {
    EXPECT_STREQ(e.what(),
                 "f.json: /tolerance: unknown field \"tolerance\"; valid fields here are: name, tolerances");
  }
}

TEST(ModelJsonReader, NonFiniteNumbersSurviveAsStrings) {
  EXPECT_EQ(numberToJson(1.5), nlohmann::json(1.5));
  EXPECT_EQ(numberToJson(std::nan("")), nlohmann::json("nan"));
  EXPECT_EQ(numberToJson(-INFINITY), nlohmann::json("-inf"));
  const auto doc = nlohmann::json::parse(R"(["nan", "inf", "-inf", 2, "NaN"])");
  JsonReader r(doc, "");
  EXPECT_TRUE(std::isnan(r.at(0).asNumberOrSpecial()));
  EXPECT_EQ(r.at(1).asNumberOrSpecial(), INFINITY);
  EXPECT_EQ(r.at(2).asNumberOrSpecial(), -INFINITY);
  EXPECT_EQ(r.at(3).asNumberOrSpecial(), 2.0);
  EXPECT_THROW(r.at(4).asNumberOrSpecial(), LoadError);
}

TEST(ModelJsonReader, SchemaVersionErrorSaysUpgrade) {
  SchemaVersionError e("/s/session.json", 7, 1);
  EXPECT_STREQ(
      e.what(),
      "/s/session.json has schema version 7; this kwb understands up to 1; upgrade Kernel Workbench");
  EXPECT_EQ(e.found(), 7);
}
