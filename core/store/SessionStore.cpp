// SPDX-License-Identifier: MIT
#include "core/store/SessionStore.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <set>
#include <stdexcept>

#include "core/model/Hash.h"
#include "core/model/JsonReader.h"
#include "core/model/Time.h"
#include "core/store/SessionStoreImpl.h"

namespace kwb {

namespace fs = std::filesystem;

namespace {

bool isPlainComponent(std::string_view c) {
  if (c.empty() || c.size() > 128 || c[0] == '.') return false;
  for (char ch : c) {
    const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                    ch == '_' || ch == '-' || ch == '.';
    if (!ok) return false;
  }
  return true;
}

nlohmann::json indexEntry(const Iteration& it) {
  nlohmann::json e = {{"id", it.id},
                      {"origin", originName(it.origin)},
                      {"state", iterationStateName(it.state)},
                      {"created_at", it.createdAt},
                      {"updated_at", it.updatedAt}};
  if (it.parentId) e["parent_id"] = *it.parentId;
  if (it.verdict) e["verdict"] = *it.verdict;
  return e;
}

// Writes what a later open must be able to read: a value that does not survive its own reader is
// refused here, with the reader's message, instead of producing an unreadable session file.
template <typename T>
T roundTrip(const T& value, const std::string& what) {
  const nlohmann::json j = value;
  T back;
  try {
    read(JsonReader(j, ""), back);
  } catch (const LoadError& e) {
    throw std::invalid_argument(what + " cannot be saved: " + e.what());
  }
  return back;
}

}  // namespace

std::string StoreProblem::describe() const {
  const std::string where = path.string();
  // Messages from LoadError already start with the file (and line:column); do not repeat it.
  const bool located = !where.empty() && message.rfind(where, 0) == 0;
  return std::string(severity == Severity::Error ? "error: " : "warning: ") +
         (located || where.empty() ? message : where + ": " + message);
}

nlohmann::json iterationDocument(const Iteration& it) {
  nlohmann::json doc = it;
  doc["schema_version"] = kSchemaVersion;
  nlohmann::json refs = nlohmann::json::object();
  for (const auto& [name, content] : it.candidate.files)
    refs[name] = {{"path", std::string(SessionStore::kSourcesDir) + "/" + name},
                  {"bytes", content.size()},
                  {"hash", hashHex(content)}};
  doc["candidate"]["files"] = std::move(refs);
  return doc;
}

std::string checkArtifactName(std::string_view name) {
  if (name.empty()) return "an artifact name must not be empty";
  if (name.size() > 255) return "an artifact name must be at most 255 characters";
  if (name == SessionStore::kIterationFile) return "iteration.json is the store's own file";
  std::size_t start = 0;
  int depth = 0;
  while (start <= name.size()) {
    auto end = name.find('/', start);
    if (end == std::string_view::npos) end = name.size();
    const auto component = name.substr(start, end - start);
    if (!isPlainComponent(component))
      return "\"" + std::string(name) +
             "\" is not a relative path of plain names (letters, digits, '_', '-', '.'; not starting with "
             "'.')";
    if (depth == 0 && component == SessionStore::kSourcesDir && end != name.size())
      return "src/ holds the candidate's sources; write them with saveIteration";
    if (++depth > 8) return "an artifact path may have at most 8 components";
    start = end + 1;
  }
  return {};
}

std::string SessionStore::iterationFolderName(int id) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d", id);
  return buf;
}

void SessionStore::Impl::requireWritable(std::string_view what) const {
  if (!lock) throw StoreError(dir, "cannot " + std::string(what) + ": the session is open read-only");
}

void SessionStore::Impl::writeIndex() {
  nlohmann::json doc = sessionHeaderToJson(session);
  // Entries of iterations that could not be read are written back as they were: rewriting the index
  // must never drop what this store could not load (SessionStore.h, "Damage").
  std::map<int, nlohmann::json> byId = unreadableEntries;
  for (const auto& it : session.iterations) byId[it.id] = indexEntry(it);
  nlohmann::json entries = nlohmann::json::array();
  for (auto& [id, entry] : byId) entries.push_back(std::move(entry));
  doc["iterations"] = std::move(entries);
  if (!session.acceptedIteration && unreadableAccepted) doc["accepted_iteration"] = *unreadableAccepted;
  writeFileAtomic(indexPath(), doc.dump(2) + "\n", options.durability);
  // session.json now lists everything the journal did. A crash before the removal leaves both, which
  // reads the same: the journal repeats entries session.json holds.
  if (!journalDamaged) {
    std::error_code ec;
    fs::remove(journalPath(), ec);
    journalPending = false;
    journalOnlyIds.clear();
  }
}

