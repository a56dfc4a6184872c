// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <fstream>

#include "core/model/Hash.h"
#include "core/store/SessionLock.h"
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

// A session with iterations 1 <- 2, 1 <- 3 and artifacts, closed again.
fs::path makeThreeIterationSession(const TempDir& tmp) {
  const fs::path dir = tmp / "session";
  auto store = SessionStore::create(dir, exampleSession(), Durability::NoSync);
  store.saveIteration(exampleIteration(1));
  store.writeArtifact(1, "compile.log", "compiled 1\n");
  store.saveIteration(exampleIteration(2, 1));
  store.writeArtifact(2, "compile.log", "compiled 2\n");
  store.saveIteration(exampleIteration(3, 1));
  store.setAccepted(2);
  return dir;
}

bool hasProblem(const std::vector<StoreProblem>& problems, StoreProblem::Severity s,
                const std::string& text) {
  for (const auto& p : problems)
    if (p.severity == s && p.describe().find(text) != std::string::npos) return true;
  return false;
}

std::string allProblems(const std::vector<StoreProblem>& problems) {
  std::string out;
  for (const auto& p : problems) out += p.describe() + "\n";
  return out;
}

}  // namespace

TEST(SessionStore, CreateSaveReopenRoundTrip) {
  TempDir tmp;
  const fs::path dir = tmp / "s1";
  Session expected = exampleSession();
  {
    auto store = SessionStore::create(dir, expected);
    EXPECT_TRUE(store.writable());
    EXPECT_EQ(store.nextIterationId(), 1);
    store.saveIteration(exampleIteration(1));
    store.saveIteration(exampleIteration(2, 1));
    Constraint rule = Constraint::rule("keep BUFFER_NUM at 2");
    rule.id = 1;
    store.setConstraints({rule});
    store.setAccepted(2);
    expected = store.session();
    EXPECT_EQ(store.nextIterationId(), 3);
  }
  EXPECT_TRUE(fs::exists(dir / "session.json"));
  EXPECT_EQ(readText(dir / "iterations/0001/src/kernel.cpp"), kwb::test::kernelSource(1));
  EXPECT_TRUE(fs::exists(dir / "iterations/0002/iteration.json"));

  auto store = SessionStore::open(dir, {OpenMode::ReadOnly});
  EXPECT_FALSE(store.writable());
  EXPECT_TRUE(store.problems().empty()) << allProblems(store.problems());
  const Session back = store.session();
  EXPECT_EQ(back, expected);
  EXPECT_EQ(back.iterations.size(), 2u);
  EXPECT_EQ(*store.iteration(2), exampleIteration(2, 1));
  EXPECT_EQ(back.acceptedIteration, 2);
  EXPECT_EQ(back.constraints.size(), 1u);
  EXPECT_EQ(back.task, kwb::test::exampleTask());

  // iteration.json references sources by size and hash instead of embedding them.
  const auto doc = nlohmann::json::parse(readText(dir / "iterations/0001/iteration.json"));
  EXPECT_EQ(doc["schema_version"], kSchemaVersion);
  EXPECT_EQ(doc["candidate"]["files"]["kernel.cpp"]["path"], "src/kernel.cpp");
  EXPECT_EQ(doc["candidate"]["files"]["kernel.cpp"]["hash"], hashHex(kwb::test::kernelSource(1)));
  const auto index = nlohmann::json::parse(readText(dir / "session.json"));
  EXPECT_EQ(index["schema_version"], 1);
  EXPECT_EQ(index["iterations"].size(), 2u);
  EXPECT_EQ(index["iterations"][1]["parent_id"], 1);
}

TEST(SessionStore, UpdatingAnIterationReplacesItAndDropsStaleSources) {
  TempDir tmp;
  auto store = SessionStore::create(tmp / "s", exampleSession(), Durability::NoSync);
  Iteration it = exampleIteration(1);
  it.state = IterationState::Compiling;
  it.verdict.reset();
  it.verify.reset();
  store.saveIteration(it);
  it.state = IterationState::Done;
  it.verdict = Verdict::Pass;
  it.candidate.files.erase("tiling.h");
  store.saveIteration(it);
  EXPECT_FALSE(fs::exists(tmp / "s/iterations/0001/src/tiling.h"));
  auto reopened = SessionStore::load(tmp / "s");
  ASSERT_EQ(reopened.iterations.size(), 1u);
  EXPECT_EQ(reopened.iterations[0].verdict, Verdict::Pass);
  EXPECT_EQ(reopened.iterations[0].candidate.files.size(), 1u);
}

