// SPDX-License-Identifier: MIT
#include "core/policy/PreprocessedTokens.h"

#include <cctype>

namespace kwb {

namespace {

bool identStart(unsigned char c) {
  return std::isalpha(c) || c == '_' || c >= 0x80 || c == '$';
}
bool identChar(unsigned char c) {
  return std::isalnum(c) || c == '_' || c >= 0x80 || c == '$';
}

// Punctuators longest first; digraphs map to their primary spelling so that `<:<:` is seen as `[[`.
struct Punct {
  const char* spelling;
  const char* normal;
};
const Punct kPuncts[] = {
    {"%:%:", "##"}, {"...", "..."}, {"<=>", "<=>"}, {"<<=", "<<="}, {">>=", ">>="}, {"->*", "->*"},
    {"::", "::"},   {"##", "##"},   {"<:", "["},    {":>", "]"},    {"<%", "{"},    {"%>", "}"},
    {"%:", "#"},    {"->", "->"},   {"++", "++"},   {"--", "--"},   {"<<", "<<"},   {">>", ">>"},
    {"<=", "<="},   {">=", ">="},   {"==", "=="},   {"!=", "!="},   {"&&", "&&"},   {"||", "||"},
    {"+=", "+="},   {"-=", "-="},   {"*=", "*="},   {"/=", "/="},   {"%=", "%="},   {"&=", "&="},
    {"|=", "|="},   {"^=", "^="},   {".*", ".*"},
};

class Lexer {
 public:
  Lexer(const std::string& s, std::size_t pos, std::size_t end) : s_(s), i_(pos), end_(end) {}

