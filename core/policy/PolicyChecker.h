// SPDX-License-Identifier: MIT
#pragma once
// Static checks on a candidate's source before anything compiles or runs it. Each breach is a
// `policy-violation` diagnostic (source "policy") at the line and column of the offending token, with
// the rule it broke and what to do instead. The checks are lexical (comments and string literals are
// blanked first, so mentioning a banned name in a comment is fine); the sandbox is the second line of
// defence for anything a lexical check cannot see.
//
// Rules (docs/candidate-contract.md, "What a candidate may not do"):
//  - includes only from the allowed set (kernel_operator.h, kwb_tiling.h and a few standard C/C++
//    math/type headers); no computed includes;
//  - no host harness code: no `main`, ICPU_RUN_KF, GmAlloc/GmFree, SetKernelMode, ACL runtime calls
//    (the harness owns buffers and launches; the tiling function never sees tensor data);
//  - no processes, files, sockets, threads, signals, environment, dynamic loading or exit calls;
//  - no inline assembly, no token pasting (##), no constructor/destructor attributes, no redefinition
//    of the contract macros (KWB_*);
//  - the contract's two entry points must exist: the kernel `extern "C" __global__ __aicore__ void
//    <task>(GM_ADDR ... x (inputs+outputs+2))` and `kwb_tiling`.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/model/Diagnostic.h"

namespace kwb {

struct PolicyOptions {
  std::string kernelName;               // the task's entry name; empty: entry checks are skipped
  std::optional<int> kernelParamCount;  // inputs + outputs + 2 (workspace, tiling)
  bool requireTiling = true;            // the candidate must define kwb_tiling
  // Folders kernel_operator.h / kwb_tiling.h must come from in the preprocessed check (the emulator's
  // and the task's include folders); empty: recognised by their paths (.../emulator/include/...).
  std::vector<std::string> apiHeaderDirs;
  // The candidate's own other files (docs/candidate-contract.md, "Several files"): `#include "name"`
  // (quoted, plain name) of one of them is allowed. Each is checked by the same rules.
  std::vector<std::string> candidateFiles;
  // The file is host code that runs only in the tiling sandbox (an operator project's op_host source):
  // allowedHostIncludes() and the names they declare (AllowedNames::hostExternal) are allowed too.
  bool hostCode = false;
  // checkCandidateFilesPolicy: the companions that are host code (checked with hostCode).
  std::vector<std::string> hostCodeFiles;
  // The entry's name where entry checks are skipped (an operator project's kernel unit renames its
  // entry): still the candidate's own name, even where a header declares it (std::less).
  std::string ownEntryName;
};

// Headers a candidate may include (exact spelling inside <> or "").
const std::vector<std::string>& allowedIncludes();
// Headers host code may include as well (PolicyOptions::hostCode): standard containers, strings,
// numeric algorithms and utilities; no files, threads or processes (std::cout/cerr/endl only, to the
// tiling sandbox's own output, which public TilingFuncs print to).
const std::vector<std::string>& allowedHostIncludes();

// Returns every violation found in `source` (empty: the candidate may be compiled). `fileName` is the
// name reported in diagnostics.
std::vector<Diagnostic> checkCandidatePolicy(const std::string& source, const std::string& fileName,
                                             const PolicyOptions& options);

// A multi-file candidate: the primary file and every other file (`companions`, name -> text) by the
// rules above, each file's diagnostics naming it; the kernel entry must be in the primary file,
// kwb_tiling may be defined in any of them. `options.candidateFiles` is set from `companions`.
std::vector<Diagnostic> checkCandidateFilesPolicy(const std::string& primarySource,
                                                  const std::string& primaryName,
                                                  const std::map<std::string, std::string>& companions,
                                                  PolicyOptions options);

// The source with comments, string and character literals replaced by spaces (newlines kept), so
// that line/column positions still match. Exposed for tests.
std::string blankCommentsAndLiterals(const std::string& source, bool keepStrings);

}  // namespace kwb
