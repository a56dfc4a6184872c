// SPDX-License-Identifier: MIT
// The index journal (core/store/IndexJournal.h): saves append to session.index.jsonl, a writer folds
// it into session.json when it opens, rewrites the header or closes; what it lists matches what was
// saved, and a torn or garbled journal costs no iteration.

#include <gtest/gtest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "core/store/IndexJournal.h"
#include "core/store/SessionStore.h"
#include "tests/core/model/ModelTestSupport.h"

using namespace kwb;
using kwb::test::exampleIteration;
using kwb::test::exampleSession;
using kwb::test::readText;
using kwb::test::TempDir;
using kwb::test::writeText;
namespace fs = std::filesystem;

namespace {

// A chain with a branch every 7 iterations (parent i / 2) and a root every 50.
std::optional<int> parentOf(int id) {
  if (id == 1 || id % 50 == 0) return std::nullopt;
  return id % 7 == 0 ? id / 2 : id - 1;
}

std::vector<int> sessionJsonIds(const fs::path& dir) {
  const auto doc = nlohmann::json::parse(readText(dir / SessionStore::kIndexFile));
  std::vector<int> ids;
  for (const auto& e : doc["iterations"]) ids.push_back(e["id"].get<int>());
  return ids;
}

std::vector<int> upTo(int n) {
  std::vector<int> ids;
  for (int i = 1; i <= n; ++i) ids.push_back(i);
  return ids;
}

std::string allProblems(const std::vector<StoreProblem>& problems) {
  std::string out;
  for (const auto& p : problems) out += p.describe() + "\n";
  return out;
}

int countOf(const std::vector<StoreProblem>& problems, StoreProblem::Severity s) {
  int n = 0;
  for (const auto& p : problems) n += p.severity == s;
  return n;
}

// The state a writer killed after `n` saves leaves: the files copied while it still holds them open.
fs::path crashedCopyAfter(const TempDir& tmp, int n) {
  const fs::path live = tmp / "live";
  fs::path crashed = tmp / "crashed";
  auto store = SessionStore::create(live, exampleSession(), Durability::NoSync);
  for (int id = 1; id <= n; ++id) store.saveIteration(exampleIteration(id, parentOf(id)));
  fs::copy(live, crashed, fs::copy_options::recursive);
  return crashed;
}

void append(const fs::path& file, const std::string& text) {
  std::ofstream(file, std::ios::app | std::ios::binary) << text;
}

}  // namespace

TEST(IndexJournal, ManySavesThenLoadGiveTheSameIterationsAndBranches) {
  TempDir tmp;
  const fs::path dir = tmp / "s";
  constexpr int kSaves = 120;
  Session expected;
  {
    auto store = SessionStore::create(dir, exampleSession(), Durability::NoSync);
    for (int id = 1; id <= kSaves; ++id) {
      Iteration it = exampleIteration(id, parentOf(id));
      if (id % 3 == 0) {  // saved twice, as the agent loop does: the later entry wins
        Iteration early = it;
        early.state = IterationState::Compiling;
        early.verdict.reset();
        store.saveIteration(early);
      }
      store.saveIteration(it);
    }
    expected = store.session();
    // Open: the entries are in the journal, not yet in session.json.
    EXPECT_TRUE(fs::exists(dir / kIndexJournalFile));
    EXPECT_TRUE(sessionJsonIds(dir).empty());
    const auto journal = readIndexJournal(dir / kIndexJournalFile);
    EXPECT_TRUE(journal.damage.empty());
    EXPECT_FALSE(journal.tornTail);
    ASSERT_EQ(journal.entries.size(), std::size_t(kSaves));
    EXPECT_EQ(journal.entries.at(3)["state"], "done");
    EXPECT_EQ(journal.entries.at(14)["parent_id"], 7);
    EXPECT_FALSE(journal.entries.at(50).contains("parent_id"));

    std::vector<StoreProblem> problems;
    const Session whileOpen = SessionStore::load(dir, &problems);
    EXPECT_TRUE(problems.empty()) << allProblems(problems);
    EXPECT_EQ(whileOpen, expected);
  }
  // Closed: folded into session.json, the journal gone, the same session read back.
  EXPECT_FALSE(fs::exists(dir / kIndexJournalFile));
  EXPECT_EQ(sessionJsonIds(dir), upTo(kSaves));
  std::vector<StoreProblem> problems;
  const Session back = SessionStore::load(dir, &problems);
  EXPECT_TRUE(problems.empty()) << allProblems(problems);
  EXPECT_EQ(back, expected);
  EXPECT_EQ(back.lineage(14), (std::vector<int>{1, 2, 3, 7, 14}));  // 7 branches off 3
  EXPECT_EQ(back.lineage(51), (std::vector<int>{50, 51}));
}

