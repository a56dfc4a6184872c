// SPDX-License-Identifier: MIT
#include "core/agent/KernelBenchImport.h"
#include "core/model/SizeLimits.h"

#include <cctype>
#include <fstream>
#include <set>
#include <stdexcept>
#include <system_error>

#include <nlohmann/json.hpp>

#include "core/agent/KernelBenchScripts.h"
#include "core/base/BoundedFileRead.h"
#include "core/base/TempWorkDir.h"
#include "core/model/Utf8Text.h"
#include "core/sandbox/Sandbox.h"
#include "core/verify/ReferenceRunner.h"

namespace kwb {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr std::size_t kMaxProblemBytes = 256u << 10;
constexpr std::size_t kMaxOps = 200;
constexpr std::size_t kMaxTextBytes = 4096;  // an error message or repr() coming back from the sandbox
constexpr std::int64_t kMaxDimension = kMaxTensorElements;

// Reads the untrusted description, collecting every problem with its JSON pointer.
class DescriptionReader {
 public:
  explicit DescriptionReader(std::vector<std::string>& problems) : problems_(problems) {}

  void problem(const std::string& pointer, const std::string& what) {
    problems_.push_back(pointer + ": " + what);
  }

  std::string text(const json& j, const std::string& pointer) {
    if (!j.is_string()) {
      problem(pointer, "not a string");
      return {};
    }
    std::string s = j.get<std::string>();
    if (s.size() > kMaxTextBytes) s.resize(kMaxTextBytes);
    return s;
  }

  int line(const json& j, const std::string& pointer) {
    if (!j.is_number_integer() || j.get<std::int64_t>() < 0 || j.get<std::int64_t>() > 10'000'000) {
      problem(pointer, "not a line number");
      return 0;
    }
    return j.get<int>();
  }

  Shape shape(const json& j, const std::string& pointer) {
    Shape s;
    if (!j.is_array()) {
      problem(pointer, "not an array of dimensions");
      return s;
    }
    if (j.size() > kMaxKernelBenchRank) {
      problem(pointer,
              "rank " + std::to_string(j.size()) + " is over " + std::to_string(kMaxKernelBenchRank));
      return s;
    }
    std::int64_t elements = 1;
    for (std::size_t k = 0; k < j.size(); ++k) {
      const json& d = j[k];
      if (!d.is_number_integer() || d.get<std::int64_t>() < 1 || d.get<std::int64_t>() > kMaxDimension) {
        problem(pointer + "/" + std::to_string(k),
                "a dimension must be an integer from 1 to " + std::to_string(kMaxDimension));
        return {};
      }
      s.push_back(d.get<std::int64_t>());
      elements *= s.back();
      if (elements > kMaxTensorElements) {
        problem(pointer, "more than " + std::to_string(kMaxTensorElements) + " elements");
        return {};
      }
    }
    return s;
  }

  std::vector<KernelBenchTensor> tensors(const json& j, const std::string& pointer) {
    std::vector<KernelBenchTensor> out;
    if (!j.is_array()) {
      problem(pointer, "not an array");
      return out;
    }
    if (j.empty() || j.size() > kMaxKernelBenchTensors) {
      problem(pointer, std::to_string(j.size()) + " tensors; from 1 to " +
                           std::to_string(kMaxKernelBenchTensors) + " are imported");
      return out;
    }
    std::set<std::string> seen;
    for (std::size_t k = 0; k < j.size(); ++k) {
      const std::string p = pointer + "/" + std::to_string(k);
      if (!j[k].is_object() || !j[k].contains("name") || !j[k].contains("dtype") || !j[k].contains("shape")) {
        problem(p, "not an object with name, dtype and shape");
        continue;
      }
      KernelBenchTensor t{text(j[k]["name"], p + "/name"), text(j[k]["dtype"], p + "/dtype"),
                          shape(j[k]["shape"], p + "/shape")};
      if (!isCIdentifier(t.name)) problem(p + "/name", "\"" + t.name + "\" is not a C identifier");
      if (!seen.insert(t.name).second) problem(p + "/name", "\"" + t.name + "\" repeats");
      if (t.dtype.size() > 32 ||
          t.dtype.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") != std::string::npos)
        problem(p + "/dtype", "not a dtype name");
      out.push_back(std::move(t));
    }
    return out;
  }

  std::vector<KernelBenchOp> ops(const json& j, const std::string& pointer) {
    std::vector<KernelBenchOp> out;
    if (!j.is_array() || j.size() > kMaxOps) {
      problem(pointer, "not an array of at most " + std::to_string(kMaxOps) + " ops");
      return out;
    }
    for (std::size_t k = 0; k < j.size(); ++k) {
      const std::string p = pointer + "/" + std::to_string(k);
      if (!j[k].is_object() || !j[k].contains("name") || !j[k].contains("line")) {
        problem(p, "not an object with name and line");
        continue;
      }
      out.push_back({text(j[k]["name"], p + "/name"), line(j[k]["line"], p + "/line")});
    }
    return out;
  }

 private:
  std::vector<std::string>& problems_;
};

Diagnostic importProblem(const std::string& file, int line, std::string message) {
  Diagnostic d;
  d.source = "workbench";
  d.category = std::string(category::InvalidParam);
  d.file = file;
  d.line = line;
  d.message = std::move(message);
  return d;
}

std::string taskNameFrom(const fs::path& file) {
  std::string name;
  for (char c : file.stem().string())
    name += std::isalnum(static_cast<unsigned char>(c))
                ? static_cast<char>(std::tolower(static_cast<unsigned char>(c)))
                : '_';
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name.front()))) name = "kb_" + name;
  return name;
}

