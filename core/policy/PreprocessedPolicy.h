// SPDX-License-Identifier: MIT
#pragma once
// The authoritative policy check: on what the compiler will actually see. Input is the candidate's
// `g++ -E -dD` output (linemarkers kept; CandidatePreprocess.h runs it). Splices, digraphs, macros
// and token pasting are already resolved there, so nothing can be hidden from it lexically.
//
// Only the candidate's own tokens (linemarkers say which) are judged, against an allow-list
// (AllowedNames.h): an identifier is fine when it is a keyword, a listed AscendC / kwb_tiling.h /
// std name, or a name that no header declares (then it can only be the candidate's own). Anything a
// header declares that is not listed (write, fopen64, environ, kwb_sim, __builtin_fork, ...) is a
// policy-violation at the candidate's line. See docs/candidate-contract.md.

#include <map>
#include <string>
#include <vector>

#include "core/model/Diagnostic.h"
#include "core/policy/PolicyChecker.h"

namespace kwb {

// `preprocessed`: the -E -dD text. `candidatePathAsSeenByCompiler`: the candidate file's name in its
// linemarkers (the path given to g++). `reportedFileName`: the file name diagnostics carry. Pure; never
// quotes text that came from a header or any other file into a message.
std::vector<Diagnostic> checkPreprocessedPolicy(const std::string& preprocessed,
                                                const std::string& candidatePathAsSeenByCompiler,
                                                const std::string& reportedFileName,
                                                const PolicyOptions& options);

// A multi-file candidate: `companionPaths` (name -> path in the linemarkers, PreprocessResult) are the
// candidate's own files too. Their tokens and directives are judged like the primary file's (an
// included candidate header is no way around the allow-list), their diagnostics carry their names, and
// the candidate's files may include each other by quoted plain name.
std::vector<Diagnostic> checkPreprocessedPolicy(const std::string& preprocessed,
                                                const std::string& candidatePathAsSeenByCompiler,
                                                const std::string& reportedFileName,
                                                const PolicyOptions& options,
                                                const std::map<std::string, std::string>& companionPaths);

// Pragmas a candidate may write (after `#pragma`): loop hints only.
bool isAllowedPragma(const std::string& pragmaText);

}  // namespace kwb
