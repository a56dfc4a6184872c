// SPDX-License-Identifier: MIT
#pragma once
// The one diagnostic type shared by every producer (compiler, emulator, runtime, verifier, sandbox,
// policy, agent) and every consumer (prompts, CLI, GUI). Categories are stable strings: add, never rename.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace kwb {

enum class Severity { Note, Warning, Error, Fatal };

std::string_view toString(Severity s);
std::optional<Severity> parseSeverity(std::string_view text);

// Stable category names (docs/architecture.md, "Diagnostics"); sessions and tools key on them.
namespace category {
inline constexpr std::string_view CompileError = "compile-error";
inline constexpr std::string_view LinkError = "link-error";
inline constexpr std::string_view UbOverflow = "ub-overflow";
inline constexpr std::string_view MisalignedCopy = "misaligned-copy";
inline constexpr std::string_view GmOutOfBounds = "gm-out-of-bounds";
inline constexpr std::string_view UbOutOfBounds = "ub-out-of-bounds";
inline constexpr std::string_view QueueMisuse = "queue-misuse";
inline constexpr std::string_view MissingSync = "missing-sync";
inline constexpr std::string_view UnpairedFlag = "unpaired-flag";
inline constexpr std::string_view MulticoreOverlap = "multicore-overlap";
inline constexpr std::string_view InvalidParam = "invalid-param";
inline constexpr std::string_view UnsupportedDtype = "unsupported-dtype";
inline constexpr std::string_view UnsupportedApi = "unsupported-api";
inline constexpr std::string_view RuntimeCrash = "runtime-crash";
inline constexpr std::string_view Timeout = "timeout";
// A read of UB/L1 bytes nothing wrote (docs/emulator.md, "Uninitialised memory").
inline constexpr std::string_view UninitializedRead = "uninitialized-read";
inline constexpr std::string_view WrongAnswer = "wrong-answer";
inline constexpr std::string_view SandboxViolation = "sandbox-violation";
inline constexpr std::string_view PolicyViolation = "policy-violation";
// Added later (not in the first contract's list): the sandbox could not be set up as asked (error: nothing
// ran), or runs weaker than intended (warning, e.g. rlimits only without bubblewrap).
inline constexpr std::string_view SandboxSetup = "sandbox-setup";
// A cached build (or the cache folder) failed its integrity check and was discarded and rebuilt
// (warning): see docs/sandbox.md, "Caches".
inline constexpr std::string_view CacheIntegrity = "cache-integrity";
// The reply was ambiguous and the workbench chose (several kernels, a file sent twice, blocks
// ignored): a warning that says which was used (docs/candidate-contract.md, "Several files").
inline constexpr std::string_view AmbiguousReply = "ambiguous-reply";
}  // namespace category

// True for the categories listed above; unknown ones still load.
bool isKnownCategory(std::string_view c);

// Another line that belongs to a finding, with its part in it: the diagnostic sits at the cause, and the
// symptom (the copy that ran out of bounds, the DeQue that waits) is named here (issue 15 item 1;
// docs/emulator.md, "Cause lines"). JSON "related": [{"role", "file", "line"}].
struct RelatedLocation {
  // What that line did, in words: "the copy that ran out of bounds", "the DeQue that waits forever".
  std::string role;
  std::string file;
  int line = 0;
  std::string format() const;  // "file:line: role"
  bool operator==(const RelatedLocation&) const = default;
};

struct Diagnostic {
  std::string source;  // "compiler", "emulator", "runtime", "verifier", "sandbox", "policy", "agent"
  Severity severity = Severity::Error;
  std::string category;  // one of kwb::category, or a newer one
  std::string file;
  int line = 0;    // 1-based; 0 = unknown
  int column = 0;  // 1-based; 0 = unknown
  std::string message;
  std::optional<std::string> api;     // e.g. "DataCopy"
  std::optional<std::string> tensor;  // e.g. "xLocal"
  std::optional<int> block;           // block index
  std::optional<std::string> pipe;    // "S", "V", "MTE2", ...
  std::vector<std::string> notes;     // follow-up notes (include chain, "candidate is", ...)
  std::string excerpt;                // source line(s) with caret, when known
  // The pinned constraint (Constraint::id) this finding enforces, when it is one; the GUI and the
  // feedback link a rejection to its constraint by this id. JSON "constraint_id"; absent in sessions
  // written before it existed, which read as none (docs/session-format.md).
  std::optional<int> constraintId;
  // The symptom's lines when the diagnostic sits at the cause (absent in sessions written before it).
  std::vector<RelatedLocation> related;

  bool isError() const { return severity == Severity::Error || severity == Severity::Fatal; }
  // "file:line:col: severity: [category] message" for terminals and logs (one line; the related
  // locations are printed by the caller, each as RelatedLocation::format()).
  std::string format() const;
  bool operator==(const Diagnostic&) const = default;
};

class JsonReader;
// Located reading for session and report files: errors are LoadErrors naming the JSON pointer.
void read(const JsonReader& r, Diagnostic& d);

void to_json(nlohmann::json& j, const Diagnostic& d);
void from_json(const nlohmann::json& j, Diagnostic& d);

}  // namespace kwb
