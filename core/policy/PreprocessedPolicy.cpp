// SPDX-License-Identifier: MIT
#include "core/policy/PreprocessedPolicy.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <unordered_set>

#include "core/policy/AllowedNames.h"
#include "core/policy/OwnDeclarations.h"
#include "core/policy/PreprocessedTokens.h"

namespace kwb {

namespace fs = std::filesystem;

namespace {

std::string baseName(const std::string& p) {
  return fs::path(p).filename().string();
}

bool under(const std::string& path, const std::string& dir) {
  std::string d = dir;
  while (d.size() > 1 && d.back() == '/') d.pop_back();
  return path.size() > d.size() && path.compare(0, d.size(), d) == 0 && path[d.size()] == '/';
}

// A header of the workbench's own API (emulator headers, kwb_tiling.h), as opposed to the system's.
bool isApiHeader(const std::string& path, const PolicyOptions& o) {
  if (!o.apiHeaderDirs.empty())
    return std::any_of(o.apiHeaderDirs.begin(), o.apiHeaderDirs.end(),
                       [&](const auto& d) { return under(path, d); });
  return path.find("/emulator/include/") != std::string::npos ||
         path.find("/tasks/include/") != std::string::npos;
}

// Every name the headers (and the compiler's predefined macros) make visible that a candidate could
// refer to by itself. Only names declared at namespace scope count: class members, function bodies
// and initializers are reachable only through something already counted. System headers count every
// namespace; the workbench's own headers count their namespace names and global scope (what is
// inside namespace AscendC/kwb_sim is reachable only through those namespace names).
std::unordered_set<std::string> headerNames(const PreprocessedUnit& u, const std::map<int, std::string>& own,
                                            const PolicyOptions& o) {
  std::unordered_set<std::string> names;
  std::vector<int> kind(u.files.size(), 0);  // 1 system/other, 2 workbench API, 3 kwb_tiling.h
  for (std::size_t f = 0; f < u.files.size(); ++f) {
    if (own.count(static_cast<int>(f))) continue;
    const std::string& p = u.files[f];
    kind[f] = !isApiHeader(p, o) ? 1 : baseName(p) == "kwb_tiling.h" ? 3 : 2;
  }
  enum Brace { Namespace, Transparent, Scope };  // Transparent: extern "C" { }, enum { }
  std::vector<Brace> stack;
  std::vector<const PpToken*> head;  // tokens since the last ; { }
  for (std::size_t k = 0; k < u.tokens.size(); ++k) {
    const PpToken& t = u.tokens[k];
    if (t.file < 0 || own.count(t.file)) continue;
    const int fk = kind[static_cast<std::size_t>(t.file)];
    if (t.text == "{") {
      bool ns = false, en = false, assign = false, linkage = false;
      int angle = 0;
      for (const PpToken* h : head) {
        if (h->text == "<")
          ++angle;
        else if (h->text == ">" && angle > 0)
          --angle;
        else if (h->text == "namespace")
          ns = true;
        else if (h->text == "enum")
          en = true;
        else if (h->text == "=")
          assign = true;
      }
      linkage = head.size() == 2 && head[0]->text == "extern" && head[1]->kind == PpTokenKind::String;
      // A class, a function body or any other brace is a scope of its own.
      stack.push_back(ns ? Namespace : (linkage || (en && !assign)) ? Transparent : Scope);
      head.clear();
      continue;
    }
    if (t.text == "}") {
      if (!stack.empty()) stack.pop_back();
      head.clear();
      continue;
    }
    if (t.text == ";") {
      head.clear();
      continue;
    }
    head.push_back(&t);
    if (t.kind != PpTokenKind::Identifier) continue;
    const bool inScope = std::any_of(stack.begin(), stack.end(), [](Brace b) { return b == Scope; });
    const bool inNamespace = std::any_of(stack.begin(), stack.end(), [](Brace b) { return b == Namespace; });
    const bool afterNamespace = k > 0 && u.tokens[k - 1].text == "namespace";
    // `X::name` at namespace scope is an out-of-line definition of a member of X (char_traits<C>::length)
    // or a use of a name declared elsewhere: it declares nothing a candidate could name by itself.
    if (k > 0 && u.tokens[k - 1].text == "::") continue;
    if (fk == 1 && (!inScope || afterNamespace)) names.insert(t.text);
    // The parameter names of a function the workbench's headers declare at global scope (set_flag's
    // `pipe`, memcpy_s's `count`) are not visible to a candidate: only the names outside parentheses count.
    const bool inParameters =
        std::count_if(head.begin(), head.end(), [](const PpToken* h) { return h->text == "("; }) >
        std::count_if(head.begin(), head.end(), [](const PpToken* h) { return h->text == ")"; });
    if (fk == 2 && (afterNamespace || (!inScope && !inNamespace && !inParameters))) names.insert(t.text);
  }
  for (const auto& d : u.directives)
    if (!own.count(d.file) && (d.name == "define" || d.name == "undef") && !d.tokens.empty())
      names.insert(d.tokens[0].text);
  return names;
}

class Reporter {
 public:
  Reporter(const std::map<int, std::string>& names, const std::vector<PpToken>& candTokens)
      : names_(names), cand_(candTokens) {}