TEST(SessionStore, TimestampsAreFilledWhenMissing) {
  TempDir tmp;
  auto store = SessionStore::create(tmp / "s", exampleSession(), Durability::NoSync);
  Iteration it = exampleIteration(1);
  it.createdAt.clear();
  it.updatedAt.clear();
  store.saveIteration(it);
  EXPECT_TRUE(parseIso8601(store.iteration(1)->createdAt).has_value());
  it.createdAt = "yesterday";
  EXPECT_THROW(store.saveIteration(it), std::invalid_argument);
}

TEST(SessionStore, ArtifactsAreWrittenListedAndRead) {
  TempDir tmp;
  auto store = SessionStore::create(tmp / "s", exampleSession(), Durability::NoSync);
  // Artifacts may precede the first commit of their iteration (the prompt is written before the reply).
  const int id = store.nextIterationId();
  store.writeArtifact(id, "prompt.txt", "write add_custom");
  store.saveIteration(exampleIteration(id));
  store.writeArtifact(id, "compile.log", "ok");
  store.writeArtifact(id, "profile/trace.json", "{}");
  writeText(tmp / "outside.csv", "a,b\n1,2\n");
  store.importArtifact(id, "profile/PipeUtilization.csv", tmp / "outside.csv");
  EXPECT_EQ(store.listArtifacts(id), (std::vector<std::string>{"compile.log", "profile/PipeUtilization.csv",
                                                               "profile/trace.json", "prompt.txt"}));
  EXPECT_EQ(store.readArtifact(id, "profile/PipeUtilization.csv"), "a,b\n1,2\n");
  EXPECT_EQ(store.artifactPath(id, "compile.log"), tmp / "s/iterations/0001/compile.log");
  EXPECT_TRUE(store.listArtifacts(99).empty());
  EXPECT_THROW(store.readArtifact(id, "missing.log"), StoreError);

  for (const char* bad :
       {"../escape", "/abs", "src/kernel.cpp", "iteration.json", ".hidden", "a//b", "", "a b"})
    EXPECT_THROW(store.writeArtifact(id, bad, "x"), std::invalid_argument) << bad;
  EXPECT_EQ(checkArtifactName("src"), "");  // a file named src beside iteration.json is fine
  EXPECT_NE(checkArtifactName("src/x").find("src/ holds the candidate's sources"), std::string::npos);
}

TEST(SessionStore, TreeRulesAreEnforcedOnSave) {
  TempDir tmp;
  auto store = SessionStore::create(tmp / "s", exampleSession(), Durability::NoSync);
  store.saveIteration(exampleIteration(1));
  try {
    store.saveIteration(exampleIteration(3, 2));
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "iteration 3 names parent 2, which is not in the session");
  }
  EXPECT_THROW(store.saveIteration(exampleIteration(0)), std::invalid_argument);
  EXPECT_THROW(store.setAccepted(5), std::invalid_argument);
  Iteration bad = exampleIteration(2);
  bad.candidate.files["../x.cpp"] = "";
  EXPECT_THROW(store.saveIteration(bad), std::invalid_argument);
  Constraint a = Constraint::rule("a");
  a.id = 1;
  EXPECT_THROW(store.setConstraints({a, a}), std::invalid_argument);
}

TEST(SessionStore, CreateRefusesANonEmptyFolder) {
  TempDir tmp;
  writeText(tmp / "file.txt", "x");
  try {
    SessionStore::create(tmp.path(), exampleSession());
    FAIL() << "no exception";
  } catch (const StoreError& e) {
    EXPECT_EQ(std::string(e.what()),
              tmp.path().string() +
                  ": already exists and is not empty (it holds file.txt, which kwb does not write there "
                  "before session.json); choose a new session folder");
  }
}