void SessionStore::Impl::appendIndex(const Iteration& it) {
  appendIndexJournal(journalPath(), indexEntry(it), options.durability);
  journalPending = true;
}

void SessionStore::Impl::appendHeader(const char* field) {
  if (headerDamaged || journalDamaged) {
    writeIndex();
    return;
  }
  const nlohmann::json header = sessionHeaderToJson(session);
  const auto value = header.find(field);
  appendIndexJournal(journalPath(),
                     {{"header", {{field, value == header.end() ? nlohmann::json(nullptr) : *value}}}},
                     options.durability);
  journalPending = true;
}

SessionStore::Impl::~Impl() {
  if (!lock || !journalPending || journalDamaged || headerDamaged) return;
  try {
    writeIndex();
  } catch (...) {  // a destructor must not throw
    // The journal stays as it is; the next writer folds it in when it opens the session.
  }
}

const Iteration* SessionStore::Impl::committedIteration(int id) const {
  // The store keeps session.iterations in id order (load sorts, upsertIteration inserts in place), so
  // a new id above the last is known to be absent without Session::findIteration's fallback scan.
  if (session.iterations.empty() || id > session.iterations.back().id) return nullptr;
  return session.findIteration(id);
}

void SessionStore::Impl::prepareFolder(int id, bool forCommit) {
  if (id < 1 || id > kMaxIterationId)
    throw std::invalid_argument("iteration id " + std::to_string(id) + " is outside 1.." +
                                std::to_string(kMaxIterationId));
  const bool committed = committedIteration(id) != nullptr;
  if (!committed && !ownedNewIds.count(id)) {
    // A new id must be above everything on disk, so that a damaged or never-committed folder (kept
    // for inspection) is never mixed with a new iteration's files.
    if (id <= maxKnownId)
      throw std::invalid_argument("iteration id " + std::to_string(id) + " is taken (folder or index entry " +
                                  iterationFolderName(id) + " exists); use nextIterationId(), which is " +
                                  std::to_string(maxKnownId + 1));
    makeDirectory(iterationsDir(), options.durability);
    makeDirectory(folder(id), options.durability);
    ownedNewIds.insert(id);
    maxKnownId = id;
  }
  if (forCommit) makeDirectory(folder(id) / SessionStore::kSourcesDir, options.durability);
}

