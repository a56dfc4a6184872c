// SPDX-License-Identifier: MIT
#include "ui/SuiteSnapshot.h"

#include <chrono>
#include <exception>
#include <set>
#include <sstream>

#include "core/store/IndexJournal.h"
#include "core/store/SessionLock.h"
#include "core/store/SessionStore.h"
#include "core/suite/SuiteLayout.h"

namespace kwb::ui {

namespace fs = std::filesystem;

namespace {

// The problem loadSuiteReport recorded for this session, if any: it names the session folder first.
std::string problemOf(const std::vector<std::string>& problems, const fs::path& sessionDir) {
  const std::string prefix = sessionDir.string() + ":";
  for (const auto& p : problems)
    if (p.rfind(prefix, 0) == 0) return p.substr(prefix.size() + (p.size() > prefix.size() ? 1 : 0));
  return {};
}

SuiteCell cellOf(const suite::SuiteReport& report, const suite::SampleOutcome* outcome,
                 const fs::path& session, const std::string& task) {
  SuiteCell c;
  c.sessionDir = session;
  std::error_code ec;
  if (!outcome) {
    if (!fs::exists(session / SessionStore::kIndexFile, ec)) {
      c.verdict = SampleVerdict::NotStarted;
      return c;
    }
    c.verdict = SampleVerdict::Error;
    c.problem = problemOf(report.problems, session);
    if (c.problem.empty()) c.problem = "the session could not be read";
    return c;
  }
  c.correct = outcome->correct;
  c.bestUs = outcome->bestUs;
  c.iterations = outcome->iterations;
  c.tokens = outcome->tokens;
  c.finishReason = outcome->finishReason;
  if (outcome->bestUs && *outcome->bestUs > 0) {
    if (auto e = report.expertUs.find(task); e != report.expertUs.end())
      c.speedupVsExpert = e->second / *outcome->bestUs;
    if (outcome->taskBaselineUs) c.speedupVsBaseline = *outcome->taskBaselineUs / *outcome->bestUs;
  }
  if (!outcome->finished)
    c.verdict = SessionLock::holder(session) ? SampleVerdict::Running : SampleVerdict::Unfinished;
  else if (outcome->correct)
    c.verdict = SampleVerdict::Pass;
  else if (outcome->compiled)
    c.verdict = SampleVerdict::Fail;
  else
    c.verdict = SampleVerdict::CompileError;
  return c;
}

// report.json is not what the view shows (it rebuilds the numbers from the sessions, as kwb suite report
// does), but a damaged one is worth saying: whoever reads it elsewhere reads wrong numbers.
std::optional<std::string> reportJsonProblem(const fs::path& suiteDir) {
  const fs::path file = suiteDir / "report.json";
  try {
    const auto doc = suite::readJsonFile(file);
    if (!doc) return std::nullopt;
    if (!doc->is_object() || !doc->contains("metrics") || !(*doc)["metrics"].is_object())
      return file.string() + ": not a suite report (no \"metrics\" object); kwb suite report " +
             suiteDir.string() + " writes it again";
    return std::nullopt;
  } catch (const std::exception& e) {
    return std::string(e.what()) + "; kwb suite report " + suiteDir.string() + " writes it again";
  }
}

void addStat(std::ostringstream& out, const fs::path& file) {
  std::error_code ec;
  const auto size = fs::file_size(file, ec);
  if (ec) return;
  const auto time = fs::last_write_time(file, ec);
  if (ec) return;
  out << file.string() << ' ' << size << ' ' << time.time_since_epoch().count() << '\n';
}

}  // namespace

const char* verdictName(SampleVerdict verdict) {
  switch (verdict) {
    case SampleVerdict::Pass:
      return "pass";
    case SampleVerdict::Fail:
      return "fail";
    case SampleVerdict::CompileError:
      return "compile error";
    case SampleVerdict::Running:
      return "running";
    case SampleVerdict::Unfinished:
      return "unfinished";
    case SampleVerdict::NotStarted:
      return "not started";
    case SampleVerdict::Error:
      return "error";
  }
  return "error";
}

std::string suiteFingerprint(const fs::path& suiteDir) {
  std::ostringstream out;
  addStat(out, suiteDir / suite::kSuitePlanFile);
  addStat(out, suiteDir / "report.json");
  std::error_code ec;
  for (const fs::path& sub : {suiteDir / "expert", suiteDir / "sessions"}) {
    for (fs::directory_iterator it(sub, ec), end; !ec && it != end; it.increment(ec)) {
      if (sub.filename() == "expert") {
        addStat(out, it->path());
        continue;
      }
      std::error_code inner;
      for (fs::directory_iterator s(it->path(), inner), send; !inner && s != send; s.increment(inner)) {
        addStat(out, s->path());  // sample-<k>.done.json
        addStat(out, s->path() / SessionStore::kIndexFile);
        addStat(out, s->path() / kIndexJournalFile);  // saves append here (core/store/IndexJournal.h)
      }
    }
    ec.clear();
  }
  return out.str();
}

SuiteSnapshot readSuiteSnapshot(const fs::path& suiteDir) {
  SuiteSnapshot snap;
  snap.dir = suiteDir;
  snap.fingerprint = suiteFingerprint(suiteDir);
  try {
    snap.report = suite::loadSuiteReport(suiteDir);
  } catch (const std::exception& e) {
    snap.error = e.what();
    return snap;
  }
  const suite::SuiteReport& r = *snap.report;
  snap.problems = r.problems;
  if (auto p = reportJsonProblem(suiteDir)) snap.problems.push_back(*p);
  std::map<std::pair<std::string, int>, const suite::SampleOutcome*> outcomes;
  for (const auto& s : r.samples) outcomes[{s.task, s.sample}] = &s;
  snap.complete = true;
  for (const auto& t : r.plan.tasks) {
    std::vector<SuiteCell> row;
    row.reserve(std::size_t(r.plan.samples));
    for (int k = 1; k <= r.plan.samples; ++k) {
      const auto found = outcomes.find({t.name, k});
      row.push_back(cellOf(r, found == outcomes.end() ? nullptr : found->second,
                           suite::sampleSessionDir(suiteDir, t.name, k), t.name));
      const SampleVerdict v = row.back().verdict;
      if (v != SampleVerdict::Pass && v != SampleVerdict::Fail && v != SampleVerdict::CompileError)
        snap.complete = false;
    }
    snap.cells.push_back(std::move(row));
  }
  return snap;
}

}  // namespace kwb::ui