bool writeFile(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  return static_cast<bool>(out);
}

}  // namespace

KernelBenchDescriptionParse parseKernelBenchDescription(const std::string& jsonText) {
  KernelBenchDescriptionParse r;
  DescriptionReader rd(r.problems);
  if (jsonText.size() > kMaxKernelBenchDescriptionBytes) {
    rd.problem("", "the description is over " + std::to_string(kMaxKernelBenchDescriptionBytes) + " bytes");
    return r;
  }
  const json j = json::parse(jsonText, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    rd.problem("", "not a JSON object");
    return r;
  }
  KernelBenchDescription& d = r.description;
  if (!j.contains("ok") || !j["ok"].is_boolean()) {
    rd.problem("/ok", "missing or not a boolean");
    return r;
  }
  d.ok = j["ok"].get<bool>();
  if (!d.ok) {
    d.kind = j.contains("kind") ? rd.text(j["kind"], "/kind") : "unknown";
    d.error = j.contains("error") ? rd.text(j["error"], "/error") : "no reason given";
    d.line = j.contains("line") ? rd.line(j["line"], "/line") : 0;
    return r;
  }
  for (const char* key :
       {"inputs", "outputs", "ops", "cube_ops", "init_inputs", "extra_cases", "forward_line"})
    if (!j.contains(key)) rd.problem(std::string("/") + key, "missing");
  if (!r.ok()) return r;
  d.inputs = rd.tensors(j["inputs"], "/inputs");
  d.outputs = rd.tensors(j["outputs"], "/outputs");
  for (const auto& o : d.outputs)
    for (const auto& i : d.inputs)
      if (o.name == i.name) rd.problem("/outputs", "output \"" + o.name + "\" has an input's name");
  d.ops = rd.ops(j["ops"], "/ops");
  d.cubeOps = rd.ops(j["cube_ops"], "/cube_ops");
  d.forwardLine = rd.line(j["forward_line"], "/forward_line");
  const json& init = j["init_inputs"];
  if (!init.is_array() || init.size() > kMaxKernelBenchTensors) {
    rd.problem("/init_inputs",
               "not an array of at most " + std::to_string(kMaxKernelBenchTensors) + " strings");
  } else {
    for (std::size_t k = 0; k < init.size(); ++k)
      d.initInputs.push_back(rd.text(init[k], "/init_inputs/" + std::to_string(k)));
  }
  const json& extra = j["extra_cases"];
  if (!extra.is_array() || extra.size() > kMaxKernelBenchExtraCases) {
    rd.problem("/extra_cases",
               "not an array of at most " + std::to_string(kMaxKernelBenchExtraCases) + " cases");
    return r;
  }
  for (std::size_t k = 0; k < extra.size(); ++k) {
    const std::string p = "/extra_cases/" + std::to_string(k);
    const json& c = extra[k];
    if (!c.is_object() || !c.contains("name") || !c.contains("ok") || !c["ok"].is_boolean()) {
      rd.problem(p, "not an object with name and ok");
      continue;
    }
    KernelBenchExtraCase e;
    e.name = rd.text(c["name"], p + "/name");
    e.ok = c["ok"].get<bool>();
    if (!e.ok) {
      e.error = c.contains("error") ? rd.text(c["error"], p + "/error") : "no reason given";
    } else {
      for (const char* key : {"inputs", "outputs"}) {
        if (!c.contains(key) || !c[key].is_array()) {
          rd.problem(p + "/" + key, "missing or not an array");
          continue;
        }
        const std::size_t want = std::string(key) == "inputs" ? d.inputs.size() : d.outputs.size();
        if (c[key].size() != want) {
          rd.problem(p + "/" + key,
                     std::to_string(c[key].size()) + " shapes for " + std::to_string(want) + " tensors");
          continue;
        }
        for (std::size_t t = 0; t < c[key].size(); ++t)
          (std::string(key) == "inputs" ? e.inputs : e.outputs)
              .push_back(rd.shape(c[key][t], p + "/" + key + "/" + std::to_string(t)));
      }
    }
    d.extraCases.push_back(std::move(e));
  }
  return r;
}

