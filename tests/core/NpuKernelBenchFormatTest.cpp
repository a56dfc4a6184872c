// SPDX-License-Identifier: MIT
// The pure readers of an NPUKernelBench task folder's untrusted texts (core/agent/NpuKernelBenchFormat.h):
// test_cases.csv and the sandboxed describe script's JSON.
#include "core/agent/NpuKernelBenchFormat.h"

#include <gtest/gtest.h>

#include <string>

namespace kwb {
namespace {

std::string joined(const std::vector<std::string>& problems) {
  std::string s;
  for (const auto& p : problems) s += p + "\n";
  return s;
}

TEST(NpuKernelBenchCases, SemicolonRowsKeepListsWhole) {
  const auto csv = parseNpuKernelBenchCases(
      "\xEF\xBB\xBF"
      "case_id;input_shape;dtype;value\r\n0;[1];float16;1.2\r\n\n1;[512, 3];bfloat16;1.2\n");
  ASSERT_TRUE(csv.ok()) << joined(csv.problems);
  ASSERT_EQ(csv.columns, (std::vector<std::string>{"case_id", "input_shape", "dtype", "value"}));
  ASSERT_EQ(csv.rows.size(), 2u);
  EXPECT_EQ(csv.rows[1].line, 4) << "the blank line still counts";
  EXPECT_EQ(csv.rows[1].cells.at("input_shape"), "[512, 3]");
  EXPECT_EQ(csv.rows[1].caseId(), "1");
}

TEST(NpuKernelBenchCases, CommaRowsMayQuoteTheirLists) {
  const auto csv =
      parseNpuKernelBenchCases("case_id,shape,dtype\n7,\"[4, 8]\",float32\n8,\"say \"\"hi\"\"\",x\n");
  ASSERT_TRUE(csv.ok()) << joined(csv.problems);
  EXPECT_EQ(csv.rows[0].cells.at("shape"), "[4, 8]");
  EXPECT_EQ(csv.rows[1].cells.at("shape"), "say \"hi\"");
}

TEST(NpuKernelBenchCases, MalformedTextIsRefusedWithItsLine) {
  auto first = [](const std::string& text) {
    const auto csv = parseNpuKernelBenchCases(text);
    return csv.problems.empty() ? std::string("(accepted)") : csv.problems.front();
  };
  EXPECT_EQ(first("shape;dtype\n[1];float16\n"), "1: no case_id column (the header must name it)");
  EXPECT_EQ(first("case_id;shape;shape\n0;[1];[2]\n"), "1: column \"shape\" repeats");
  EXPECT_EQ(first("case_id;sha pe\n0;[1]\n"), "1: column \"sha pe\" is not a name of letters, digits and _");
  EXPECT_EQ(first("case_id;shape\n0;[1];extra\n"), "2: 3 cells for 2 columns (cells are separated by ';')");
  EXPECT_EQ(first("case_id;shape\n0;[1]\n0;[2]\n"), "3: case_id 0 repeats");
  EXPECT_EQ(first("case_id;shape\n0/../x;[1]\n"), "2: case_id \"0/../x\" is not letters, digits, _ and -");
  EXPECT_EQ(first("case_id;shape\n0;[1]\xC3\xA9\n"), "2: not printable ASCII text");
  EXPECT_EQ(first("case_id,shape\n0,\"[1, 2]\n"), "2: a quote is not closed");
  EXPECT_EQ(first(""), "0: empty: no header line");
  EXPECT_EQ(first("case_id;shape\n"), "1: no rows after the header");
  std::string many = "case_id;shape\n";
  for (int k = 0; k <= static_cast<int>(kMaxNpuKernelBenchRows); ++k) many += std::to_string(k) + ";[1]\n";
  EXPECT_EQ(first(many), std::to_string(kMaxNpuKernelBenchRows + 2) + ": more than " +
                             std::to_string(kMaxNpuKernelBenchRows) + " rows");
  EXPECT_EQ(first("case_id;shape\n0;" + std::string(kMaxNpuKernelBenchCellBytes + 1, 'x') + "\n"),
            "2: the shape cell is over " + std::to_string(kMaxNpuKernelBenchCellBytes) + " bytes");
}

constexpr const char* kGood = R"({"ok": true, "forward_line": 14, "rows": [
  {"case_id": "0", "ok": true, "upcast": true, "init": ["0.01"],
   "args": [{"kind": "tensor", "name": "x", "dtype": "float16", "shape": [8, 2048], "min": -4.0, "max": 3.99},
            {"kind": "value", "name": "dim", "repr": "-1"}],
   "outputs": [{"kind": "tensor", "name": "out0", "dtype": "float16", "shape": [8, 2048]},
               {"kind": "tensor", "name": "out1", "dtype": "float32", "shape": []}]},
  {"case_id": "1", "ok": false, "error": "TypeError: no", "file": "validation/prepare_inputs.py", "line": 11}]})";