SessionStore::SessionStore(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
SessionStore::SessionStore(SessionStore&&) noexcept = default;
SessionStore& SessionStore::operator=(SessionStore&&) noexcept = default;
SessionStore::~SessionStore() = default;

SessionStore SessionStore::create(const fs::path& dir, Session session, Durability durability) {
  std::error_code ec;
  auto refuseForeign = [&dir] {
    if (auto foreign = firstForeignEntry(dir))
      throw StoreError(dir, "already exists and is not empty (it holds " + *foreign +
                                ", which kwb does not write there before session.json); choose a new "
                                "session folder");
  };
  if (fs::exists(dir, ec)) {
    if (!fs::is_directory(dir, ec)) throw StoreError(dir, "exists and is not a directory");
    if (!fs::is_empty(dir, ec)) refuseForeign();
  } else {
    if (dir.has_parent_path()) fs::create_directories(dir.parent_path(), ec);
    makeDirectory(dir, durability);
  }
  auto impl = std::make_unique<Impl>();
  impl->dir = dir;
  impl->options = OpenOptions{OpenMode::ReadWrite, true, durability};
  impl->lock.emplace(SessionLock::acquire(dir));
  // Checked again under the lock: another writer may have finished creating the session meanwhile.
  refuseForeign();
  removeUnfinishedTempIndex(dir);

  session.schemaVersion = kSchemaVersion;
  if (session.createdAt.empty()) session.createdAt = nowIso8601();
  if (session.createdBy.empty()) session.createdBy = std::string("kwb ") + KWB_VERSION;
  session.task.files = TaskFiles{};
  std::vector<Iteration> iterations = std::move(session.iterations);
  const auto accepted = session.acceptedIteration;
  session.iterations.clear();
  session.acceptedIteration.reset();
  {
    const nlohmann::json header = sessionHeaderToJson(session);
    try {
      readSessionHeader(JsonReader(header, ""), impl->session);
    } catch (const LoadError& e) {
      throw std::invalid_argument(std::string("session cannot be saved: ") + e.what());
    }
  }
  makeDirectory(impl->iterationsDir(), durability);
  impl->writeIndex();
  SessionStore store(std::move(impl));
  std::sort(iterations.begin(), iterations.end(),
            [](const Iteration& a, const Iteration& b) { return a.id < b.id; });
  for (const auto& it : iterations) store.saveIteration(it);
  if (accepted) store.setAccepted(accepted);
  return store;
}

SessionStore SessionStore::open(const fs::path& dir, OpenOptions options) {
  auto impl = std::make_unique<Impl>();
  impl->dir = dir;
  impl->options = options;
  // The lock comes first: reading while another writer commits could see its index mid-update.
  std::error_code ec;
  if (options.mode == OpenMode::ReadWrite && fs::is_directory(dir, ec) && fs::exists(dir / kIndexFile, ec))
    impl->lock.emplace(SessionLock::acquire(dir));
  impl->load();  // throws for ReadWrite unless session.json was readable, so the lock is held below
  if (options.mode == OpenMode::ReadWrite) {
    impl->removeTempFiles();
    // What the last writer appended and did not fold in (it was killed): session.json lists it again.
    if (impl->journalPending && !impl->journalDamaged) impl->writeIndex();
  }
  return SessionStore(std::move(impl));
}

Session SessionStore::load(const fs::path& dir, std::vector<StoreProblem>* problems, bool strict) {
  auto store = open(dir, OpenOptions{OpenMode::ReadOnly, strict, Durability::Sync});
  if (problems) *problems = store.problems();
  return store.session();
}

const fs::path& SessionStore::dir() const {
  return impl_->dir;
}

bool SessionStore::writable() const {
  std::lock_guard g(impl_->mutex);
  return impl_->lock.has_value();
}

std::vector<StoreProblem> SessionStore::problems() const {
  std::lock_guard g(impl_->mutex);
  return impl_->problems;
}

std::optional<int> SessionStore::staleLockPid() const {
  std::lock_guard g(impl_->mutex);
  return impl_->lock ? impl_->lock->tookOverFrom() : std::nullopt;
}

Session SessionStore::session() const {
  std::lock_guard g(impl_->mutex);
  return impl_->session;
}

std::optional<Iteration> SessionStore::iteration(int id) const {
  std::lock_guard g(impl_->mutex);
  const Iteration* it = impl_->session.findIteration(id);
  return it ? std::optional<Iteration>(*it) : std::nullopt;
}

int SessionStore::nextIterationId() const {
  std::lock_guard g(impl_->mutex);
  // The store keeps the iterations in id order (committedIteration), so the last has the highest id.
  const auto& its = impl_->session.iterations;
  return std::max(impl_->maxKnownId, its.empty() ? 0 : its.back().id) + 1;
}

void SessionStore::saveIteration(const Iteration& input) {
  std::lock_guard g(impl_->mutex);
  auto& s = *impl_;
  s.requireWritable("save an iteration");
  Iteration it = input;
  const std::string now = nowIso8601();
  if (it.createdAt.empty()) it.createdAt = now;
  if (it.updatedAt.empty()) it.updatedAt = now;
  const std::string what = "iteration " + std::to_string(it.id);
  it = roundTrip(it, what);
  // An update keeping the parent it was committed with is accepted when that parent is gone (moved
  // aside as damaged, see moveDamagedAside): the relation was valid when it was made.
  const Iteration* committed = s.committedIteration(it.id);
  const bool keepsParent = committed && committed->parentId == it.parentId;
  if (it.parentId && !keepsParent && !s.session.findIteration(*it.parentId))
    throw std::invalid_argument(what + " names parent " + std::to_string(*it.parentId) +
                                ", which is not in the session");
  s.prepareFolder(it.id, true);

  const fs::path folder = s.folder(it.id);
  auto& onDisk = s.sourceHashes[it.id];
  std::map<std::string, std::string> written;
  for (const auto& [name, content] : it.candidate.files) {
    const std::string hash = hashHex(content);
    std::error_code ec;
    const fs::path src = folder / kSourcesDir / name;
    auto known = onDisk.find(name);
    if (known == onDisk.end() || known->second != hash || !fs::exists(src, ec))
      writeFileAtomic(src, content, s.options.durability);
    written[name] = hash;
  }
  writeFileAtomic(folder / kIterationFile, iterationDocument(it).dump(2) + "\n", s.options.durability);

  // Committed. Sources the iteration no longer references are now unreferenced; remove them.
  for (const auto& [name, hash] : onDisk)
    if (!written.count(name)) {
      std::error_code ec;
      fs::remove(folder / kSourcesDir / name, ec);
    }
  onDisk = std::move(written);
  s.ownedNewIds.erase(it.id);
  s.maxKnownId = std::max(s.maxKnownId, it.id);
  const int id = it.id;
  s.session.upsertIteration(std::move(it));
  s.appendIndex(*s.session.findIteration(id));
}

void SessionStore::setAccepted(std::optional<int> iterationId) {
  std::lock_guard g(impl_->mutex);
  auto& s = *impl_;
  s.requireWritable("accept an iteration");
  if (iterationId && !s.session.findIteration(*iterationId))
    throw std::invalid_argument("cannot accept iteration " + std::to_string(*iterationId) +
                                ": it is not in the session");
  const auto previous = s.session.acceptedIteration;
  const auto previousUnreadable = s.unreadableAccepted;
  s.session.acceptedIteration = iterationId;
  s.unreadableAccepted.reset();  // an explicit choice replaces an accepted iteration that was unreadable
  try {
    s.appendHeader("accepted_iteration");
  } catch (...) {
    s.session.acceptedIteration = previous;
    s.unreadableAccepted = previousUnreadable;
    throw;
  }
}

void SessionStore::setConstraints(std::vector<Constraint> constraints) {
  std::lock_guard g(impl_->mutex);
  auto& s = *impl_;
  s.requireWritable("change constraints");
  std::set<int> ids;
  for (auto& c : constraints) {
    c = roundTrip(c, "constraint " + std::to_string(c.id));
    if (!ids.insert(c.id).second)
      throw std::invalid_argument("duplicate constraint id " + std::to_string(c.id));
  }
  auto previous = std::move(s.session.constraints);
  s.session.constraints = std::move(constraints);
  try {
    s.appendHeader("constraints");
  } catch (...) {
    s.session.constraints = std::move(previous);
    throw;
  }
}

void SessionStore::setSettings(SessionSettings settings) {
  std::lock_guard g(impl_->mutex);
  auto& s = *impl_;
  s.requireWritable("change settings");
  settings = roundTrip(settings, "settings");
  auto previous = std::move(s.session.settings);
  s.session.settings = std::move(settings);
  try {
    s.appendHeader("settings");
  } catch (...) {
    s.session.settings = std::move(previous);
    throw;
  }
}

fs::path SessionStore::iterationDir(int id) const {
  return impl_->folder(id);
}

fs::path SessionStore::artifactPath(int id, std::string_view name) const {
  if (auto why = checkArtifactName(name); !why.empty()) throw std::invalid_argument(why);
  return impl_->folder(id) / fs::path(std::string(name));
}

namespace {
void makeParents(const fs::path& folder, const fs::path& target, Durability d) {
  std::vector<fs::path> chain;
  for (fs::path p = target.parent_path(); p != folder && p.has_relative_path(); p = p.parent_path())
    chain.push_back(p);
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) makeDirectory(*it, d);
}
}  // namespace

