// SPDX-License-Identifier: MIT
#include "core/emulator/AclrtLaunchStubs.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>

#include "core/base/TextFile.h"
#include "core/emulator/ChevronRewrite.h"

namespace kwb {

namespace {

bool isIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

std::string trim(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

// `word` at `pos` of the program text, not part of a longer identifier.
bool wordAt(std::string_view s, const std::vector<bool>& code, std::size_t pos, std::string_view word) {
  if (pos + word.size() > s.size() || !code[pos] || s.compare(pos, word.size(), word) != 0) return false;
  if (pos > 0 && isIdentChar(s[pos - 1])) return false;
  const std::size_t end = pos + word.size();
  return end >= s.size() || !isIdentChar(s[end]);
}

int lineOf(std::string_view s, std::size_t pos) {
  return 1 + static_cast<int>(std::count(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(pos), '\n'));
}

// The parameter list split at commas outside brackets.
std::vector<std::string> splitParams(std::string_view list) {
  std::vector<std::string> out;
  int depth = 0;
  std::size_t from = 0;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const char c = list[i];
    if (c == '(' || c == '<' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == '>' || c == ']' || c == '}') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(trim(list.substr(from, i - from)));
      from = i + 1;
    }
  }
  out.push_back(trim(list.substr(from)));
  return out;
}

// The type without the qualifiers that do not change what the launch function passes.
std::string bareType(const std::string& type) {
  static const std::regex qualifiers(R"(\b(const|volatile|__gm__|__restrict__|__restrict)\b)");
  std::string t = std::regex_replace(type, qualifiers, " ");
  std::string out;
  for (char c : trim(t)) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

bool isBuiltinTypeWord(const std::string& w) {
  static const std::vector<std::string> words = {"int",    "char", "short",    "long",   "float",
                                                 "double", "bool", "unsigned", "signed", "void"};
  return std::find(words.begin(), words.end(), w) != words.end();
}

KernelParam parseParam(const std::string& text, std::size_t index) {
  KernelParam p;
  std::string decl = text;
  if (const std::size_t eq = decl.find('='); eq != std::string::npos) decl = trim(decl.substr(0, eq));
  std::size_t e = decl.size();
  std::size_t b = e;
  while (b > 0 && isIdentChar(decl[b - 1])) --b;
  const std::string last = decl.substr(b, e - b);
  const std::string rest = trim(decl.substr(0, b));
  const bool named = !last.empty() && !rest.empty() && !isBuiltinTypeWord(last) &&
                     !(rest.size() >= 2 && rest.compare(rest.size() - 2, 2, "::") == 0);
  p.type = named ? rest : decl;
  p.name = named ? last : "arg" + std::to_string(index);
  const std::string bare = bareType(p.type);
  static const std::regex scalar(
      R"(^((unsigned|signed) )?(bool|char|short|int|long|long int|long long|long long int|float|double|half|)"
      R"(bfloat16_t|size_t|u?int(8|16|32|64)_t)$|^(unsigned|signed)$)");
  if (bare.find('*') != std::string::npos || bare == "GM_ADDR")
    p.kind = KernelParam::Kind::Pointer;
  else if (std::regex_match(bare, scalar))
    p.kind = KernelParam::Kind::Scalar;
  else
    p.kind = KernelParam::Kind::ByValue;
  return p;
}

// The type the launch function takes for a parameter (CANN's generated form).
std::string launchType(const KernelParam& p) {
  switch (p.kind) {
    case KernelParam::Kind::Pointer:
      return "void*";
    case KernelParam::Kind::Scalar:
      return bareType(p.type);
    case KernelParam::Kind::ByValue:
      break;
  }
  return bareType(p.type) + "*";
}

std::string launchSignature(const KernelEntry& k) {
  std::string sig = "extern \"C\" uint32_t aclrtlaunch_" + k.name + "(uint32_t blockDim, aclrtStream stream";
  for (const auto& p : k.params) sig += ", " + launchType(p) + " " + p.name;
  return sig + ")";
}

}  // namespace

KernelEntryScan findKernelEntries(std::string_view s) {
  KernelEntryScan scan;
  const std::vector<bool> code = sourceCodeMask(s);
  static constexpr std::string_view kGlobal = "__global__";
  for (std::size_t p = s.find(kGlobal); p != std::string_view::npos; p = s.find(kGlobal, p + 1)) {
    if (!wordAt(s, code, p, kGlobal)) continue;
    // The declaration's start: after the previous `;`, `{` or `}` of the program text.
    std::size_t stmt = p;
    while (stmt > 0 && !(code[stmt - 1] && (s[stmt - 1] == ';' || s[stmt - 1] == '{' || s[stmt - 1] == '}')))
      --stmt;
    bool isTemplate = false;
    for (std::size_t q = stmt; q < p; ++q) isTemplate = isTemplate || wordAt(s, code, q, "template");
    // The parameter list: the first `(` after the qualifiers and the name.
    std::size_t open = p + kGlobal.size();
    while (open < s.size() && !(code[open] && (s[open] == '(' || s[open] == ';' || s[open] == '{'))) ++open;
    if (open >= s.size() || s[open] != '(') continue;
    std::size_t nameEnd = open;
    while (nameEnd > p && std::isspace(static_cast<unsigned char>(s[nameEnd - 1]))) --nameEnd;
    std::size_t nameBegin = nameEnd;
    while (nameBegin > p && isIdentChar(s[nameBegin - 1])) --nameBegin;
    if (nameBegin == nameEnd) continue;
    int depth = 0;
    std::size_t close = open;
    for (; close < s.size(); ++close) {
      if (!code[close]) continue;
      if (s[close] == '(') ++depth;
      if (s[close] == ')' && --depth == 0) break;
    }
    if (close >= s.size()) continue;
    std::size_t body = close + 1;
    while (body < s.size() && (std::isspace(static_cast<unsigned char>(s[body])) || !code[body])) ++body;
    if (body >= s.size() || s[body] != '{') continue;  // a declaration: the definition is elsewhere
    KernelEntry k;
    k.name = std::string(s.substr(nameBegin, nameEnd - nameBegin));
    k.line = lineOf(s, nameBegin);
    if (isTemplate) {
      scan.skipped.push_back("kernel " + k.name + " (line " + std::to_string(k.line) +
                             ") is a template: a launch function is generated for plain kernels only");
      continue;
    }
    const std::string list = trim(s.substr(open + 1, close - open - 1));
    if (!list.empty() && list != "void") {
      const std::vector<std::string> parts = splitParams(list);
      for (std::size_t i = 0; i < parts.size(); ++i) k.params.push_back(parseParam(parts[i], i));
    }
    scan.kernels.push_back(std::move(k));
  }
  return scan;
}

std::string aclrtLaunchHeader(const KernelEntry& k, const std::string& sourceName) {
  std::string guard = "KWB_ACLRTLAUNCH_";
  for (char c : k.name) guard += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  std::string h = "// Generated by `kwb sim launch-stubs` from " + sourceName +
                  ": the launch function of kernel " + k.name +
                  ",\n// run on the kwb emulator (docs/emulator.md, \"Launch forms\").\n";
  h += "#ifndef " + guard + "_H\n#define " + guard + "_H\n#include \"acl/acl.h\"\n\n";
  // The emulator's own ACLRT_LAUNCH_KERNEL (kwb_sim/host.h) names the kernel itself; with this header the
  // host code has only the launch function, as with CANN.
  h += "#undef ACLRT_LAUNCH_KERNEL\n#define ACLRT_LAUNCH_KERNEL(kernel_func) aclrtlaunch_##kernel_func\n\n";
  h += launchSignature(k) + ";\n#endif\n";
  return h;
}

std::string aclrtLaunchDefinitions(const std::vector<KernelEntry>& kernels, const std::string& sourceName) {
  std::string out = "\n";
  for (const auto& k : kernels) {
    // One line at the kernel's own line: the launch's diagnostics and any compile error name it.
    out += "#line " + std::to_string(k.line) + " " + cString(sourceName) + "\n";
    out += launchSignature(k) + " { ";
    std::string args;
    for (const auto& p : k.params) {
      if (p.kind == KernelParam::Kind::ByValue) {
        out += "if (" + p.name + " == nullptr) { std::fprintf(stderr, \"[ERROR][kwb-sim] aclrtlaunch_" +
               k.name + ": argument " + p.name +
               " is a null pointer to the value the kernel takes\\n\"); return " +
               "ACL_ERROR_INVALID_PARAM; } ";
        args += ", *" + p.name;
      } else {
        args += ", " + p.name;
      }
    }
    out += "::kwb_sim::aclrtLaunch(" + cString(k.name) + ", " + k.name +
           ", ::kwb_sim::SrcLoc::current())(blockDim, stream" + args + "); return ACL_SUCCESS; }\n";
  }
  return out;
}

namespace {

// Unchanged files are left alone, so that the host sources that include a header do not rebuild.
bool writeFile(const std::filesystem::path& path, const std::string& text) {
  if (std::filesystem::exists(path) && readTextFileOrEmpty(path) == text) return true;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  return static_cast<bool>(out);
}

}  // namespace

int writeAclrtLaunchStubs(const std::string& source, const std::string& headerDir,
                          const std::string& output) {
  namespace fs = std::filesystem;
  const std::string src = fs::absolute(source).lexically_normal().string();
  const TextFileRead read = readTextFile(src);
  if (!read.text) {
    std::cerr << "kwb sim launch-stubs: error: " << read.error << "\n";
    return 1;
  }
  const std::string& text = *read.text;
  const KernelEntryScan scan = findKernelEntries(text);
  for (const auto& why : scan.skipped) std::cerr << src << ": warning: " << why << "\n";
  if (scan.kernels.empty()) {
    std::cerr << src << ": error: no __global__ kernel definition found: ascendc_library() takes the sources "
              << "that define the kernels\n";
    return 1;
  }
  // The kernel source as the library compiles it: ACL's host header first (the launch functions use
  // aclrtStream and ACL's error codes), then the user's text at its own line numbers.
  std::string unit = "#include \"acl/acl.h\"\n";
  if (needsChevronRewrite(src, text)) {
    const ChevronRewrite rw = rewriteChevronLaunches(text, src);
    if (!rw.errors.empty()) {
      for (const auto& e : rw.errors) std::cerr << src << ":" << e.line << ": error: " << e.message << "\n";
      return 1;
    }
    unit += rw.text;
  } else {
    unit += "#line 1 " + cString(src) + "\n" + text;
  }
  unit += aclrtLaunchDefinitions(scan.kernels, src);
  std::error_code ec;
  fs::create_directories(headerDir, ec);
  for (const auto& k : scan.kernels) {
    const fs::path header = fs::path(headerDir) / ("aclrtlaunch_" + k.name + ".h");
    if (!writeFile(header, aclrtLaunchHeader(k, src))) {
      std::cerr << "kwb sim launch-stubs: error: cannot write " << header.string() << "\n";
      return 3;
    }
    std::cout << header.string() << "\n";
  }
  if (!writeFile(output, unit)) {
    std::cerr << "kwb sim launch-stubs: error: cannot write " << output << "\n";
    return 3;
  }
  return 0;
}

}  // namespace kwb
