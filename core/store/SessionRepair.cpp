// SPDX-License-Identifier: MIT
// Repairing a damaged session without losing anything: damaged iteration folders are moved (rename(2),
// never copied and deleted) into DIR/damaged-<UTC time>/iterations/, next to a copy of the session.json
// they were listed in and damage.txt saying what was wrong. See docs/reliability.md, "Damaged sessions".

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>

#include "core/store/SessionStoreImpl.h"

namespace kwb {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kDamagedPrefix = "damaged-";

std::string utcStamp() {
  char buf[32];
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  std::strftime(buf, sizeof buf, "%Y%m%dT%H%M%SZ", &tm);
  return buf;
}

bool isRealDirectory(const fs::path& p) {
  std::error_code ec;
  return fs::symlink_status(p, ec).type() == fs::file_type::directory;
}

}  // namespace

void SessionStore::Impl::noteIdsSetAside() {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(kDamagedPrefix, 0) != 0 || !isRealDirectory(entry.path())) continue;
    const fs::path its = entry.path() / SessionStore::kIterationsDir;
    if (!isRealDirectory(its)) continue;
    std::error_code ec2;
    for (const auto& f : fs::directory_iterator(its, ec2)) {
      const std::string id = f.path().filename().string();
      if (id.empty() || id.size() > 7 ||
          !std::all_of(id.begin(), id.end(), [](char c) { return c >= '0' && c <= '9'; }))
        continue;
      maxKnownId = std::max(maxKnownId, std::stoi(id));
    }
  }
}

void SessionStore::Impl::reload() {
  session = Session{};
  problems.clear();
  headerDamaged = false;
  journalDamaged = false;
  journalPending = false;
  journalOnlyIds.clear();
  damagedIds.clear();
  unreadableEntries.clear();
  unreadableAccepted.reset();
  maxKnownId = 0;
  ownedNewIds.clear();
  sourceHashes.clear();
  load();
}

bool SessionStore::damaged() const {
  std::lock_guard g(impl_->mutex);
  return std::any_of(impl_->problems.begin(), impl_->problems.end(),
                     [](const StoreProblem& p) { return p.severity == StoreProblem::Severity::Error; });
}

fs::path SessionStore::moveDamagedAside() {
  std::lock_guard g(impl_->mutex);
  auto& s = *impl_;
  s.requireWritable("move damaged iterations aside");
  if (s.headerDamaged)
    throw StoreError(s.indexPath(),
                     "is damaged; moving iteration folders cannot recover the task and settings");
  const bool anyError = std::any_of(s.problems.begin(), s.problems.end(), [](const StoreProblem& p) {
    return p.severity == StoreProblem::Severity::Error;
  });
  if (!anyError) return {};

  const std::string stamp = utcStamp();
  fs::path aside = s.dir / (std::string(kDamagedPrefix) + stamp);
  for (int n = 2; !makeDirectory(aside, s.options.durability); ++n)
    aside = s.dir / (std::string(kDamagedPrefix) + stamp + "-" + std::to_string(n));
  std::string report = "Moved aside by kwb on " + stamp + " (docs/reliability.md, \"Damaged sessions\").\n";
  for (const auto& p : s.problems)
    if (p.severity == StoreProblem::Severity::Error) report += p.describe() + "\n";
  std::error_code ec;
  if (fs::exists(s.indexPath(), ec))
    copyFileAtomic(s.indexPath(), aside / SessionStore::kIndexFile, s.options.durability);
  if (fs::exists(s.journalPath(), ec)) {
    copyFileAtomic(s.journalPath(), aside / kIndexJournalFile, s.options.durability);
    s.journalDamaged = false;  // its copy is kept aside: session.json may now replace it
  }

  bool madeIterations = false;
  for (int id : s.damagedIds) {
    const fs::path from = s.folder(id);
    if (!isRealDirectory(from)) continue;  // listed but gone: only its index entry is dropped
    if (!madeIterations) makeDirectory(aside / SessionStore::kIterationsDir, s.options.durability);
    madeIterations = true;
    const fs::path to = aside / SessionStore::kIterationsDir / SessionStore::iterationFolderName(id);
    if (::rename(from.c_str(), to.c_str()) != 0)
      throw StoreError(from,
                       std::string("cannot move aside to ") + to.string() + ": " + std::strerror(errno));
    report += "moved " + from.string() + " to " + to.string() + "\n";
  }
  if (madeIterations && s.options.durability == Durability::Sync) {
    syncDirectory(s.iterationsDir());
    syncDirectory(aside / SessionStore::kIterationsDir);
  }
  writeFileAtomic(aside / "damage.txt", report, s.options.durability);

  // The moved iterations are no longer part of the session: the index stops listing them.
  s.unreadableEntries.clear();
  s.unreadableAccepted.reset();
  s.writeIndex();
  s.reload();
  return aside;
}

}  // namespace kwb
