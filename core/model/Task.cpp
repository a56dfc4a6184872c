// SPDX-License-Identifier: MIT
#include "core/model/Task.h"

#include <cmath>
#include <system_error>

#include "core/model/JsonReader.h"
#include "core/model/SchemaVersion.h"

namespace kwb {

Tolerance Task::toleranceFor(DType t) const {
  auto it = tolerances.find(t);
  return it != tolerances.end() ? it->second : defaultTolerance(t);
}

const TensorDecl* Task::findTensor(std::string_view tensor) const {
  for (const auto& t : inputs)
    if (t.name == tensor) return &t;
  for (const auto& t : outputs)
    if (t.name == tensor) return &t;
  return nullptr;
}

bool Task::isInput(std::string_view tensor) const {
  for (const auto& t : inputs)
    if (t.name == tensor) return true;
  return false;
}

const VerificationCase* Task::findCase(std::string_view caseName) const {
  for (const auto& c : cases)
    if (c.name == caseName) return &c;
  return nullptr;
}

std::vector<TensorSpec> Task::caseTensors(const VerificationCase& c) const {
  std::vector<TensorSpec> out;
  auto add = [&](const TensorDecl& d) {
    auto it = c.shapes.find(d.name);
    if (it != c.shapes.end()) out.push_back(TensorSpec{d.name, d.dtype, it->second, d.format});
  };
  for (const auto& d : inputs) add(d);
  for (const auto& d : outputs) add(d);
  return out;
}

nlohmann::json Task::caseAttrs(const VerificationCase& c) const {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& a : attrs) {
    auto it = c.attrs.find(a.name);
    if (it != c.attrs.end())
      out[a.name] = it->second;
    else if (a.defaultValue)
      out[a.name] = *a.defaultValue;
  }
  return out;
}

void read(const JsonReader& r, Task& task) {
  r.allowOnly({"schema_version", "name", "description", "category", "inputs", "outputs", "attrs", "cases",
               "tolerances", "soc", "block_dim", "baseline"});
  task = Task{};
  if (auto v = r.find("schema_version")) {
    const auto version = v->asInt(1, 1'000'000);
    if (version > kSchemaVersion)
      throw SchemaVersionError(r.file(), static_cast<int>(version), kSchemaVersion);
  }
  task.name = readIdentifier(r.at("name"));
  task.description = r.getString("description", "");
  task.category = r.getString("category", "");
  for (const auto& item : r.at("inputs").items()) read(item, task.inputs.emplace_back());
  for (const auto& item : r.at("outputs").items()) read(item, task.outputs.emplace_back());
  if (auto attrs = r.find("attrs"))
    for (const auto& item : attrs->items()) read(item, task.attrs.emplace_back());
  for (const auto& item : r.at("cases").items()) read(item, task.cases.emplace_back());
  if (auto tol = r.find("tolerances")) {
    for (const auto& [key, value] : tol->members()) {
      auto dtype = parseDType(key);
      if (!dtype)
        value.fail("unknown dtype \"" + key + "\" as tolerance key; expected one of " + validDTypeNames());
      read(value, task.tolerances[*dtype], defaultTolerance(*dtype));
    }
  }
  if (auto soc = r.find("soc")) task.soc = soc->asNonEmptyString();
  if (auto bd = r.find("block_dim")) task.blockDim = static_cast<int>(bd->asInt(1, 65535));
  if (auto b = r.find("baseline")) {
    b->allowOnly({"latency_us", "source"});
    Baseline base;
    auto lat = b->at("latency_us");
    base.latencyUs = lat.asNumber();
    if (!(base.latencyUs > 0.0)) lat.expected("a positive number of microseconds");
    base.source = b->getString("source", "");
    task.baseline = base;
  }
}

Task parseTask(const nlohmann::json& j, const std::string& fileLabel) {
  Task task;
  read(JsonReader(j, fileLabel), task);
  auto issues = validateTask(task);
  if (!issues.empty()) {
    std::string detail = issues.front().message;
    if (issues.size() > 1)
      detail += " (and " + std::to_string(issues.size() - 1) + " more problem" +
                (issues.size() > 2 ? "s" : "") + ")";
    throw LoadError(fileLabel, issues.front().pointer, detail);
  }
  return task;
}

Task loadTaskFile(const std::filesystem::path& taskJson) {
  Task task = parseTask(readJsonFile(taskJson), taskJson.string());
  task.files.taskJson = taskJson;
  task.files.dir = taskJson.parent_path();
  std::error_code ec;
  const auto dir = task.files.dir.empty() ? std::filesystem::path(".") : task.files.dir;
  if (std::filesystem::is_regular_file(dir / "reference.cpp", ec))
    task.files.reference = task.files.dir / "reference.cpp";
  else if (std::filesystem::is_regular_file(dir / "reference.py", ec))
    task.files.reference = task.files.dir / "reference.py";  // docs/task-format.md, "Python references"
  if (std::filesystem::is_regular_file(dir / "README.md", ec))
    task.files.readme = task.files.dir / "README.md";
  return task;
}

Task loadTaskDir(const std::filesystem::path& dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec))
    throw LoadError(dir.string(), "",
                    std::filesystem::exists(dir, ec) ? "not a task folder (it is not a directory)"
                                                     : "no such task folder");
  const auto file = dir / "task.json";
  if (!std::filesystem::exists(file, ec))
    throw LoadError(dir.string(), "", "not a task folder: it has no task.json");
  return loadTaskFile(file);
}

void to_json(nlohmann::json& j, const Baseline& b) {
  j = {{"latency_us", b.latencyUs}};
  if (!b.source.empty()) j["source"] = b.source;
}

void from_json(const nlohmann::json& j, Baseline& b) {
  JsonReader r(j, "");
  r.allowOnly({"latency_us", "source"});
  b.latencyUs = r.getNumber("latency_us");
  b.source = r.getString("source", "");
}

void to_json(nlohmann::json& j, const Task& t) {
  j = nlohmann::json::object();
  j["name"] = t.name;
  if (!t.description.empty()) j["description"] = t.description;
  if (!t.category.empty()) j["category"] = t.category;
  j["inputs"] = t.inputs;
  j["outputs"] = t.outputs;
  if (!t.attrs.empty()) j["attrs"] = t.attrs;
  j["cases"] = t.cases;
  if (!t.tolerances.empty()) {
    nlohmann::json tol = nlohmann::json::object();
    for (const auto& [dtype, tolerance] : t.tolerances) tol[std::string(dtypeName(dtype))] = tolerance;
    j["tolerances"] = tol;
  }
  j["soc"] = t.soc;
  if (t.blockDim) j["block_dim"] = *t.blockDim;
  if (t.baseline) j["baseline"] = *t.baseline;
}

void from_json(const nlohmann::json& j, Task& t) {
  t = parseTask(j, "");
}

}  // namespace kwb
