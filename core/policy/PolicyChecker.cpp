// SPDX-License-Identifier: MIT
#include "core/policy/PolicyChecker.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <set>
#include <sstream>

namespace kwb {

namespace {
// `, ##__VA_ARGS__`: GNU's comma elision (the comma goes when no variadic argument is given), the one
// use of ## that cannot assemble a name; msopgen projects' logging macros use it
// (docs/candidate-contract.md).
bool isCommaElision(const std::string& code, std::size_t at) {
  std::size_t b = at;
  while (b > 0 && (code[b - 1] == ' ' || code[b - 1] == '\t')) --b;
  std::size_t a = at + 2;
  while (a < code.size() && (code[a] == ' ' || code[a] == '\t')) ++a;
  static const std::string kVaArgs = "__VA_ARGS__";
  const std::size_t end = a + kVaArgs.size();
  const bool identAfter =
      end < code.size() && (std::isalnum(static_cast<unsigned char>(code[end])) || code[end] == '_');
  return b > 0 && code[b - 1] == ',' && code.compare(a, kVaArgs.size(), kVaArgs) == 0 && !identAfter;
}
}  // namespace

const std::vector<std::string>& allowedIncludes() {
  static const std::vector<std::string> kAllowed = {
      "kernel_operator.h", "kwb_tiling.h", "cstdint", "stdint.h", "cstddef", "stddef.h", "cmath", "math.h",
      "cfloat", "float.h", "climits", "limits.h", "limits", "type_traits", "cstring", "string.h", "algorithm",
      "array", "utility", "initializer_list",
      // The operator-project form's host headers (core/emulator/include; docs/candidate-contract.md).
      "register/tilingdata_base.h", "register/op_def_registry.h", "register/op_impl_registry.h",
      "tiling/platform/platform_ascendc.h", "graph/utils/type_utils.h",
      // Tiling template programming (docs/emulator.md, "Template tiling keys").
      "ascendc/host_api/tiling/template_argument.h",
      // The Matmul high-level API and its host tiling (docs/emulator.md, "Matmul API").
      "lib/matmul_intf.h", "kernel_tiling/kernel_tiling.h", "tiling/tiling_api.h"};
  return kAllowed;
}

const std::vector<std::string>& allowedHostIncludes() {
  static const std::vector<std::string> kAllowed = {
      "vector",        "string", "string_view", "map",     "set",   "unordered_map",
      "unordered_set", "deque",  "list",        "queue",   "stack", "numeric",
      "functional",    "memory", "tuple",       "optional"};
  return kAllowed;
}

std::string blankCommentsAndLiterals(const std::string& s, bool keepStrings) {
  std::string out = s;
  const std::size_t n = s.size();
  auto blank = [&](std::size_t from, std::size_t to) {
    for (std::size_t k = from; k < to && k < n; ++k)
      if (out[k] != '\n') out[k] = ' ';
  };
  std::size_t i = 0;
  while (i < n) {
    const char c = s[i];
    if (c == '/' && i + 1 < n && s[i + 1] == '/') {
      std::size_t e = s.find('\n', i);
      if (e == std::string::npos) e = n;
      blank(i, e);
      i = e;
    } else if (c == '/' && i + 1 < n && s[i + 1] == '*') {
      std::size_t e = s.find("*/", i + 2);
      e = e == std::string::npos ? n : e + 2;
      blank(i, e);
      i = e;
    } else if (c == 'R' && i + 1 < n && s[i + 1] == '"' &&
               (i == 0 || !(std::isalnum(static_cast<unsigned char>(s[i - 1])) || s[i - 1] == '_'))) {
      const std::size_t open = s.find('(', i + 2);
      if (open == std::string::npos) {
        ++i;
        continue;
      }
      const std::string delim = ")" + s.substr(i + 2, open - i - 2) + "\"";
      std::size_t e = s.find(delim, open);
      e = e == std::string::npos ? n : e + delim.size();
      if (!keepStrings) blank(i + 1, e);
      i = e;
    } else if (c == '"' || c == '\'') {
      std::size_t e = i + 1;
      while (e < n && s[e] != c && s[e] != '\n') e += (s[e] == '\\') ? 2 : 1;
      e = std::min(n, e + 1);
      if (!keepStrings || c == '\'') blank(i + 1, e - 1);
      i = e;
    } else {
      ++i;
    }
  }
  return out;
}

namespace {

struct Rule {
  std::string why;  // what the rule protects
  bool callOnly;    // only when followed by '(' (names that are also common variable names)
};

const std::map<std::string, Rule>& bannedIdentifiers() {
  static const std::map<std::string, Rule> kBanned = [] {
    std::map<std::string, Rule> m;
    auto add = [&](std::initializer_list<const char*> names, const std::string& why, bool callOnly) {
      for (const char* n : names) m[n] = Rule{why, callOnly};
    };
    const std::string proc = "starts or replaces processes; a candidate may not run other programs";
    add({"system", "popen",       "pclose",       "execl",   "execlp", "execle", "execv",
         "execvp", "execvpe",     "execve",       "fexecve", "fork",   "vfork",  "clone",
         "clone3", "posix_spawn", "posix_spawnp", "daemon",  "ptrace", "kill",   "killpg",
         "raise",  "signal",      "sigaction",    "setsid"},
        proc, true);
    const std::string file = "accesses files; kernels read and write only the GM tensors they are given";
    add({"fopen",  "freopen",  "fdopen", "open",  "openat",  "creat",    "unlink",   "unlinkat",  "remove",
         "rename", "renameat", "mkdir",  "rmdir", "opendir", "readdir",  "truncate", "ftruncate", "chmod",
         "chown",  "symlink",  "link",   "mmap",  "munmap",  "mprotect", "dup",      "dup2",      "pipe2",
         "ioctl",  "sendfile", "fwrite", "fread", "fputs",   "fgets",    "fprintf",  "fscanf"},
        file, true);
    add({"FILE", "ofstream", "ifstream", "fstream", "filebuf", "filesystem"}, file, false);
    add({"fstat", "stat", "lstat"}, file, true);
    const std::string net = "uses the network; candidates have no network access";
    add({"socket", "socketpair", "connect", "bind", "listen", "accept", "accept4", "send", "sendto", "recv",
         "recvfrom", "getaddrinfo", "gethostbyname"},
        net, true);
    const std::string env = "reads or changes the process environment";
    add({"getenv", "secure_getenv", "setenv", "putenv", "unsetenv", "chdir", "fchdir", "chroot", "setuid",
         "setgid", "seteuid", "prctl", "setrlimit"},
        env, true);
    add({"dlopen", "dlsym", "dlmopen"}, "loads code at run time", true);
    add({"syscall", "__syscall"}, "makes raw system calls", true);
    add({"exit", "_exit", "_Exit", "quick_exit", "atexit", "at_quick_exit", "abort", "longjmp", "setjmp"},
        "ends or redirects the harness process; kernels return normally", true);
    add({"thread", "jthread", "pthread_create", "async"},
        "starts threads; blocks are launched by the harness", false);
    const std::string harness =
        "is host harness code: the workbench owns buffers, inputs and the launch (ICPU_RUN_KF / <<<>>>); a "
        "candidate holds only the kernel and kwb_tiling, which never sees tensor data";
    add({"main", "ICPU_RUN_KF", "ICPU_SET_TILING_KEY", "GmAlloc", "GmFree", "SetKernelMode", "aclInit",
         "aclFinalize", "aclrtSetDevice", "aclrtMalloc", "aclrtMallocHost", "aclrtMemcpy", "aclrtMemset",
         "aclrtFree", "aclrtFreeHost", "aclrtCreateStream", "aclrtSynchronizeStream", "aclrtLaunchKernel"},
        harness, false);
    add({"malloc", "calloc", "realloc", "free"}, harness, true);
    add({"asm", "__asm__", "__asm", "_Pragma"}, "is inline assembly or a computed pragma", false);
    return m;
  }();
  return kBanned;
}

bool isIdentStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool isIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

struct Position {
  int line = 1;
  int column = 1;
};

class LineIndex {
 public:
  explicit LineIndex(const std::string& s) {
    starts_.push_back(0);
    for (std::size_t i = 0; i < s.size(); ++i)
      if (s[i] == '\n') starts_.push_back(i + 1);
  }
  Position at(std::size_t offset) const {
    auto it = std::upper_bound(starts_.begin(), starts_.end(), offset);
    const auto line = static_cast<std::size_t>(it - starts_.begin());
    return Position{static_cast<int>(line), static_cast<int>(offset - starts_[line - 1]) + 1};
  }
  std::string lineText(const std::string& s, int line) const {
    const std::size_t b = starts_[static_cast<std::size_t>(line - 1)];
    std::size_t e = s.find('\n', b);
    if (e == std::string::npos) e = s.size();
    return s.substr(b, e - b);
  }