TEST(IndexJournal, AWriterKilledBeforeFoldingLeavesAJournalTheNextWriterFoldsIn) {
  TempDir tmp;
  const fs::path dir = crashedCopyAfter(tmp, 6);
  EXPECT_TRUE(sessionJsonIds(dir).empty());
  // A folder the journal lists that is gone is damage, named by the journal.
  fs::remove_all(dir / "iterations/0006");
  std::vector<StoreProblem> problems;
  const Session s = SessionStore::load(dir, &problems);
  EXPECT_EQ(s.iterations.size(), 5u);
  ASSERT_EQ(problems.size(), 1u) << allProblems(problems);
  EXPECT_EQ(problems[0].describe(), "error: " + (dir / "iterations/0006").string() +
                                        ": missing, though session.index.jsonl lists iteration 6");

  auto store = SessionStore::open(dir, {OpenMode::ReadWrite, false, Durability::NoSync});
  EXPECT_FALSE(fs::exists(dir / kIndexJournalFile));
  EXPECT_EQ(sessionJsonIds(dir), upTo(6));  // the lost 6 stays listed, as damage always does
  EXPECT_EQ(store.nextIterationId(), 7);
  store.saveIteration(exampleIteration(7, 5));
  EXPECT_EQ(readIndexJournal(dir / kIndexJournalFile).entries.size(), 1u);
}

TEST(IndexJournal, ATornTailIsReportedAndTheSavedIterationsSurvive) {
  TempDir tmp;
  const fs::path dir = crashedCopyAfter(tmp, 5);
  const fs::path journal = dir / kIndexJournalFile;
  append(journal, R"({"id":6,"origin":"ag)");  // the line a power cut stopped half-way
  std::vector<StoreProblem> problems;
  const Session s = SessionStore::load(dir, &problems);
  EXPECT_EQ(s.iterations.size(), 5u);
  ASSERT_EQ(problems.size(), 1u) << allProblems(problems);
  EXPECT_EQ(problems[0].severity, StoreProblem::Severity::Warning);
  EXPECT_EQ(problems[0].describe(),
            "warning: " + journal.string() +
                ": line 7 has no end (a write was cut short, or a writer is appending now); ignored");

  auto store = SessionStore::open(dir, {OpenMode::ReadWrite, false, Durability::NoSync});
  EXPECT_FALSE(store.damaged());
  EXPECT_EQ(sessionJsonIds(dir), upTo(5));
  EXPECT_FALSE(fs::exists(journal));
  store.saveIteration(exampleIteration(6, 5));
  EXPECT_EQ(store.session().iterations.size(), 6u);
}

TEST(IndexJournal, AnEntryAppendedAfterATornTailIsNotSwallowedByIt) {
  TempDir tmp;
  const fs::path journal = tmp / kIndexJournalFile;
  writeText(journal, "{\"kwb_index_journal\":1}\n{\"id\":1,\"sta");
  appendIndexJournal(journal, {{"id", 2}, {"state", "done"}}, Durability::NoSync);
  const auto read = readIndexJournal(journal);
  EXPECT_FALSE(read.tornTail);
  ASSERT_EQ(read.damage.size(), 1u);  // the fragment, now a complete line, is damage
  EXPECT_EQ(read.damage[0], "line 2: not JSON; the lines after it are still read");
  ASSERT_EQ(read.entries.size(), 1u);
  EXPECT_EQ(read.entries.at(2)["state"], "done");
}

