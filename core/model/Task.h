// SPDX-License-Identifier: MIT
#pragma once
// An operator specification: the kernel signature (entry name, inputs, outputs, attributes), the
// verification cases that define "correct", the tolerances per dtype, and hints for the target.
// A task lives in a folder: task.json (this struct), reference.cpp (the golden computation, owned by
// the evaluation harness) and an optional README.md for people and for the agent.
// docs/task-format.md documents the JSON.

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/model/Attr.h"
#include "core/model/DType.h"
#include "core/model/JsonReader.h"
#include "core/model/TensorSpec.h"
#include "core/model/Tolerance.h"
#include "core/model/VerificationCase.h"

namespace kwb {

inline constexpr std::string_view kDefaultSoc = "Ascend910B1";

struct Baseline {
  double latencyUs = 0.0;
  std::string source;  // where the number comes from: "aclnn Add on 910B1, msprof op", "our reference"
  bool operator==(const Baseline&) const = default;
};

// Where a loaded task came from. Not part of task.json; empty for tasks built in memory.
struct TaskFiles {
  std::filesystem::path taskJson;
  std::filesystem::path dir;
  std::optional<std::filesystem::path> reference;  // dir/reference.cpp, else dir/reference.py, when present
  std::optional<std::filesystem::path> readme;     // dir/README.md when present
  bool operator==(const TaskFiles&) const = default;
};

struct Task {
  std::string name;  // kernel entry point name, a C identifier
  std::string description;
  std::string category;  // "elementwise", "reduction", "normalization", ...
  std::vector<TensorDecl> inputs;
  std::vector<TensorDecl> outputs;
  std::vector<AttrDecl> attrs;
  std::vector<VerificationCase> cases;
  std::map<DType, Tolerance> tolerances;  // overrides; other dtypes use defaultTolerance
  std::string soc = std::string(kDefaultSoc);
  std::optional<int> blockDim;  // hint for the first candidate; the tiling function decides
  std::optional<Baseline> baseline;
  TaskFiles files;

  Tolerance toleranceFor(DType t) const;
  const TensorDecl* findTensor(std::string_view tensor) const;
  bool isInput(std::string_view tensor) const;
  const VerificationCase* findCase(std::string_view caseName) const;
  // Inputs then outputs, with the case's shapes (tensors without a shape in the case are skipped; a
  // validated task has them all).
  std::vector<TensorSpec> caseTensors(const VerificationCase& c) const;
  // Every attribute with the case's value or the default (an object attr name -> value).
  nlohmann::json caseAttrs(const VerificationCase& c) const;

  bool operator==(const Task&) const = default;
};

// Everything wrong with a task beyond JSON structure: at least one input, output and case, unique C
// identifier names, a positive shape for every tensor in every case, known attrs with well-typed
// values, non-negative tolerances, sane hints. Empty when the task is usable.
std::vector<ValidationIssue> validateTask(const Task& task);

// Structural read (throws LoadError); does not run validateTask.
void read(const JsonReader& r, Task& task);

// Reads + validates JSON from memory; `fileLabel` names the source in errors.
Task parseTask(const nlohmann::json& j, const std::string& fileLabel);
// Reads, parses and validates a task.json; every failure is a LoadError naming the file, the JSON
// pointer and what was expected. files.taskJson/dir are set; reference/readme are looked up beside it.
Task loadTaskFile(const std::filesystem::path& taskJson);
// dir/task.json, plus the presence of dir/reference.cpp and dir/README.md.
Task loadTaskDir(const std::filesystem::path& dir);

void to_json(nlohmann::json& j, const Baseline& b);
void from_json(const nlohmann::json& j, Baseline& b);
void to_json(nlohmann::json& j, const Task& t);
// Structural read + validation, errors as LoadError without a file name.
void from_json(const nlohmann::json& j, Task& t);

}  // namespace kwb
