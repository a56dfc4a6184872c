// SPDX-License-Identifier: MIT
#include "core/agent/NpuKernelBenchImport.h"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <system_error>

#include <nlohmann/json.hpp>

#include "core/agent/ImportedTask.h"
#include "core/agent/NpuKernelBenchFormat.h"
#include "core/agent/NpuKernelBenchScripts.h"
#include "core/base/BoundedFileRead.h"
#include "core/base/TempWorkDir.h"
#include "core/model/Utf8Text.h"
#include "core/sandbox/Sandbox.h"
#include "core/toolchain/OpProjectSource.h"
#include "core/verify/ReferenceRunner.h"

namespace kwb {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr std::size_t kMaxPythonBytes = 256u << 10;
constexpr std::size_t kMaxCsvBytes = 1u << 20;
constexpr std::size_t kMaxApiDescBytes = 64u << 10;
constexpr std::size_t kMaxApiDescInDescription = 3000;
constexpr std::size_t kMaxDescriptionBytes = 4u << 20;

Diagnostic importError(const std::string& file, int line, std::string message) {
  Diagnostic d;
  d.source = "workbench";
  d.category = std::string(category::InvalidParam);
  d.file = file;
  d.line = line;
  d.message = std::move(message);
  return d;
}

bool writeText(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  return static_cast<bool>(out);
}

// A row's torch dtype fits the OpDef's: the same; float64 for any float input (get_inputs() made a
// Python float into a default double tensor, which the reference makes again from the task's input);
// for an output any float for a float and any integer or bool for an integer or bool (torch promotes
// x * a double tensor to double, references turn a bool mask into int32; the reference's outputs are
// compared as float64 anyway).
bool dtypeFits(const std::string& torchName, DType opDef, bool output) {
  const auto t = parseDType(torchName);
  if (!t) return false;
  if (*t == opDef) return true;
  if (*t == DType::Float64 && isFloating(opDef)) return true;
  return output && isFloating(*t) == isFloating(opDef);
}

std::vector<const NpuKernelBenchArg*> tensorArgs(const NpuKernelBenchRowDescription& row) {
  std::vector<const NpuKernelBenchArg*> out;
  for (const auto& a : row.args)
    if (a.tensor) out.push_back(&a);
  return out;
}

bool rowFitsColumn(const NpuKernelBenchRowDescription& row, const OpDefSignature& sig, std::size_t column) {
  const auto tensors = tensorArgs(row);
  if (tensors.size() != sig.inputs.size() || row.outputs.size() != sig.outputs.size()) return false;
  for (std::size_t k = 0; k < tensors.size(); ++k)
    if (column >= sig.inputs[k].dtypes.size() ||
        !dtypeFits(tensors[k]->dtype, sig.inputs[k].dtypes[column], false))
      return false;
  for (std::size_t k = 0; k < row.outputs.size(); ++k)
    if (column >= sig.outputs[k].dtypes.size() ||
        !dtypeFits(row.outputs[k].dtype, sig.outputs[k].dtypes[column], true))
      return false;
  return true;
}

std::string rowDTypes(const NpuKernelBenchRowDescription& row) {
  std::string s;
  for (const auto* a : tensorArgs(row)) s += (s.empty() ? "" : ", ") + a->name + " " + a->dtype;
  return s;
}

std::string columnDTypes(const OpDefSignature& sig, std::size_t column) {
  std::string s;
  for (const auto& p : sig.inputs)
    if (column < p.geDTypes.size()) s += (s.empty() ? "" : ", ") + p.name + " " + p.geDTypes[column];
  return s;
}

// A CSV cell as a value of the attribute's task.json type; nullopt when it is not one.
std::optional<json> attrValue(const std::string& type, const std::string& cell) {
  const char* begin = cell.c_str();
  char* end = nullptr;
  if (type == "int") {
    const long long v = std::strtoll(begin, &end, 10);
    if (end != begin && *end == 0) return json(v);
    const double d = std::strtod(begin, &end);
    if (end != begin && *end == 0 && std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9e15)
      return json(static_cast<long long>(d));
    return std::nullopt;
  }
  if (type == "float") {
    const double d = std::strtod(begin, &end);
    if (end != begin && *end == 0 && std::isfinite(d)) return json(d);
    return std::nullopt;
  }
  if (type == "bool") {
    if (cell == "true" || cell == "True" || cell == "1") return json(true);
    if (cell == "false" || cell == "False" || cell == "0") return json(false);
    return std::nullopt;
  }
  if (type == "string") return json(cell);
  if (type == "int_list" || type == "float_list") {
    const json j = json::parse(cell, nullptr, false);
    if (j.is_discarded() || !j.is_array()) return std::nullopt;
    for (const auto& v : j)
      if (!(type == "int_list" ? v.is_number_integer() : v.is_number())) return std::nullopt;
    return j;
  }
  return std::nullopt;
}

// The value range get_inputs() made becomes the case's value hint for that input: the kind of values
// (signed or not) and the domain, never the values themselves (docs/task-format.md, "cases").
std::optional<json> valueHint(const NpuKernelBenchArg& a) {
  if (!a.min || !a.max) return std::nullopt;
  double lo = *a.min, hi = *a.max;
  if (lo == hi) {
    const double widen = 0.5 * std::max(1.0, std::fabs(lo));
    lo -= widen;
    hi += widen;
    if (*a.min >= 0 && lo < 0) lo = 0;
  }
  return json{{"distribution", *a.min < 0 ? "with-negatives" : "positive"}, {"low", lo}, {"high", hi}};
}

std::optional<std::string> readText(const fs::path& path, std::size_t limit, const std::string& shown,
                                    std::vector<Diagnostic>& errors) {
  std::string error;
  auto text = readBoundedRegularFile(path, limit, error);
  if (!text) {
    errors.push_back(importError(shown, 0, error));
    return std::nullopt;
  }
  if (!isValidUtf8(*text)) {
    errors.push_back(importError(shown, 0, "not UTF-8 text"));
    return std::nullopt;
  }
  return text;
}

}  // namespace

