// SPDX-License-Identifier: MIT
// validateTask: the semantic rules of task.json. Each issue carries the JSON pointer of the value to
// fix, so "kwb task validate" and load errors point at the exact line a person has to edit.

#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "core/model/JsonReader.h"
#include "core/model/SizeLimits.h"
#include "core/model/Task.h"

namespace kwb {

namespace {

// Names that would not compile as kernel parameters or that clash with the fixed trailing parameters
// of the candidate contract (..., GM_ADDR workspace, GM_ADDR tiling).
bool isReservedName(std::string_view s) {
  static constexpr std::string_view kReserved[] = {
      "workspace", "tiling", "alignas", "alignof",   "and",      "asm",      "auto",      "bool",
      "break",     "case",   "catch",   "char",      "class",    "const",    "constexpr", "continue",
      "default",   "delete", "do",      "double",    "else",     "enum",     "explicit",  "export",
      "extern",    "false",  "float",   "for",       "friend",   "goto",     "if",        "inline",
      "int",       "long",   "mutable", "namespace", "new",      "noexcept", "not",       "nullptr",
      "operator",  "or",     "private", "protected", "public",   "register", "return",    "short",
      "signed",    "sizeof", "static",  "struct",    "switch",   "template", "this",      "throw",
      "true",      "try",    "typedef", "union",     "unsigned", "using",    "void",      "while"};
  for (auto r : kReserved)
    if (r == s) return true;
  return false;
}

std::string ptr(std::string_view base, std::string_view token) {
  return std::string(base) + "/" + escapePointerToken(token);
}

std::string mib(std::int64_t bytes) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return buf;
}

std::string ptr(std::string_view base, std::size_t index) {
  return std::string(base) + "/" + std::to_string(index);
}

class Checker {
 public:
  explicit Checker(const Task& t) : task_(t) {}

  std::vector<ValidationIssue> run() {
    checkName();
    checkTensors();
    checkAttrs();
    checkCases();
    checkTolerances();
    checkHints();
    return std::move(issues_);
  }

 private:
  void add(std::string pointer, std::string message) {
    issues_.push_back({std::move(pointer), std::move(message)});
  }

  void checkIdentifier(const std::string& pointer, const std::string& what, const std::string& name) {
    if (!isCIdentifier(name))
      add(pointer,
          what + " \"" + name + "\" is not a C identifier (letters, digits, _; not starting with a digit)");
    else if (isReservedName(name))
      add(pointer, what + " \"" + name + "\" is reserved (a C++ keyword or a fixed kernel parameter)");
  }

  void checkName() { checkIdentifier("/name", "kernel name", task_.name); }

  void checkTensors() {
    if (task_.inputs.empty()) add("/inputs", "a task needs at least one input tensor");
    if (task_.outputs.empty()) add("/outputs", "a task needs at least one output tensor");
    auto each = [&](const std::vector<TensorDecl>& list, const std::string& base) {
      for (std::size_t i = 0; i < list.size(); ++i) {
        const auto p = ptr(ptr(base, i), "name");
        checkIdentifier(p, "tensor name", list[i].name);
        if (auto [it, inserted] = names_.emplace(list[i].name, p); !inserted)
          add(p, "duplicate tensor name \"" + list[i].name + "\" (already used at " + it->second + ")");
        if (!isKnownFormat(list[i].format))
          add(ptr(ptr(base, i), "format"), "unknown format \"" + list[i].format + "\"");
      }
    };
    each(task_.inputs, "/inputs");
    each(task_.outputs, "/outputs");
  }

  void checkAttrs() {
    std::set<std::string> seen;
    for (std::size_t i = 0; i < task_.attrs.size(); ++i) {
      const auto& a = task_.attrs[i];
      const auto p = ptr(ptr("/attrs", i), "name");
      checkIdentifier(p, "attribute name", a.name);
      if (!seen.insert(a.name).second) add(p, "duplicate attribute name \"" + a.name + "\"");
      if (names_.count(a.name)) add(p, "attribute \"" + a.name + "\" has the same name as a tensor");
      if (a.defaultValue)
        if (auto why = checkAttrValue(a.type, *a.defaultValue); !why.empty())
          add(ptr(ptr("/attrs", i), "default"),
              "expected " + why + " but found " + describeJson(*a.defaultValue));
    }
  }

  void checkCases() {
    if (task_.cases.empty()) add("/cases", "a task needs at least one verification case");
    std::set<std::string> caseNames;
    for (std::size_t ci = 0; ci < task_.cases.size(); ++ci) {
      const auto& c = task_.cases[ci];
      const auto base = ptr("/cases", ci);
      if (!isValidCaseName(c.name))
        add(ptr(base, "name"), "case name \"" + c.name + "\" must be letters, digits, '_', '-', '.'");
      if (!caseNames.insert(c.name).second) add(ptr(base, "name"), "duplicate case name \"" + c.name + "\"");
      checkCaseShapes(c, base);
      checkCaseAttrs(c, base);
      for (const auto& [tensor, hint] : c.tensorValues) {
        const auto p = ptr(ptr(base, "tensor_values"), tensor);
        if (!task_.isInput(tensor)) add(p, "\"" + tensor + "\" is not an input tensor");
        checkHint(hint, p);
      }
      if (c.values) checkHint(*c.values, ptr(base, "values"));
    }
  }

