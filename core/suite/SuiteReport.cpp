// SPDX-License-Identifier: MIT
#include "core/suite/SuiteReport.h"

#include <cstdio>
#include <sstream>

#include "core/store/AtomicFile.h"
#include "core/store/SessionStore.h"
#include "core/suite/SuiteHtmlReport.h"

namespace kwb::suite {

namespace fs = std::filesystem;

namespace {

std::string describeTimingSource(const std::set<std::string>& ranOn, const std::set<std::string>& sources) {
  const bool device = ranOn.count("npu") > 0;
  std::string text;
  if (device)
    text = "device (NPU, msprof)";
  else if (ranOn.count("cann-sim") || ranOn.count("cann-cpu"))
    text = "CANN simulator / CPU mode (not a device)";
  else
    text = "emulator estimate (cost model, not a device)";
  if (!sources.empty()) {
    text += "; profile sources:";
    for (const auto& s : sources) text += " " + s;
  }
  return text;
}

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

}  // namespace

std::string escapeXml(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        // Control characters other than tab/newline are not allowed in XML 1.0.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t' && c != '\r')
          out += ' ';
        else
          out += c;
    }
  }
  return out;
}

SuiteReport loadSuiteReport(const fs::path& suiteDir, const MetricsOptions& options) {
  SuiteReport r;
  r.dir = suiteDir;
  r.plan = readSuitePlan(suiteDir);
  for (const auto& t : r.plan.tasks) {
    try {
      if (auto doc = readJsonFile(expertResultFile(suiteDir, t.name))) {
        r.expert[t.name] = *doc;
        if (doc->contains("us") && (*doc)["us"].is_number()) r.expertUs[t.name] = (*doc)["us"].get<double>();
      }
    } catch (const std::exception& e) {
      r.problems.push_back(e.what());
    }
    for (int k = 1; k <= r.plan.samples; ++k) {
      const fs::path session = sampleSessionDir(suiteDir, t.name, k);
      std::error_code ec;
      if (!fs::exists(session / SessionStore::kIndexFile, ec)) {
        r.notRun.push_back(t.name + " sample-" + std::to_string(k));
        continue;
      }
      try {
        std::vector<StoreProblem> problems;
        const Session s = SessionStore::load(session, &problems);
        for (const auto& p : problems)
          if (p.severity == StoreProblem::Severity::Error)
            r.problems.push_back(session.string() + ": " + p.describe());
        SampleOutcome o = sampleOutcomeFromSession(s, k);
        o.task = t.name;
        if (auto done = readJsonFile(sampleDoneFile(suiteDir, t.name, k))) {
          o.finished = true;
          o.finishReason = done->value("finish_reason", "");
        }
        r.samples.push_back(std::move(o));
      } catch (const std::exception& e) {
        r.problems.push_back(session.string() + ": " + e.what());
      }
    }
  }
  r.metrics = computeSuiteMetrics(r.samples, r.expertUs, options);
  std::set<std::string> ranOn = r.metrics.overall.ranOn, sources = r.metrics.overall.profileSources;
  for (const auto& [task, doc] : r.expert) {
    if (doc.contains("ran_on") && doc["ran_on"].is_string()) ranOn.insert(doc["ran_on"].get<std::string>());
    if (doc.contains("profile_source") && doc["profile_source"].is_string())
      sources.insert(doc["profile_source"].get<std::string>());
  }
  r.timingSource = describeTimingSource(ranOn, sources);
  return r;
}

nlohmann::json suiteReportJson(const SuiteReport& r) {
  nlohmann::json expert = nlohmann::json::object();
  for (const auto& [task, doc] : r.expert) expert[task] = doc;
  return {{"schema_version", 1},
          {"suite_dir", r.dir.empty() ? std::string() : fs::absolute(r.dir).string()},
          {"plan", planToJson(r.plan)},
          {"timing_source", r.timingSource},
          {"metrics", r.metrics},
          {"expert", expert},
          {"samples", r.samples},
          {"not_run", r.notRun},
          {"problems", r.problems}};
}

std::string suiteJunitXml(const SuiteReport& r) {
  std::map<std::string, std::vector<const SampleOutcome*>> byTask;
  for (const auto& s : r.samples) byTask[s.task].push_back(&s);
  int failures = 0, skipped = 0;
  for (const auto& s : r.samples) {
    if (!s.finished)
      ++skipped;
    else if (!s.correct)
      ++failures;
  }
  std::ostringstream x;
  x << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  x << "<testsuites name=\"kwb suite\" tests=\"" << r.samples.size() << "\" failures=\"" << failures
    << "\" skipped=\"" << skipped << "\">\n";
  for (const auto& [task, list] : byTask) {
    int f = 0, sk = 0;
    for (const auto* s : list) {
      if (!s->finished)
        ++sk;
      else if (!s->correct)
        ++f;
    }
    x << "  <testsuite name=\"" << escapeXml(task) << "\" tests=\"" << list.size() << "\" failures=\"" << f
      << "\" skipped=\"" << sk << "\">\n";
    for (const auto* s : list) {
      x << "    <testcase classname=\"" << escapeXml(task) << "\" name=\"sample-" << s->sample << "\">\n";
      x << "      <properties>\n";
      x << "        <property name=\"iterations\" value=\"" << s->iterations << "\"/>\n";
      x << "        <property name=\"tokens\" value=\"" << s->tokens << "\"/>\n";
      if (s->bestUs) x << "        <property name=\"best_us\" value=\"" << fixed(*s->bestUs, 3) << "\"/>\n";
      x << "        <property name=\"timing_source\" value=\"" << escapeXml(r.timingSource) << "\"/>\n";
      x << "      </properties>\n";
      if (!s->finished)
        x << "      <skipped message=\"" << escapeXml("not finished: " + s->finishReason) << "\"/>\n";
      else if (!s->correct)
        x << "      <failure message=\"" << escapeXml(s->compiled ? "no correct kernel" : "nothing compiled")
          << "\">" << escapeXml(s->finishReason) << "</failure>\n";
      x << "    </testcase>\n";
    }
    x << "  </testsuite>\n";
  }
  x << "</testsuites>\n";
  return x.str();
}

std::vector<fs::path> writeSuiteReports(const SuiteReport& r) {
  std::vector<fs::path> files{r.dir / "report.json", r.dir / "report.xml", r.dir / "report.html"};
  writeFileAtomic(files[0], suiteReportJson(r).dump(2) + "\n", Durability::Sync);
  writeFileAtomic(files[1], suiteJunitXml(r), Durability::Sync);
  writeFileAtomic(files[2], suiteHtmlReport(r), Durability::Sync);
  return files;
}

}  // namespace kwb::suite