NpuKernelBenchImport importNpuKernelBenchTask(const fs::path& dir,
                                              const NpuKernelBenchImportOptions& options) {
  NpuKernelBenchImport r;
  auto& errors = r.project.errors;
  auto refuse = [&](const std::string& file, int line, std::string message) {
    errors.push_back(importError(file, line, std::move(message)));
  };
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    refuse(dir.string(), 0, "not a folder");
    return r;
  }
  const std::string answerRel = "answer/" + std::to_string(options.answer);
  const fs::path answerDir = dir / "answer" / std::to_string(options.answer);
  for (const char* f : {"validation/module.py", "validation/prepare_inputs.py", "validation/test_cases.csv"})
    if (!fs::is_regular_file(dir / f, ec))
      refuse(
          f, 0,
          "missing: an NPUKernelBench task folder has validation/module.py (class Model), "
          "validation/prepare_inputs.py (get_inputs(param)) and validation/test_cases.csv (one case a row)");
  if (!fs::is_directory(answerDir / "op_host", ec) || !fs::is_directory(answerDir / "op_kernel", ec))
    refuse(answerRel, 0,
           "missing: the answer is an operator project with op_host/ and op_kernel/ (--answer N chooses "
           "answer/N)");
  if (!errors.empty()) return r;
  const auto moduleSource =
      readText(dir / "validation/module.py", kMaxPythonBytes, "validation/module.py", errors);
  const auto prepareSource =
      readText(dir / "validation/prepare_inputs.py", kMaxPythonBytes, "validation/prepare_inputs.py", errors);
  const auto csvText =
      readText(dir / "validation/test_cases.csv", kMaxCsvBytes, "validation/test_cases.csv", errors);
  if (!errors.empty()) return r;
  r.keptFiles = {
      {"module.py", *moduleSource}, {"prepare_inputs.py", *prepareSource}, {"test_cases.csv", *csvText}};
  std::string apiDesc;
  if (fs::is_regular_file(dir / "api_desc.md", ec)) {
    std::vector<Diagnostic> ignored;
    if (auto t = readText(dir / "api_desc.md", kMaxApiDescBytes, "api_desc.md", ignored)) {
      apiDesc = *t;
      r.keptFiles.emplace_back("api_desc.md", apiDesc);
    }
  }

  const NpuKernelBenchCsv csv = parseNpuKernelBenchCases(*csvText);
  for (const auto& p : csv.problems) {
    const std::size_t colon = p.find(": ");
    refuse("validation/test_cases.csv", std::atoi(p.substr(0, colon).c_str()), p.substr(colon + 2));
  }
  if (!errors.empty()) return r;

  // The answer's OpDef: the signature every row is read against.
  std::optional<OpDefSignature> sig;
  std::string hostRel;
  // The tiling may be registered (IMPL_OP_OPTILING) in another op_host source than the OpDef.
  std::map<std::string, std::string> hostSources;
  for (const auto& entry : fs::directory_iterator(answerDir / "op_host", ec)) {
    if (entry.path().extension() != ".cpp" || !entry.is_regular_file(ec)) continue;
    const std::string rel = answerRel + "/op_host/" + entry.path().filename().string();
    if (auto text = readText(entry.path(), kMaxPythonBytes, rel, errors))
      hostSources.emplace(rel, std::move(*text));
  }
  for (const auto& [rel, text] : hostSources) {
    if (!registersOperator(text)) continue;
    sig = parseOpDef(text, rel, errors, hostSources);
    hostRel = rel;
    break;
  }
  if (!sig) {
    if (errors.empty())
      refuse(answerRel + "/op_host", 0, "missing OpDef: no op_host/*.cpp registers an operator (OP_ADD)");
    return r;
  }
  if (!errors.empty()) return r;

  // Describe every row in the sandbox.
  std::string error;
  TempWorkDir scratch(makeTempWorkDir("kwb-npukernelbench-", error));
  if (scratch.path().empty()) {
    refuse(dir.string(), 0, error);
    return r;
  }
  json rows = json::array();
  for (const auto& row : csv.rows) rows.push_back(row.cells);
  const fs::path output = scratch.path() / "description.json";
  const fs::path script = scratch.path() / "describe.py";
  if (!writeText(script, npuKernelBenchProgram(*moduleSource, *prepareSource, rows.dump(),
                                               npuKernelBenchDescribeScript(),
                                               "OUTPUT_FILE = " + json(output.string()).dump() + "\n"))) {
    refuse(script.string(), 0, "cannot write the describe script");
    return r;
  }
  const SandboxResult run = Sandbox(verify::torchSandboxPolicy(scratch.path()))
                                .run({verify::torchPython(), "-I", "-B", script.string()});
  const auto described = readBoundedRegularFile(output, kMaxDescriptionBytes, error);
  if (!described) {
    refuse("validation/module.py", 0,
           "running the validation files in the sandbox failed (" + run.process.describeOutcome() +
               "): " + run.stderrText().substr(0, 4096) +
               "\n(python3-torch is needed: apt-get install python3-torch)");
    return r;
  }
  const NpuKernelBenchDescriptionParse parsed = parseNpuKernelBenchDescription(*described, csv.rows.size());
  for (const auto& p : parsed.problems)
    refuse("validation/module.py", 0, "the sandbox's description is unusable: " + p);
  if (!errors.empty()) return r;
  const NpuKernelBenchDescription& d = parsed.description;
  if (!d.ok) {
    refuse(d.file.empty() ? "validation/module.py" : d.file, d.line,
           (d.kind == "layout" ? "not an NPUKernelBench validation file: " : "cannot import: ") + d.error);
    return r;
  }

  // forward()'s tensors are the OpDef's inputs in order: a different count is the folder's error.
  for (std::size_t k = 0; k < d.rows.size(); ++k) {
    const auto& row = d.rows[k];
    if (!row.ok) continue;
    const std::size_t tensors = tensorArgs(row).size();
    if (tensors != sig->inputs.size() || row.outputs.size() != sig->outputs.size()) {
      refuse("validation/module.py", d.forwardLine,
             "forward() takes " + std::to_string(tensors) + " tensors and returns " +
                 std::to_string(row.outputs.size()) + " (case_id " + csv.rows[k].caseId() +
                 "), but the OpDef in " + hostRel + " declares " + std::to_string(sig->inputs.size()) +
                 " inputs and " + std::to_string(sig->outputs.size()) + " outputs");
      return r;
    }
  }

  // The OpDef combination the task tests.
  std::optional<std::size_t> column = options.dtypeColumn;
  if (!column) {
    std::size_t columns = SIZE_MAX;
    for (const auto* params : {&sig->inputs, &sig->outputs})
      for (const auto& p : *params) columns = std::min(columns, p.dtypes.size());
    for (const auto& row : d.rows) {
      if (!row.ok) continue;
      for (std::size_t c = 0; c < columns && !column; ++c)
        if (opDefColumnProblems(*sig, c).empty() && rowFitsColumn(row, *sig, c)) column = c;
      if (column) break;
    }
  }
  if (!column) {
    std::string seen;
    for (const auto& row : d.rows)
      if (row.ok && seen.find(rowDTypes(row)) == std::string::npos) seen += "\n  (" + rowDTypes(row) + ")";
    std::size_t failed = 0;
    for (std::size_t k = 0; k < d.rows.size() && failed < 3; ++k)
      if (!d.rows[k].ok && ++failed)
        seen +=
            "\n  case_id " + csv.rows[k].caseId() + " failed: " + d.rows[k].error +
            (d.rows[k].file.empty() ? "" : " at " + d.rows[k].file + ":" + std::to_string(d.rows[k].line));
    refuse("validation/test_cases.csv", 0,
           "no row's tensors match a dtype combination of the OpDef in " + hostRel +
               " that the workbench can test (--dtype-combination N chooses one); the rows have:" + seen);
    return r;
  }
  for (auto& p : opDefColumnProblems(*sig, *column)) errors.push_back(std::move(p));
  if (!errors.empty()) return r;

  // The cases: the rows that fit the combination, in CSV order.
  std::set<std::string> columnsOfCsv(csv.columns.begin(), csv.columns.end());
  for (const auto& a : sig->attrs)
    if (!columnsOfCsv.count(a.name) && (a.required || a.value.is_null()))
      refuse(hostRel, a.line,
             "attribute \"" + a.name + "\" has no default and validation/test_cases.csv has no " + a.name +
                 " column");
  json cases = json::array();
  json caseRows = json::object();
  bool upcast = false;
  std::size_t leftOver = 0;
  for (std::size_t k = 0; k < d.rows.size() && errors.empty(); ++k) {
    const auto& row = d.rows[k];
    const NpuKernelBenchRow& csvRow = csv.rows[k];
    const std::string where =
        "case_id " + csvRow.caseId() + " (test_cases.csv:" + std::to_string(csvRow.line) + ")";
    if (!row.ok) {
      r.notes.push_back(where + " left out: " + row.error +
                        (row.file.empty() ? "" : " at " + row.file + ":" + std::to_string(row.line)));
      continue;
    }
    const auto tensors = tensorArgs(row);
    if (!rowFitsColumn(row, *sig, *column)) {
      r.notes.push_back(where + " left out: its tensors are " + rowDTypes(row) + "; the task tests (" +
                        columnDTypes(*sig, *column) + ")");
      continue;
    }
    if (cases.size() >= options.maxCases) {
      ++leftOver;
      continue;
    }
    json c;
    c["name"] = "case_" + csvRow.caseId();
    json shapes = json::object(), values = json::object();
    for (std::size_t t = 0; t < tensors.size(); ++t) {
      shapes[sig->inputs[t].name] = tensors[t]->shape;
      if (auto hint = valueHint(*tensors[t])) values[sig->inputs[t].name] = *hint;
    }
    for (std::size_t t = 0; t < row.outputs.size(); ++t) shapes[sig->outputs[t].name] = row.outputs[t].shape;
    c["shapes"] = shapes;
    if (!values.empty()) c["tensor_values"] = values;
    json attrs = json::object();
    for (const auto& a : sig->attrs) {
      const auto cell = csvRow.cells.find(a.name);
      if (cell == csvRow.cells.end()) continue;
      const auto v = attrValue(a.type, cell->second);
      if (!v) {
        refuse("validation/test_cases.csv", csvRow.line,
               "the " + a.name + " cell \"" + cell->second + "\" is not a " + a.type +
                   " (the OpDef's Attr at " + hostRel + ":" + std::to_string(a.line) + ")");
        continue;
      }
      attrs[a.name] = *v;
    }
    if (!attrs.empty()) c["attrs"] = attrs;
    upcast = upcast || row.upcast;
    caseRows[c["name"].get<std::string>()] = csvRow.cells;
    cases.push_back(std::move(c));
  }
  if (!errors.empty()) return r;
  if (leftOver > 0)
    r.notes.push_back(std::to_string(leftOver) + " more fitting rows left out (--max-cases " +
                      std::to_string(options.maxCases) + ")");
  if (upcast)
    r.notes.push_back(
        "CPU torch has no float16/bfloat16 kernel for an op of Model: the reference computes "
        "in float32 and rounds its outputs to their dtype");
  if (cases.empty()) {
    refuse(
        "validation/test_cases.csv", 0, "no row can be imported:\n  " + [&] {
          std::string s;
          for (const auto& n : r.notes) s += (s.empty() ? "" : "\n  ") + n;
          return s;
        }());
    return r;
  }

  r.referenceSource =
      npuKernelBenchProgram(*moduleSource, *prepareSource, rows.dump(), npuKernelBenchReferenceScript(),
                            "CASES = " + caseRows.dump() + "\n");
  const fs::path casesFile = scratch.path() / "cases.json";
  const fs::path referenceFile = scratch.path() / "reference.py";
  if (!writeText(casesFile, cases.dump(2)) || !writeText(referenceFile, r.referenceSource)) {
    refuse(scratch.path().string(), 0, "cannot write the derived cases and reference");
    return r;
  }
  OperatorProjectImportOptions projectOptions;
  projectOptions.casesFile = casesFile;
  projectOptions.referenceFile = referenceFile;
  projectOptions.dtypeColumn = *column;
  projectOptions.soc = options.soc;
  r.project = importOperatorProject(answerDir, projectOptions);
  r.project.referenceFileName = "reference.py";
  auto relocate = [&](std::vector<Diagnostic>& ds) {
    for (auto& e : ds)
      if (e.file.rfind("op_", 0) == 0) e.file = answerRel + "/" + e.file;
  };
  relocate(r.project.errors);
  relocate(r.project.warnings);
  if (!r.project.ok()) return r;
  std::string description =
      "Imported from the NPUKernelBench task " + dir.filename().string() +
      ": the reference runs validation/module.py's Model on python3-torch (CPU); the cases "
      "are rows of validation/test_cases.csv with the dtypes (" +
      columnDTypes(*sig, *column) + "); iteration 1 is " + answerRel + ".";
  if (!apiDesc.empty())
    description += "\n\napi_desc.md:\n" + apiDesc.substr(0, kMaxApiDescInDescription) +
                   (apiDesc.size() > kMaxApiDescInDescription ? "\n[...]" : "");
  r.project.task.description = description;
  r.project.task.category = "npukernelbench";
  return r;
}

std::string writeNpuKernelBenchTask(const NpuKernelBenchImport& imported, const fs::path& out) {
  if (std::string failed = writeImportedTask(imported.project, out); !failed.empty()) return failed;
  std::error_code ec;
  fs::create_directories(out / "npukernelbench", ec);
  if (ec) return "cannot create " + (out / "npukernelbench").string() + ": " + ec.message();
  for (const auto& [name, text] : imported.keptFiles)
    if (!writeText(out / "npukernelbench" / name, text))
      return "cannot write " + (out / "npukernelbench" / name).string();
  return {};
}

}  // namespace kwb