TEST(IndexJournal, AGarbledLineIsDamageThatRepairSetsAside) {
  TempDir tmp;
  const fs::path dir = crashedCopyAfter(tmp, 4);
  const fs::path journal = dir / kIndexJournalFile;
  std::string text = readText(journal);
  const auto third = text.find('\n', text.find('\n') + 1) + 1;  // after the version line and entry 1
  text.insert(third, "#garbage\n[1,2]\n{\"id\":0}\n");
  writeText(journal, text);
  const std::string damagedJournal = text;

  std::vector<StoreProblem> problems;
  const Session s = SessionStore::load(dir, &problems);
  EXPECT_EQ(s.iterations.size(), 4u);  // the folders are the truth
  EXPECT_EQ(countOf(problems, StoreProblem::Severity::Error), 3) << allProblems(problems);
  const std::string all = allProblems(problems);
  EXPECT_NE(all.find(journal.string() + ": line 3: not JSON"), std::string::npos) << all;
  EXPECT_NE(all.find("line 4: expected an index entry (a JSON object) but found an array of 2"),
            std::string::npos)
      << all;
  EXPECT_NE(all.find("line 5: iteration id 0 is outside 1..999999"), std::string::npos) << all;

  auto store = SessionStore::open(dir, {OpenMode::ReadWrite, false, Durability::NoSync});
  EXPECT_TRUE(store.damaged());
  EXPECT_EQ(readText(journal), damagedJournal);  // a damaged journal is never folded away
  store.saveIteration(exampleIteration(5, 4));
  store.setAccepted(5);  // rewrites session.json; the damaged journal still stays
  EXPECT_TRUE(fs::exists(journal));
  EXPECT_EQ(readText(journal).rfind(damagedJournal, 0), 0u);

  const fs::path aside = store.moveDamagedAside();
  ASSERT_FALSE(aside.empty());
  EXPECT_EQ(readText(aside / kIndexJournalFile).rfind(damagedJournal, 0), 0u);
  EXPECT_FALSE(store.damaged());
  EXPECT_FALSE(fs::exists(journal));
  EXPECT_EQ(sessionJsonIds(dir), upTo(5));
  EXPECT_EQ(store.session().acceptedIteration, 5);
}

TEST(IndexJournal, AJournalOfANewerFormatIsRefused) {
  TempDir tmp;
  const fs::path dir = crashedCopyAfter(tmp, 2);
  writeText(dir / kIndexJournalFile, "{\"kwb_index_journal\":3}\n{\"id\":1}\n");
  EXPECT_THROW(SessionStore::load(dir), SchemaVersionError);
  EXPECT_THROW(SessionStore::open(dir), SchemaVersionError);
}

TEST(IndexJournal, ASessionWithoutAJournalIsTheFormatEarlierKwbWrote) {
  // Earlier kwb listed every iteration in session.json and had no journal; a closed session is in
  // that form again, and one written by hand in it (the index edited, no journal) loads as before.
  TempDir tmp;
  const fs::path dir = tmp / "s";
  {
    auto store = SessionStore::create(dir, exampleSession(), Durability::NoSync);
    store.saveIteration(exampleIteration(1));
    store.saveIteration(exampleIteration(2, 1));
    store.saveIteration(exampleIteration(3, 1));
  }
  EXPECT_FALSE(fs::exists(dir / kIndexJournalFile));
  auto doc = nlohmann::json::parse(readText(dir / SessionStore::kIndexFile));
  EXPECT_EQ(doc["schema_version"], 1);
  ASSERT_EQ(doc["iterations"].size(), 3u);
  doc["accepted_iteration"] = 2;
  writeText(dir / SessionStore::kIndexFile, doc.dump(2));
  fs::remove_all(dir / "iterations/0003");
  std::vector<StoreProblem> problems;
  const Session s = SessionStore::load(dir, &problems);
  EXPECT_EQ(s.iterations.size(), 2u);
  EXPECT_EQ(s.acceptedIteration, 2);
  ASSERT_EQ(problems.size(), 1u) << allProblems(problems);
  EXPECT_EQ(problems[0].describe(), "error: " + (dir / "iterations/0003").string() +
                                        ": missing, though session.json lists iteration 3");
  auto store = SessionStore::open(dir, {OpenMode::ReadWrite, false, Durability::NoSync});
  store.saveIteration(exampleIteration(4, 2));
  EXPECT_EQ(readIndexJournal(dir / kIndexJournalFile).entries.size(), 1u);
}

