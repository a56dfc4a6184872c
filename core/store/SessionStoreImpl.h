// SPDX-License-Identifier: MIT
#pragma once
// Internals shared by SessionStore.cpp (writing) and SessionStoreLoad.cpp (opening and reconciling).
// Not part of the store's API.

#include <map>
#include <mutex>
#include <set>

#include <nlohmann/json.hpp>

#include "core/store/IndexJournal.h"
#include "core/store/SessionLock.h"
#include "core/store/SessionStore.h"

namespace kwb {

struct SessionStore::Impl {
  std::filesystem::path dir;
  OpenOptions options;
  std::optional<SessionLock> lock;
  mutable std::mutex mutex;

  Session session;
  std::vector<StoreProblem> problems;
  bool headerDamaged = false;  // session.json could not be read; writing would lose its content
  // The index journal (IndexJournal.h) holds complete lines it could not read: kept, never folded
  // into session.json and removed, until moveDamagedAside() sets a copy aside.
  bool journalDamaged = false;
  // Entries were appended to the journal since session.json last listed everything: a compaction is due.
  bool journalPending = false;
  // Ids listed only by the journal, not by session.json's own index (for the problems' wording).
  std::set<int> journalOnlyIds;

  // Highest id committed, listed in the index, or present as a folder: new ids go above it.
  int maxKnownId = 0;
  // Committed iterations that could not be read (damaged files, a listed folder gone): never written
  // over, and their index entries and the accepted mark are kept in session.json as they were until
  // moveDamagedAside() puts them aside (docs/reliability.md, "Damaged sessions").
  std::set<int> damagedIds;
  std::map<int, nlohmann::json> unreadableEntries;
  std::optional<int> unreadableAccepted;
  // Folders this store created for iterations not committed yet (artifacts written first).
  std::set<int> ownedNewIds;
  // id -> candidate file -> hash of what is on disk, to skip rewriting unchanged sources.
  std::map<int, std::map<std::string, std::string>> sourceHashes;

  std::filesystem::path iterationsDir() const { return dir / SessionStore::kIterationsDir; }
  std::filesystem::path folder(int id) const {
    return iterationsDir() / SessionStore::iterationFolderName(id);
  }
  std::filesystem::path indexPath() const { return dir / SessionStore::kIndexFile; }
  std::filesystem::path journalPath() const { return dir / kIndexJournalFile; }

  Impl() = default;
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;
  ~Impl();  // a writer folds the journal into session.json when it closes

  void requireWritable(std::string_view what) const;
  // Rewrites session.json with the header and every index entry, then drops the journal it folded in.
  void writeIndex();
  // Adds one iteration's entry to the index: O(1) in the session's size (IndexJournal.h).
  void appendIndex(const Iteration& it);
  // Records a changed header field (accepted_iteration, constraints, settings) as one journal line
  // instead of rewriting session.json (IndexJournal.h); rewrites session.json when the header or the
  // journal is damaged, since only a rewrite repairs them.
  void appendHeader(const char* field);
  // The committed iteration `id`, or nullptr; O(1) for a new id above every committed one.
  const Iteration* committedIteration(int id) const;
  // Makes sure iterations/NNNN exists and may be written by this store for iteration `id`.
  void prepareFolder(int id, bool forCommit);

  // Opening (SessionStoreLoad.cpp).
  void load();
  void reload();
  // Ids of iteration folders moved into damaged-*/ by an earlier repair count as taken (SessionRepair.cpp).
  void noteIdsSetAside();  // forgets what load() found and loads again (after moving damaged parts aside)
  void removeTempFiles();
  void addProblem(StoreProblem::Severity s, const std::filesystem::path& p, std::string message);
};

// Unfinished creation (UnfinishedSession.cpp): the first entry of `dir` that create() does not write
// before its first session.json, or nullopt when there is none; and the removal of the temporary
// session.json such a run left.
std::optional<std::string> firstForeignEntry(const std::filesystem::path& dir);
void removeUnfinishedTempIndex(const std::filesystem::path& dir);

// The form of iteration.json: the iteration with candidate file contents replaced by references.
nlohmann::json iterationDocument(const Iteration& it);

}  // namespace kwb