 private:
  std::vector<std::size_t> starts_;
};

// Directives as the preprocessor sees them: line splices (backslash-newline) removed and `%:` read as
// `#`, which the line-based scan above does not do. Reports #line / linemarkers (they would disguise
// the candidate's code as a header's), #embed and other file-reading directives, and includes spelled
// with splices or digraphs. The preprocessed check (PreprocessedPolicy.h) is the authority; this one
// catches them before anything runs, with the candidate's own line numbers.
void checkSplicedDirectives(const std::string& source,
                            const std::function<void(int, const std::string&, const std::string&)>& report) {
  std::string logical;
  std::vector<int> lineOf;  // original line of each logical character
  int line = 1;
  for (std::size_t i = 0; i < source.size(); ++i) {
    if (source[i] == '\\') {
      std::size_t j = i + 1;
      while (j < source.size() && (source[j] == ' ' || source[j] == '\t' || source[j] == '\r')) ++j;
      if (j < source.size() && source[j] == '\n') {
        i = j;
        ++line;
        continue;
      }
    }
    logical += source[i];
    lineOf.push_back(line);
    if (source[i] == '\n') ++line;
  }
  const std::string code = blankCommentsAndLiterals(logical, true);
  const auto& allowed = allowedIncludes();
  for (std::size_t pos = 0; pos < code.size();) {
    std::size_t e = code.find('\n', pos);
    if (e == std::string::npos) e = code.size();
    std::size_t h = code.find_first_not_of(" \t", pos);
    bool digraph = false;
    if (h < e && (code[h] == '#' || (code.compare(h, 2, "%:") == 0 && (digraph = true)))) {
      const std::size_t k = code.find_first_not_of(" \t", h + (digraph ? 2 : 1));
      std::size_t ke = k;
      while (ke < e && isIdentChar(code[ke])) ++ke;
      const std::string dir = k < e ? code.substr(k, ke - k) : "";
      const int at = lineOf[h];
      const bool spliced = lineOf[e > 0 ? e - 1 : 0] != at;
      if (dir == "line" || (!dir.empty() && std::isdigit(static_cast<unsigned char>(dir[0]))))
        report(at, "#line and linemarker directives are not allowed in a candidate", "#line");
      else if (dir == "embed" || dir == "include_next" || dir == "import" || dir == "ident" ||
               dir == "sccs" || dir == "assert" || dir == "unassert")
        report(at, "#" + dir + " is not allowed in a candidate", "#" + dir);
      else if (dir == "include" && (digraph || spliced)) {
        const std::size_t a = code.find_first_of("<\"", ke);
        std::string name;
        if (a < e) {
          const std::size_t b = code.find(code[a] == '<' ? '>' : '"', a + 1);
          if (b < e) name = code.substr(a + 1, b - a - 1);
        }
        if (std::find(allowed.begin(), allowed.end(), name) == allowed.end())
          report(at,
                 "this #include (spelled with %: or a line splice) names a header outside the allowed set",
                 "#include");
      }
    }
    pos = e + 1;
  }
}

}  // namespace

namespace {
// True when `code` (comments and literals blanked) defines kwb_tiling: the name, a parameter list and a
// body.
bool hasTilingDefinition(const std::string& code) {
  for (std::size_t p = code.find("kwb_tiling"); p != std::string::npos; p = code.find("kwb_tiling", p + 1)) {
    if ((p > 0 && isIdentChar(code[p - 1])) || (p + 10 < code.size() && isIdentChar(code[p + 10]))) continue;
    std::size_t a = p + 10;
    while (a < code.size() && std::isspace(static_cast<unsigned char>(code[a]))) ++a;
    if (a < code.size() && code[a] == '(') {
      // A definition has a body after the parameter list.
      int depth = 0;
      std::size_t z = a;
      for (; z < code.size(); ++z) {
        if (code[z] == '(')
          ++depth;
        else if (code[z] == ')' && --depth == 0)
          break;
      }
      std::size_t q = z + 1;
      while (q < code.size() && std::isspace(static_cast<unsigned char>(code[q]))) ++q;
      if (q < code.size() && code[q] == '{') return true;
    }
  }
  return false;
}
}  // namespace

std::vector<Diagnostic> checkCandidatePolicy(const std::string& source, const std::string& fileName,
                                             const PolicyOptions& options) {
  std::vector<Diagnostic> out;
  const LineIndex index(source);
  auto report = [&](std::size_t offset, const std::string& message, const std::optional<std::string>& api) {
    const Position p = index.at(offset);
    Diagnostic d;
    d.source = "policy";
    d.severity = Severity::Error;
    d.category = std::string(category::PolicyViolation);
    d.file = fileName;
    d.line = p.line;
    d.column = p.column;
    d.message = message;
    d.api = api;
    const std::string text = index.lineText(source, p.line);
    d.excerpt = text + "\n" + std::string(static_cast<std::size_t>(std::max(0, p.column - 1)), ' ') + "^";
    out.push_back(std::move(d));
  };

  // Preprocessor lines (comments blanked, strings kept so include names survive).
  const std::string noComments = blankCommentsAndLiterals(source, true);
  const auto& allowed = allowedIncludes();
  {
    std::size_t pos = 0;
    while (pos <= noComments.size()) {
      std::size_t e = noComments.find('\n', pos);
      if (e == std::string::npos) e = noComments.size();
      const std::string line = noComments.substr(pos, e - pos);
      const std::size_t hash = line.find_first_not_of(" \t");
      if (hash != std::string::npos && line[hash] == '#') {
        std::size_t k = line.find_first_not_of(" \t", hash + 1);
        std::size_t ke = k;
        while (ke < line.size() && isIdentChar(line[ke])) ++ke;
        const std::string directive = k == std::string::npos ? "" : line.substr(k, ke - k);
        if (directive == "include" || directive == "include_next" || directive == "import") {
          const std::size_t a = line.find_first_not_of(" \t", ke);
          std::string name;
          if (a != std::string::npos && (line[a] == '<' || line[a] == '"')) {
            const char close = line[a] == '<' ? '>' : '"';
            const std::size_t b = line.find(close, a + 1);
            if (b != std::string::npos) name = line.substr(a + 1, b - a - 1);
          }
          if (directive != "include") {
            report(pos + hash, "#" + directive + " is not allowed; use #include with an allowed header",
                   directive);
          } else if (name.empty()) {
            report(pos + hash, "computed #include is not allowed: name the header literally", std::nullopt);
          } else if (std::find(allowed.begin(), allowed.end(), name) == allowed.end() &&
                     !(options.hostCode && line[a] == '<' &&
                       std::find(allowedHostIncludes().begin(), allowedHostIncludes().end(), name) !=
                           allowedHostIncludes().end()) &&
                     !(line[a] == '"' &&
                       std::find(options.candidateFiles.begin(), options.candidateFiles.end(), name) !=
                           options.candidateFiles.end())) {
            std::string list;
            for (const auto& h : allowed) list += (list.empty() ? "" : ", ") + h;
            std::string why = "#include \"";
            why += name;
            why += "\" is not in the allowed set (";
            why += list;
            why += ") or the candidate's own files";
            if (options.candidateFiles.empty()) why += " (it has no other file)";
            report(pos + a, why, name);
          }
        } else if (directive == "define" || directive == "undef") {
          const std::size_t a = line.find_first_not_of(" \t", ke);
          std::size_t b = a;
          while (a != std::string::npos && b < line.size() && isIdentChar(line[b])) ++b;
          const std::string macro = a == std::string::npos ? "" : line.substr(a, b - a);
          if (macro.rfind("KWB_", 0) == 0 || macro.rfind("ASCENDC_", 0) == 0 ||
              macro.rfind("__CCE", 0) == 0) {
            std::string why = "#";
            why += directive;
            why += ' ';
            why += macro;
            why += " changes a macro the harness and toolchain own; the build sets it";
            report(pos + a, why, macro);
          }
        }
      }
      if (e == noComments.size()) break;
      pos = e + 1;
    }
  }

  checkSplicedDirectives(source, [&](int line, const std::string& message, const std::string& api) {
    std::size_t offset = 0;
    for (int l = 1; l < line && offset != std::string::npos; ++l) offset = source.find('\n', offset) + 1;
    report(offset == std::string::npos ? 0 : offset, message, api);
  });

  // Token scan (comments and literals blanked; #include lines were checked above).
  std::string code = blankCommentsAndLiterals(source, false);
  for (std::size_t p = 0; p < code.size();) {
    std::size_t e = code.find('\n', p);
    if (e == std::string::npos) e = code.size();
    const std::size_t h = code.find_first_not_of(" \t", p);
    if (h < e && code[h] == '#') {
      const std::size_t k = code.find_first_not_of(" \t", h + 1);
      if (k < e && code.compare(k, 7, "include") == 0)
        for (std::size_t q = h; q < e; ++q) code[q] = ' ';
    }
    p = e + 1;
  }
  const auto& banned = bannedIdentifiers();
  std::set<std::string> seenCallOnlyLines;
  for (std::size_t i = 0; i < code.size();) {
    if (code[i] == '#' && i + 1 < code.size() && code[i + 1] == '#') {
      if (!isCommaElision(code, i))
        report(i, "token pasting (##) is not allowed in candidates (it can assemble banned names)",
               std::string("##"));
      i += 2;
      continue;
    }
    if (!isIdentStart(code[i]) || (i > 0 && isIdentChar(code[i - 1]))) {
      ++i;
      continue;
    }
    std::size_t e = i;
    while (e < code.size() && isIdentChar(code[e])) ++e;
    const std::string word = code.substr(i, e - i);
    if (word == "__attribute__") {
      // __attribute__((constructor)) / destructor run code outside the kernel and kwb_tiling.
      std::size_t depth = 0, k = e;
      std::size_t end = e;
      for (; k < code.size(); ++k) {
        if (code[k] == '(')
          ++depth;
        else if (code[k] == ')' && depth > 0 && --depth == 0) {
          end = k;
          break;
        }
      }
      const std::string inside = code.substr(e, end - e);
      if (inside.find("constructor") != std::string::npos || inside.find("destructor") != std::string::npos)
        report(i,
               "__attribute__((constructor/destructor)) runs code outside the kernel and kwb_tiling; not "
               "allowed",
               std::string("__attribute__"));
    }
    auto it = banned.find(word);
    if (it != banned.end()) {
      // Skip members (x.open(), p->send()) and names qualified by a namespace other than std.
      std::size_t b = i;
      while (b > 0 && (code[b - 1] == ' ' || code[b - 1] == '\t')) --b;
      bool member = b > 0 && (code[b - 1] == '.' || (b > 1 && code[b - 1] == '>' && code[b - 2] == '-'));
      if (!member && b > 1 && code[b - 1] == ':' && code[b - 2] == ':') {
        std::size_t q = b - 2;
        while (q > 0 && (code[q - 1] == ' ')) --q;
        std::size_t qs = q;
        while (qs > 0 && isIdentChar(code[qs - 1])) --qs;
        const std::string qual = code.substr(qs, q - qs);
        member = !(qual == "std" || qual.empty() ||
                   (qual == "AscendC" && it->second.why.find("harness") != std::string::npos));
      }
      std::size_t a = e;
      while (a < code.size() && (code[a] == ' ' || code[a] == '\t' || code[a] == '\n')) ++a;
      const bool call = a < code.size() && code[a] == '(';
      if (!member && (call || !it->second.callOnly)) {
        report(i, "'" + word + "' " + it->second.why, word);
      }
    }
    i = e;
  }

  // The contract's entry points.
  if (!options.kernelName.empty()) {
    const std::string& k = options.kernelName;
    std::size_t found = std::string::npos;
    for (std::size_t p = code.find(k); p != std::string::npos; p = code.find(k, p + 1)) {
      if ((p > 0 && isIdentChar(code[p - 1])) ||
          (p + k.size() < code.size() && isIdentChar(code[p + k.size()])))
        continue;
      std::size_t declStart = p;
      while (declStart > 0 && code[declStart - 1] != ';' && code[declStart - 1] != '}' &&
             code[declStart - 1] != '{')
        --declStart;
      const std::string before = code.substr(declStart, p - declStart);
      if (before.find("__global__") != std::string::npos && before.find("__aicore__") != std::string::npos) {
        std::size_t a = p + k.size();
        while (a < code.size() && std::isspace(static_cast<unsigned char>(code[a]))) ++a;
        if (a < code.size() && code[a] == '(') {
          found = p;
          break;
        }
      }
    }
    if (found == std::string::npos) {
      report(0,
             "the kernel entry is missing: define extern \"C\" __global__ __aicore__ void " + k +
                 "(GM_ADDR <inputs>..., GM_ADDR <outputs>..., GM_ADDR workspace, GM_ADDR tiling)",
             k);
    } else if (options.kernelParamCount) {
      std::size_t a = code.find('(', found);
      int depth = 0, params = 0;
      bool any = false;
      std::size_t z = a;
      for (; z < code.size(); ++z) {
        const char ch = code[z];
        if (ch == '(')
          ++depth;
        else if (ch == ')' && --depth == 0)
          break;
        else if (ch == ',' && depth == 1)
          ++params;
        else if (!std::isspace(static_cast<unsigned char>(ch)))
          any = true;
      }
      params = any ? params + 1 : 0;
      if (params != *options.kernelParamCount)
        report(found,
               "kernel " + k + " takes " + std::to_string(params) + " parameters; the contract wants " +
                   std::to_string(*options.kernelParamCount) +
                   " (one GM_ADDR per input, one per output, then GM_ADDR workspace, GM_ADDR tiling)",
               k);
    }
  }
  if (options.requireTiling) {
    const bool has = hasTilingDefinition(code);
    if (!has)
      report(
          0,
          "the host tiling function is missing: define extern \"C\" int kwb_tiling(const KwbTilingInput* in, "
          "KwbTilingOutput* out) inside #if KWB_COMPILE_TILING (see kwb_tiling.h)",
          std::string("kwb_tiling"));
  }
  std::stable_sort(out.begin(), out.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return a.line != b.line ? a.line < b.line : a.column < b.column;
  });
  return out;
}