// Accepting, pinning a constraint and changing a setting append one header line each instead of
// rewriting session.json (issue 20: their cost must not grow with the session); readers see the
// journal's header fields, and closing folds them into session.json.
TEST(IndexJournal, HeaderChangesAppendLinesThatReadersSeeAndClosingFolds) {
  TempDir tmp;
  const fs::path dir = tmp / "s";
  {
    auto store = SessionStore::create(dir, exampleSession(), Durability::NoSync);
    for (int id = 1; id <= 3; ++id) store.saveIteration(exampleIteration(id, parentOf(id)));
  }
  const std::string folded = readText(dir / SessionStore::kIndexFile);
  Constraint rule = Constraint::rule("keep BUFFER_NUM at 2");
  rule.id = 1;
  SessionSettings settings;
  settings.model = "a-model";
  {
    auto store = SessionStore::open(dir, {OpenMode::ReadWrite, false, Durability::NoSync});
    store.setAccepted(2);
    store.setConstraints({rule});
    store.setSettings(settings);
    EXPECT_EQ(readText(dir / SessionStore::kIndexFile), folded) << "session.json must not be rewritten";
    const IndexJournalRead journal = readIndexJournal(dir / kIndexJournalFile);
    EXPECT_TRUE(journal.damage.empty());
    EXPECT_EQ(journal.header["accepted_iteration"], 2);
    EXPECT_EQ(journal.header["settings"]["model"], "a-model");
    std::vector<StoreProblem> problems;
    const Session seen = SessionStore::load(dir, &problems);
    EXPECT_TRUE(problems.empty()) << allProblems(problems);
    EXPECT_EQ(seen.acceptedIteration, 2);
    ASSERT_EQ(seen.constraints.size(), 1u);
    EXPECT_EQ(seen.constraints[0].text, "keep BUFFER_NUM at 2");
    EXPECT_EQ(seen.settings.model, "a-model");
    store.setAccepted(std::nullopt);  // a null field removes it
    EXPECT_FALSE(SessionStore::load(dir).acceptedIteration);
    store.setAccepted(3);
  }
  EXPECT_FALSE(fs::exists(dir / kIndexJournalFile)) << "closing folds the journal";
  const auto doc = nlohmann::json::parse(readText(dir / SessionStore::kIndexFile));
  EXPECT_EQ(doc["accepted_iteration"], 3);
  EXPECT_EQ(doc["settings"]["model"], "a-model");
  EXPECT_EQ(SessionStore::load(dir).constraints.size(), 1u);
}

TEST(IndexJournal, ABadHeaderLineIsDamageAndSessionJsonsHeaderStands) {
  TempDir tmp;
  const fs::path dir = crashedCopyAfter(tmp, 2);
  append(dir / kIndexJournalFile,
         "{\"header\":{\"task\":\"rm -rf\"}}\n{\"header\":{\"accepted_iteration\":\"two\"}}\n");
  std::vector<StoreProblem> problems;
  const Session s = SessionStore::load(dir, &problems);
  EXPECT_EQ(s.iterations.size(), 2u);
  EXPECT_FALSE(s.acceptedIteration);
  const std::string all = allProblems(problems);
  EXPECT_NE(all.find("\"task\" is not a header field a journal may change"), std::string::npos) << all;
  EXPECT_NE(all.find("a header line; session.json's header is used instead"), std::string::npos) << all;
}
