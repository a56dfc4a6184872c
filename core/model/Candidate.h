// SPDX-License-Identifier: MIT
#pragma once
// A candidate kernel: its source files, plus who wrote it. One of them, the primary file
// (choosePrimaryFile below), is the translation unit an evaluation compiles; the others are headers it
// may include (docs/candidate-contract.md, "Several files"). Immutable once evaluated: a human edit makes a
// new candidate (origin Human) in a new iteration.

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace kwb {

class JsonReader;

// Imported: taken from an existing operator project (kwb task import; docs/task-format.md).
enum class Origin { Agent, Human, Replay, Imported };

std::string_view originName(Origin o);  // "agent", "human", "replay", "imported"

// File names become files in iteration folders and exported projects: a plain name of letters,
// digits, '_', '-', '.', not starting with '.', at most 128 characters (no directories).
bool isValidCandidateFileName(std::string_view name);

struct Candidate {
  std::map<std::string, std::string> files;  // file name -> source text
  Origin origin = Origin::Agent;

  bool empty() const { return files.empty(); }
  const std::string* file(std::string_view name) const;
  // Identity of the sources (names and contents; origin excluded): equal hashes mean an unchanged
  // candidate, which backends use to skip recompiling.
  std::string contentHash() const;
  bool operator==(const Candidate&) const = default;
};

// The primary file of a set of candidate files: the one translation unit that is compiled, evaluated
// and exported; the others are only there to be #included by it (docs/candidate-contract.md,
// "Several files"). The one rule, used by the response parser, the evaluator and the GUI:
//  1. the source files (.cpp .cc .cxx .c) that define a kernel entry (`__global__` and `__aicore__`):
//     one -> it; several -> `preferredName` (kernel.cpp) when it is one of them, else the first by name;
//  2. no entry anywhere: `preferredName` when present, else the first source file by name, else the
//     first file by name.
// `note` is set when the choice was not obvious (several entries), saying which file was used.
struct PrimaryFileChoice {
  std::string name;  // empty only for an empty set
  std::string note;
};
PrimaryFileChoice choosePrimaryFile(const std::map<std::string, std::string>& files,
                                    std::string_view preferredName = "kernel.cpp");
// {name, source} of the candidate's primary file; {"kernel.cpp", ""} for an empty candidate.
std::pair<std::string, std::string> primaryCandidateFile(const Candidate& c);
// True for the extensions rule 1 treats as translation units.
bool isCandidateSourceFileName(std::string_view name);

// The operator-project form (docs/candidate-contract.md): a msopgen project path as a candidate file
// name. "op_host/<x>.cpp" -> "<x>_host.cpp" (it would clash with the kernel's "op_kernel/<x>.cpp");
// any other "op_host/<f>" or "op_kernel/<f>" -> "<f>"; other names are returned unchanged.
std::string candidateNameForProjectPath(std::string_view path);
// The reverse, for a candidate in the operator-project form: every "<x>_host.cpp" -> "op_host/<x>.cpp", the
// primary file -> "op_kernel/<name>", any other file -> "op_host/<name>".
std::string projectPathForCandidateName(std::string_view name, std::string_view primaryName);

// Bounds on what one candidate may hold (files from an LLM reply are untrusted).
inline constexpr std::size_t kMaxCandidateFiles = 8;
inline constexpr std::size_t kMaxCandidateFileBytes = 512u << 10;
inline constexpr std::size_t kMaxCandidateBytes = 1u << 20;

// Every reason `files` is not an acceptable candidate, each naming the file: an unsafe or invalid
// name (absolute, with a directory or "..", not isValidCandidateFileName), too many files, a file or
// the whole too large, two names that differ only in case. Empty: acceptable. (A name given twice
// cannot occur in a map; the parser keeps the last version and says so.)
std::vector<std::string> candidateFileProblems(const std::map<std::string, std::string>& files);

void read(const JsonReader& r, Origin& o);
void read(const JsonReader& r, Candidate& c);
void to_json(nlohmann::json& j, Origin o);
void to_json(nlohmann::json& j, const Candidate& c);
void from_json(const nlohmann::json& j, Origin& o);
void from_json(const nlohmann::json& j, Candidate& c);

}  // namespace kwb
