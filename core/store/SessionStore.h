// SPDX-License-Identifier: MIT
#pragma once
// Persistence of a Session as a directory:
//
//   session.json               header (schema version, task, settings, constraints, accepted) + index
//   session.index.jsonl        index entries saved since session.json was last written (IndexJournal.h)
//   session.lock               single-writer lock (see SessionLock)
//   iterations/0001/           one folder per iteration, at least four digits
//     iteration.json           the Iteration; candidate files referenced by path, size and hash
//     src/kernel.cpp ...       the candidate's sources
//     compile.log, ...         artifacts: logs, reports, traces (any relative path but src/)
//
// Crash safety: every file is replaced atomically (AtomicFile). An iteration's artifacts and sources
// are written before its iteration.json, and iteration.json before its index entry, so a
// folder with a valid iteration.json is a committed iteration even when the index missed it, and a
// folder without one is an iteration whose first commit never finished. Opening reconciles both.
//
// Damage (a truncated file, a deleted folder, an edited source) is reported per file as a problem and
// the rest of the session stays readable; strict opens throw instead. A writer never writes over what
// it could not read: a damaged iteration's folder is left alone, and its index entry (and the accepted
// mark, when it named it) stays in session.json until moveDamagedAside() moves the damaged folders into
// `damaged-<UTC time>/` beside a copy of the old session.json; nothing is ever deleted
// (docs/reliability.md, "Damaged sessions"). A session written by a newer kwb (higher schema version)
// is always refused.
//
// Thread-safe: every member locks an internal mutex, so the agent loop can write while the GUI reads.

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/Session.h"
#include "core/store/AtomicFile.h"
#include "core/store/StoreError.h"

namespace kwb {

enum class OpenMode { ReadOnly, ReadWrite };

struct OpenOptions {
  OpenMode mode = OpenMode::ReadWrite;
  bool strict = false;  // throw StoreError on any error-severity problem instead of listing it
  Durability durability = Durability::Sync;
};

struct StoreProblem {
  enum class Severity {
    Warning,  // expected after a crash (an iteration whose first write never finished); nothing lost
    Error,    // damage: a file that was committed is missing or unreadable
  };
  Severity severity = Severity::Error;
  std::filesystem::path path;
  std::string message;
  std::string describe() const;  // "error: PATH: MESSAGE" (PATH given once)
};

class SessionStore {
 public:
  static constexpr const char* kIndexFile = "session.json";
  static constexpr const char* kIterationsDir = "iterations";
  static constexpr const char* kIterationFile = "iteration.json";
  static constexpr const char* kSourcesDir = "src";

  // Creates a new session directory and returns it open for writing. The folder must not exist, be
  // empty, or hold only what a create() killed before its first session.json left (see
  // isUnfinishedSession); anything else is refused naming the first foreign entry. Iterations already
  // in `session` are written too.
  static SessionStore create(const std::filesystem::path& dir, Session session,
                             Durability durability = Durability::Sync);
  // True when `dir` is a non-empty folder holding only session.lock, an empty iterations/ and
  // temporary session.json files: the traces of a writer killed while creating the session.
  static bool isUnfinishedSession(const std::filesystem::path& dir);
  // Opens an existing session. ReadWrite takes the lock (SessionLockedError when held) and removes the
  // temporary files of crashed writers; ReadOnly works while another process writes.
  static SessionStore open(const std::filesystem::path& dir, OpenOptions options = {});
  // Read-only load in one call (kwb session show, the GUI's history view).
  static Session load(const std::filesystem::path& dir, std::vector<StoreProblem>* problems = nullptr,
                      bool strict = false);

  SessionStore(SessionStore&&) noexcept;
  SessionStore& operator=(SessionStore&&) noexcept;
  ~SessionStore();

  const std::filesystem::path& dir() const;
  bool writable() const;
  // What open found wrong (empty for a healthy session).
  std::vector<StoreProblem> problems() const;
  // True when open found damage (an error-severity problem): kwb run refuses to resume such a session
  // unless asked to repair it.
  bool damaged() const;
  // Moves every damaged iteration folder into DIR/damaged-<UTC time>/iterations/, with a copy of the
  // session.json it replaces and damage.txt listing the problems, drops their index entries and loads
  // the session again. Returns the new folder (empty when there was no damage). Refuses (StoreError)
  // when session.json itself is damaged: the task and settings cannot be recovered by moving files.
  std::filesystem::path moveDamagedAside();
  // The pid of a writer that died holding the lock, when this store took the lock over from it.
  std::optional<int> staleLockPid() const;

  Session session() const;  // a snapshot
  std::optional<Iteration> iteration(int id) const;
  // The id a new iteration should take: above every committed iteration and every folder on disk,
  // including incomplete and damaged ones, so nothing is ever overwritten.
  int nextIterationId() const;

  // Commits an iteration (new or updated): sources, then iteration.json, then its index entry, appended
  // to the index journal so that the cost does not grow with the session. When this returns, the iteration
  // survives a crash of this process (and, with Durability::Sync, a power cut). Throws std::invalid_argument
  // for an iteration the tree cannot hold (unknown or younger parent, an id taken by a folder it does not
  // own) and StoreError for I/O failures.
  void saveIteration(const Iteration& it);
  void setAccepted(std::optional<int> iterationId);
  void setConstraints(std::vector<Constraint> constraints);
  void setSettings(SessionSettings settings);

  // Artifacts: files beside iteration.json. Names are relative paths of plain components (letters,
  // digits, '_', '-', '.'; not starting with '.'), not iteration.json and not under src/.
  static std::string iterationFolderName(int id);  // "0042"
  std::filesystem::path iterationDir(int id) const;
  std::filesystem::path artifactPath(int id, std::string_view name) const;
  std::filesystem::path writeArtifact(int id, std::string_view name, std::string_view content);
  std::filesystem::path importArtifact(int id, std::string_view name, const std::filesystem::path& source);
  std::vector<std::string> listArtifacts(int id) const;  // sorted
  std::string readArtifact(int id, std::string_view name) const;

  struct Impl;

 private:
  explicit SessionStore(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Empty when `name` is a valid artifact name, else why not.
std::string checkArtifactName(std::string_view name);

}  // namespace kwb
