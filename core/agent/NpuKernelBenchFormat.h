// SPDX-License-Identifier: MIT
#pragma once
// The untrusted texts of an NPUKernelBench task folder, read by pure functions (docs/task-format.md,
// "Importing an NPUKernelBench task"): validation/test_cases.csv (one row per case, `;`-separated with a
// header naming the columns, `case_id` first) and the JSON description the sandboxed describe script
// writes (core/agent/NpuKernelBenchScripts.h). Both refuse anything malformed, naming the line or the
// JSON pointer.

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/model/Task.h"

namespace kwb {

inline constexpr std::size_t kMaxNpuKernelBenchRows = 256;
inline constexpr std::size_t kMaxNpuKernelBenchColumns = 32;
inline constexpr std::size_t kMaxNpuKernelBenchCellBytes = 1024;

struct NpuKernelBenchRow {
  int line = 0;  // in test_cases.csv
  std::map<std::string, std::string> cells;
  const std::string& caseId() const { return cells.at("case_id"); }
};

struct NpuKernelBenchCsv {
  std::vector<std::string> columns;
  std::vector<NpuKernelBenchRow> rows;
  std::vector<std::string> problems;  // "LINE: what" each; empty when the text is usable
  bool ok() const { return problems.empty(); }
};

// `;` separates cells (a `,` only when the header has no `;`; then a cell may be "double-quoted").
// Column names are [A-Za-z0-9_] (at most 64 characters, unique); `case_id` is required and its values
// are unique [A-Za-z0-9_-]; every row has as many cells as the header; cells are printable ASCII. Blank
// lines and a UTF-8 byte-order mark are skipped.
NpuKernelBenchCsv parseNpuKernelBenchCases(const std::string& text);

struct NpuKernelBenchArg {
  bool tensor = false;
  std::string name;
  std::string dtype;  // torch's name ("float16", "float64", "int32", ...), tensors only
  Shape shape;
  std::optional<double> min, max;  // the finite values get_inputs() made, tensors only
  std::string repr;                // non-tensor arguments
};

struct NpuKernelBenchRowDescription {
  std::string caseId;
  bool ok = false;
  std::string error, file;  // where it failed (file is validation/module.py or prepare_inputs.py)
  int line = 0;
  bool upcast = false;  // forward ran in float32: CPU torch has no float16/bfloat16 kernel for an op
  std::vector<NpuKernelBenchArg> args;
  std::vector<NpuKernelBenchArg> outputs;
  std::vector<std::string> init;
};

struct NpuKernelBenchDescription {
  bool ok = false;
  std::string kind, error, file;  // when !ok: "torch", "syntax", "load", "layout"
  int line = 0;
  int forwardLine = 0;
  std::vector<NpuKernelBenchRowDescription> rows;
};

struct NpuKernelBenchDescriptionParse {
  NpuKernelBenchDescription description;
  std::vector<std::string> problems;  // "JSON-POINTER: what"
  bool ok() const { return problems.empty(); }
};

// Refuses non-objects, wrong types, more rows than were asked for (`rowsAsked`), names that are not C
// identifiers, ranks over 8, dimensions below 1 or tensors over the task size limit, non-finite ranges,
// over 16 arguments or outputs; long texts are cut to 4 KiB.
NpuKernelBenchDescriptionParse parseNpuKernelBenchDescription(const std::string& jsonText,
                                                              std::size_t rowsAsked);

}  // namespace kwb