TEST(NpuKernelBenchDescription, AGoodDescriptionReadsBack) {
  const auto r = parseNpuKernelBenchDescription(kGood, 2);
  ASSERT_TRUE(r.ok()) << joined(r.problems);
  const auto& d = r.description;
  ASSERT_TRUE(d.ok);
  EXPECT_EQ(d.forwardLine, 14);
  ASSERT_EQ(d.rows.size(), 2u);
  const auto& row = d.rows[0];
  EXPECT_TRUE(row.ok && row.upcast);
  ASSERT_EQ(row.args.size(), 2u);
  EXPECT_TRUE(row.args[0].tensor);
  EXPECT_EQ(row.args[0].shape, (Shape{8, 2048}));
  EXPECT_EQ(*row.args[0].min, -4.0);
  EXPECT_FALSE(row.args[1].tensor);
  EXPECT_EQ(row.args[1].repr, "-1");
  EXPECT_EQ(row.outputs[0].dtype, "float16");
  EXPECT_EQ(row.outputs[1].shape, (Shape{1})) << "a 0-dim tensor is a [1] tensor of the task";
  EXPECT_FALSE(d.rows[1].ok);
  EXPECT_EQ(d.rows[1].file, "validation/prepare_inputs.py");
  EXPECT_EQ(d.rows[1].line, 11);
}

TEST(NpuKernelBenchDescription, HostileDescriptionsAreRefusedByPointer) {
  auto first = [](const std::string& text, std::size_t rows = 1) {
    const auto r = parseNpuKernelBenchDescription(text, rows);
    return r.problems.empty() ? std::string("(accepted)") : r.problems.front();
  };
  auto row = [](const std::string& arg) {
    return R"({"ok": true, "rows": [{"case_id": "0", "ok": true, "args": [)" + arg +
           R"(], "outputs": [{"kind": "tensor", "name": "y", "dtype": "float16", "shape": [4]}]}]})";
  };
  EXPECT_EQ(first(kGood, 3), "/rows: not an array of the 3 rows asked for");
  EXPECT_EQ(first("[1]"), ": not a JSON object with a boolean ok");
  EXPECT_EQ(first(row(R"({"kind": "tensor", "name": "x", "dtype": "float16", "shape": [0]})")),
            "/rows/0/args/0/shape/0: a dimension must be an integer from 1 to 1073741824");
  EXPECT_EQ(first(row(R"({"kind": "tensor", "name": "x", "dtype": "float16", "shape": [65536, 65536]})")),
            "/rows/0/args/0/shape: more than 1073741824 elements");
  EXPECT_EQ(first(row(R"({"kind": "tensor", "name": "x; rm", "dtype": "float16", "shape": [4]})")),
            "/rows/0/args/0/name: \"x; rm\" is not a C identifier");
  EXPECT_EQ(first(row(R"({"kind": "tensor", "name": "x", "dtype": "Float 16", "shape": [4]})")),
            "/rows/0/args/0/dtype: not a dtype name");
  EXPECT_EQ(
      first(row(R"({"kind": "tensor", "name": "x", "dtype": "float16", "shape": [4], "min": 2, "max": 1})")),
      "/rows/0/args/0: min and max are not a range");
  EXPECT_EQ(first(row(R"({"kind": "module", "name": "x"})")),
            "/rows/0/args/0/kind: \"module\" is not tensor or value");
  EXPECT_EQ(first(R"({"ok": true, "rows": [{"case_id": "0", "ok": true, "args": [], "outputs": []}]})"),
            "/rows/0/outputs: not an array of 1 to 16 entries");
  const auto failed = parseNpuKernelBenchDescription(
      R"({"ok": false, "kind": "syntax", "error": "not valid Python: x", "file": "validation/module.py", "line": 2})",
      1);
  ASSERT_TRUE(failed.ok());
  EXPECT_FALSE(failed.description.ok);
  EXPECT_EQ(failed.description.line, 2);
  EXPECT_EQ(failed.description.kind, "syntax");
}

}  // namespace
}  // namespace kwb
