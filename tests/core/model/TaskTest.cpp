// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include <fstream>

#include "core/model/Task.h"
#include "tests/core/model/ModelTestSupport.h"

using namespace kwb;
using kwb::test::TempDir;

namespace {

const std::filesystem::path kAddCustom = std::filesystem::path(KWB_SOURCE_DIR) / "resources/tasks/add_custom";

nlohmann::json minimalTaskJson() {
  return nlohmann::json::parse(R"({
    "name": "add_custom",
    "inputs": [{"name": "x", "dtype": "float16"}, {"name": "y", "dtype": "float16"}],
    "outputs": [{"name": "z", "dtype": "float16"}],
    "cases": [
      {"name": "a", "shapes": {"x": [8], "y": [8], "z": [8]}},
      {"name": "b", "shapes": {"x": [16], "y": [16], "z": [16]}},
      {"name": "c", "shapes": {"x": [4, 4], "y": [4, 4], "z": [4, 4]}}
    ]
  })");
}

// The message parseTask gives for `j`, or "" if it loads.
std::string loadMessage(const nlohmann::json& j, const std::string& file = "tasks/add/task.json") {
  try {
    parseTask(j, file);
  } catch (const LoadError& e) {
    return e.what();
  }
  return "";
}

void writeText(const std::filesystem::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

}  // namespace

TEST(Task, BuiltInAddCustomLoadsWithItsFolder) {
  const Task t = loadTaskDir(kAddCustom);
  EXPECT_EQ(t.name, "add_custom");
  ASSERT_EQ(t.inputs.size(), 2u);
  EXPECT_EQ(t.outputs.at(0).name, "z");
  EXPECT_EQ(t.outputs.at(0).dtype, DType::Float16);
  EXPECT_GE(t.cases.size(), 5u);
  EXPECT_EQ(t.soc, "Ascend910B1");
  EXPECT_EQ(t.files.taskJson, kAddCustom / "task.json");
  ASSERT_TRUE(t.files.readme.has_value());
  EXPECT_EQ(*t.files.readme, kAddCustom / "README.md");
  EXPECT_TRUE(validateTask(t).empty());
  // The suite promises unaligned tails and multi-block work: at least one case whose byte size is
  // not a multiple of 32, and one with more elements than 8 blocks x 2048.
  bool unaligned = false, multiBlock = false;
  for (const auto& c : t.cases) {
    const auto n = elementCount(c.shapes.at("x"));
    unaligned = unaligned || (n * 2) % 32 != 0;
    multiBlock = multiBlock || n > 8 * 2048;
  }
  EXPECT_TRUE(unaligned);
  EXPECT_TRUE(multiBlock);
  const auto* tail = t.findCase("tail_16397");
  ASSERT_NE(tail, nullptr);
  EXPECT_EQ(elementCount(tail->shapes.at("z")), 8 * 2048 + 13);
}

TEST(Task, JsonRoundTripIsExact) {
  const Task t = kwb::test::exampleTask();
  const nlohmann::json j = t;
  const Task back = j.get<Task>();
  EXPECT_EQ(back, t);
  EXPECT_EQ(nlohmann::json(back), j);
  const Task builtIn = loadTaskDir(kAddCustom);
  Task copy = nlohmann::json(builtIn).get<Task>();
  copy.files = builtIn.files;
  EXPECT_EQ(copy, builtIn);
}

TEST(Task, CaseHelpersResolveShapesAttrsAndTolerances) {
  const Task t = kwb::test::exampleTask();
  const auto tensors = t.caseTensors(t.cases[1]);
  ASSERT_EQ(tensors.size(), 2u);
  EXPECT_EQ(tensors[0].name, "x");
  EXPECT_EQ(tensors[0].bytes(), 16397 * 2);
  EXPECT_EQ(t.caseAttrs(t.cases[0]), nlohmann::json({{"alpha", 0.01}}));
  EXPECT_EQ(t.caseAttrs(t.cases[1]), nlohmann::json({{"alpha", 0.2}}));
  EXPECT_EQ(t.toleranceFor(DType::Float16), (Tolerance{1e-4, 2e-3, 1e-3}));
  EXPECT_EQ(t.toleranceFor(DType::Float32), (Tolerance{1e-5, 1e-4, 1e-4}));
  EXPECT_EQ(t.toleranceFor(DType::Int32), (Tolerance{0, 0, 0}));
  EXPECT_TRUE(t.isInput("x"));
  EXPECT_FALSE(t.isInput("z"));
}

