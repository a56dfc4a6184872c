// SPDX-License-Identifier: MIT
#pragma once
// What the suite view shows of a suite folder (docs/suites.md, "The suite folder"), read in one go on a
// helper thread: the report core/suite builds from the folder (SuiteReport: the plan, every sample's
// outcome, the metrics the HTML report draws), and per planned sample one cell with its verdict and its
// speedups. Everything in the folder is untrusted: a session, marker or report that cannot be read
// becomes an error cell and a problem line, never an exception out of readSuiteSnapshot.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/suite/SuiteReport.h"

namespace kwb::ui {

enum class SampleVerdict {
  Pass,          // finished, some candidate passed every case
  Fail,          // finished, some candidate compiled, none passed
  CompileError,  // finished, no candidate compiled
  Running,       // a session without its .done.json whose lock a live writer holds
  Unfinished,    // a session without its .done.json and no writer: killed or stopped; --resume continues it
  NotStarted,    // planned, no session yet
  Error,         // the session or its marker could not be read
};

struct SuiteCell {
  SampleVerdict verdict = SampleVerdict::NotStarted;
  bool correct = false;  // a passing candidate exists (also while running)
  std::optional<double> bestUs;
  std::optional<double> speedupVsExpert;    // expert time / fastest passing time
  std::optional<double> speedupVsBaseline;  // the task's stated baseline / fastest passing time
  int iterations = 0;
  std::int64_t tokens = 0;
  std::string finishReason;
  std::filesystem::path sessionDir;  // the sample's session folder (whether it exists or not)
  std::string problem;               // why the cell is an error
};

struct SuiteSnapshot {
  std::filesystem::path dir;
  // Why the folder is not a readable suite at all (no or a damaged suite.json); then nothing else is set.
  std::string error;
  std::optional<suite::SuiteReport> report;
  std::vector<std::vector<SuiteCell>> cells;  // [task in plan order][sample - 1]
  // Every problem met, with the file it is about: unreadable sessions and markers, a damaged report.json.
  std::vector<std::string> problems;
  // Every planned sample has its .done.json: nothing will change, the view stops refreshing.
  bool complete = false;
  std::string fingerprint;  // suiteFingerprint() when the folder was read
};

// Reads the suite folder (file I/O: call it off the GUI thread). Never throws for bad folder contents.
SuiteSnapshot readSuiteSnapshot(const std::filesystem::path& suiteDir);

// A cheap summary of what changed in the folder (names, sizes and times of the plan, the markers, the
// sessions' index files, the expert results): equal fingerprints mean there is nothing new to read.
std::string suiteFingerprint(const std::filesystem::path& suiteDir);

// "pass", "fail", "compile error", "running", "unfinished", "not started", "error".
const char* verdictName(SampleVerdict verdict);

}  // namespace kwb::ui