KernelBenchShapeCase parseKernelBenchShapeOption(const std::string& text, const std::string& name) {
  KernelBenchShapeCase c{name, {}};
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = text.find(',', start);
    const std::string item =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      // An error message, built once when the input is refused
      // NOLINTNEXTLINE(performance-inefficient-string-concatenation)
      throw std::invalid_argument("--shape \"" + text + "\": \"" + item + "\" is not INPUT=AxBx...");
    const std::string tensor = item.substr(0, eq);
    if (!isCIdentifier(tensor))
      // An error message, built once when the input is refused
      // NOLINTNEXTLINE(performance-inefficient-string-concatenation)
      throw std::invalid_argument("--shape \"" + text + "\": \"" + tensor + "\" is not an input name");
    Shape dims;
    std::size_t p = eq + 1;
    while (p <= item.size()) {
      const std::size_t x = item.find('x', p);
      const std::string dim = item.substr(p, x == std::string::npos ? std::string::npos : x - p);
      if (dim.empty() || dim.size() > 9 || dim.find_first_not_of("0123456789") != std::string::npos ||
          std::stoll(dim) < 1)
        throw std::invalid_argument("--shape \"" + text + "\": \"" + item.substr(eq + 1) +
                                    "\" is not a shape like 4x1024 (dimensions from 1)");
      dims.push_back(std::stoll(dim));
      if (x == std::string::npos) break;
      p = x + 1;
    }
    if (dims.size() > kMaxKernelBenchRank)
      throw std::invalid_argument("--shape \"" + text + "\": rank over " +
                                  std::to_string(kMaxKernelBenchRank));
    if (!c.shapes.emplace(tensor, dims).second)
      // An error message, built once when the input is refused
      // NOLINTNEXTLINE(performance-inefficient-string-concatenation)
      throw std::invalid_argument("--shape \"" + text + "\": " + tensor + " given twice");
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return c;
}

std::vector<KernelBenchShapeCase> readKernelBenchCasesFile(const fs::path& file) {
  std::string error;
  const auto text = readBoundedRegularFile(file, kMaxKernelBenchDescriptionBytes, error);
  if (!text) throw std::runtime_error(error);
  const json j = json::parse(*text, nullptr, false);
  const std::string where = file.string() + ": ";
  if (j.is_discarded() || !j.is_array()) throw std::runtime_error(where + "not a JSON array of cases");
  if (j.size() > kMaxKernelBenchExtraCases)
    throw std::runtime_error(where + "more than " + std::to_string(kMaxKernelBenchExtraCases) + " cases");
  std::vector<KernelBenchShapeCase> out;
  for (std::size_t k = 0; k < j.size(); ++k) {
    const std::string p = where + "/" + std::to_string(k);
    const json& c = j[k];
    if (!c.is_object() || !c.contains("name") || !c["name"].is_string() || !c.contains("shapes") ||
        !c["shapes"].is_object())
      throw std::runtime_error(p + ": not an object with a name and shapes {input: [dims]}");
    KernelBenchShapeCase sc{c["name"].get<std::string>(), {}};
    if (!isValidCaseName(sc.name))
      throw std::runtime_error(p + "/name: \"" + sc.name + "\" is not a case name");
    for (const auto& [tensor, dims] : c["shapes"].items()) {
      if (!isCIdentifier(tensor))
        // An error message, built once when the input is refused
        // NOLINTNEXTLINE(performance-inefficient-string-concatenation)
        throw std::runtime_error(p + "/shapes: \"" + tensor + "\" is not an input name");
      Shape s;
      if (!dims.is_array() || dims.size() > kMaxKernelBenchRank)
        // An error message, built once when the input is refused
        // NOLINTNEXTLINE(performance-inefficient-string-concatenation)
        throw std::runtime_error(p + "/shapes/" + tensor + ": not an array of at most " +
                                 std::to_string(kMaxKernelBenchRank) + " dimensions");
      for (const auto& d : dims) {
        if (!d.is_number_integer() || d.get<std::int64_t>() < 1 || d.get<std::int64_t>() > kMaxDimension)
          // An error message, built once when the input is refused
          // NOLINTNEXTLINE(performance-inefficient-string-concatenation)
          throw std::runtime_error(p + "/shapes/" + tensor + ": dimensions are integers from 1");
        s.push_back(d.get<std::int64_t>());
      }
      sc.shapes[tensor] = s;
    }
    out.push_back(std::move(sc));
  }
  return out;
}