TEST(Task, DefaultTolerancesFollowTheOfficialSamples) {
  EXPECT_EQ(defaultTolerance(DType::Float16), (Tolerance{1e-5, 1e-3, 1e-3}));
  EXPECT_EQ(defaultTolerance(DType::Float32), (Tolerance{1e-5, 1e-4, 1e-4}));
  EXPECT_GT(defaultTolerance(DType::BFloat16).rtol, defaultTolerance(DType::Float16).rtol);
  auto j = minimalTaskJson();
  j["tolerances"] = {{"fp16", {{"rtol", 5e-3}}}};
  const Task t = parseTask(j, "");
  EXPECT_EQ(t.toleranceFor(DType::Float16), (Tolerance{1e-5, 5e-3, 1e-3}));  // partial override
}

TEST(Task, MisspeltDtypeNamesFilePointerAndValidNames) {
  auto j = minimalTaskJson();
  j["inputs"][0]["dtype"] = "flaot16";
  EXPECT_EQ(loadMessage(j),
            "tasks/add/task.json: /inputs/0/dtype: expected one of float16, bfloat16, float32, float64, "
            "int8, int16, "
            "int32, int64, uint8, uint16, uint32, uint64, bool but found \"flaot16\"");
}

TEST(Task, StructuralErrorsAreLocated) {
  auto j = minimalTaskJson();
  j["cases"][2]["shapes"]["x"] = {4, "4"};
  EXPECT_EQ(
      loadMessage(j),
      "tasks/add/task.json: /cases/2/shapes/x/1: expected a positive integer dimension but found \"4\"");

  j = minimalTaskJson();
  j["cases"][1]["shapes"]["y"] = {16, 0};
  EXPECT_EQ(loadMessage(j),
            "tasks/add/task.json: /cases/1/shapes/y/1: expected a positive integer dimension but found 0");

  j = minimalTaskJson();
  j.erase("outputs");
  EXPECT_EQ(loadMessage(j), "tasks/add/task.json: /outputs: missing required field \"outputs\"");

  j = minimalTaskJson();
  j["ouputs"] = j["outputs"];
  EXPECT_NE(
      loadMessage(j).find("/ouputs: unknown field \"ouputs\"; valid fields here are: schema_version, name,"),
      std::string::npos);

  j = minimalTaskJson();
  j["name"] = "add-custom";
  EXPECT_EQ(
      loadMessage(j),
      "tasks/add/task.json: /name: expected a C identifier (letters, digits, _; not starting with a digit) "
      "but found \"add-custom\"");

  j = minimalTaskJson();
  j["tolerances"] = {{"float16", {{"rtol", -1}}}};
  EXPECT_EQ(loadMessage(j),
            "tasks/add/task.json: /tolerances/float16/rtol: expected a number >= 0 but found -1");

  j = minimalTaskJson();
  j["tolerances"] = {{"half-ish", {{"rtol", 1}}}};
  EXPECT_NE(loadMessage(j).find("/tolerances/half-ish: unknown dtype \"half-ish\" as tolerance key"),
            std::string::npos);
}