fs::path SessionStore::writeArtifact(int id, std::string_view name, std::string_view content) {
  fs::path target = artifactPath(id, name);
  std::lock_guard g(impl_->mutex);
  impl_->requireWritable("write an artifact");
  impl_->prepareFolder(id, false);
  makeParents(impl_->folder(id), target, impl_->options.durability);
  writeFileAtomic(target, content, impl_->options.durability);
  return target;
}

fs::path SessionStore::importArtifact(int id, std::string_view name, const fs::path& source) {
  fs::path target = artifactPath(id, name);
  std::lock_guard g(impl_->mutex);
  impl_->requireWritable("import an artifact");
  impl_->prepareFolder(id, false);
  makeParents(impl_->folder(id), target, impl_->options.durability);
  copyFileAtomic(source, target, impl_->options.durability);
  return target;
}

std::vector<std::string> SessionStore::listArtifacts(int id) const {
  const fs::path folder = impl_->folder(id);
  std::vector<std::string> out;
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) return out;
  for (auto it = fs::recursive_directory_iterator(folder, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const auto rel = fs::relative(it->path(), folder, ec).generic_string();
    const auto name = it->path().filename().string();
    if (it->is_directory(ec)) {
      if ((it.depth() == 0 && name == kSourcesDir) || name.empty() || name[0] == '.')
        it.disable_recursion_pending();
      continue;
    }
    if (name.empty() || name[0] == '.' || (it.depth() == 0 && name == kIterationFile)) continue;
    if (it->is_regular_file(ec)) out.push_back(rel);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string SessionStore::readArtifact(int id, std::string_view name) const {
  return readWholeFile(artifactPath(id, name));
}

}  // namespace kwb
