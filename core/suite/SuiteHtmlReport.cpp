// SPDX-License-Identifier: MIT
#include "core/suite/SuiteHtmlReport.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "core/suite/SuiteReport.h"

namespace kwb::suite {

namespace {

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string percent(const std::optional<double>& v) {
  return v ? fixed(*v * 100.0, 0) + " %" : std::string("&ndash;");
}

std::string number(const std::optional<double>& v, int decimals) {
  return v ? fixed(*v, decimals) : std::string("&ndash;");
}

const char* kStyle = R"(body{font-family:sans-serif;margin:2em;color:#222}
table{border-collapse:collapse;margin:1em 0}th,td{border:1px solid #bbb;padding:4px 8px;text-align:right}
th:first-child,td:first-child{text-align:left}th{background:#eee}.pass{background:#d4f4d4}
.fail{background:#f8d8d8}.open{background:#f4f0c8}.note{color:#555;font-size:90%}svg{margin:1em 0})";

// One table of the metric groups: rows are tasks, categories or the overall row.
void metricsTable(std::ostringstream& h, const std::vector<const GroupMetrics*>& rows,
                  const MetricsOptions& o, bool perTask) {
  h << "<table><tr><th>" << (perTask ? "task" : "group") << "</th><th>samples</th>";
  for (int k : o.ks) h << "<th>compile@" << k << "</th>";
  for (int k : o.ks) h << "<th>correct@" << k << "</th>";
  for (double p : o.ps) h << "<th>fast<sub>" << formatP(p) << "</sub> vs expert</th>";
  for (double p : o.ps) h << "<th>fast<sub>" << formatP(p) << "</sub> vs task baseline</th>";
  h << "<th>iterations to correct</th><th>tokens to correct</th>";
  if (perTask) h << "<th>expert us</th><th>best speedup vs expert</th>";
  h << "<th>ran on</th></tr>\n";
  for (const auto* g : rows) {
    h << "<tr><td>" << escapeXml(g->name) << "</td><td>" << g->samples << "</td>";
    for (int k : o.ks) h << "<td>" << percent(g->compileAtK.at(k)) << "</td>";
    for (int k : o.ks) h << "<td>" << percent(g->correctAtK.at(k)) << "</td>";
    for (double p : o.ps) h << "<td>" << percent(g->fastVsExpert.at(p)) << "</td>";
    for (double p : o.ps) h << "<td>" << percent(g->fastVsTask.at(p)) << "</td>";
    h << "<td>" << number(g->meanIterationsToCorrect, 1) << "</td><td>" << number(g->meanTokensToCorrect, 0)
      << "</td>";
    if (perTask)
      h << "<td>" << number(g->expertUs, 2) << "</td><td>" << number(g->bestSpeedupVsExpert, 2) << "</td>";
    std::string ranOn;
    for (const auto& r : g->ranOn) ranOn += (ranOn.empty() ? "" : ", ") + r;
    h << "<td>" << (ranOn.empty() ? std::string("&ndash;") : escapeXml(ranOn)) << "</td></tr>\n";
  }
  h << "</table>\n";
}

// Horizontal bars, one per task: correct@1 (green) over compile@1 (grey).
void correctnessBars(std::ostringstream& h, const SuiteMetrics& m) {
  if (m.tasks.empty() || m.options.ks.empty()) return;
  const int k = m.options.ks.front();
  const int rowH = 22, labelW = 180, barW = 360;
  const int height = rowH * static_cast<int>(m.tasks.size()) + 30;
  h << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << labelW + barW + 60 << "\" height=\"" << height
    << "\" role=\"img\" aria-label=\"compile@" << k << " and correct@" << k << " per task\">\n";
  int y = 10;
  for (const auto& t : m.tasks) {
    const double compile = t.compileAtK.at(k).value_or(0), correct = t.correctAtK.at(k).value_or(0);
    h << "<text x=\"0\" y=\"" << y + 14 << "\" font-size=\"12\">" << escapeXml(t.name) << "</text>";
    h << "<rect x=\"" << labelW << "\" y=\"" << y << "\" width=\"" << fixed(compile * barW, 1)
      << "\" height=\"16\" fill=\"#bbb\"/>";
    h << "<rect x=\"" << labelW << "\" y=\"" << y + 4 << "\" width=\"" << fixed(correct * barW, 1)
      << "\" height=\"8\" fill=\"#2a8a2a\"/>";
    h << "<text x=\"" << labelW + barW + 5 << "\" y=\"" << y + 14 << "\" font-size=\"12\">"
      << fixed(correct * 100, 0) << " %</text>\n";
    y += rowH;
  }
  h << "<text x=\"" << labelW << "\" y=\"" << y + 12 << "\" font-size=\"11\" fill=\"#555\">grey: compile@"
    << k << ", green: correct@" << k << "</text></svg>\n";
}

// fast_p against p, overall: one line vs the expert, one vs the task baseline.
void fastPCurve(std::ostringstream& h, const SuiteMetrics& m) {
  if (m.options.ps.size() < 2) return;
  const double pMax = *std::max_element(m.options.ps.begin(), m.options.ps.end());
  const double pMin = *std::min_element(m.options.ps.begin(), m.options.ps.end());
  const int w = 420, ht = 220, x0 = 40, y0 = 190;
  auto px = [&](double p) { return x0 + (pMax > pMin ? (p - pMin) / (pMax - pMin) : 0) * (w - 60); };
  auto py = [&](double v) { return y0 - v * 170; };
  h << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << w << "\" height=\"" << ht
    << "\" role=\"img\" aria-label=\"fast_p over p, overall\">\n";
  h << "<line x1=\"" << x0 << "\" y1=\"" << y0 << "\" x2=\"" << w - 20 << "\" y2=\"" << y0
    << "\" stroke=\"#000\"/>";
  h << "<line x1=\"" << x0 << "\" y1=\"" << y0 << "\" x2=\"" << x0 << "\" y2=\"15\" stroke=\"#000\"/>\n";
  for (double p : m.options.ps)
    h << "<text x=\"" << fixed(px(p) - 6, 1) << "\" y=\"" << y0 + 15 << "\" font-size=\"11\">" << formatP(p)
      << "</text>";
  h << "<text x=\"5\" y=\"" << fixed(py(1.0) + 4, 1) << "\" font-size=\"11\">100%</text>";
  h << "<text x=\"15\" y=\"" << y0 << "\" font-size=\"11\">0</text>\n";
  h << "<text x=\"" << w - 15 << "\" y=\"" << y0 + 4 << "\" font-size=\"12\">p</text>";
  h << "<text x=\"" << x0 + 5 << "\" y=\"12\" font-size=\"12\">fast_p (share of samples)</text>\n";
  const std::pair<const std::map<double, std::optional<double>>*, const char*> series[] = {
      {&m.overall.fastVsExpert, "#1f5fbf"}, {&m.overall.fastVsTask, "#d07a00"}};
  for (const auto& [values, colour] : series) {
    std::string points;
    for (const auto& [p, v] : *values)
      if (v) points += fixed(px(p), 1) + "," + fixed(py(*v), 1) + " ";
    if (points.empty()) continue;
    h << "<polyline fill=\"none\" stroke=\"" << colour << "\" stroke-width=\"2\" points=\"" << points
      << "\"/>\n";
    for (const auto& [p, v] : *values)
      if (v)
        h << "<circle cx=\"" << fixed(px(p), 1) << "\" cy=\"" << fixed(py(*v), 1) << "\" r=\"3\" fill=\""
          << colour << "\"/>";
  }
  h << "<text x=\"" << w - 200 << "\" y=\"25\" font-size=\"11\" fill=\"#1f5fbf\">vs expert</text>";
  const bool taskBaselines = std::any_of(m.overall.fastVsTask.begin(), m.overall.fastVsTask.end(),
                                         [](const auto& entry) { return entry.second.has_value(); });
  h << "<text x=\"" << w - 200 << "\" y=\"40\" font-size=\"11\" fill=\"#d07a00\">vs task baseline"
    << (taskBaselines ? "" : " (no task states one)") << "</text>";
  h << "</svg>\n";
}

// Tasks x samples: each cell the sample's verdict and best time.
void sampleGrid(std::ostringstream& h, const SuiteReport& r) {
  std::map<std::string, std::map<int, const SampleOutcome*>> grid;
  for (const auto& s : r.samples) grid[s.task][s.sample] = &s;
  h << "<table><tr><th>task</th>";
  for (int k = 1; k <= r.plan.samples; ++k) h << "<th>sample " << k << "</th>";
  h << "</tr>\n";
  for (const auto& t : r.plan.tasks) {
    h << "<tr><td>" << escapeXml(t.name) << "</td>";
    for (int k = 1; k <= r.plan.samples; ++k) {
      const auto row = grid.find(t.name);
      const SampleOutcome* s =
          row == grid.end() ? nullptr : (row->second.count(k) ? row->second.at(k) : nullptr);
      if (!s) {
        h << "<td class=\"open\">not run</td>";
        continue;
      }
      const char* cls = !s->finished ? "open" : (s->correct ? "pass" : "fail");
      h << "<td class=\"" << cls << "\">"
        << (s->correct ? "correct" : (s->compiled ? "compiled" : "no build"));
      if (s->bestUs) h << "<br>" << fixed(*s->bestUs, 2) << " us";
      h << "<br><span class=\"note\">" << s->iterations << " it, " << s->tokens << " tok"
        << (s->finished ? "" : ", unfinished") << "</span></td>";
    }
    h << "</tr>\n";
  }
  h << "</table>\n";
}

}  // namespace

std::string suiteHtmlReport(const SuiteReport& r) {
  const SuiteMetrics& m = r.metrics;
  std::ostringstream h;
  h << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>kwb suite "
       "report</title><style>"
    << kStyle << "</style></head><body>\n";
  h << "<h1>Suite report</h1>\n<p>" << r.plan.tasks.size() << " tasks, " << r.plan.samples
    << " samples each; backend " << escapeXml(r.plan.settings.backend) << ", provider "
    << escapeXml(r.plan.settings.provider) << ", model " << escapeXml(r.plan.settings.model) << ".</p>\n";
  h << "<p><strong>Where the times ran:</strong> " << escapeXml(r.timingSource)
    << ". fast<sub>p</sub> is the share of samples whose fastest correct kernel is more than p times faster "
       "than the baseline; correct@k and compile@k use the unbiased pass@k estimator.</p>\n";
  if (!r.notRun.empty())
    h << "<p class=\"note\">" << r.notRun.size() << " planned samples have not run yet.</p>\n";
  for (const auto& p : r.problems) h << "<p class=\"note\">problem: " << escapeXml(p) << "</p>\n";
  h << "<h2>Overall</h2>\n";
  metricsTable(h, {&m.overall}, m.options, false);
  fastPCurve(h, m);
  h << "<h2>Per category</h2>\n";
  std::vector<const GroupMetrics*> rows;
  for (const auto& c : m.categories) rows.push_back(&c);
  metricsTable(h, rows, m.options, false);
  h << "<h2>Per task</h2>\n";
  rows.clear();
  for (const auto& t : m.tasks) rows.push_back(&t);
  metricsTable(h, rows, m.options, true);
  correctnessBars(h, m);
  h << "<h2>Samples</h2>\n";
  sampleGrid(h, r);
  h << "<h2>Diagnostic categories met</h2>\n<table><tr><th>category</th><th>samples</th></tr>\n";
  for (const auto& [c, n] : m.overall.diagnosticCategories)
    h << "<tr><td>" << escapeXml(c) << "</td><td>" << n << "</td></tr>\n";
  h << "</table>\n</body></html>\n";
  return h.str();
}

}  // namespace kwb::suite