TEST(Task, SemanticRulesAreLocated) {
  auto j = minimalTaskJson();
  j["cases"][2]["shapes"].erase("z");
  EXPECT_EQ(loadMessage(j),
            "tasks/add/task.json: /cases/2/shapes: missing shape for output \"z\" in case \"c\"");

  j = minimalTaskJson();
  j["cases"][0]["shapes"]["w"] = {8};
  EXPECT_EQ(loadMessage(j), "tasks/add/task.json: /cases/0/shapes/w: \"w\" is not a tensor of this task");

  j = minimalTaskJson();
  j["outputs"][0]["name"] = "x";
  EXPECT_EQ(
      loadMessage(j),
      "tasks/add/task.json: /outputs/0/name: duplicate tensor name \"x\" (already used at /inputs/0/name) "
      "(and 3 more problems)");  // the cases' shapes for "z" now name no tensor

  j = minimalTaskJson();
  j["inputs"] = nlohmann::json::array();
  for (auto& c : j["cases"]) c["shapes"].erase("x"), c["shapes"].erase("y");
  EXPECT_EQ(loadMessage(j), "tasks/add/task.json: /inputs: a task needs at least one input tensor");

  j = minimalTaskJson();
  j["cases"] = nlohmann::json::array();
  EXPECT_EQ(loadMessage(j), "tasks/add/task.json: /cases: a task needs at least one verification case");

  j = minimalTaskJson();
  j["cases"][1]["name"] = "a";
  EXPECT_EQ(loadMessage(j), "tasks/add/task.json: /cases/1/name: duplicate case name \"a\"");

  j = minimalTaskJson();
  j["inputs"][1]["name"] = "tiling";
  for (auto& c : j["cases"]) c["shapes"]["tiling"] = c["shapes"]["y"], c["shapes"].erase("y");
  EXPECT_EQ(
      loadMessage(j),
      "tasks/add/task.json: /inputs/1/name: tensor name \"tiling\" is reserved (a C++ keyword or a fixed "
      "kernel parameter)");
}

TEST(Task, AttributesAreTypeCheckedPerCase) {
  auto j = minimalTaskJson();
  j["attrs"] = {{{"name", "alpha"}, {"type", "float"}}};
  EXPECT_EQ(loadMessage(j),
            "tasks/add/task.json: /cases/0/attrs: missing value for attribute \"alpha\" (it has no default) "
            "(and 2 more problems)");
  j["attrs"][0]["default"] = 0.5;
  EXPECT_EQ(loadMessage(j), "");
  j["cases"][1]["attrs"] = {{"alpha", "big"}};
  EXPECT_EQ(loadMessage(j), "tasks/add/task.json: /cases/1/attrs/alpha: expected a number but found \"big\"");
  j["cases"][1]["attrs"] = {{"beta", 1}};
  EXPECT_EQ(loadMessage(j),
            "tasks/add/task.json: /cases/1/attrs/beta: unknown attribute \"beta\" (declare it in /attrs)");
  j["cases"][1].erase("attrs");
  j["attrs"][0]["type"] = "real";
  EXPECT_EQ(loadMessage(j),
            "tasks/add/task.json: /attrs/0/type: expected one of int, float, bool, string, int_list, "
            "float_list but "
            "found \"real\"");
}

TEST(Task, ValueHintsAreChecked) {
  auto j = minimalTaskJson();
  j["cases"][0]["values"] = {{"distribution", "gaussian"}};
  EXPECT_NE(loadMessage(j).find(
                "/cases/0/values/distribution: expected one of uniform, normal, small, large, near-zero"),
            std::string::npos);
  j["cases"][0]["values"] = {{"distribution", "uniform"}, {"low", 5}, {"high", 1}};
  EXPECT_EQ(loadMessage(j),
            "tasks/add/task.json: /cases/0/values/high: expected a number >= low (5.0) but found 1");
  j["cases"][0].erase("values");
  j["cases"][0]["tensor_values"] = {{"z", {{"distribution", "positive"}}}};
  EXPECT_EQ(loadMessage(j), "tasks/add/task.json: /cases/0/tensor_values/z: \"z\" is not an input tensor");
}

TEST(Task, NewerSchemaVersionIsRefused) {
  auto j = minimalTaskJson();
  j["schema_version"] = 3;
  EXPECT_EQ(loadMessage(j, "t/task.json"),
            "t/task.json has schema version 3; this kwb understands up to 1; upgrade Kernel Workbench");
}

