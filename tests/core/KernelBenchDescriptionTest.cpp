// SPDX-License-Identifier: MIT
// The describe script's output is written by code a problem file controls, so
// parseKernelBenchDescription must refuse anything malformed (docs/task-format.md, "Importing a
// KernelBench problem"); the --shape parser likewise.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "core/agent/KernelBenchImport.h"

namespace kwb {
namespace {

using nlohmann::json;

json validDescription() {
  return {
      {"ok", true},
      {"inputs", {{{"name", "x"}, {"dtype", "float32"}, {"shape", {16, 4096}}}}},
      {"outputs", {{{"name", "out"}, {"dtype", "float32"}, {"shape", {16, 4096}}}}},
      {"ops", {{{"name", "relu"}, {"line", 17}}}},
      {"cube_ops", json::array()},
      {"init_inputs", json::array()},
      {"extra_cases", {{{"name", "shape_1"}, {"ok", true}, {"inputs", {{3, 333}}}, {"outputs", {{3, 333}}}}}},
      {"forward_line", 16}};
}

// The problems, joined, for matching.
std::string problemsOf(const json& j) {
  const auto r = parseKernelBenchDescription(j.dump());
  std::string all;
  for (const auto& p : r.problems) all += p + "\n";
  return all;
}

TEST(KernelBenchDescription, ValidDescriptionParses) {
  const auto r = parseKernelBenchDescription(validDescription().dump());
  ASSERT_TRUE(r.ok()) << r.problems.front();
  const auto& d = r.description;
  EXPECT_TRUE(d.ok);
  ASSERT_EQ(d.inputs.size(), 1u);
  EXPECT_EQ(d.inputs[0].name, "x");
  EXPECT_EQ(d.inputs[0].shape, (Shape{16, 4096}));
  ASSERT_EQ(d.extraCases.size(), 1u);
  EXPECT_EQ(d.extraCases[0].outputs[0], (Shape{3, 333}));
  EXPECT_EQ(d.ops[0].line, 17);
  EXPECT_EQ(d.forwardLine, 16);
}

TEST(KernelBenchDescription, AFailureReportKeepsKindErrorAndLine) {
  const auto r = parseKernelBenchDescription(
      json{{"ok", false}, {"kind", "get_inputs"}, {"error", "boom"}, {"line", 17}}.dump());
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r.description.ok);
  EXPECT_EQ(r.description.kind, "get_inputs");
  EXPECT_EQ(r.description.line, 17);
}

TEST(KernelBenchDescription, RefusesWhatIsNotADescription) {
  EXPECT_FALSE(parseKernelBenchDescription("").ok());
  EXPECT_FALSE(parseKernelBenchDescription("{\"ok\": tru").ok());
  EXPECT_FALSE(parseKernelBenchDescription("[1, 2]").ok());
  EXPECT_NE(problemsOf(json{{"ok", "yes"}}).find("/ok"), std::string::npos);
  json noInputs = validDescription();
  noInputs.erase("inputs");
  EXPECT_NE(problemsOf(noInputs).find("/inputs: missing"), std::string::npos);
  EXPECT_FALSE(parseKernelBenchDescription(std::string(kMaxKernelBenchDescriptionBytes + 1, ' ')).ok());
}

TEST(KernelBenchDescription, RefusesHostileNames) {
  for (const char* name : {"../../etc/passwd", "x y", "", "1x", "x;rm -rf /"}) {
    json j = validDescription();
    j["inputs"][0]["name"] = name;
    EXPECT_NE(problemsOf(j).find("/inputs/0/name"), std::string::npos) << name;
  }
  json dup = validDescription();
  dup["inputs"].push_back(dup["inputs"][0]);
  EXPECT_NE(problemsOf(dup).find("repeats"), std::string::npos);
  json clash = validDescription();
  clash["outputs"][0]["name"] = "x";
  EXPECT_NE(problemsOf(clash).find("has an input's name"), std::string::npos);
  json dtype = validDescription();
  dtype["inputs"][0]["dtype"] = "float32\nattr evil";
  EXPECT_NE(problemsOf(dtype).find("/inputs/0/dtype"), std::string::npos);
  json notString = validDescription();
  notString["outputs"][0]["name"] = 7;
  EXPECT_NE(problemsOf(notString).find("/outputs/0/name: not a string"), std::string::npos);
}

TEST(KernelBenchDescription, RefusesHostileShapes) {
  const json bad[] = {json::array({0}),
                      json::array({-4, 2}),
                      json::array({1.5}),
                      json::array({"16"}),
                      json::array({std::int64_t{1} << 40}),
                      json::array({1, 1, 1, 1, 1, 1, 1, 1, 1}),
                      json::array({1 << 13, 1 << 13, 1 << 13}),
                      json("16x16")};
  for (const auto& shape : bad) {
    json j = validDescription();
    j["inputs"][0]["shape"] = shape;
    EXPECT_NE(problemsOf(j).find("/inputs/0/shape"), std::string::npos) << shape.dump();
  }
}

TEST(KernelBenchDescription, RefusesWrongCounts) {
  json many = validDescription();
  for (int k = 0; k < 20; ++k)
    many["inputs"].push_back({{"name", "x" + std::to_string(k)}, {"dtype", "float32"}, {"shape", {1}}});
  EXPECT_NE(problemsOf(many).find("/inputs: 21 tensors"), std::string::npos);
  json none = validDescription();
  none["outputs"] = json::array();
  EXPECT_NE(problemsOf(none).find("/outputs: 0 tensors"), std::string::npos);
  json extraShapes = validDescription();
  extraShapes["extra_cases"][0]["inputs"].push_back({3, 333});
  EXPECT_NE(problemsOf(extraShapes).find("/extra_cases/0/inputs: 2 shapes for 1 tensors"), std::string::npos);
  json ops = validDescription();
  for (int k = 0; k < 300; ++k) ops["ops"].push_back({{"name", "relu"}, {"line", 1}});
  EXPECT_NE(problemsOf(ops).find("/ops"), std::string::npos);
  json line = validDescription();
  line["ops"][0]["line"] = -1;
  EXPECT_NE(problemsOf(line).find("/ops/0/line"), std::string::npos);
}

TEST(KernelBenchDescription, LongTextIsCut) {
  const auto r = parseKernelBenchDescription(
      json{{"ok", false}, {"kind", "forward"}, {"error", std::string(100000, 'e')}, {"line", 3}}.dump());
  ASSERT_TRUE(r.ok());
  EXPECT_LE(r.description.error.size(), 4096u);
}

TEST(KernelBenchShapeOption, ParsesAndRefuses) {
  const auto c = parseKernelBenchShapeOption("a=8x100,b=8x100", "shape_1");
  EXPECT_EQ(c.name, "shape_1");
  EXPECT_EQ(c.shapes.at("a"), (Shape{8, 100}));
  EXPECT_EQ(c.shapes.at("b"), (Shape{8, 100}));
  for (const char* bad :
       {"8x100", "a=", "a=8x", "a=0x4", "a=-1", "a=8xq", "../a=4", "a=4,a=5", "a=99999999999"})
    EXPECT_THROW(parseKernelBenchShapeOption(bad, "s"), std::invalid_argument) << bad;
}

}  // namespace
}  // namespace kwb