TEST(SessionStore, SecondWriterIsRefusedNamingTheHolder) {
  TempDir tmp;
  const fs::path dir = makeThreeIterationSession(tmp);
  auto writer = SessionStore::open(dir);
  EXPECT_EQ(SessionLock::holder(dir), ::getpid());
  try {
    SessionStore::open(dir);
    FAIL() << "no exception";
  } catch (const SessionLockedError& e) {
    EXPECT_EQ(e.holderPid(), ::getpid());
    EXPECT_NE(std::string(e.what()).find("is already open for writing by this process (pid " +
                                         std::to_string(::getpid())),
              std::string::npos)
        << e.what();
  }
  // Readers are never blocked by the writer.
  auto reader = SessionStore::open(dir, {OpenMode::ReadOnly});
  EXPECT_EQ(reader.session().iterations.size(), 3u);
  EXPECT_THROW(reader.saveIteration(exampleIteration(4)), StoreError);
  EXPECT_THROW(reader.writeArtifact(1, "x.log", "x"), StoreError);
}

TEST(SessionStore, WriterInAnotherProcessIsNamedByPid) {
  TempDir tmp;
  const fs::path dir = makeThreeIterationSession(tmp);
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::close(ready[0]);
    try {
      auto store = SessionStore::open(dir);
      const char ok = 'k';
      if (::write(ready[1], &ok, 1) != 1) ::_exit(2);
      ::pause();  // hold the lock until killed
    } catch (...) {
    }
    ::_exit(1);
  }
  ::close(ready[1]);
  char c = 0;
  ASSERT_EQ(::read(ready[0], &c, 1), 1);
  ::close(ready[0]);
  try {
    SessionStore::open(dir);
    ADD_FAILURE() << "second writer was not refused";
  } catch (const SessionLockedError& e) {
    EXPECT_EQ(e.holderPid(), child);
    EXPECT_NE(std::string(e.what()).find("is already open for writing by process " + std::to_string(child)),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(SessionLock::holder(dir), child);
  ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
  // The dead writer's lock is taken over, and the takeover is reported.
  auto store = SessionStore::open(dir);
  EXPECT_EQ(store.staleLockPid(), child);
  EXPECT_EQ(store.session().iterations.size(), 3u);
}

TEST(SessionStore, CleanCloseLeavesNoStaleLock) {
  TempDir tmp;
  const fs::path dir = makeThreeIterationSession(tmp);
  EXPECT_EQ(SessionLock::holder(dir), std::nullopt);
  auto store = SessionStore::open(dir);
  EXPECT_EQ(store.staleLockPid(), std::nullopt);
}

TEST(SessionStore, StaleLockFileWithDeadPidIsTakenOver) {
  TempDir tmp;
  const fs::path dir = makeThreeIterationSession(tmp);
  // A pid that cannot be running: a child that already exited and was reaped.
  const pid_t dead = ::fork();
  if (dead == 0) ::_exit(0);
  ::waitpid(dead, nullptr, 0);
  writeText(dir / "session.lock", std::to_string(dead) + "\n");
  auto store = SessionStore::open(dir);
  EXPECT_EQ(store.staleLockPid(), dead);
}

TEST(SessionStore, NewerSchemaIsRefusedEvenReadOnly) {
  TempDir tmp;
  const fs::path dir = makeThreeIterationSession(tmp);
  auto doc = nlohmann::json::parse(readText(dir / "session.json"));
  doc["schema_version"] = 7;
  doc["something_new"] = {{"x", 1}};
  writeText(dir / "session.json", doc.dump());
  for (OpenMode mode : {OpenMode::ReadOnly, OpenMode::ReadWrite}) {
    try {
      SessionStore::open(dir, {mode});
      FAIL() << "no exception";
    } catch (const SchemaVersionError& e) {
      EXPECT_EQ(std::string(e.what()),
                (dir / "session.json").string() +
                    " has schema version 7; this kwb understands up to 1; upgrade Kernel Workbench");
    }
  }
  EXPECT_EQ(SessionLock::holder(dir), std::nullopt);  // the refused writer let go of the lock
}

TEST(SessionStore, TruncatedSessionJsonKeepsIterationsReadable) {
  TempDir tmp;
  const fs::path dir = makeThreeIterationSession(tmp);
  const std::string full = readText(dir / "session.json");
  writeText(dir / "session.json", full.substr(0, full.size() / 2));
  std::vector<StoreProblem> problems;
  const Session s = SessionStore::load(dir, &problems);
  EXPECT_EQ(s.iterations.size(), 3u);
  EXPECT_EQ(*s.findIteration(2), exampleIteration(2, 1));
  ASSERT_FALSE(problems.empty());
  EXPECT_TRUE(hasProblem(problems, StoreProblem::Severity::Error, (dir / "session.json").string() + ":"))
      << allProblems(problems);
  EXPECT_TRUE(hasProblem(problems, StoreProblem::Severity::Error, "invalid JSON")) << allProblems(problems);
  // Writing would replace the damaged header with an empty one, so it is refused with a way out.
  try {
    SessionStore::open(dir);
    FAIL() << "no exception";
  } catch (const StoreError& e) {
    EXPECT_NE(std::string(e.what()).find("open it read-only to recover its iterations"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(SessionStore::load(dir, nullptr, true), StoreError);
}

TEST(SessionStore, MissingIterationFolderIsReportedAndTheRestLoads) {
  TempDir tmp;
  const fs::path dir = makeThreeIterationSession(tmp);
  fs::remove_all(dir / "iterations/0003");
  std::vector<StoreProblem> problems;
  const Session s = SessionStore::load(dir, &problems);
  EXPECT_EQ(s.iterations.size(), 2u);
  EXPECT_EQ(s.acceptedIteration, 2);
  ASSERT_EQ(problems.size(), 1u) << allProblems(problems);
  EXPECT_EQ(problems[0].describe(), "error: " + (dir / "iterations/0003").string() +
                                        ": missing, though session.json lists iteration 3");
  try {
    SessionStore::load(dir, nullptr, true);
    FAIL() << "no exception";
  } catch (const StoreError& e) {
    EXPECT_NE(std::string(e.what()).find("session is damaged:\n  error: "), std::string::npos) << e.what();
  }
  // A writer may continue; the lost id is not reused.
  auto store = SessionStore::open(dir);
  EXPECT_EQ(store.nextIterationId(), 4);
}

TEST(SessionStore, TruncatedIterationJsonSkipsOnlyThatIteration) {
  TempDir tmp;
  const fs::path dir = makeThreeIterationSession(tmp);
  const fs::path file = dir / "iterations/0001/iteration.json";
  const std::string full = readText(file);
  writeText(file, full.substr(0, 100));
  std::vector<StoreProblem> problems;
  const Session s = SessionStore::load(dir, &problems);
  ASSERT_EQ(s.iterations.size(), 2u);
  EXPECT_EQ(s.roots(), (std::vector<int>{2, 3}));  // their parent is unreadable: shown as roots
  EXPECT_TRUE(hasProblem(problems, StoreProblem::Severity::Error, "error: " + file.string() + ":"))
      << allProblems(problems);
  EXPECT_TRUE(hasProblem(problems, StoreProblem::Severity::Error, "invalid JSON")) << allProblems(problems);
  EXPECT_TRUE(hasProblem(problems, StoreProblem::Severity::Error, "(iteration 1 is not loaded)"))
      << allProblems(problems);
  EXPECT_TRUE(hasProblem(problems, StoreProblem::Severity::Warning, "parent iteration 1 is not readable"))
      << allProblems(problems);
  EXPECT_EQ(SessionStore::open(dir).nextIterationId(), 4);
}

TEST(SessionStore, EditedSourceIsDetected) {
  TempDir tmp;
  const fs::path dir = makeThreeIterationSession(tmp);
  writeText(dir / "iterations/0002/src/kernel.cpp", "// tampered\n");
  fs::remove(dir / "iterations/0003/src/tiling.h");
  std::vector<StoreProblem> problems;
  const Session s = SessionStore::load(dir, &problems);
  EXPECT_EQ(s.iterations.size(), 1u);
  EXPECT_TRUE(hasProblem(problems, StoreProblem::Severity::Error,
                         "iterations/0002/src/kernel.cpp: content differs from what iteration.json recorded"))
      << allProblems(problems);
  EXPECT_TRUE(hasProblem(problems, StoreProblem::Severity::Error,
                         "iterations/0003/src/tiling.h: missing; iteration.json references it"))
      << allProblems(problems);
  // The accepted iteration (2) is among the damaged ones.
  EXPECT_EQ(s.acceptedIteration, std::nullopt);
  EXPECT_TRUE(hasProblem(problems, StoreProblem::Severity::Error, "accepted iteration 2 is not readable"));
}

TEST(SessionStore, UncommittedFolderIsAWarningAndItsIdIsSkipped) {
  TempDir tmp;
  const fs::path dir = makeThreeIterationSession(tmp);
  // What a writer killed between creating folder 4 and committing it leaves behind.
  fs::create_directories(dir / "iterations/0004/src");
  writeText(dir / "iterations/0004/src/kernel.cpp", "half");
  writeText(dir / "iterations/0004/.tmp-123-0-iteration.json", "{\"id\": 4, \"sta");
  writeText(dir / ".tmp-123-1-session.json", "{");
  std::vector<StoreProblem> problems;
  const Session s = SessionStore::load(dir, &problems);
  EXPECT_EQ(s.iterations.size(), 3u);
  ASSERT_EQ(problems.size(), 1u) << allProblems(problems);
  EXPECT_EQ(problems[0].severity, StoreProblem::Severity::Warning);
  EXPECT_NO_THROW(SessionStore::load(dir, nullptr, true));  // not damage: nothing committed was lost

  auto store = SessionStore::open(dir);
  EXPECT_FALSE(fs::exists(dir / "iterations/0004/.tmp-123-0-iteration.json"));
  EXPECT_FALSE(fs::exists(dir / ".tmp-123-1-session.json"));
  EXPECT_EQ(store.nextIterationId(), 5);
  try {
    store.saveIteration(exampleIteration(4));
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("iteration id 4 is taken"), std::string::npos) << e.what();
  }
  store.saveIteration(exampleIteration(5, 3));
  EXPECT_EQ(store.session().lineage(5), (std::vector<int>{1, 3, 5}));
}

TEST(SessionStore, CommittedIterationMissingFromTheIndexIsRecovered) {
  TempDir tmp;
  const fs::path dir = makeThreeIterationSession(tmp);
  const std::string indexWithThree = readText(dir / "session.json");
  {
    auto store = SessionStore::open(dir, {OpenMode::ReadWrite, false, Durability::NoSync});
    store.saveIteration(exampleIteration(4, 2));
  }
  // As if the writer died after iteration 4's iteration.json but before the index rewrite.
  writeText(dir / "session.json", indexWithThree);
  std::vector<StoreProblem> problems;
  const Session s = SessionStore::load(dir, &problems);
  EXPECT_TRUE(problems.empty()) << allProblems(problems);
  ASSERT_NE(s.findIteration(4), nullptr);
  EXPECT_EQ(*s.findIteration(4), exampleIteration(4, 2));
}

TEST(SessionStore, NotASessionDirectory) {
  TempDir tmp;
  try {
    SessionStore::open(tmp / "none");
    FAIL() << "no exception";
  } catch (const StoreError& e) {
    EXPECT_EQ(std::string(e.what()), (tmp / "none").string() + ": no such session directory");
  }
  try {
    SessionStore::open(tmp.path(), {OpenMode::ReadOnly});
    FAIL() << "no exception";
  } catch (const StoreError& e) {
    EXPECT_EQ(std::string(e.what()),
              tmp.path().string() + ": not a session directory: it has no session.json");
  }
  EXPECT_FALSE(fs::exists(tmp / "session.lock"));
}

TEST(SessionStore, SettingsAreStoredWithoutCredentials) {
  TempDir tmp;
  auto store = SessionStore::create(tmp / "s", exampleSession(), Durability::NoSync);
  SessionSettings settings;
  settings.provider = "anthropic";
  settings.model = "claude";
  settings.baseUrl = "https://me:pw@gateway.example/v1?api_key=sk-abc";
  store.setSettings(settings);
  EXPECT_EQ(store.session().settings.baseUrl, "https://gateway.example/v1");
  const std::string index = readText(tmp / "s/session.json");
  EXPECT_EQ(index.find("sk-abc"), std::string::npos);
  EXPECT_EQ(index.find("pw@"), std::string::npos);
}

TEST(SessionStore, FolderNamesArePaddedToFourDigits) {
  EXPECT_EQ(SessionStore::iterationFolderName(7), "0007");
  EXPECT_EQ(SessionStore::iterationFolderName(1234), "1234");
  EXPECT_EQ(SessionStore::iterationFolderName(12345), "12345");
}
