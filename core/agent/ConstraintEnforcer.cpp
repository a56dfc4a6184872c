// SPDX-License-Identifier: MIT
#include "core/agent/ConstraintEnforcer.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <regex>

#include "core/agent/CandidateEvaluator.h"

namespace kwb {

namespace {

std::string trim(std::string s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return {};
  const auto e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

std::string stripNumberSuffix(std::string v) {
  while (!v.empty() && std::strchr("uUlLfF", v.back()) &&
         !(v.size() > 1 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X') &&
           std::isxdigit(static_cast<unsigned char>(v.back()))))
    v.pop_back();
  return v;
}

Diagnostic violation(const Constraint& c, const std::string& file, int line, std::string message) {
  Diagnostic d;
  d.constraintId = c.id;
  d.source = "policy";
  d.severity = Severity::Error;
  d.category = std::string(category::PolicyViolation);
  d.file = file;
  d.line = line;
  d.message = std::move(message);
  return d;
}

}  // namespace

std::vector<ParameterDefinition> findParameterDefinitions(const std::string& source,
                                                          const std::string& name) {
  std::vector<ParameterDefinition> out;
  if (name.empty()) return out;
  std::string escaped;
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') escaped += '\\';
    escaped += c;
  }
  const std::regex define("^\\s*#\\s*define\\s+" + escaped + "\\s+(.+?)\\s*(//.*)?$");
  const std::regex assign("(^|[^A-Za-z0-9_.>])" + escaped + "\\s*(=|\\{)\\s*([^;,{}()]+?)\\s*[;,}]");
  int lineNo = 0;
  std::size_t pos = 0;
  while (pos <= source.size()) {
    const auto nl = source.find('\n', pos);
    const std::string line = source.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
    ++lineNo;
    std::smatch m;
    if (std::regex_search(line, m, define)) {
      out.push_back({lineNo, trim(m[1].str())});
    } else if (std::regex_search(line, m, assign)) {
      // Skip comparisons (==) and compound assignment: the regex above already requires '=' or '{'
      // right after the name; reject "==".
      const auto at = static_cast<std::size_t>(m.position(2));
      if (!(m[2].str() == "=" && at + 1 < line.size() && line[at + 1] == '='))
        out.push_back({lineNo, trim(m[3].str())});
    }
    if (nl == std::string::npos) break;
    pos = nl + 1;
  }
  return out;
}

bool parameterValueMatches(const std::string& written, const nlohmann::json& pinned) {
  std::string w = trim(written);
  while (w.size() >= 2 && w.front() == '(' && w.back() == ')') w = trim(w.substr(1, w.size() - 2));
  if (pinned.is_number()) {
    const std::string n = stripNumberSuffix(w);
    if (n.empty()) return false;
    char* end = nullptr;
    double v = 0;
    if (n.size() > 2 && n[0] == '0' && (n[1] == 'x' || n[1] == 'X'))
      v = static_cast<double>(std::strtoull(n.c_str(), &end, 16));
    else
      v = std::strtod(n.c_str(), &end);
    if (end == n.c_str() || *end != '\0') return false;
    const double p = pinned.get<double>();
    return std::fabs(v - p) <= 1e-9 * std::max(1.0, std::fabs(p));
  }
  if (pinned.is_boolean()) return w == (pinned.get<bool>() ? "true" : "false");
  if (pinned.is_string()) {
    const std::string p = pinned.get<std::string>();
    return w == p || w == "\"" + p + "\"";
  }
  return false;
}

bool isRunTimeParameter(const std::string& name) {
  return name == "blockDim" || name == "block_dim";
}

std::vector<Diagnostic> ConstraintEnforcer::before(const Candidate& candidate) const {
  std::vector<Diagnostic> out;
  for (const auto& c : constraints_) {
    switch (c.kind) {
      case ConstraintKind::TextRule:
        break;
      case ConstraintKind::LockedRegion: {
        const std::string* src = candidate.file(c.file);
        if (!src) {
          out.push_back(
              violation(c, c.file, c.startLine,
                        "locked region (constraint " + std::to_string(c.id) + ") is in " + c.file +
                            ", which the candidate no longer has: keep the file and the locked lines " +
                            std::to_string(c.startLine) + "-" + std::to_string(c.endLine) + " verbatim"));
          break;
        }
        if (!findLockedRegion(c, *src)) {
          Diagnostic d =
              violation(c, c.file, c.startLine,
                        "the locked region " + c.file + " lines " + std::to_string(c.startLine) + "-" +
                            std::to_string(c.endLine) + " (constraint " + std::to_string(c.id) +
                            ") was changed or removed; it must appear verbatim");
          d.notes.push_back("locked text:\n" + c.text);
          out.push_back(std::move(d));
        }
        break;
      }
      case ConstraintKind::FixedParameter: {
        // blockDim is chosen at run time by kwb_tiling; it is checked against the tiling result instead.
        if (isRunTimeParameter(c.parameter)) break;
        bool found = false;
        for (const auto& [file, src] : candidate.files) {
          for (const auto& def : findParameterDefinitions(src, c.parameter)) {
            found = true;
            if (!parameterValueMatches(def.value, c.value))
              out.push_back(violation(c, file, def.line,
                                      "fixed parameter " + c.parameter + " must be " + c.value.dump() +
                                          " (constraint " + std::to_string(c.id) +
                                          "), the candidate sets it to " + def.value));
          }
        }
        if (!found)
          out.push_back(violation(c, primaryCandidateFile(candidate).first, 0,
                                  "fixed parameter " + c.parameter + " = " + c.value.dump() +
                                      " (constraint " + std::to_string(c.id) +
                                      ") is no longer defined; keep its definition with that value"));
        break;
      }
    }
  }
  return out;
}

std::vector<Diagnostic> ConstraintEnforcer::after(const nlohmann::json& report) const {
  std::vector<Diagnostic> out;
  if (!report.is_object() || !report.contains("runs") || !report["runs"].is_array()) return out;
  for (const auto& c : constraints_) {
    if (c.kind != ConstraintKind::FixedParameter || !isRunTimeParameter(c.parameter)) continue;
    for (const auto& r : report["runs"]) {
      if (!r.is_object()) continue;
      const auto bdIt = r.find("block_dim");
      const int bd = bdIt != r.end() && bdIt->is_number_integer() ? bdIt->get<int>() : 0;
      if (bd == 0 || parameterValueMatches(std::to_string(bd), c.value)) continue;
      const auto caseIt = r.find("case");
      const std::string caseName = caseIt != r.end() && caseIt->is_string() ? caseIt->get<std::string>() : "";
      out.push_back(violation(c, "", 0,
                              "fixed parameter blockDim must be " + c.value.dump() + " (constraint " +
                                  std::to_string(c.id) + "), kwb_tiling chose " + std::to_string(bd) +
                                  " for case " + caseName));
      break;  // one finding per constraint: the first case that breaks it
    }
  }
  return out;
}

}  // namespace kwb
