// SPDX-License-Identifier: MIT
#include "core/verify/AttributeCorrelation.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <set>
#include <sstream>
#include <string_view>

#include "core/diag/CodeStructure.h"

namespace kwb::verify {
namespace {

bool isIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

// [open, close] of every kwb_attr_*(...) call: the tiling's own reads of an attribute with its default.
std::vector<std::pair<std::size_t, std::size_t>> attrReadCalls(const CodeText& text) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  const std::string& s = text.code();
  for (std::size_t p = s.find("kwb_attr_"); p != std::string::npos; p = s.find("kwb_attr_", p + 1)) {
    if (p > 0 && isIdentChar(s[p - 1])) continue;
    std::size_t open = p;
    while (open < s.size() && isIdentChar(s[open])) ++open;
    while (open < s.size() && std::isspace(static_cast<unsigned char>(s[open])) != 0) ++open;
    if (open >= s.size() || s[open] != '(') continue;
    const std::size_t close = text.partner(open);
    if (close != std::string::npos) out.emplace_back(open, close);
  }
  return out;
}

bool sameNumber(double a, double b) {
  return a == b || std::fabs(a - b) <= 1e-6 * std::max(std::fabs(a), std::fabs(b));
}

std::string valueText(const nlohmann::json& v) {
  return v.dump();
}

std::optional<double> numberOf(const nlohmann::json& v) {
  if (v.is_number()) return v.get<double>();
  return std::nullopt;
}

void appendAll(std::string& out, std::initializer_list<std::string_view> parts) {
  for (const auto p : parts) out += p;
}

std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

}  // namespace

std::vector<int> linesWithLiteral(const std::string& source, double value) {
  const CodeText text(splitLines(source));
  const std::string& s = text.code();
  const auto excluded = attrReadCalls(text);
  std::set<int> lines;
  std::size_t i = 0;
  while (i < s.size()) {
    const bool startsNumber =
        std::isdigit(static_cast<unsigned char>(s[i])) != 0 ||
        (s[i] == '.' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])) != 0);
    if (!startsNumber || (i > 0 && (isIdentChar(s[i - 1]) || s[i - 1] == '.'))) {
      ++i;
      continue;
    }
    // The literal: digits, '.', an exponent with its sign, digit separators, suffixes.
    std::size_t end = i;
    while (end < s.size() && (isIdentChar(s[end]) || s[end] == '.' || s[end] == '\'' ||
                              ((s[end] == '-' || s[end] == '+') && (s[end - 1] == 'e' || s[end - 1] == 'E'))))
      ++end;
    std::string token;
    for (std::size_t k = i; k < end; ++k)
      if (s[k] != '\'') token += s[k];
    const bool hex = token.size() > 1 && token[0] == '0' && (token[1] == 'x' || token[1] == 'X');
    while (!token.empty() && std::string("fFuUlL").find(token.back()) != std::string::npos) token.pop_back();
    char* parsedEnd = nullptr;
    const double v = std::strtod(token.c_str(), &parsedEnd);
    const bool inAttrRead = std::any_of(excluded.begin(), excluded.end(),
                                        [&](const auto& r) { return i > r.first && i < r.second; });
    if (!hex && parsedEnd && *parsedEnd == '\0' && sameNumber(v, value) && !inAttrRead)
      lines.insert(text.lineOf(i));
    i = end;
  }
  return {lines.begin(), lines.end()};
}

std::optional<Diagnostic> attributeCorrelation(const Task& task, const std::vector<CaseCheck>& cases,
                                               const std::string& candidateName,
                                               const std::string& candidateSource) {
  const bool anyFail = std::any_of(cases.begin(), cases.end(), [](const CaseCheck& c) { return !c.passed; });
  const bool anyPass = std::any_of(cases.begin(), cases.end(), [](const CaseCheck& c) { return c.passed; });
  if (!anyFail || !anyPass) return std::nullopt;
  for (const AttrDecl& attr : task.attrs) {
    if (!attr.defaultValue) continue;
    const nlohmann::json& dflt = *attr.defaultValue;
    bool separates = true;
    bool withDefault = false;
    std::string failing;
    for (const CaseCheck& c : cases) {
      const auto vc = std::find_if(task.cases.begin(), task.cases.end(),
                                   [&](const VerificationCase& v) { return v.name == c.caseName; });
      if (vc == task.cases.end()) {
        separates = false;
        break;
      }
      const auto given = vc->attrs.find(attr.name);
      const nlohmann::json& value = given == vc->attrs.end() ? dflt : given->second;
      const auto a = numberOf(value);
      const auto b = numberOf(dflt);
      const bool isDefault = a && b ? sameNumber(*a, *b) : value == dflt;
      // Every failing case runs without the default and every case with the default passes (a case with
      // another value may pass too: a small change of eps can stay inside the tolerance).
      if (!c.passed && isDefault) {
        separates = false;
        break;
      }
      withDefault = withDefault || isDefault;
      if (!c.passed)
        appendAll(failing,
                  {failing.empty() ? "" : ", ", c.caseName, " (", attr.name, " ", valueText(value), ")"});
    }
    if (!separates || !withDefault) continue;
    Diagnostic d;
    d.source = "verifier";
    d.severity = Severity::Error;
    d.category = std::string(category::WrongAnswer);
    const std::string name = attr.name;
    const std::string def = valueText(dflt);
    appendAll(d.message,
              {"every case that fails sets attribute ", name, " to a value other than its default ", def,
               " (", failing, ") and every case with ", name, " ", def,
               " passes: the kernel likely computes as if ", name, " were always ", def});
    const auto dnum = numberOf(dflt);
    const std::vector<int> lines = dnum ? linesWithLiteral(candidateSource, *dnum) : std::vector<int>{};
    if (lines.size() == 1) {
      d.file = candidateName;
      d.line = lines.front();
      const auto all = splitLines(candidateSource);
      if (static_cast<std::size_t>(d.line) <= all.size()) {
        const std::string& l = all[static_cast<std::size_t>(d.line) - 1];
        const auto b = l.find_first_not_of(" \t");
        d.excerpt = b == std::string::npos ? std::string() : l.substr(b);
      }
      appendAll(d.message, {": this line uses ", def, " as a literal. Use the value the tiling passes (",
                            name, " from the tiling data) instead of the default"});
    } else if (lines.size() > 1) {
      std::string at;
      for (int l : lines) appendAll(at, {at.empty() ? "" : ", ", std::to_string(l)});
      appendAll(d.message,
                {" (the literal ", def, " appears at lines ", at, "). Use the value the tiling passes (",
                 name, " from the tiling data) instead of the default"});
    } else {
      appendAll(d.message, {". Check that the kernel uses the value the tiling passes (", name,
                            " from the tiling data), not a constant"});
    }
    return d;
  }
  return std::nullopt;
}

}  // namespace kwb::verify
