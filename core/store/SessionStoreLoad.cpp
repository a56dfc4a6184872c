// SPDX-License-Identifier: MIT
// Opening a session directory: read the session.json header and index (with the index journal), read
// every iteration folder, and reconcile the two (see SessionStore.h for why the folders are the truth).

#include <algorithm>
#include <charconv>

#include "core/model/Hash.h"
#include "core/model/JsonReader.h"
#include "core/store/IndexJournal.h"
#include "core/store/SessionStoreImpl.h"

namespace kwb {

namespace fs = std::filesystem;

namespace {

std::optional<int> parseFolderName(const std::string& name) {
  if (name.size() < 4 || name.size() > 7) return std::nullopt;
  int id = 0;
  auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), id);
  if (ec != std::errc{} || end != name.data() + name.size() || id < 1 || id > kMaxIterationId)
    return std::nullopt;
  if (SessionStore::iterationFolderName(id) != name) return std::nullopt;
  return id;
}

// Entries listed in the index, by id. The index is advisory (folders win), so a malformed entry is
// skipped.
std::map<int, nlohmann::json> indexEntries(const nlohmann::json& doc) {
  std::map<int, nlohmann::json> ids;
  auto it = doc.find("iterations");
  if (it == doc.end() || !it->is_array()) return ids;
  for (const auto& entry : *it)
    if (entry.is_object() && entry.contains("id") && entry["id"].is_number_integer()) {
      const auto id = entry["id"].get<std::int64_t>();
      if (id >= 1 && id <= kMaxIterationId) ids[static_cast<int>(id)] = entry;
    }
  return ids;
}

}  // namespace

void SessionStore::Impl::addProblem(StoreProblem::Severity s, const fs::path& p, std::string message) {
  problems.push_back(StoreProblem{s, p, std::move(message)});
}