  void checkCaseShapes(const VerificationCase& c, const std::string& base) {
    const auto shapesPtr = ptr(base, "shapes");
    auto need = [&](const std::vector<TensorDecl>& list, const char* kind) {
      for (const auto& t : list)
        if (!c.shapes.count(t.name))
          add(shapesPtr,
              "missing shape for " + std::string(kind) + " \"" + t.name + "\" in case \"" + c.name + "\"");
    };
    need(task_.inputs, "input");
    need(task_.outputs, "output");
    std::int64_t caseBytes = 0;
    for (const auto& [tensor, shape] : c.shapes) {
      const auto p = ptr(shapesPtr, tensor);
      const TensorDecl* decl = task_.findTensor(tensor);
      if (!decl) {
        add(p, "\"" + tensor + "\" is not a tensor of this task");
        continue;
      }
      if (auto why = validateShape(shape); !why.empty()) {
        add(p, why);
        continue;
      }
      std::int64_t elements = 1;
      for (auto d : shape) elements *= d;  // validateShape bounds the product (2^40)
      const std::int64_t bytes = elements * static_cast<std::int64_t>(dtypeSize(decl->dtype));
      if (elements > kMaxTensorElements || bytes > kMaxTensorBytes)
        add(p, "shape " + shapeToString(shape) + " is " + std::to_string(elements) + " elements (" +
                   mib(bytes) + " of " + std::string(dtypeName(decl->dtype)) +
                   "); a tensor may have at most " + std::to_string(kMaxTensorElements) + " elements and " +
                   mib(kMaxTensorBytes));
      caseBytes += bytes;
    }
    if (caseBytes > kMaxCaseBytes)
      add(shapesPtr, "the tensors of case \"" + c.name + "\" total " + mib(caseBytes) +
                         "; a case may have at most " + mib(kMaxCaseBytes));
  }

  void checkCaseAttrs(const VerificationCase& c, const std::string& base) {
    for (const auto& [name, value] : c.attrs) {
      const auto p = ptr(ptr(base, "attrs"), name);
      const AttrDecl* decl = nullptr;
      for (const auto& a : task_.attrs)
        if (a.name == name) decl = &a;
      if (!decl) {
        add(p, "unknown attribute \"" + name + "\" (declare it in /attrs)");
        continue;
      }
      if (auto why = checkAttrValue(decl->type, value); !why.empty())
        add(p, "expected " + why + " but found " + describeJson(value));
    }
    for (const auto& a : task_.attrs)
      if (!a.defaultValue && !c.attrs.count(a.name))
        add(ptr(base, "attrs"), "missing value for attribute \"" + a.name + "\" (it has no default)");
  }

  void checkHint(const ValueHint& h, const std::string& p) {
    auto finite = [](const std::optional<double>& v) { return !v || std::isfinite(*v); };
    if (!finite(h.low) || !finite(h.high)) add(p, "value bounds must be finite");
    if (h.low && h.high && *h.low > *h.high) add(ptr(p, "high"), "high is below low");
  }

  void checkTolerances() {
    for (const auto& [dtype, t] : task_.tolerances) {
      const auto p = ptr("/tolerances", dtypeName(dtype));
      if (!(t.atol >= 0) || !(t.rtol >= 0) || !std::isfinite(t.atol) || !std::isfinite(t.rtol))
        add(p, "atol and rtol must be finite and >= 0");
      if (!(t.maxMismatchRatio >= 0 && t.maxMismatchRatio <= 1))
        add(ptr(p, "max_mismatch_ratio"), "max_mismatch_ratio must be in [0, 1]");
    }
  }

  void checkHints() {
    if (task_.soc.empty()) add("/soc", "soc must not be empty (e.g. \"Ascend910B1\")");
    if (task_.blockDim && (*task_.blockDim < 1 || *task_.blockDim > 65535))
      add("/block_dim", "block_dim must be in [1, 65535]");
    if (task_.baseline && !(task_.baseline->latencyUs > 0 && std::isfinite(task_.baseline->latencyUs)))
      add("/baseline/latency_us", "baseline latency must be a positive number of microseconds");
  }

  const Task& task_;
  std::map<std::string, std::string> names_;  // tensor name -> pointer of its first declaration
  std::vector<ValidationIssue> issues_;
};

}  // namespace

std::vector<ValidationIssue> validateTask(const Task& task) {
  return Checker(task).run();
}

}  // namespace kwb
