// SPDX-License-Identifier: MIT
#include "core/agent/ResponseParser.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <regex>
#include <set>

#include "core/model/Candidate.h"

namespace kwb {

namespace {

struct Block {
  std::string info;      // fence info string, trimmed
  std::string language;  // lower-case first word of info unless it is a file name
  std::string name;      // file name if the reply gave one
  std::string content;
  int firstLine = 0;
  bool closed = true;
  bool code = false;      // C/C++ source we can use
  std::size_t index = 0;  // 1-based position among all blocks
};

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::string trim(std::string_view v) {
  while (!v.empty() && std::isspace(static_cast<unsigned char>(v.front()))) v.remove_prefix(1);
  while (!v.empty() && std::isspace(static_cast<unsigned char>(v.back()))) v.remove_suffix(1);
  return std::string(v);
}

// A leading '.' or '/' is captured too, so that an unsafe name ("../x.h", "/tmp/x.h") is refused with
// a reason instead of being mistaken for an unnamed block (candidateFileProblems).
const std::string& nameRe() {
  static const std::string re =
      R"(([A-Za-z0-9_./][A-Za-z0-9_./-]*\.(?:cpp|cc|cxx|c|h|hpp|hh|inl|py|sh|txt|cmake|json)|CMakeLists\.txt))";
  return re;
}

bool isSourceName(const std::string& name) {
  static const std::regex re(R"(.*\.(cpp|cc|cxx|c|h|hpp|hh|inl)$)", std::regex::icase);
  return std::regex_match(name, re);
}

bool isCodeLanguage(const std::string& lang) {
  static const std::set<std::string> langs{"cpp", "c++", "cxx",     "cc",       "c",
                                           "h",   "hpp", "ascendc", "ascend-c", "cuda"};
  return langs.count(lang) > 0;
}

bool hasEntryPoint(const std::string& code) {
  return code.find("__global__") != std::string::npos || code.find("__aicore__") != std::string::npos;
}

bool looksLikeCpp(const std::string& code) {
  return code.find("#include") != std::string::npos || hasEntryPoint(code) ||
         (code.find(';') != std::string::npos && code.find('{') != std::string::npos);
}

// Name from a fence info string: "cpp kernel.cpp", "cpp:kernel.cpp", "kernel.cpp", "c++ title=\"k.cpp\"".
std::string nameFromInfo(const std::string& info) {
  static const std::regex re("(?:^|[\\s:=\"'{])" + nameRe() + "(?:[\\s\"'}]|$)");
  std::smatch m;
  return std::regex_search(info, m, re) ? m[1].str() : std::string();
}

// Name from the prose line just before a fence.
std::string nameFromPrecedingLine(const std::string& line) {
  static const std::regex whole(
      "^\\s*(?:#+\\s*)?(?:\\d+[.)]\\s*)?(?:[-*]\\s+)?[*_`]*\\s*(?:(?:file(?:name)?|path)\\s*[:=]\\s*)?[*_`]"
      "*" +
          nameRe() + "[*_`]*\\s*:?\\s*[*_]*\\s*$",
      std::regex::icase);
  static const std::regex quotedAtEnd("[`*]" + nameRe() + "[`*]+\\s*[:.]?\\s*$");
  std::smatch m;
  if (std::regex_match(line, m, whole)) return m[1].str();
  if (std::regex_search(line, m, quotedAtEnd)) return m[1].str();
  return {};
}

// Name from a first-line comment: "// file: kernel.cpp", "// kernel.cpp", "/* kernel.cpp */".
std::string nameFromFirstLine(const std::string& line) {
  static const std::regex re(
      "^\\s*(?://+|/\\*|#)\\s*(?:(?:file(?:name)?|path)\\s*:\\s*)?" + nameRe() + "\\s*(?:\\*/)?\\s*$",
      std::regex::icase);
  std::smatch m;
  return std::regex_match(line, m, re) ? m[1].str() : std::string();
}

// Removes <think>/<thinking> spans (and a leading orphan "</think>" section) into `reasoning`.
std::string stripReasoning(std::string text, std::string& reasoning) {
  for (const auto& [open, close] :
       {std::pair<std::string, std::string>{"<think>", "</think>"}, {"<thinking>", "</thinking>"}}) {
    const auto orphanClose = text.find(close);
    if (orphanClose != std::string::npos && text.rfind(open, orphanClose) == std::string::npos) {
      reasoning += trim(std::string_view(text).substr(0, orphanClose)) + "\n";
      text.erase(0, orphanClose + close.size());
    }
    std::size_t pos;
    while ((pos = text.find(open)) != std::string::npos) {
      const std::size_t end = text.find(close, pos);
      const std::size_t stop = end == std::string::npos ? text.size() : end + close.size();
      const std::size_t innerEnd = end == std::string::npos ? text.size() : end;
      reasoning +=
          trim(std::string_view(text).substr(pos + open.size(), innerEnd - pos - open.size())) + "\n";
      text.erase(pos, stop - pos);
    }
  }
  if (!reasoning.empty()) reasoning = trim(reasoning);
  return text;
}

struct Fence {
  char ch = '`';
  std::size_t len = 0;
  std::size_t indent = 0;
  std::string info;
};

std::optional<Fence> openingFence(const std::string& line) {
  std::size_t i = 0;
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  if (i >= line.size() || (line[i] != '`' && line[i] != '~')) return std::nullopt;
  Fence f;
  f.ch = line[i];
  f.indent = i;
  while (i < line.size() && line[i] == f.ch) ++i, ++f.len;
  if (f.len < 3) return std::nullopt;
  f.info = trim(std::string_view(line).substr(i));
  if (f.ch == '`' && f.info.find('`') != std::string::npos) return std::nullopt;  // inline code, not a fence
  return f;
}

bool closesFence(const std::string& line, const Fence& f) {
  const std::string t = trim(line);
  return t.size() >= f.len && t.find_first_not_of(f.ch) == std::string::npos;
}

// Brace balance outside comments, strings and character literals.
bool bracesBalanced(const std::string& code) {
  int depth = 0;
  for (std::size_t i = 0; i < code.size(); ++i) {
    const char c = code[i];
    if (c == '/' && i + 1 < code.size() && code[i + 1] == '/') {
      i = code.find('\n', i);
      if (i == std::string::npos) break;
    } else if (c == '/' && i + 1 < code.size() && code[i + 1] == '*') {
      i = code.find("*/", i + 2);
      if (i == std::string::npos) return false;
      ++i;
    } else if (c == '"' || c == '\'') {
      for (++i; i < code.size() && code[i] != c && code[i] != '\n'; ++i)
        if (code[i] == '\\') ++i;
    } else if (c == '{') {
      ++depth;
    } else if (c == '}') {
      --depth;
    }
  }
  return depth == 0;
}

// "// ... rest of the code unchanged" and friends: the model elided code it meant to keep.
int elisionLine(const std::string& code) {
  static const std::regex re(
      R"(^\s*(?://|/\*|#)?\s*(?:\.\.\.|…).*\b(rest|unchanged|same|existing|previous|remain\w*|omitted|as before)\b.*$|^\s*//.*\b(rest|remainder) of (the )?(code|file|kernel|implementation)\b.*(unchanged|same|as before|omitted).*$)",
      std::regex::icase);
  int line = 1;
  std::size_t start = 0;
  while (start <= code.size()) {
    const std::size_t end = code.find('\n', start);
    const std::string l = code.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (std::regex_match(l, re)) return line;
    if (end == std::string::npos) break;
    start = end + 1;
    ++line;
  }
  return 0;
}

std::string joinLanguages(const std::vector<Block>& blocks) {
  std::set<std::string> langs;
  for (const auto& b : blocks) langs.insert(b.language.empty() ? "(no language)" : b.language);
  std::string out;
  for (const auto& l : langs) out += (out.empty() ? "" : ", ") + l;
  return out;
}

}  // namespace

const ReplyFile* ParsedReply::file(std::string_view name) const {
  for (const auto& f : files)
    if (f.name == name) return &f;
  return nullptr;
}

ParsedReply parseLlmReply(std::string_view replyView, const ResponseParserOptions& options) {
  ParsedReply out;
  std::string reply;
  reply.reserve(replyView.size());
  for (std::size_t i = 0; i < replyView.size(); ++i) {  // CRLF / CR -> LF
    if (replyView[i] == '\r') {
      reply.push_back('\n');
      if (i + 1 < replyView.size() && replyView[i + 1] == '\n') ++i;
    } else {
      reply.push_back(replyView[i]);
    }
  }
  reply = stripReasoning(std::move(reply), out.reasoning);
  const std::string& kernelName = options.defaultFileName;
  const std::string askForFile = "Reply with the complete source of " + kernelName +
                                 " in one fenced block (```cpp " + kernelName +
                                 " ... ```), with no elided parts.";

  if (trim(reply).empty()) {
    out.feedback =
        out.reasoning.empty()
            ? "Your reply was empty. " + askForFile
            : "Your reply contained only reasoning (<think>...</think>) and no answer; it may have been cut "
              "off by the token limit. Think less, then " +
                  askForFile;
    return out;
  }

  // Split into lines and collect fenced blocks.
  std::vector<std::string> lines;
  for (std::size_t start = 0; start <= reply.size();) {
    const std::size_t end = reply.find('\n', start);
    lines.push_back(reply.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  if (lines.size() > 1 && lines.back().empty()) lines.pop_back();  // the reply's final newline ends a line
  std::vector<Block> blocks;
  std::string prose;
  std::string lastProseLine;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    auto fence = openingFence(lines[i]);
    if (!fence) {
      prose += lines[i] + "\n";
      if (!trim(lines[i]).empty()) lastProseLine = lines[i];
      continue;
    }
    Block b;
    b.info = fence->info;
    b.index = blocks.size() + 1;
    b.firstLine = static_cast<int>(i) + 2;
    b.closed = false;
    std::size_t j = i + 1;
    for (; j < lines.size(); ++j) {
      if (closesFence(lines[j], *fence)) {
        b.closed = true;
        break;
      }
      std::string l = lines[j];
      std::size_t strip = 0;
      while (strip < fence->indent && strip < l.size() && (l[strip] == ' ' || l[strip] == '\t')) ++strip;
      b.content += l.substr(strip) + "\n";
    }
    i = j;  // skip the closing fence (or past the end)
    const std::string firstWord = lower(b.info.substr(0, b.info.find_first_of(" \t:{")));
    b.name = nameFromInfo(b.info);
    b.language = firstWord == lower(b.name) ? "" : firstWord;
    if (!b.language.empty() && b.language.front() == '.') b.language.erase(0, 1);
    if (b.name.empty()) b.name = nameFromPrecedingLine(lastProseLine);
    if (b.name.empty()) b.name = nameFromFirstLine(b.content.substr(0, b.content.find('\n')));
    while (b.name.rfind("./", 0) == 0) b.name.erase(0, 2);  // the current folder: a plain name
    b.name = candidateNameForProjectPath(b.name);           // op_host/x.cpp -> x_host.cpp, ...
    lastProseLine.clear();
    if (!b.name.empty())
      b.code = isSourceName(b.name);
    else
      b.code = isCodeLanguage(b.language) || (b.language.empty() && looksLikeCpp(b.content));
    blocks.push_back(std::move(b));
  }
  out.prose = trim(prose);

  if (blocks.empty()) {
    const std::string whole = trim(reply) + "\n";
    if (whole.find("__aicore__") != std::string::npos && whole.find("#include") != std::string::npos) {
      out.files.push_back({kernelName, "", whole, 1, false});
      out.notes.push_back("the reply had no code fence; the whole reply was taken as " + kernelName);
      out.prose.clear();
      return out;
    }
    out.feedback = "Your reply contained no code block, so there was nothing to compile. " + askForFile;
    return out;
  }

  out.truncated = !blocks.back().closed;
  std::vector<Block> code;
  std::vector<Block> other;
  for (auto& b : blocks) (b.code ? code : other).push_back(b);
  if (!other.empty())
    out.notes.push_back(std::to_string(other.size()) + " non-C++ block(s) ignored (" + joinLanguages(other) +
                        ")");

  // A cut-off last block is only usable when its braces balance (the fence alone went missing).
  std::string truncatedName;
  if (out.truncated && !code.empty() && !code.back().closed) {
    Block& last = code.back();
    if (bracesBalanced(last.content) && looksLikeCpp(last.content)) {
      out.notes.push_back("the reply ended inside the block for " +
                          (last.name.empty() ? kernelName : last.name) +
                          " but its braces balance; it was used as is");
    } else {
      truncatedName = last.name.empty() ? kernelName : last.name;
      out.notes.push_back("the reply was cut off inside the block for " + truncatedName + " after " +
                          std::to_string(std::count(last.content.begin(), last.content.end(), '\n')) +
                          " lines; that block was dropped");
      code.pop_back();
    }
  }

  if (code.empty()) {
    if (!truncatedName.empty())
      out.feedback =
          "Your reply was cut off inside the code block for " + truncatedName +
          " (probably the output token limit), so the file is incomplete. Keep the explanation short "
          "and " +
          askForFile;
    else if (std::any_of(other.begin(), other.end(),
                         [](const Block& b) { return b.language == "diff" || b.language == "patch"; }))
      out.feedback = "Your reply contained a diff, but patches are not applied. " + askForFile;
    else
      out.feedback =
          "Your reply's code blocks were " + joinLanguages(other) + "; none was C++ source. " + askForFile;
    return out;
  }

  // Named blocks become files by name (a repeated name: the last one wins).
  std::map<std::string, std::size_t> byName;
  std::vector<ReplyFile> files;
  std::vector<const Block*> unnamed;
  for (const auto& b : code) {
    if (b.name.empty()) {
      unnamed.push_back(&b);
      continue;
    }
    ReplyFile f{b.name, b.language, b.content, b.firstLine, true};
    if (auto it = byName.find(b.name); it != byName.end()) {
      if (files[it->second].content == f.content) {
        out.notes.push_back(b.name + " appeared twice with the same content (block " +
                            std::to_string(b.index) + " repeats it)");
        continue;
      }
      // A revised version later in the reply ("Actually, better:"): the last one is used, and the
      // model is told so (docs/candidate-contract.md, "Several files").
      out.warnings.push_back(
          b.name + " appeared more than once with different content; the last version (code block " +
          std::to_string(b.index) + ") was used. Send each file once.");
      files[it->second] = std::move(f);
    } else {
      byName[b.name] = files.size();
      files.push_back(std::move(f));
    }
  }
  const bool namedHasEntry =
      std::any_of(files.begin(), files.end(), [](const ReplyFile& f) { return hasEntryPoint(f.content); });
  if (!unnamed.empty()) {
    if (namedHasEntry) {
      out.warnings.push_back(
          std::to_string(unnamed.size()) +
          " unnamed code block(s) were ignored: the named files already contain the kernel "
          "entry. Name every file you send (```cpp name.h).");
    } else {
      const Block* pick = nullptr;
      std::vector<const Block*> withEntry;
      for (const auto* b : unnamed)
        if (hasEntryPoint(b->content)) withEntry.push_back(b);
      if (unnamed.size() == 1) {
        pick = unnamed.front();
      } else if (withEntry.size() == 1) {
        pick = withEntry.front();
        out.notes.push_back("picked code block " + std::to_string(pick->index) + " of " +
                            std::to_string(blocks.size()) +
                            " because it is the only one containing __global__/__aicore__");
      } else if (withEntry.size() > 1) {
        pick = withEntry.back();
        out.warnings.push_back(
            "the reply held " + std::to_string(withEntry.size()) +
            " full kernels (unnamed code blocks with __global__/__aicore__); the last one (code "
            "block " +
            std::to_string(pick->index) + ") was used as " + kernelName + ". Send one kernel.");
      } else {
        pick = unnamed.back();
        out.warnings.push_back(
            "none of the " + std::to_string(unnamed.size()) +
            " unnamed code blocks contains __global__/__aicore__; picked the last one (block " +
            std::to_string(pick->index) + ")");
      }
      if (byName.count(kernelName)) {
        out.warnings.push_back("an unnamed code block was ignored because " + kernelName +
                               " was given by name");
      } else {
        files.push_back({kernelName, pick->language, pick->content, pick->firstLine, false});
      }
    }
  }

  // Untrusted names and sizes: refuse the whole reply with what is wrong (docs/candidate-contract.md).
  std::map<std::string, std::string> byContent;
  for (const auto& f : files) byContent[f.name] = f.content;
  if (const auto problems = candidateFileProblems(byContent); !problems.empty()) {
    std::string list;
    for (const auto& p : problems) list += "- " + p + "\n";
    out.feedback = "Your reply's files cannot be used:\n" + list + askForFile;
    out.notes.push_back("rejected: " + problems.front());
    return out;
  }
  // The primary file first, by the one rule (core/model/Candidate.h).
  const PrimaryFileChoice choice = choosePrimaryFile(byContent, kernelName);
  if (!choice.note.empty()) out.warnings.push_back(choice.note);
  auto primary =
      std::find_if(files.begin(), files.end(), [&](const ReplyFile& f) { return f.name == choice.name; });
  if (primary != files.end() && primary != files.begin()) std::rotate(files.begin(), primary, primary + 1);

  if (int line = elisionLine(files.front().content); line > 0) {
    std::size_t start = 0;
    for (int l = 1; l < line; ++l) start = files.front().content.find('\n', start) + 1;
    const std::string quoted =
        trim(files.front().content.substr(start, files.front().content.find('\n', start) - start));
    out.feedback = "Your " + files.front().name + " elides code at its line " + std::to_string(line) +
                   " (\"" + quoted + "\"), so it cannot be compiled. " + askForFile;
    out.notes.push_back("rejected: " + files.front().name + " line " + std::to_string(line) +
                        " is a placeholder for omitted code");
    return out;
  }
  out.files = std::move(files);
  return out;
}

}  // namespace kwb