void SessionStore::Impl::load() {
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw StoreError(
        dir, fs::exists(dir, ec) ? "not a session directory (not a directory)" : "no such session directory");
  const bool hasIterations = fs::is_directory(iterationsDir(), ec);

  // The journal is read before session.json: a writer folding it in writes session.json first and
  // removes the journal after, so a reader between the two sees every entry at least once.
  IndexJournalRead journal;
  try {
    journal = readIndexJournal(journalPath());
  } catch (const SchemaVersionError&) {
    throw;
  } catch (const StoreError& e) {
    journalDamaged = true;
    addProblem(StoreProblem::Severity::Error, journalPath(), e.what());
  }
  for (const auto& why : journal.damage) {
    journalDamaged = true;
    addProblem(StoreProblem::Severity::Error, journalPath(),
               why + " (the iteration folders are still read: the journal only lists them)");
  }
  if (journal.tornTail) addProblem(StoreProblem::Severity::Warning, journalPath(), *journal.tornTail);

  std::map<int, nlohmann::json> listed;
  if (!fs::exists(indexPath(), ec)) {
    if (!hasIterations) throw StoreError(dir, "not a session directory: it has no session.json");
    headerDamaged = true;
    addProblem(StoreProblem::Severity::Error, indexPath(),
               "missing; the task, settings and constraints are lost");
  } else {
    try {
      const nlohmann::json doc = readJsonFile(indexPath());
      readSessionHeader(JsonReader(doc, indexPath().string()), session);
      listed = indexEntries(doc);
      // The journal's header lines were written after session.json: their fields win.
      if (!journal.header.empty() && doc.is_object()) {
        nlohmann::json withJournal = doc;
        for (const auto& [name, value] : journal.header.items()) {
          if (value.is_null())
            withJournal.erase(name);
          else
            withJournal[name] = value;
        }
        Session changed;
        try {
          readSessionHeader(JsonReader(withJournal, journalPath().string()), changed);
          session = std::move(changed);
        } catch (const LoadError& e) {
          journalDamaged = true;
          addProblem(StoreProblem::Severity::Error, journalPath(),
                     std::string(e.what()) + " (a header line; session.json's header is used instead)");
        }
      }
    } catch (const SchemaVersionError&) {
      throw;
    } catch (const LoadError& e) {
      headerDamaged = true;
      session = Session{};
      addProblem(StoreProblem::Severity::Error, indexPath(), e.what());
    }
  }

  // Later entries win: the journal holds what was saved after session.json was last written.
  journalPending = fs::exists(journalPath(), ec);
  for (auto& [id, entry] : journal.entries) {
    if (!listed.count(id)) journalOnlyIds.insert(id);
    listed[id] = std::move(entry);
  }
  auto listedBy = [this](int id) {
    return std::string(journalOnlyIds.count(id) ? kIndexJournalFile : SessionStore::kIndexFile) +
           " lists iteration " + std::to_string(id);
  };

  std::set<int> folders;
  if (hasIterations) {
    for (const auto& entry : fs::directory_iterator(iterationsDir(), ec)) {
      const auto id = parseFolderName(entry.path().filename().string());
      if (!id || !entry.is_directory(ec)) continue;
      folders.insert(*id);
      maxKnownId = std::max(maxKnownId, *id);
    }
    if (ec) addProblem(StoreProblem::Severity::Error, iterationsDir(), "cannot list: " + ec.message());
  }
  noteIdsSetAside();

  for (int id : folders) {
    const fs::path file = folder(id) / SessionStore::kIterationFile;
    if (!fs::exists(file, ec)) {
      if (listed.count(id)) {
        damagedIds.insert(id);
        addProblem(StoreProblem::Severity::Error, file, "missing, though " + listedBy(id));
      } else
        addProblem(StoreProblem::Severity::Warning, folder(id),
                   "iteration " + std::to_string(id) +
                       " has no iteration.json: it is being written, or its writer stopped before committing "
                       "it; ignored");
      continue;
    }
    try {
      nlohmann::json doc = readJsonFile(file);
      std::map<std::string, std::string> hashes;
      // Swap each candidate file reference for the file's content, checking it against the
      // recorded size and hash so that a damaged or hand-edited source is not taken as the truth.
      if (doc.is_object() && doc.contains("candidate") && doc["candidate"].is_object() &&
          doc["candidate"].contains("files") && doc["candidate"]["files"].is_object()) {
        for (auto& [name, ref] : doc["candidate"]["files"].items()) {
          const std::string where = "/candidate/files/" + escapePointerToken(name);
          JsonReader r(ref, file.string(), where);
          r.allowOnly({"path", "bytes", "hash"});
          const std::string rel = r.getString("path");
          if (!isValidCandidateFileName(name) || rel != std::string(SessionStore::kSourcesDir) + "/" + name)
            r.at("path").expected("\"src/" + name + "\"");
          const auto bytes = r.at("bytes").asInt(0, INT64_MAX);
          const std::string hash = r.getString("hash");
          const fs::path src = folder(id) / rel;
          std::string content;
          try {
            content = readWholeFile(src);
          } catch (const StoreError&) {
            throw LoadError(src.string(), "", "missing; iteration.json references it");
          }
          if (static_cast<std::int64_t>(content.size()) != bytes || hashHex(content) != hash)
            throw LoadError(src.string(), "",
                            "content differs from what iteration.json recorded (" + std::to_string(bytes) +
                                " bytes, hash " + hash + "); the file was damaged or edited");
          hashes[name] = hash;
          ref = std::move(content);
        }
      }
      Iteration it;
      read(JsonReader(doc, file.string()), it);
      if (it.id != id)
        throw LoadError(
            file.string(), "/id",
            "expected " + std::to_string(id) + " (the folder's number) but found " + std::to_string(it.id));
      sourceHashes[id] = std::move(hashes);
      session.iterations.push_back(std::move(it));
    } catch (const SchemaVersionError&) {
      throw;
    } catch (const LoadError& e) {
      // The damaged file may be a source rather than iteration.json itself.
      const fs::path where = e.file().rfind(file.string(), 0) == 0 ? file : fs::path(e.file());
      damagedIds.insert(id);
      addProblem(StoreProblem::Severity::Error, where,
                 std::string(e.what()) + " (iteration " + std::to_string(id) + " is not loaded)");
    } catch (const StoreError& e) {
      damagedIds.insert(id);
      addProblem(StoreProblem::Severity::Error, file,
                 std::string(e.what()) + " (iteration " + std::to_string(id) + " is not loaded)");
    }
  }

  for (const auto& [id, entry] : listed) {
    maxKnownId = std::max(maxKnownId, id);
    if (!folders.count(id)) {
      damagedIds.insert(id);
      addProblem(StoreProblem::Severity::Error, folder(id), "missing, though " + listedBy(id));
    }
  }

  std::sort(session.iterations.begin(), session.iterations.end(),
            [](const Iteration& a, const Iteration& b) { return a.id < b.id; });
  for (const auto& it : session.iterations) {
    if (it.parentId && !session.findIteration(*it.parentId))
      addProblem(StoreProblem::Severity::Warning, folder(it.id),
                 "parent iteration " + std::to_string(*it.parentId) + " is not readable; iteration " +
                     std::to_string(it.id) + " is shown as a root");
  }
  if (session.acceptedIteration && !session.findIteration(*session.acceptedIteration)) {
    addProblem(StoreProblem::Severity::Error, indexPath(),
               "accepted iteration " + std::to_string(*session.acceptedIteration) + " is not readable");
    unreadableAccepted = session.acceptedIteration;
    session.acceptedIteration.reset();
  }
  for (int id : damagedIds)
    if (auto e = listed.find(id); e != listed.end()) unreadableEntries[id] = e->second;

  const bool anyError = std::any_of(problems.begin(), problems.end(), [](const StoreProblem& p) {
    return p.severity == StoreProblem::Severity::Error;
  });
  if (options.strict && anyError) {
    std::string message = "session is damaged:";
    for (const auto& p : problems)
      if (p.severity == StoreProblem::Severity::Error) message += "\n  " + p.describe();
    throw StoreError(dir, message);
  }
  if (options.mode == OpenMode::ReadWrite && headerDamaged)
    throw StoreError(indexPath(), "cannot open the session for writing: " + problems.front().message +
                                      "; open it read-only to recover its iterations");
}

void SessionStore::Impl::removeTempFiles() {
  // Collected first, removed after: deleting while a directory iterator is open is unspecified.
  std::error_code ec;
  std::vector<fs::path> leftovers;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (isTempFileName(entry.path().filename().string()) && entry.is_regular_file(ec))
      leftovers.push_back(entry.path());
  if (fs::is_directory(iterationsDir(), ec))
    for (const auto& entry : fs::recursive_directory_iterator(iterationsDir(), ec))
      if (isTempFileName(entry.path().filename().string()) && entry.is_regular_file(ec))
        leftovers.push_back(entry.path());
  for (const auto& p : leftovers) fs::remove(p, ec);
}

}  // namespace kwb
