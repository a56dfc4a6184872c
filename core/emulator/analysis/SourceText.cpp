// SPDX-License-Identifier: MIT
#include "SourceText.h"

#include <cctype>
#include <fstream>
#include <map>
#include <vector>

namespace kwb_sim::rt {

namespace {
const std::vector<std::string>* linesOf(const std::string& file) {
  static std::map<std::string, std::vector<std::string>> cache;
  auto it = cache.find(file);
  if (it == cache.end()) {
    std::vector<std::string> lines;
    std::ifstream in(file);
    std::string l;
    while (std::getline(in, l)) lines.push_back(l);
    it = cache.emplace(file, std::move(lines)).first;
  }
  return it->second.empty() ? nullptr : &it->second;
}

std::string squeeze(const std::string& s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

std::string rootName(std::string t) {
  for (const char* prefix : {"this->", "&", "*"})
    while (t.rfind(prefix, 0) == 0) t = t.substr(std::string(prefix).size());
  std::size_t i = 0;
  while (i < t.size() && (std::isalnum(static_cast<unsigned char>(t[i])) || t[i] == '_' || t[i] == '.')) ++i;
  std::string id = t.substr(0, i);
  const auto dot = id.rfind('.');
  if (dot != std::string::npos && dot + 1 < id.size()) id = id.substr(dot + 1);
  return id;
}

bool identChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}
}  // namespace

std::string sourceLine(const std::string& file, unsigned line) {
  return sourceLineOf(linesOf(file), line);
}

std::string sourceLineOf(const std::vector<std::string>* lines, unsigned line) {
  if (!lines || line == 0 || line > lines->size()) return {};
  return squeeze((*lines)[line - 1]);
}

OperandText operandText(const std::string& file, unsigned line, const std::string& api, int operand) {
  return operandTextOf(linesOf(file), line, api, operand);
}

OperandText operandTextOf(const std::vector<std::string>* lines, unsigned line, const std::string& api,
                          int operand) {
  OperandText out;
  if (!lines || line == 0 || line > lines->size() || api.empty()) return out;
  // The call may span a few lines.
  std::string text;
  for (unsigned l = line; l <= lines->size() && l < line + 6; ++l) text += (*lines)[l - 1] + "\n";
  std::size_t pos = 0;
  for (;;) {
    pos = text.find(api, pos);
    if (pos == std::string::npos) return out;
    const bool startOk = pos == 0 || !identChar(text[pos - 1]);
    std::size_t after = pos + api.size();
    if (!startOk || (after < text.size() && identChar(text[after]))) {
      ++pos;
      continue;
    }
    // Skip explicit template arguments: Add<half>(...)
    while (after < text.size() && std::isspace(static_cast<unsigned char>(text[after]))) ++after;
    if (after < text.size() && text[after] == '<') {
      int depth = 0;
      for (; after < text.size(); ++after) {
        if (text[after] == '<') ++depth;
        if (text[after] == '>' && --depth == 0) {
          ++after;
          break;
        }
      }
    }
    while (after < text.size() && std::isspace(static_cast<unsigned char>(text[after]))) ++after;
    if (after >= text.size() || text[after] != '(') {
      ++pos;
      continue;
    }
    if (operand == -1) {
      // object.api( / object->api(
      std::size_t e = pos;
      while (e > 0 && (text[e - 1] == '.' || text[e - 1] == '>' || text[e - 1] == '-')) --e;
      std::size_t s = e;
      while (s > 0 && (identChar(text[s - 1]) || text[s - 1] == ']' || text[s - 1] == '[')) --s;
      out.text = squeeze(text.substr(s, e - s));
      out.name = rootName(out.text);
      return out;
    }
    int depth = 0, arg = 0;
    std::size_t start = after + 1;
    for (std::size_t i = after; i < text.size(); ++i) {
      const char c = text[i];
      if (c == '(' || c == '[' || c == '{') {
        if (depth++ == 0) start = i + 1;
        continue;
      }
      if (c == ')' || c == ']' || c == '}') {
        if (--depth == 0) {
          if (arg == operand) {
            out.text = squeeze(text.substr(start, i - start));
            out.name = rootName(out.text);
          }
          return out;
        }
        continue;
      }
      if (c == ',' && depth == 1) {
        if (arg == operand) {
          out.text = squeeze(text.substr(start, i - start));
          out.name = rootName(out.text);
          return out;
        }
        ++arg;
        start = i + 1;
      }
    }
    return out;
  }
}

}  // namespace kwb_sim::rt
