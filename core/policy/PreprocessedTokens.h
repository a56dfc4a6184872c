// SPDX-License-Identifier: MIT
#pragma once
// Reads `g++ -E -dD` output (linemarkers kept) into tokens that know the file and line they came
// from. Pure text processing: running the preprocessor is CandidatePreprocess's job. The policy check
// needs provenance because only the candidate's own tokens are judged, while every token that came
// from a header tells which names exist outside the candidate.

#include <string>
#include <vector>

namespace kwb {

enum class PpTokenKind { Identifier, Number, String, Char, Punct, Other };

struct PpToken {
  PpTokenKind kind = PpTokenKind::Other;
  std::string text;  // digraphs normalised: <: :> <% %> %: %:%: become [ ] { } # ##
  int file = -1;     // index into PreprocessedUnit::files
  int line = 0;      // line in that file, as the linemarkers say
  int column = 0;    // column in the -E output line (approximate for the original source)
};

// A directive the preprocessor passed through (#pragma, and with -dD #define/#undef).
struct PpDirective {
  std::string name;             // "pragma", "define", "undef", or whatever else followed '#'
  std::string text;             // the rest of the line
  std::vector<PpToken> tokens;  // tokens of `text`
  int file = -1;
  int line = 0;
};

// A file the preprocessor entered (linemarker flag 1).
struct PpInclude {
  int file = -1;              // the file entered
  int parent = -1;            // the file that included it (-1: the command line / built-ins)
  int lineInParent = 0;       // the #include line in the parent (from the return marker when present)
  bool systemHeader = false;  // flag 3
};

struct PreprocessedUnit {
  std::vector<std::string> files;  // as the linemarkers spell them
  std::vector<PpToken> tokens;     // code tokens, in order
  std::vector<PpDirective> directives;
  std::vector<PpInclude> includes;
  // Linemarkers that switched to another file without entering or leaving one (what `#line N
  // "file"` produces): positions in the file that was current before the switch.
  std::vector<PpToken> fileSwitches;

  int fileIndex(const std::string& path) const;  // -1 when absent
};

// Tokenizes preprocessed text. Never throws; malformed input yields Other tokens.
PreprocessedUnit parsePreprocessed(const std::string& text);

// Tokenizes one line or snippet of code (no linemarkers), file -1, line 1..n.
std::vector<PpToken> tokenizeCode(const std::string& text);

}  // namespace kwb
