// SPDX-License-Identifier: MIT
#pragma once
// Writing the files of an exported project (the kernel-launch project, the msopgen project): parent
// folders created, the text written whole, scripts made executable; a failed write throws naming the
// path, so an export never half-succeeds silently.

#include <filesystem>
#include <string>

namespace kwb {

// Creates `dir` for an export; throws when it already holds anything (an export never mixes with
// older files) or cannot be created.
void prepareExportFolder(const std::filesystem::path& dir);

void writeExportFile(const std::filesystem::path& path, const std::string& text, bool executable = false);

}  // namespace kwb
