// SPDX-License-Identifier: MIT
#include "bench/mutation/MutationScore.h"

#include <filesystem>
#include <map>
#include <sstream>

namespace kwb::mutation {
namespace {

std::vector<std::string> reportedErrors(const std::vector<Diagnostic>& diagnostics) {
  std::vector<std::string> out;
  for (const auto& d : diagnostics)
    if (d.isError()) out.push_back(d.category + "@" + std::to_string(d.line));
  return out;
}

bool inCandidate(const Diagnostic& d, const std::string& candidateName) {
  return std::filesystem::path(d.file).filename().string() == candidateName;
}

std::string lines(const std::set<int>& s) {
  std::string out;
  for (int l : s) out += (out.empty() ? "" : ",") + std::to_string(l);
  return out;
}

std::string yes(bool b) {
  return b ? "yes" : "no";
}

}  // namespace

MutantOutcome scoreMutant(const Mutant& m, Verdict verdict, const std::vector<Diagnostic>& diagnostics,
                          const std::string& candidateName) {
  MutantOutcome o;
  o.id = m.id();
  o.op = m.op;
  o.expectedCategory = m.expectedCategory;
  o.causeLines = m.causeLines;
  o.verdict = std::string(verdictName(verdict));
  o.detected = verdict != Verdict::Pass;
  o.reported = reportedErrors(diagnostics);
  for (const auto& d : diagnostics) {
    if (!d.isError() || d.category != m.expectedCategory) continue;
    o.rightCategory = true;
    if (inCandidate(d, candidateName) && m.causeLines.count(d.line)) o.atCauseLine = true;
  }
  return o;
}

ExpertOutcome scoreExpert(const std::string& task, Verdict verdict,
                          const std::vector<Diagnostic>& diagnostics) {
  return ExpertOutcome{task, std::string(verdictName(verdict)), reportedErrors(diagnostics)};
}

Totals totals(const std::vector<MutantOutcome>& mutants, const std::vector<ExpertOutcome>& experts) {
  Totals t;
  for (const auto& m : mutants) {
    ++t.mutants;
    t.detected += m.detected;
    t.rightCategory += m.rightCategory;
    t.atCauseLine += m.atCauseLine;
  }
  for (const auto& e : experts) {
    ++t.experts;
    t.falseAlarms += e.falseAlarm();
  }
  return t;
}

std::string markdownReport(const std::vector<MutantOutcome>& mutants,
                           const std::vector<ExpertOutcome>& experts) {
  const Totals t = totals(mutants, experts);
  std::ostringstream os;
  os << "| mutants | detected | right category | at the cause line | experts | false alarms |\n"
     << "|---|---|---|---|---|---|\n"
     << "| " << t.mutants << " | " << t.detected << " | " << t.rightCategory << " | " << t.atCauseLine
     << " | " << t.experts << " | " << t.falseAlarms << " |\n\n";
  std::map<std::string, std::vector<const MutantOutcome*>> byOp;
  for (const auto& m : mutants) byOp[m.op].push_back(&m);
  os << "| operator | expected category | mutants | detected | right category | at the cause line |\n"
     << "|---|---|---|---|---|---|\n";
  for (const auto& [op, list] : byOp) {
    int d = 0, c = 0, l = 0;
    for (const auto* m : list) {
      d += m->detected;
      c += m->rightCategory;
      l += m->atCauseLine;
    }
    os << "| `" << op << "` | `" << list.front()->expectedCategory << "` | " << list.size() << " | " << d
       << " | " << c << " | " << l << " |\n";
  }
  os << "\n| mutant | cause lines | verdict | detected | category | at cause | errors reported "
        "(category@line) |\n"
     << "|---|---|---|---|---|---|---|\n";
  for (const auto& m : mutants) {
    std::string reported;
    for (const auto& r : m.reported) reported += (reported.empty() ? "" : ", ") + r;
    os << "| `" << m.id << "` | " << lines(m.causeLines) << " | " << m.verdict << " | " << yes(m.detected)
       << " | " << yes(m.rightCategory) << " | " << yes(m.atCauseLine) << " | " << reported << " |\n";
  }
  if (t.falseAlarms) {
    os << "\nFalse alarms on unmutated experts:\n\n";
    for (const auto& e : experts)
      if (e.falseAlarm()) os << "- `" << e.task << "`: " << e.verdict << "\n";
  }
  return os.str();
}

}  // namespace kwb::mutation
