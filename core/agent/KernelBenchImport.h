// SPDX-License-Identifier: MIT
#pragma once
// `kwb task import --from kernelbench FILE.py`: a KernelBench / MultiKernelBench problem (a PyTorch
// `class Model(nn.Module)` with forward(), get_inputs() and get_init_inputs()) becomes a task folder whose
// reference runs that Model on python3-torch in the sandbox (docs/task-format.md, "Importing a
// KernelBench problem"). The problem file is run only in the sandbox, and what it reports back is
// untrusted: parseKernelBenchDescription validates every name, dtype, shape and count.

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "core/model/Diagnostic.h"
#include "core/model/Task.h"

namespace kwb {

// Caps on what a problem may describe (beyond the task's own size limits in core/model/Task.h).
inline constexpr std::size_t kMaxKernelBenchTensors = 16;  // inputs, and outputs, each
inline constexpr std::size_t kMaxKernelBenchRank = 8;
inline constexpr std::size_t kMaxKernelBenchExtraCases = 64;
inline constexpr std::size_t kMaxKernelBenchDescriptionBytes = 1u << 20;

// An extra case the user asks for: shapes of some inputs (the others follow the input whose
// get_inputs() shape they shared, else keep theirs).
struct KernelBenchShapeCase {
  std::string name;
  std::map<std::string, Shape> shapes;
};

struct KernelBenchTensor {
  std::string name;
  std::string dtype;  // as torch names it ("float32", "int64", ...): not yet mapped to DType
  Shape shape;
};

struct KernelBenchOp {
  std::string name;  // the torch function forward() called ("relu", "conv2d", "__matmul__")
  int line = 0;      // in the problem file; 0 when not known
};

struct KernelBenchExtraCase {
  std::string name;
  bool ok = false;
  std::string error;  // forward() failed on these shapes
  std::vector<Shape> inputs;
  std::vector<Shape> outputs;
};

// What the describe script reported. `ok` false: the problem failed where `kind` says
// ("syntax", "load", "not-kernelbench", "get_inputs", "get_init_inputs", "init", "forward",
// "input-type", "signature", "torch") with `error` at `line`.
struct KernelBenchDescription {
  bool ok = false;
  std::string kind;
  std::string error;
  int line = 0;
  std::vector<KernelBenchTensor> inputs;
  std::vector<KernelBenchTensor> outputs;
  std::vector<KernelBenchOp> ops;
  std::vector<KernelBenchOp> cubeOps;
  std::vector<std::string> initInputs;  // repr() of each, for the task description
  std::vector<KernelBenchExtraCase> extraCases;
  int forwardLine = 0;
};

// Pure: the describe script's JSON output -> a description, or problems naming the JSON pointer.
// Refuses anything malformed: non-object, wrong types, names that are not C identifiers or repeat,
// too many tensors/cases/ops, ranks over kMaxKernelBenchRank, dimensions < 1 or too large.
struct KernelBenchDescriptionParse {
  KernelBenchDescription description;
  std::vector<std::string> problems;
  bool ok() const { return problems.empty(); }
};
KernelBenchDescriptionParse parseKernelBenchDescription(const std::string& jsonText);

struct KernelBenchImportOptions {
  std::string name;                              // task name; empty: derived from the file name
  std::vector<KernelBenchShapeCase> extraCases;  // --shape and --cases
  std::string soc;                               // empty: the task default
};

struct KernelBenchImport {
  Task task;
  std::string referenceSource;     // reference.py
  std::string problemSource;       // the problem file, kept beside the task for people
  std::vector<Diagnostic> errors;  // what cannot be imported and why, with file and line
  bool ok() const { return errors.empty(); }
};

// Runs the problem in the sandbox and derives the task. Every refusal is an error Diagnostic naming the
// problem file (and line where known): a cube op (matmul/conv: the emulator has no cube unit yet), a
// dtype other than float32/float16/bfloat16, get_inputs() failing, not a KernelBench problem.
KernelBenchImport importKernelBenchProblem(const std::filesystem::path& problemFile,
                                           const KernelBenchImportOptions& options);

// "x=4x1024,y=4x1024" -> a case named `name`; throws std::invalid_argument naming what is wrong.
KernelBenchShapeCase parseKernelBenchShapeOption(const std::string& text, const std::string& name);
// A JSON array of {"name": ..., "shapes": {input: [dims]}}; throws std::runtime_error naming the file.
std::vector<KernelBenchShapeCase> readKernelBenchCasesFile(const std::filesystem::path& file);

// Writes task.json, reference.py and kernelbench_problem.py into `out` (which must not hold a
// task.json). Empty: written; otherwise what failed, naming the path.
std::string writeKernelBenchTask(const KernelBenchImport& imported, const std::filesystem::path& out);

}  // namespace kwb