std::vector<Diagnostic> checkCandidateFilesPolicy(const std::string& primarySource,
                                                  const std::string& primaryName,
                                                  const std::map<std::string, std::string>& companions,
                                                  PolicyOptions options) {
  options.candidateFiles.clear();
  bool tilingElsewhere = false;
  for (const auto& [name, text] : companions) {
    options.candidateFiles.push_back(name);
    tilingElsewhere = tilingElsewhere || hasTilingDefinition(blankCommentsAndLiterals(text, false));
  }
  PolicyOptions primary = options;
  primary.requireTiling = options.requireTiling && !tilingElsewhere;
  std::vector<Diagnostic> out = checkCandidatePolicy(primarySource, primaryName, primary);
  // The same rules for every other file, without the entry points (the primary file has the kernel).
  PolicyOptions other = options;
  other.kernelName.clear();
  other.kernelParamCount.reset();
  other.requireTiling = false;
  for (const auto& [name, text] : companions) {
    PolicyOptions file = other;
    file.hostCode = std::find(options.hostCodeFiles.begin(), options.hostCodeFiles.end(), name) !=
                    options.hostCodeFiles.end();
    for (auto& d : checkCandidatePolicy(text, name, file)) out.push_back(std::move(d));
  }
  return out;
}

}  // namespace kwb