TEST(Task, LoadTaskDirReportsMissingPiecesAndSyntaxErrors) {
  TempDir tmp;
  try {
    loadTaskDir(tmp / "nope");
    FAIL() << "no exception";
  } catch (const LoadError& e) {
    EXPECT_EQ(std::string(e.what()), (tmp / "nope").string() + ": no such task folder");
  }
  try {
    loadTaskDir(tmp.path());
    FAIL() << "no exception";
  } catch (const LoadError& e) {
    EXPECT_EQ(std::string(e.what()), tmp.path().string() + ": not a task folder: it has no task.json");
  }
  writeText(tmp / "task.json", "{\n  \"name\": \"add_custom\",\n  \"inputs\": [\n");
  try {
    loadTaskDir(tmp.path());
    FAIL() << "no exception";
  } catch (const LoadError& e) {
    EXPECT_EQ(std::string(e.what()).rfind((tmp / "task.json").string() + ":4:1: invalid JSON: ", 0), 0u)
        << e.what();
  }
  writeText(tmp / "task.json", minimalTaskJson().dump(2));
  writeText(tmp / "reference.cpp", "// golden\n");
  const Task t = loadTaskDir(tmp.path());
  ASSERT_TRUE(t.files.reference.has_value());
  EXPECT_EQ(*t.files.reference, tmp / "reference.cpp");
  EXPECT_FALSE(t.files.readme.has_value());
  EXPECT_EQ(t.files.dir, tmp.path());
}

TEST(Task, ValidateTaskListsEveryProblemForProgrammaticTasks) {
  Task t = kwb::test::exampleTask();
  t.cases[0].shapes["x"] = {8, -1};
  t.cases[1].shapes.erase("z");
  t.tolerances[DType::Float32] = Tolerance{-1, 0, 2};
  t.blockDim = 0;
  const auto issues = validateTask(t);
  ASSERT_EQ(issues.size(), 5u);
  EXPECT_EQ(issues[0].pointer, "/cases/0/shapes/x");
  EXPECT_EQ(issues[0].message, "dimension 1 is -1; dimensions must be positive");
  EXPECT_EQ(issues[1].pointer, "/cases/1/shapes");
  EXPECT_EQ(issues[2].pointer, "/tolerances/float32");
  EXPECT_EQ(issues[3].pointer, "/tolerances/float32/max_mismatch_ratio");
  EXPECT_EQ(issues[4].pointer, "/block_dim");
}

// Issue 16, item 7: absurd sizes fail validation (naming the pointer and the cap) instead of reaching
// the verifier as bad_alloc or a timeout.
TEST(Task, TensorAndCaseSizesAreCapped) {
  auto j = minimalTaskJson();
  j["cases"][0]["shapes"]["x"] = {65536, 65536};
  std::string msg = loadMessage(j);
  EXPECT_NE(msg.find("/cases/0/shapes/x"), std::string::npos) << msg;
  EXPECT_NE(
      msg.find("4294967296 elements (8192.0 MiB of float16); a tensor may have at most 1073741824 elements"),
      std::string::npos)
      << msg;
  j = minimalTaskJson();
  for (auto& t : j["inputs"]) t["dtype"] = "float32";
  j["outputs"][0]["dtype"] = "float32";
  for (const char* t : {"x", "y", "z"}) j["cases"][1]["shapes"][t] = {32768, 32768};  // 4 GiB each
  msg = loadMessage(j);
  EXPECT_NE(msg.find("/cases/1/shapes"), std::string::npos) << msg;
  EXPECT_NE(msg.find("total 12288.0 MiB; a case may have at most 8192.0 MiB"), std::string::npos) << msg;
  j["cases"][1]["shapes"]["z"] = {1024, 1024};  // 4 + 4 GiB + 4 MiB: over the cap
  EXPECT_NE(loadMessage(j), "");
  // Public suites time kernels on 10^8-element tensors: three of 10^8 float32 are within the caps.
  for (const char* t : {"x", "y", "z"}) j["cases"][1]["shapes"][t] = {100000000};
  EXPECT_EQ(loadMessage(j), "");
}
