// SPDX-License-Identifier: MIT
#pragma once
// The index journal, session.index.jsonl: what saveIteration adds to the session's index, one JSON
// line per commit, appended instead of rewriting the whole of session.json, so a save costs the same
// in a session of ten iterations and of ten thousand (docs/benchmarks.md, "Saving an iteration").
//
//   {"kwb_index_journal":1}                      first line: the journal's format version
//   {"id":7,"origin":"agent","state":"done",...} one index entry per line, later lines win
//   {"header":{"accepted_iteration":7}}          version 2: a header field changed (the accepted
//                                                iteration, the constraints, the settings), later wins
//
// A writer folds the journal into session.json (compaction) when it opens the session and when it
// closes; accepting, pinning a constraint and changing a setting append a header line instead of
// rewriting session.json, so they too cost the same at ten iterations and at ten thousand. A session
// without a journal is the format every earlier kwb wrote. Like session.json's index, the
// journal is advisory: the iteration folders are the truth (SessionStore.h), so a damaged journal
// costs no iteration, only the store's knowledge of which folders were committed.

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/store/AtomicFile.h"

namespace kwb {

inline constexpr const char* kIndexJournalFile = "session.index.jsonl";
inline constexpr int kIndexJournalVersion = 2;
// The session.json header fields a header line may set.
inline constexpr const char* kJournalHeaderFields[] = {"accepted_iteration", "constraints", "settings"};

struct IndexJournalRead {
  std::map<int, nlohmann::json> entries;  // by iteration id, the last line for each
  // The header fields the header lines set, the last value of each (an empty object when none).
  nlohmann::json header = nlohmann::json::object();
  // An unreadable complete line: damage. Each says which line and why.
  std::vector<std::string> damage;
  // The last line has no newline: a write cut short (a crash, a full disk) or one in progress while
  // a reader looks; the fragment is ignored.
  std::optional<std::string> tornTail;
};

// Reads `file` (a missing file is an empty journal). Throws SchemaVersionError for a journal of a
// newer format and StoreError when the file exists but cannot be read.
IndexJournalRead readIndexJournal(const std::filesystem::path& file);

// Appends one entry: a single write(2) of one line (after the version line when the file is new, and
// after a newline when a torn tail would otherwise swallow it); with Sync the file, and its directory
// when it was created, are fsync'ed before this returns.
void appendIndexJournal(const std::filesystem::path& file, const nlohmann::json& entry, Durability d);

}  // namespace kwb
