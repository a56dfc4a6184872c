// SPDX-License-Identifier: MIT
#include "core/policy/OwnDeclarations.h"

#include <map>

namespace kwb {

namespace {

// Tokens after which an identifier can only be a declarator (or the statement does not compile):
// `float atol`, `T atol`, `T* atol`, `T& atol`. Not `>` (`p > atol;` compares function pointers) and
// not `&&` (a logical and).
bool endsTypeSpecifier(const PpToken& t) {
  static const std::unordered_set<std::string> typeKeywords = {
      "bool", "char",   "char8_t",  "char16_t", "char32_t", "wchar_t", "short", "int",
      "long", "signed", "unsigned", "float",    "double",   "auto",    "void"};
  if (t.kind == PpTokenKind::Identifier) return true;
  return t.text == "*" || t.text == "&" || typeKeywords.count(t.text) > 0;
}

bool isKeywordLike(const std::string& w) {
  // Identifiers that are statements' keywords: `return atol;` is a use, not a declaration.
  static const std::unordered_set<std::string> words = {
      "return",    "case",      "goto",      "throw",    "new",      "delete",   "sizeof",
      "alignof",   "typeid",    "co_return", "co_yield", "co_await", "else",     "do",
      "decltype",  "noexcept",  "using",     "typename", "template", "operator", "static_assert",
      "namespace", "class",     "struct",    "union",    "enum",     "public",   "private",
      "protected", "friend",    "typedef",   "const",    "volatile", "static",   "inline",
      "constexpr", "consteval", "constinit", "extern",   "mutable",  "register", "thread_local",
      "virtual",   "explicit",  "if",        "while",    "for",      "switch",   "and",
      "or",        "not",       "bitand",    "bitor",    "xor",      "compl",    "not_eq",
      "and_eq",    "or_eq",     "xor_eq"};
  return words.count(w) > 0;
}

// `LocalTensor<float> gamma`: the `>` at `close` ends a template-id type when it closes a `<` that
// follows a name at the start of a statement or parameter (`;` `{` `}` `(` `,` or a qualifier before
// it). `p > atol;` has no `<` to close, `a < b > c` no name-led statement start... (a comparison chain
// that would need one is not C++ a kernel writes).
bool endsTemplateType(const std::vector<PpToken>& tokens, std::size_t close) {
  if (tokens[close].text != ">" && tokens[close].text != ">>") return false;
  int depth = tokens[close].text == ">>" ? 2 : 1;
  std::size_t j = close;
  while (j > 0 && depth > 0) {
    --j;
    const std::string& t = tokens[j].text;
    if (t == ">") ++depth;
    if (t == ">>") depth += 2;
    if (t == "<") --depth;
    if (t == ";" || t == "{" || t == "}" || t == "(" || t == ")" || t == "=" || t == "&&" || t == "||")
      return false;
  }
  if (depth != 0 || j == 0 || tokens[j - 1].kind != PpTokenKind::Identifier ||
      isKeywordLike(tokens[j - 1].text))
    return false;
  std::size_t start = j - 1;
  while (start >= 2 && tokens[start - 1].text == "::" && tokens[start - 2].kind == PpTokenKind::Identifier)
    start -= 2;
  if (start == 0) return true;
  const std::string& before = tokens[start - 1].text;
  static const std::unordered_set<std::string> leads = {
      ";", "{", "}", "(", ",", "const", "static", "constexpr", "inline", "volatile", "mutable"};
  return leads.count(before) > 0;
}

bool endsDeclarator(const std::string& next) {
  return next == ";" || next == "=" || next == "," || next == "[" || next == "{" || next == ")" ||
         next == ":";
}

// `float rtol, atol;`: the statement holding the `,` before token k starts with two names (a type and
// a declarator, `T x` or `unsigned int`), which no expression does; `a * b, atol;` or `x = 1, atol;`
// (the comma operator) do not count.
bool startsDeclaration(const std::vector<PpToken>& tokens, std::size_t k) {
  std::size_t start = k;
  while (start > 0 && tokens[start - 1].text != ";" && tokens[start - 1].text != "{" &&
         tokens[start - 1].text != "}")
    --start;
  static const std::unordered_set<std::string> qualifiers = {"const",  "static",   "constexpr",
                                                             "inline", "volatile", "mutable"};
  while (start < k && qualifiers.count(tokens[start].text)) ++start;
  if (start + 1 >= k) return false;
  const PpToken& first = tokens[start];
  const PpToken& second = tokens[start + 1];
  auto isName = [](const PpToken& t) {
    return (t.kind == PpTokenKind::Identifier && !isKeywordLike(t.text)) ||
           (endsTypeSpecifier(t) && t.text != "*" && t.text != "&");
  };
  return isName(first) && isName(second);
}

}  // namespace

std::unordered_set<std::size_t> ownDeclaredUses(const std::vector<PpToken>& tokens,
                                                const std::unordered_set<std::string>& names) {
  std::unordered_set<std::size_t> own;
  if (names.empty()) return own;
  // For every token: the brace scope it is in (an id per `{`), and each scope's kind and parent.
  struct Scope {
    int parent = -1;
    bool counts = false;  // a class or block scope, not a namespace (or the file)
    std::size_t end = 0;  // index of its closing brace
  };
  std::vector<Scope> scopes{{-1, false, tokens.size()}};
  std::vector<int> scopeOf(tokens.size(), 0);
  std::vector<int> stack{0};
  std::size_t headStart = 0;  // first token since the last ; { }
  for (std::size_t k = 0; k < tokens.size(); ++k) {
    const std::string& t = tokens[k].text;
    scopeOf[k] = stack.back();
    if (t == "{") {
      // A namespace, or a linkage block `extern "C" {` (not `extern "C" int f() {`, a function body).
      bool ns = k == headStart + 2 && tokens[headStart].text == "extern" &&
                tokens[headStart + 1].kind == PpTokenKind::String;
      for (std::size_t h = headStart; h < k; ++h)
        if (tokens[h].text == "namespace") ns = true;
      scopes.push_back({stack.back(), !ns, tokens.size()});
      stack.push_back(static_cast<int>(scopes.size()) - 1);
      headStart = k + 1;
    } else if (t == "}") {
      if (stack.size() > 1) {
        scopes[static_cast<std::size_t>(stack.back())].end = k;
        stack.pop_back();
      }
      scopeOf[k] = stack.back();
      headStart = k + 1;
    } else if (t == ";") {
      headStart = k + 1;
    }
  }
  // A declaration inside parentheses (a parameter) belongs to the block its list is followed by,
  // if a `{` comes before the next `;` at the same paren depth (a definition, a lambda, a for).
  auto paramScope = [&](std::size_t k) -> int {
    int depth = 0;
    for (std::size_t j = k + 1; j < tokens.size(); ++j) {
      const std::string& t = tokens[j].text;
      if (t == "(") ++depth;
      if (t == ")") --depth;
      if (depth < 0 && (t == ";" || t == "}")) return -1;
      if (depth < 0 && t == "{") return j + 1 < tokens.size() ? scopeOf[j + 1] : -1;
    }
    return -1;
  };
  auto insideParens = [&](std::size_t k) {
    int depth = 0;
    for (std::size_t j = k; j-- > 0;) {
      const std::string& t = tokens[j].text;
      if (t == ")") ++depth;
      if (t == "(") {
        if (depth == 0) return true;
        --depth;
      }
      if (t == ";" || t == "{" || t == "}") return false;
    }
    return false;
  };
  // name -> (the scope its declaration belongs to, the declarator's index), in token order.
  std::map<std::string, std::vector<std::pair<int, std::size_t>>> decls;
  for (std::size_t k = 1; k + 1 < tokens.size(); ++k) {
    const PpToken& t = tokens[k];
    if (t.kind != PpTokenKind::Identifier || !names.count(t.text)) continue;
    const PpToken& prev = tokens[k - 1];
    const bool listed = prev.text == "," && !insideParens(k) && startsDeclaration(tokens, k);
    if (!listed && !endsTemplateType(tokens, k - 1) && (!endsTypeSpecifier(prev) || isKeywordLike(prev.text)))
      continue;
    if (!endsDeclarator(tokens[k + 1].text)) continue;
    std::size_t after = k + 1;
    while (after < tokens.size() && tokens[after].text == ")") ++after;
    if (after < tokens.size() && tokens[after].text == "(") continue;  // a function declarator
    const int scope = insideParens(k) ? paramScope(k) : scopeOf[k];
    if (scope < 0 || !scopes[static_cast<std::size_t>(scope)].counts) continue;
    own.insert(k);
    decls[t.text].emplace_back(scope, k);
  }
  for (std::size_t k = 1; k < tokens.size(); ++k) {
    const PpToken& t = tokens[k];
    if (t.kind != PpTokenKind::Identifier || own.count(k) || tokens[k - 1].text == "::") continue;
    const auto d = decls.find(t.text);
    if (d == decls.end()) continue;
    // Never followed by an argument list, after any `)`: `long atol(const char*);` or
    // `long (atol)(const char*);` in a nested block would declare the library's function there.
    std::size_t after = k + 1;
    while (after < tokens.size() && tokens[after].text == ")") ++after;
    if (after < tokens.size() && tokens[after].text == "(") continue;
    for (const auto& [scope, at] : d->second) {
      if (at >= k) continue;
      // The use is inside the declaring scope (or a scope nested in it).
      for (int s = scopeOf[k]; s >= 0; s = scopes[static_cast<std::size_t>(s)].parent)
        if (s == scope) {
          own.insert(k);
          break;
        }
      if (own.count(k)) break;
    }
  }
  return own;
}

}  // namespace kwb
