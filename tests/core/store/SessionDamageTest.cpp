// SPDX-License-Identifier: MIT
// Damage is kept, reported and only ever moved aside (docs/reliability.md, "Damaged sessions"), and a
// folder left by a create() killed before its first session.json is continued, unless it holds
// anything create() does not write ("Kills before the first session.json").

#include <gtest/gtest.h>

#include <fstream>

#include <nlohmann/json.hpp>

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

std::vector<int> indexIds(const fs::path& dir) {
  const auto doc = nlohmann::json::parse(readText(dir / "session.json"));
  std::vector<int> ids;
  for (const auto& e : doc["iterations"]) ids.push_back(e["id"].get<int>());
  return ids;
}

// Iterations 1 <- 2, 1 <- 3, 2 accepted; then 2's iteration.json cut short and 3's source edited.
fs::path makeDamagedSession(const TempDir& tmp) {
  const fs::path dir = tmp / "session";
  {
    auto store = SessionStore::create(dir, exampleSession(), Durability::NoSync);
    store.saveIteration(exampleIteration(1));
    store.saveIteration(exampleIteration(2, 1));
    store.saveIteration(exampleIteration(3, 1));
    store.setAccepted(2);
  }
  const fs::path it2 = dir / "iterations/0002/iteration.json";
  writeText(it2, readText(it2).substr(0, 90));
  writeText(dir / "iterations/0003/src/kernel.cpp", "// edited by hand\n");
  return dir;
}

}  // namespace

TEST(SessionDamage, AWriterNeverDropsWhatItCannotRead) {
  TempDir tmp;
  const fs::path dir = makeDamagedSession(tmp);
  const std::string damagedJson = readText(dir / "iterations/0002/iteration.json");
  {
    auto store = SessionStore::open(dir);
    EXPECT_TRUE(store.damaged());
    EXPECT_EQ(store.session().iterations.size(), 1u);
    // Every write rewrites session.json; none may lose the unreadable iterations or the accepted mark.
    SessionSettings settings = store.session().settings;
    settings.limits.maxIterations = 9;
    store.setSettings(settings);
    Iteration four = exampleIteration(4, 1);
    store.saveIteration(four);
  }
  EXPECT_EQ(indexIds(dir), (std::vector<int>{1, 2, 3, 4}));
  EXPECT_EQ(nlohmann::json::parse(readText(dir / "session.json"))["accepted_iteration"], 2);
  EXPECT_EQ(readText(dir / "iterations/0002/iteration.json"), damagedJson);
  EXPECT_EQ(readText(dir / "iterations/0003/src/kernel.cpp"), "// edited by hand\n");
  std::vector<StoreProblem> problems;
  SessionStore::load(dir, &problems);
  int errors = 0;
  for (const auto& p : problems) errors += p.severity == StoreProblem::Severity::Error;
  EXPECT_EQ(errors, 3);  // 2 unreadable, 3 edited, the accepted 2 unreadable: still all reported
}

TEST(SessionDamage, MoveDamagedAsideKeepsEveryByteAndClearsTheDamage) {
  TempDir tmp;
  const fs::path dir = makeDamagedSession(tmp);
  const std::string index = readText(dir / "session.json");
  const std::string json2 = readText(dir / "iterations/0002/iteration.json");
  auto store = SessionStore::open(dir);
  const fs::path aside = store.moveDamagedAside();
  ASSERT_FALSE(aside.empty());
  EXPECT_EQ(aside.parent_path(), dir);
  EXPECT_EQ(aside.filename().string().rfind("damaged-", 0), 0u) << aside;
  EXPECT_EQ(readText(aside / "session.json"), index);
  EXPECT_EQ(readText(aside / "iterations/0002/iteration.json"), json2);
  EXPECT_EQ(readText(aside / "iterations/0003/src/kernel.cpp"), "// edited by hand\n");
  EXPECT_TRUE(fs::exists(aside / "iterations/0003/iteration.json"));
  const std::string report = readText(aside / "damage.txt");
  EXPECT_NE(report.find((dir / "iterations/0002/iteration.json").string()), std::string::npos) << report;
  EXPECT_NE(report.find("moved " + (dir / "iterations/0003").string()), std::string::npos) << report;
  EXPECT_FALSE(fs::exists(dir / "iterations/0002"));

  EXPECT_FALSE(store.damaged());
  EXPECT_EQ(indexIds(dir), (std::vector<int>{1}));
  EXPECT_EQ(store.nextIterationId(), 4);  // the moved ids stay taken
  EXPECT_TRUE(store.moveDamagedAside().empty());
  store = SessionStore::open(dir, {OpenMode::ReadOnly});  // and stay taken for the next writer
  EXPECT_FALSE(store.damaged());
  EXPECT_EQ(store.nextIterationId(), 4);
}

