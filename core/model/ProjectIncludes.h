// SPDX-License-Identifier: MIT
#pragma once
// msopgen projects include across their two folders: op_host/<op>.cpp has
// `#include "../op_kernel/<op>_tiling.h"`, and kernels sometimes `#include "../op_host/<op>_tiling.h"`.
// A candidate's files are one flat folder (docs/candidate-contract.md), where those paths do not exist.
// This rewrite, a pure function of the text, turns such an include into the flat candidate file it
// names, so the project builds as written; the stored files keep their own spelling (and export back
// unchanged). Only the quoted name of an #include line changes: line numbers stay the user's.

#include <map>
#include <set>
#include <string>
#include <string_view>

namespace kwb {

// `#include "../op_kernel/F"`, `"../op_host/F"`, `"op_kernel/F"` or `"op_host/F"` becomes
// `#include "<name>"` where <name> = candidateNameForProjectPath("op_kernel/F" or "op_host/F") is in
// `candidateNames`; any other line, or a path naming no candidate file, is left as it is.
std::string flattenProjectIncludes(std::string_view text, const std::set<std::string>& candidateNames);

// The same for every file of a candidate (primary and companions); true when any file changed.
bool flattenProjectIncludes(std::string& primarySource, const std::string& primaryName,
                            std::map<std::string, std::string>& companions);

// Whether the candidate header `headerName` belongs in op_kernel/ when the candidate is written out as
// a project: the primary (kernel) file includes it by its plain name, or any file includes it as
// "op_kernel/<name>" or "../op_kernel/<name>" (a tiling-key or plain-struct header both sides share).
// Otherwise it belongs beside the host source, in op_host/.
bool headerBelongsInKernelFolder(const std::map<std::string, std::string>& files,
                                 const std::string& primaryName, const std::string& headerName);

}  // namespace kwb
