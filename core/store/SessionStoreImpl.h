#pragma once
// Internals shared by SessionStore.cpp (writing) and SessionStoreLoad.cpp (opening and reconciling).
// Not part of the store's API.

#include <map>
#include <mutex>
#include <set>

#include <nlohmann/json.hpp>

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

  // Highest id committed, listed in the index, or present as a folder: new ids go above it.
  int maxKnownId = 0;
  // Folders this store created for iterations not committed yet (artifacts written first).
  std::set<int> ownedNewIds;
  // id -> candidate file -> hash of what is on disk, to skip rewriting unchanged sources.
  std::map<int, std::map<std::string, std::string>> sourceHashes;

  std::filesystem::path iterationsDir() const { return dir / SessionStore::kIterationsDir; }
  std::filesystem::path folder(int id) const {
    return iterationsDir() / SessionStore::iterationFolderName(id);
  }
  std::filesystem::path indexPath() const { return dir / SessionStore::kIndexFile; }

  void requireWritable(std::string_view what) const;
  void writeIndex();
  // Makes sure iterations/NNNN exists and may be written by this store for iteration `id`.
  void prepareFolder(int id, bool forCommit);

  // Opening (SessionStoreLoad.cpp).
  void load();
  void removeTempFiles();
  void addProblem(StoreProblem::Severity s, const std::filesystem::path& p, std::string message);
};

// The form of iteration.json: the iteration with candidate file contents replaced by references.
nlohmann::json iterationDocument(const Iteration& it);

}  // namespace kwb
