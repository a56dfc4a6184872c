// SPDX-License-Identifier: MIT
#pragma once
// Runs the candidate through the compiler's preprocessor (`g++ -E -dD`, linemarkers kept) inside the
// sandbox, so that the policy check (PreprocessedPolicy.h) sees the token stream the compiler will
// see after translation phases 1-4. Kept apart from the check itself: this runs a tool, that is pure.
//
// The preprocessor reads files the candidate names, so it is hostile input too: it runs sandboxed
// with tight limits (an `#include "/dev/zero"` ends at the limits, not in a hang), and what it prints
// about files other than the candidate is never passed on verbatim.

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "core/model/Diagnostic.h"

namespace kwb {

struct PreprocessSpec {
  std::string compiler;                 // default: $KWB_SIM_CXX or g++
  std::string sourceText;               // the candidate (written to scratchDir/fileName) ...
  std::filesystem::path sourcePath;     // ... or a file to copy there when sourceText is empty
  std::string fileName = "kernel.cpp";  // its name in the scratch folder (and in linemarkers' basename)
  std::string reportedFileName = "kernel.cpp";  // the file name diagnostics carry
  // The candidate's other files (name -> text), written next to it so that its `#include "x.h"` finds
  // them as in the build. Names must be plain candidate file names (isValidCandidateFileName).
  std::map<std::string, std::string> companions;
  // Everything that decides what the preprocessor sees, as in the real build: -std=, -I, -D, -include
  // (simPreprocessFlags builds the emulator build's list). -E -dD and the source are added here.
  std::vector<std::string> flags;
  std::filesystem::path scratchDir;  // writable, private to this run; created when missing
  // Bound read-only in the sandbox besides the system; default: every -I folder and -include file.
  std::vector<std::filesystem::path> readOnlyPaths;
  std::chrono::milliseconds wallTimeout{60000};
  int cpuSeconds = 60;
  std::uint64_t addressSpaceBytes = 2ull << 30;
  std::size_t outputCap = 32u << 20;
};

struct PreprocessResult {
  bool ok = false;            // the preprocessor finished and reported no error
  std::string text;           // the -E -dD output (feed it to checkPreprocessedPolicy)
  std::string candidatePath;  // the candidate's path in that output's linemarkers
  std::map<std::string, std::string> companionPaths;  // companion name -> its path in the linemarkers
  std::vector<Diagnostic> diagnostics;  // compile-error (the candidate's lines), timeout, sandbox-setup
  std::string commandLine;
};

PreprocessResult preprocessCandidate(const PreprocessSpec& spec);

// The flags `kwb sim build` (core/emulator/SimBuilder.cpp) gives a candidate's translation unit,
// for the preprocessor: standard, emulator include folder and defines, the caller's include folders
// and defines, and `-include tikicpulib.h` (the build force-includes it through its precompiled
// header, so its names are visible to the candidate whether or not it includes them). Keep in step
// with SimBuilder::build.
std::vector<std::string> simPreprocessFlags(const std::string& soc, const std::string& standard,
                                            bool autoSync, const std::vector<std::string>& includeDirs,
                                            const std::vector<std::string>& defines);

}  // namespace kwb