KernelBenchImport importKernelBenchProblem(const fs::path& problemFile,
                                           const KernelBenchImportOptions& options) {
  KernelBenchImport r;
  const std::string file = problemFile.string();
  auto refuse = [&](int line, std::string message) {
    r.errors.push_back(importProblem(file, line, std::move(message)));
  };
  std::string error;
  const auto source = readBoundedRegularFile(problemFile, kMaxProblemBytes, error);
  if (!source) {
    refuse(0, error);
    return r;
  }
  if (!isValidUtf8(*source)) {
    refuse(0, "not UTF-8 text, so not a Python problem file");
    return r;
  }
  r.problemSource = *source;
  std::set<std::string> caseNames = {"get_inputs"};
  json request = {{"cases", json::array()}};
  for (const auto& c : options.extraCases) {
    if (!isValidCaseName(c.name) || !caseNames.insert(c.name).second) {
      refuse(0, "extra case \"" + c.name + "\": not a case name, or one already used");
      return r;
    }
    json shapes = json::object();
    for (const auto& [tensor, dims] : c.shapes) shapes[tensor] = dims;
    request["cases"].push_back({{"name", c.name}, {"shapes", shapes}});
  }

  TempWorkDir scratch(makeTempWorkDir("kwb-kernelbench-", error));
  if (scratch.path().empty()) {
    refuse(0, error);
    return r;
  }
  const std::string problemName = problemFile.filename().string();
  const fs::path output = scratch.path() / "description.json";
  const fs::path script = scratch.path() / "describe.py";
  // A JSON document of strings, integers and arrays is also a Python literal.
  const std::string assignments =
      "OUTPUT_FILE = " + json(output.string()).dump() + "\nREQUEST = " + request.dump() + "\n";
  if (!writeFile(script,
                 kernelBenchProgram(problemName, *source, kernelBenchDescribeScript(), assignments))) {
    refuse(0, "cannot write " + script.string());
    return r;
  }
  const SandboxResult run = Sandbox(verify::torchSandboxPolicy(scratch.path()))
                                .run({verify::torchPython(), "-I", "-B", script.string()});
  const auto described = readBoundedRegularFile(output, kMaxKernelBenchDescriptionBytes, error);
  if (!described) {
    refuse(0,
           "running the problem in the sandbox failed (" + run.process.describeOutcome() +
               "): " + run.stderrText().substr(0, kMaxTextBytes) +
               "\n(python3-torch is needed: apt-get install python3-torch)\ncommand: " + run.commandLine());
    return r;
  }
  const KernelBenchDescriptionParse parsed = parseKernelBenchDescription(*described);
  if (!parsed.ok()) {
    for (const auto& p : parsed.problems) refuse(0, "the problem's description is unusable: " + p);
    return r;
  }
  const KernelBenchDescription& d = parsed.description;
  if (!d.ok) {
    const std::string why = d.kind == "not-kernelbench" || d.kind == "syntax" ? "not a KernelBench problem: "
                            : d.kind == "torch"                               ? ""
                                                                              : "cannot import: ";
    // Debian's CPU torch lacks many float16 kernels; say so, since the problem itself may be fine.
    const bool noHalfKernel = d.error.find("not implemented for 'Half'") != std::string::npos;
    refuse(d.line, why + d.error +
                       (noHalfKernel ? " (python3-torch on the CPU has no float16 kernel for this op, so it "
                                       "cannot be the reference; a float32 or bfloat16 problem can)"
                                     : ""));
    return r;
  }
  std::set<std::string> cubeSeen;
  for (const auto& op : d.cubeOps)
    if (cubeSeen.insert(op.name).second)
      refuse(op.line,
             "forward() calls torch " + op.name +
                 ", which needs the cube unit (matrix multiply / convolution); the emulator has only the "
                 "vector unit so far (docs/emulator.md), so this problem cannot be imported yet");
  auto mapDType = [&](const KernelBenchTensor& t, const std::string& what) -> DType {
    const auto dt = parseDType(t.dtype);
    if (!dt || (*dt != DType::Float32 && *dt != DType::Float16 && *dt != DType::BFloat16)) {
      refuse(d.forwardLine, what + " " + t.name + " is " + t.dtype +
                                ": only float32, float16 and bfloat16 tensors are imported");
      return DType::Float32;
    }
    return *dt;
  };
  Task& task = r.task;
  task.name = options.name.empty() ? taskNameFrom(problemFile) : options.name;
  if (!isCIdentifier(task.name))
    refuse(0, "task name \"" + task.name + "\" is not a C identifier (use --name)");
  task.category = "kernelbench";
  if (!options.soc.empty()) task.soc = options.soc;
  std::string signature;
  for (const auto& t : d.inputs) {
    task.inputs.push_back({t.name, mapDType(t, "input"), "ND"});
    signature += (signature.empty() ? "" : ", ") + t.name + " " + t.dtype;
  }
  std::string results;
  for (const auto& t : d.outputs) {
    task.outputs.push_back({t.name, mapDType(t, "output"), "ND"});
    results += (results.empty() ? "" : ", ") + t.name + " " + t.dtype;
  }
  std::string init;
  for (const auto& v : d.initInputs) init += (init.empty() ? "" : ", ") + v;
  task.description =
      "Imported from the KernelBench problem " + problemName + ": Model(" + init + ").forward(" + signature +
      ") -> " + results +
      "; the reference runs that PyTorch module (kernelbench_problem.py beside task.json). Torch "
      "functions forward() calls:";
  std::set<std::string> opNames;
  for (const auto& op : d.ops)
    if (opNames.insert(op.name).second) task.description += " " + op.name;
  task.description += ".";
  VerificationCase first;
  first.name = "get_inputs";
  for (const auto& t : d.inputs) first.shapes[t.name] = t.shape;
  for (const auto& t : d.outputs) first.shapes[t.name] = t.shape;
  task.cases.push_back(first);
  if (d.extraCases.size() != options.extraCases.size()) {
    refuse(0, "the problem's description has " + std::to_string(d.extraCases.size()) + " extra cases, " +
                  std::to_string(options.extraCases.size()) + " were asked for");
    return r;
  }
  for (std::size_t k = 0; k < d.extraCases.size(); ++k) {
    const auto& e = d.extraCases[k];
    if (e.name != options.extraCases[k].name) {
      refuse(0, "the problem's description renamed extra case " + options.extraCases[k].name);
      continue;
    }
    if (!e.ok) {
      refuse(d.forwardLine, "extra case " + e.name + ": forward() fails on those shapes: " + e.error);
      continue;
    }
    for (const auto& [tensor, dims] : options.extraCases[k].shapes)
      if (!task.findTensor(tensor) || !task.isInput(tensor))
        refuse(0, "extra case " + e.name + " gives a shape for " + tensor +
                      ", which is not an input of forward()");
    VerificationCase c;
    c.name = e.name;
    for (std::size_t t = 0; t < d.inputs.size(); ++t) c.shapes[d.inputs[t].name] = e.inputs[t];
    for (std::size_t t = 0; t < d.outputs.size(); ++t) c.shapes[d.outputs[t].name] = e.outputs[t];
    task.cases.push_back(std::move(c));
  }
  if (!r.ok()) return r;
  for (const auto& issue : validateTask(task))
    refuse(0, "the derived task is not valid at " + issue.pointer + ": " + issue.message);
  r.referenceSource = kernelBenchProgram(problemName, *source, kernelBenchReferenceScript());
  return r;
}

std::string writeKernelBenchTask(const KernelBenchImport& imported, const fs::path& out) {
  if (!imported.ok()) return "the import has errors: " + imported.errors.front().format();
  std::error_code ec;
  if (fs::exists(out / "task.json", ec))
    return out.string() + ": already holds a task.json; choose an empty folder";
  fs::create_directories(out, ec);
  if (ec) return "cannot create " + out.string() + ": " + ec.message();
  if (!writeFile(out / "task.json", json(imported.task).dump(2) + "\n"))
    return "cannot write " + (out / "task.json").string();
  if (!writeFile(out / "reference.py", imported.referenceSource))
    return "cannot write " + (out / "reference.py").string();
  if (!writeFile(out / "kernelbench_problem.py", imported.problemSource))
    return "cannot write " + (out / "kernelbench_problem.py").string();
  return {};
}

}  // namespace kwb