TEST(SessionDamage, IterationsWhoseParentWasMovedAsideCanStillBeUpdated) {
  TempDir tmp;
  const fs::path dir = tmp / "session";
  {
    auto store = SessionStore::create(dir, exampleSession(), Durability::NoSync);
    store.saveIteration(exampleIteration(1));
    Iteration two = exampleIteration(2, 1);
    two.state = IterationState::Compiling;  // interrupted: the agent loop re-saves it on resume
    store.saveIteration(two);
  }
  writeText(dir / "iterations/0001/iteration.json", "{");
  auto store = SessionStore::open(dir);
  ASSERT_FALSE(store.moveDamagedAside().empty());
  Iteration two = *store.iteration(2);
  two.state = IterationState::Stopped;
  EXPECT_NO_THROW(store.saveIteration(two));
  EXPECT_THROW(store.saveIteration(exampleIteration(3, 1)), std::invalid_argument);  // new: refused
}

TEST(SessionDamage, ADamagedIndexIsNotRepairedByMovingFolders) {
  TempDir tmp;
  const fs::path dir = makeDamagedSession(tmp);
  writeText(dir / "session.json", "{\"trunc");
  EXPECT_THROW(SessionStore::open(dir), StoreError);  // as before: the header cannot be reconstructed
  EXPECT_EQ(readText(dir / "session.json"), "{\"trunc");
}

TEST(SessionDamage, CreateContinuesWhereAKilledCreateStopped) {
  TempDir tmp;
  const fs::path dir = tmp / "s";
  fs::create_directories(dir / "iterations");
  writeText(dir / "session.lock", "4242\n");
  writeText(dir / ".tmp-4242-0-session.json", "{\"schema");
  EXPECT_TRUE(SessionStore::isUnfinishedSession(dir));
  {
    auto store = SessionStore::create(dir, exampleSession(), Durability::NoSync);
    store.saveIteration(exampleIteration(1));
  }
  EXPECT_FALSE(fs::exists(dir / ".tmp-4242-0-session.json"));
  EXPECT_EQ(SessionStore::load(dir).iterations.size(), 1u);
  EXPECT_FALSE(SessionStore::isUnfinishedSession(dir));  // now a session: resumed, not re-created
}

TEST(SessionDamage, CreateRefusesAFolderWithAnythingItDidNotWrite) {
  TempDir tmp;
  auto partial = [&](const std::string& name) {
    const fs::path dir = tmp / name;
    fs::create_directories(dir / "iterations");
    writeText(dir / "session.lock", "4242\n");
    return dir;
  };
  auto refusal = [](const fs::path& dir) -> std::string {
    try {
      SessionStore::create(dir, exampleSession(), Durability::NoSync);
    } catch (const StoreError& e) {
      return e.what();
    }
    return "created";
  };
  const fs::path notes = partial("notes");
  writeText(notes / "notes.txt", "mine");
  EXPECT_NE(refusal(notes).find("it holds notes.txt, which kwb does not write there"), std::string::npos)
      << refusal(notes);
  EXPECT_EQ(readText(notes / "notes.txt"), "mine");

  const fs::path full = partial("full");  // iterations/ with content is never an unfinished create
  fs::create_directories(full / "iterations/0001");
  EXPECT_NE(refusal(full).find("it holds iterations"), std::string::npos) << refusal(full);

  const fs::path link = tmp / "link";  // a symlinked lock file is not ours
  fs::create_directories(link);
  fs::create_symlink(notes / "notes.txt", link / "session.lock");
  EXPECT_FALSE(SessionStore::isUnfinishedSession(link));
  EXPECT_NE(refusal(link).find("it holds session.lock"), std::string::npos) << refusal(link);

  const fs::path lock = partial("badlock");  // a lock file that is not a pid
  writeText(lock / "session.lock", "not a pid, someone's file\n");
  EXPECT_NE(refusal(lock).find("it holds session.lock"), std::string::npos) << refusal(lock);

  const fs::path temp = partial("othertemp");  // a temporary file of something else
  writeText(temp / ".tmp-1-2-notes.txt", "x");
  EXPECT_NE(refusal(temp).find("it holds .tmp-1-2-notes.txt"), std::string::npos) << refusal(temp);
}