  void at(const PpToken& where, const std::string& message, const std::string& api) {
    at(where.file, where.line, where.column, message, api);
  }
  void at(int file, int line, int column, const std::string& message, const std::string& api) {
    if (!seen_
             .insert(std::to_string(file) + ":" + std::to_string(line) + ":" + api + ":" +
                     message.substr(0, 40))
             .second)
      return;
    Diagnostic d;
    d.source = "policy";
    d.severity = Severity::Error;
    d.category = std::string(category::PolicyViolation);
    const auto name = names_.find(file);
    d.file = name != names_.end() ? name->second : names_.begin()->second;
    d.line = line;
    d.column = column;
    d.message = message;
    if (!api.empty()) d.api = api;
    // The candidate's own tokens on that line, as the compiler sees them (never header text).
    std::string excerpt;
    for (const auto& t : cand_)
      if (t.file == file && t.line == line) excerpt += (excerpt.empty() ? "" : " ") + t.text;
    if (!excerpt.empty()) d.excerpt = excerpt.substr(0, 300);
    out.push_back(std::move(d));
  }
  std::vector<Diagnostic> out;

 private:
  const std::map<int, std::string>& names_;
  const std::vector<PpToken>& cand_;
  std::set<std::string> seen_;
};

std::string joinTokens(const std::vector<PpToken>& ts, std::size_t from = 0) {
  std::string s;
  for (std::size_t i = from; i < ts.size(); ++i) s += (s.empty() ? "" : " ") + ts[i].text;
  return s;
}

}  // namespace

bool isAllowedPragma(const std::string& text) {
  const std::vector<PpToken> t = tokenizeCode(text);
  if (t.size() == 1 && (t[0].text == "once" || t[0].text == "unroll")) return true;
  if (t.size() == 2 && t[0].text == "unroll" && t[1].kind == PpTokenKind::Number) return true;
  if (t.size() == 3 && t[0].text == "GCC" && t[1].text == "unroll" && t[2].kind == PpTokenKind::Number)
    return true;
  if (t.size() == 2 && t[0].text == "GCC" && t[1].text == "ivdep") return true;
  return false;
}

std::vector<Diagnostic> checkPreprocessedPolicy(const std::string& preprocessed,
                                                const std::string& candidatePath,
                                                const std::string& reportedFileName,
                                                const PolicyOptions& options) {
  return checkPreprocessedPolicy(preprocessed, candidatePath, reportedFileName, options, {});
}

std::vector<Diagnostic> checkPreprocessedPolicy(const std::string& preprocessed,
                                                const std::string& candidatePath,
                                                const std::string& reportedFileName,
                                                const PolicyOptions& options,
                                                const std::map<std::string, std::string>& companionPaths) {
  const PreprocessedUnit u = parsePreprocessed(preprocessed);
  const int cand = u.fileIndex(candidatePath);
  // The candidate's own files (file index -> reported name): the primary file and the companions it
  // included. All of them are judged; none counts as a header (docs/candidate-contract.md).
  std::map<int, std::string> own{{cand, reportedFileName}};
  for (const auto& [name, path] : companionPaths)
    if (const int f = u.fileIndex(path); f >= 0) own.emplace(f, name);
  std::vector<PpToken> candTokens;
  for (const auto& t : u.tokens)
    if (own.count(t.file)) candTokens.push_back(t);
  Reporter rep(own, candTokens);
  if (cand < 0) {
    rep.at(cand, 0, 0,
           "the preprocessed candidate is missing from the preprocessor's output; it cannot be checked", "");
    return rep.out;
  }
  const AllowedNames& allow = allowedNames();
  const std::unordered_set<std::string> headers = headerNames(u, own, options);

  // 1. Files the candidate includes: only the allowed headers, from where the build finds them.
  const auto& allowedInc = allowedIncludes();
  std::map<int, std::vector<int>> includeLines;  // per own file
  for (const auto& inc : u.includes) {
    if (!own.count(inc.parent)) continue;
    includeLines[inc.parent].push_back(inc.lineInParent);
    // One of the candidate's own files, by its quoted plain name: it is judged itself.
    if (own.count(inc.file) && inc.file != cand && !inc.systemHeader) continue;
    const std::string& path = u.files[static_cast<std::size_t>(inc.file)];
    const std::string base = baseName(path);
    const bool opProjectApi = base == "tilingdata_base.h" || base == "op_def_registry.h" ||
                              base == "platform_ascendc.h" || base == "orig_dtypes.h" ||
                              base == "op_impl_registry.h" || base == "type_utils.h" ||
                              base == "template_argument.h" || base == "template_args.h" ||
                              // The Matmul high-level API and its host tiling (docs/emulator.md).
                              base == "matmul_intf.h" || base == "kernel_tiling.h" || base == "tiling_api.h";
    const bool hostHeader = options.hostCode && inc.systemHeader &&
                            std::find(allowedHostIncludes().begin(), allowedHostIncludes().end(), base) !=
                                allowedHostIncludes().end();
    const bool listed = opProjectApi || hostHeader ||
                        std::find(allowedInc.begin(), allowedInc.end(), base) != allowedInc.end();
    const bool api = base == "kernel_operator.h" || base == "kwb_tiling.h" || opProjectApi;
    const bool fromRightPlace = api ? isApiHeader(path, options) : inc.systemHeader;
    if (!listed || !fromRightPlace) {
      // The path only, never what is in the file.
      rep.at(inc.parent, inc.lineInParent, 1,
             "#include of '" + path.substr(0, 200) +
                 "' is not allowed: a candidate includes only kernel_operator.h, kwb_tiling.h, the allowed "
                 "standard headers and its own files, by their plain names",
             base);
    }
  }
  // 2. Linemarkers the candidate wrote itself (#line, `# N "file"`) would disguise its own code.
  for (const auto& sw : u.fileSwitches)
    if (own.count(sw.file))
      rep.at(sw.file, sw.line, 1, "#line and linemarker directives are not allowed in a candidate", "#line");

  // 3. Directives that reached the output from the candidate's lines.
  std::map<std::string, int> definedAt;
  for (const auto& d : u.directives) {
    if (!own.count(d.file)) continue;
    if (d.name == "pragma") {
      if (!isAllowedPragma(d.text))
        rep.at(d.file, d.line, 1,
               "#pragma" + d.text.substr(0, 80) +
                   " is not allowed (also through _Pragma); only loop hints (#pragma GCC unroll N, GCC "
                   "ivdep) are",
               "#pragma");
    } else if (d.name == "define" || d.name == "undef") {
      if (d.tokens.empty()) continue;
      const std::string& m = d.tokens[0].text;
      if (allow.keywords.count(m) || isReservedIdentifier(m) || headers.count(m) || allow.external.count(m))
        rep.at(d.file, d.line, 1,
               "#" + d.name + " " + m +
                   " changes a name the language, the toolchain or the API owns; pick a name of "
                   "your own",
               m);
      if (d.name == "define") {
        definedAt.emplace(m, d.line);
        for (std::size_t k = 0; k < d.tokens.size(); ++k)
          if (d.tokens[k].text == "##" && !(k > 0 && d.tokens[k - 1].text == "," && k + 1 < d.tokens.size() &&
                                            d.tokens[k + 1].text == "__VA_ARGS__"))
            rep.at(d.file, d.line, 1,
                   "token pasting (## or %:%:) is not allowed in candidates (it can assemble names)", "##");
      } else {
        definedAt.erase(m);
      }
    } else if (!d.name.empty()) {
      rep.at(d.file, d.line, 1, "#" + d.name + " is not allowed in a candidate", "#" + d.name);
    }
  }
  // Macros defined before a later #include would change what that header means. An include guard
  // (an object-like macro with no replacement, whose name no header knows: checked above) is the one
  // exception; operator projects' tiling headers all have one (docs/candidate-contract.md).
  for (const auto& d : u.directives) {
    if (!own.count(d.file) || d.name != "define" || d.tokens.empty()) continue;
    if (d.tokens.size() == 1) continue;
    for (int incLine : includeLines[d.file])
      if (d.line < incLine) {
        rep.at(d.file, d.line, 1,
               "#define " + d.tokens[0].text + " comes before an #include; define macros after the includes",
               d.tokens[0].text);
        break;
      }
  }

  // 4. The candidate's tokens.
  auto refuseName = [&](const PpToken& t, const std::string& why) {
    const auto hint = refusalHint(t.text);
    rep.at(t, "'" + t.text + "' " + (hint ? *hint : why), t.text);
  };
  const std::string notListed =
      "is declared by a header but is not on the candidate allow-list (AscendC API, kwb_tiling.h, "
      "fixed-width "
      "types, std math/limits/type-traits/algorithm names); use the AscendC API, or give your own name to "
      "your "
      "own variable/function";
  // Header names the candidate declares as its own variables, members or parameters (OwnDeclarations.h).
  std::unordered_set<std::string> shadowable;
  for (const auto& t : candTokens)
    if (t.kind == PpTokenKind::Identifier && headers.count(t.text) && !allow.keywords.count(t.text) &&
        !allow.external.count(t.text) && !isReservedIdentifier(t.text) && !isAlwaysRefused(t.text))
      shadowable.insert(t.text);
  const std::unordered_set<std::size_t> ownUses = ownDeclaredUses(candTokens, shadowable);
  for (std::size_t k = 0; k < candTokens.size(); ++k) {
    const PpToken& t = candTokens[k];
    const std::string prev = k > 0 ? candTokens[k - 1].text : "";
    auto next = [&](std::size_t n) -> const std::string& {
      static const std::string none;
      return k + n < candTokens.size() ? candTokens[k + n].text : none;
    };
    if (t.kind == PpTokenKind::Punct && t.text == "[" && next(1) == "[") {
      // [[attribute]]: standard, unscoped attributes only ([[gnu::constructor]] runs code at load).
      std::size_t z = k + 2;
      int depth = 0;
      bool bad = false;
      for (; z < candTokens.size(); ++z) {
        const PpToken& a = candTokens[z];
        if (a.text == "]" && depth == 0) break;
        if (a.text == "(")
          ++depth;
        else if (a.text == ")")
          --depth;
        else if (depth == 0 && (a.text == "::" || a.text == "using" ||
                                (a.kind == PpTokenKind::Identifier && !allow.attributes.count(a.text))))
          bad = true;
      }
      if (bad)
        rep.at(t,
               "attribute [[" +
                   joinTokens(std::vector<PpToken>(
                                  candTokens.begin() + static_cast<long>(k) + 2,
                                  candTokens.begin() + static_cast<long>(std::min(z, candTokens.size()))))
                       .substr(0, 80) +
                   "]] is not allowed; only " +
                   "nodiscard, maybe_unused, likely, unlikely, fallthrough, deprecated",
               "[[");
      continue;
    }
    if (t.kind != PpTokenKind::Identifier) continue;
    const std::string& w = t.text;
    if (w.find('\\') != std::string::npos) {
      rep.at(t, "universal character names in identifiers are not allowed", w.substr(0, 40));
      continue;
    }
    if (w == "asm" || w == "__asm__" || w == "__asm") {
      rep.at(t, "'" + w + "' is inline assembly; not allowed", w);
      continue;
    }
    if (w == "__attribute__" || w == "__declspec") {
      rep.at(t,
             "'" + w +
                 "' is not allowed: attributes can run code outside the kernel (constructor), alias symbols "
                 "or place code; write plain C++",
             w);
      continue;
    }
    if (w == "extern") {
      const bool c = next(1) == "\"C\"";
      const bool kernel = c && next(2) == "void" &&
                          (options.kernelName.empty() ? candTokens.size() > k + 3 &&
                                                            candTokens[k + 3].kind == PpTokenKind::Identifier
                                                      : next(3) == options.kernelName) &&
                          next(4) == "(";
      const bool tiling = c && next(2) == "int" && next(3) == "kwb_tiling" && next(4) == "(";
      if (!kernel && !tiling)
        rep.at(
            t,
            "'extern' is allowed only in the contract's two forms: extern \"C\" __global__ __aicore__ void " +
                (options.kernelName.empty() ? std::string("<task>") : options.kernelName) +
                "(...) and extern \"C\" int kwb_tiling(...); a candidate declares nothing from outside",
            "extern");
      continue;
    }
    if (w == "namespace" && prev != "using" && k + 1 < candTokens.size()) {
      const std::string& n = next(1);
      // The operator-project form writes its TilingFunc, InferShape and OpDef into CANN's namespaces.
      const bool projectNamespace = n == "optiling" || n == "ops" || n == "ge";
      if (next(2) != "=" && !projectNamespace &&
          (n == "std" || n == "AscendC" || isReservedIdentifier(n) || headers.count(n)))
        rep.at(t, "a candidate may not add declarations to namespace " + n, n);
      continue;
    }
    if (allow.keywords.count(w)) continue;
    // Members are looked up in the object's class (the candidate's own or an API type).
    if ((prev == "." || prev == "->") && !isReservedIdentifier(w)) continue;
    if (w == "main") {
      refuseName(t, "is host harness code");
      continue;
    }
    if (isReservedIdentifier(w)) {
      if (!allow.reserved.count(w))
        refuseName(
            t, "is a reserved name (compiler builtins, the library's internals); not allowed in a candidate");
      continue;
    }
    if (allow.external.count(w)) continue;
    if (options.hostCode && allow.hostExternal.count(w)) continue;
    // The kernel entry is named after the operator (`less`, `less_equal`), which a header may declare
    // in std; the entry is the candidate's own required declaration (and its calls and launches).
    const bool entryName = (!options.kernelName.empty() && w == options.kernelName) ||
                           (!options.ownEntryName.empty() && w == options.ownEntryName);
    if (isAlwaysRefused(w) || (headers.count(w) && !ownUses.count(k) && !entryName)) refuseName(t, notListed);
  }
  std::stable_sort(rep.out.begin(), rep.out.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return a.line != b.line ? a.line < b.line : a.column < b.column;
  });
  return rep.out;
}

}  // namespace kwb
