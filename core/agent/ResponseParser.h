// SPDX-License-Identifier: MIT
#pragma once
// Turns an LLM reply into candidate source files. Tolerant of how models actually answer: prose around
// the code, ```cpp / ```c++ / ``` / ~~~ fences, file names in the fence info ("```cpp kernel.cpp",
// "```cpp title=\"kernel.cpp\""), on the line before ("**kernel.cpp**", "### `kernel.cpp`",
// "Here is the updated `kernel.cpp`:") or as a first-line comment ("// file: kernel.cpp"), several
// files at once, reasoning in <think>...</think> (also an orphan </think> as some servers send),
// a reply cut off inside its last code block, and raw code with no fence at all.
//
// It never throws on model output: a reply without a usable candidate yields hasCandidate() == false
// and `feedback`, a message written for the model's next turn.

#include <string>
#include <string_view>
#include <vector>

namespace kwb {

struct ReplyFile {
  std::string name;      // "kernel.cpp"
  std::string language;  // fence language as written ("cpp", "c++"), "" when none
  std::string content;   // without the fences, ending in '\n'
  int firstLine = 0;     // 1-based line of the reply (after reasoning is removed) where content starts
  bool named = false;    // the reply named the file (false: options.defaultFileName was used)
};

struct ResponseParserOptions {
  std::string defaultFileName = "kernel.cpp";  // name given to an unnamed kernel block
};

struct ParsedReply {
  // The candidate; its primary file (choosePrimaryFile, core/model/Candidate.h) first. Names are
  // checked (candidateFileProblems): a reply with an unsafe name, too many or too large files, or two
  // different versions of one file has no candidate and says why in `feedback`.
  std::vector<ReplyFile> files;
  std::vector<std::string> notes;  // how blocks were chosen or skipped, for the iteration log / GUI
  // Choices the model should hear about (which of several kernels was used, blocks ignored): the
  // loop records each as a warning diagnostic, so they go into the feedback of the next prompt.
  std::vector<std::string> warnings;
  std::string feedback;    // set when there is no candidate: what to tell the model next turn
  std::string reasoning;   // <think> content, removed from the reply before parsing
  std::string prose;       // the reply outside code blocks, trimmed
  bool truncated = false;  // the reply ended inside a code block

  bool hasCandidate() const { return !files.empty(); }
  const ReplyFile* primary() const { return files.empty() ? nullptr : &files.front(); }
  const ReplyFile* file(std::string_view name) const;
};

ParsedReply parseLlmReply(std::string_view reply, const ResponseParserOptions& options = {});

}  // namespace kwb