  // Next token starting at or after the cursor, or false at the end. Newlines inside a token (raw
  // strings) are counted in `newlines`.
  bool next(PpToken& t, std::size_t& start, int& newlines) {
    newlines = 0;
    while (i_ < end_ &&
           (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\r' || s_[i_] == '\f' || s_[i_] == '\v'))
      ++i_;
    if (i_ >= end_) return false;
    start = i_;
    const unsigned char c = static_cast<unsigned char>(s_[i_]);
    t = PpToken{};
    if (c == '\n') {
      t.kind = PpTokenKind::Other;
      t.text = "\n";
      ++i_;
      return true;
    }
    // Literals, including encoding prefixes and raw strings.
    std::size_t p = i_;
    if (identStart(c)) {
      std::size_t q = p;
      while (q < end_ && (identChar(static_cast<unsigned char>(s_[q])) ||
                          (s_[q] == '\\' && q + 1 < end_ && (s_[q + 1] == 'u' || s_[q + 1] == 'U'))))
        q += s_[q] == '\\' ? 2 : 1;
      const std::string word = s_.substr(p, q - p);
      const bool prefix = word == "R" || word == "u8R" || word == "uR" || word == "UR" || word == "LR";
      const bool strPrefix = word == "u8" || word == "u" || word == "U" || word == "L";
      if (q < end_ && s_[q] == '"' && prefix) return rawString(t, q, newlines);
      if (q < end_ && (s_[q] == '"' || s_[q] == '\'') && strPrefix) return quoted(t, q, s_[q]);
      t.kind = PpTokenKind::Identifier;
      t.text = word;
      i_ = q;
      return true;
    }
    if (c == '"' || c == '\'') return quoted(t, p, static_cast<char>(c));
    if (std::isdigit(c) ||
        (c == '.' && p + 1 < end_ && std::isdigit(static_cast<unsigned char>(s_[p + 1])))) {
      std::size_t q = p + 1;
      while (q < end_) {
        const char d = s_[q];
        if ((d == '+' || d == '-') &&
            (s_[q - 1] == 'e' || s_[q - 1] == 'E' || s_[q - 1] == 'p' || s_[q - 1] == 'P'))
          ++q;
        else if (d == '\'' && q + 1 < end_ && identChar(static_cast<unsigned char>(s_[q + 1])))
          q += 2;
        else if (identChar(static_cast<unsigned char>(d)) || d == '.')
          ++q;
        else
          break;
      }
      t.kind = PpTokenKind::Number;
      t.text = s_.substr(p, q - p);
      i_ = q;
      return true;
    }
    // `<::` followed by neither ':' nor '>' is '<' then '::' (C++11 [lex.pptoken]/3).
    if (s_.compare(p, 3, "<::") == 0 && !(p + 3 < end_ && (s_[p + 3] == ':' || s_[p + 3] == '>'))) {
      t.kind = PpTokenKind::Punct;
      t.text = "<";
      i_ = p + 1;
      return true;
    }
    for (const Punct& pu : kPuncts) {
      const std::size_t n = std::char_traits<char>::length(pu.spelling);
      if (p + n <= end_ && s_.compare(p, n, pu.spelling) == 0) {
        t.kind = PpTokenKind::Punct;
        t.text = pu.normal;
        i_ = p + n;
        return true;
      }
    }
    t.kind = std::ispunct(c) && c != '\\' && c != '`' && c != '@' ? PpTokenKind::Punct : PpTokenKind::Other;
    t.text = std::string(1, static_cast<char>(c));
    ++i_;
    return true;
  }

 private:
  bool quoted(PpToken& t, std::size_t q, char quote) {
    std::size_t e = q + 1;
    while (e < end_ && s_[e] != quote && s_[e] != '\n') e += s_[e] == '\\' ? 2 : 1;
    if (e < end_ && s_[e] == quote) ++e;
    if (e > end_) e = end_;
    // A ud-suffix belongs to the literal.
    while (e < end_ && identChar(static_cast<unsigned char>(s_[e]))) ++e;
    t.kind = quote == '"' ? PpTokenKind::String : PpTokenKind::Char;
    t.text = s_.substr(i_, e - i_);
    i_ = e;
    return true;
  }
  bool rawString(PpToken& t, std::size_t q, int& newlines) {
    const std::size_t open = s_.find('(', q + 1);
    std::size_t e = end_;
    if (open != std::string::npos && open < end_ && open - q - 1 <= 16) {
      const std::string delim = ")" + s_.substr(q + 1, open - q - 1) + "\"";
      const std::size_t close = s_.find(delim, open);
      e = close == std::string::npos || close >= end_ ? end_ : close + delim.size();
    }
    for (std::size_t k = i_; k < e; ++k) newlines += s_[k] == '\n';
    t.kind = PpTokenKind::String;
    t.text = s_.substr(i_, e - i_);
    i_ = e;
    return true;
  }

  const std::string& s_;
  std::size_t i_;
  std::size_t end_;
};

// `"path"` with C escapes -> path.
std::string unquote(const std::string& q) {
  std::string out;
  for (std::size_t i = 1; i + 1 < q.size(); ++i) {
    if (q[i] == '\\' && i + 2 < q.size()) {
      const char n = q[i + 1];
      if (n >= '0' && n <= '7') {
        int v = 0, k = 0;
        while (k < 3 && i + 1 < q.size() - 1 && q[i + 1] >= '0' && q[i + 1] <= '7')
          v = v * 8 + (q[++i] - '0'), ++k;
        out += static_cast<char>(v);
        continue;
      }
      out += n;
      ++i;
    } else {
      out += q[i];
    }
  }
  return out;
}

}  // namespace

int PreprocessedUnit::fileIndex(const std::string& path) const {
  for (std::size_t i = 0; i < files.size(); ++i)
    if (files[i] == path) return static_cast<int>(i);
  return -1;
}

std::vector<PpToken> tokenizeCode(const std::string& text) {
  std::vector<PpToken> out;
  Lexer lx(text, 0, text.size());
  PpToken t;
  std::size_t start = 0, lineStart = 0;
  int nl = 0, line = 1;
  while (lx.next(t, start, nl)) {
    if (t.text == "\n") {
      ++line;
      lineStart = start + 1;
      continue;
    }
    t.line = line;
    t.column = static_cast<int>(start - lineStart) + 1;
    out.push_back(t);
    line += nl;
  }
  return out;
}

PreprocessedUnit parsePreprocessed(const std::string& text) {
  PreprocessedUnit u;
  auto intern = [&](const std::string& f) {
    int k = u.fileIndex(f);
    if (k < 0) {
      u.files.push_back(f);
      k = static_cast<int>(u.files.size()) - 1;
    }
    return k;
  };
  int cur = -1, line = 1;
  int mainFile = -1;
  bool mainStarted = false;
  std::vector<int> stack;  // indices into u.includes of the files entered and not yet left
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t eol = text.find('\n', pos);
    if (eol == std::string::npos) eol = text.size();
    std::size_t first = pos;
    while (first < eol && (text[first] == ' ' || text[first] == '\t')) ++first;
    if (first < eol && text[first] == '#') {
      std::vector<PpToken> dt = tokenizeCode(text.substr(first + 1, eol - first - 1));
      if (!dt.empty() && dt[0].kind == PpTokenKind::Number && dt.size() >= 2 &&
          dt[1].kind == PpTokenKind::String) {
        // Linemarker: # N "file" flags...
        const int n = std::atoi(dt[0].text.c_str());
        const int f = intern(unquote(dt[1].text));
        bool enter = false, leave = false, sys = false;
        for (std::size_t k = 2; k < dt.size(); ++k) {
          enter = enter || dt[k].text == "1";
          leave = leave || dt[k].text == "2";
          sys = sys || dt[k].text == "3";
        }
        if (mainFile < 0) mainFile = f;
        if (enter) {
          PpInclude inc;
          inc.file = f;
          inc.parent = cur;
          inc.lineInParent = line - 1;
          inc.systemHeader = sys;
          u.includes.push_back(inc);
          stack.push_back(static_cast<int>(u.includes.size()) - 1);
        } else if (leave) {
          if (!stack.empty()) {
            PpInclude& inc = u.includes[static_cast<std::size_t>(stack.back())];
            if (inc.parent == f) inc.lineInParent = n - 1;
            stack.pop_back();
          }
        } else if (f != cur && cur >= 0) {
          if (f == mainFile && !mainStarted) {
            mainStarted = true;
          } else if (mainStarted) {
            PpToken at;
            at.text = u.files[static_cast<std::size_t>(f)];
            at.file = cur;
            at.line = line;
            u.fileSwitches.push_back(at);
          }
        }
        cur = f;
        line = n;
        pos = eol + 1;
        continue;
      }
      PpDirective d;
      d.file = cur;
      d.line = line;
      if (!dt.empty()) {
        d.name = dt[0].text;
        std::size_t k = text.find(d.name, first);
        d.text = k == std::string::npos ? "" : text.substr(k + d.name.size(), eol - k - d.name.size());
        d.tokens.assign(dt.begin() + 1, dt.end());
        for (auto& t : d.tokens) {
          t.file = cur;
          t.line = line;
        }
      }
      u.directives.push_back(std::move(d));
      ++line;
      pos = eol + 1;
      continue;
    }
    // A code line; a raw string may carry it over several lines, so lex up to the end of the text
    // but stop after the first newline outside a token.
    Lexer lx(text, pos, text.size());
    PpToken t;
    std::size_t start = 0;
    int nl = 0;
    std::size_t lineStart = pos;
    std::size_t resume = text.size();
    while (lx.next(t, start, nl)) {
      if (t.text == "\n") {
        resume = start + 1;
        break;
      }
      t.file = cur;
      t.line = line;
      t.column = static_cast<int>(start - lineStart) + 1;
      line += nl;
      if (nl > 0) lineStart = text.rfind('\n', start + t.text.size()) + 1;
      u.tokens.push_back(std::move(t));
    }
    ++line;
    pos = resume;
  }
  return u;
}

}  // namespace kwb
