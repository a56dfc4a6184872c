// SPDX-License-Identifier: MIT
#include "core/agent/SessionSummary.h"

#include <cstdio>
#include <functional>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/model/Time.h"

namespace kwb {

namespace {

std::optional<double> timeUs(const Iteration& it) {
  if (!it.profile || it.profile->totalUs <= 0) return std::nullopt;
  return it.profile->totalUs;
}

std::string fmt(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::optional<double> durationMs(const Iteration& it) {
  if (!it.finishedAt) return std::nullopt;
  auto a = parseIso8601(it.createdAt);
  auto b = parseIso8601(*it.finishedAt);
  if (!a || !b) return std::nullopt;
  return std::chrono::duration<double, std::milli>(*b - *a).count();
}

const Diagnostic* firstError(const Iteration& it) {
  for (const auto& d : it.diagnostics)
    if (d.isError()) return &d;
  if (it.compile)
    for (const auto& d : it.compile->diagnostics)
      if (d.isError()) return &d;
  if (it.run)
    for (const auto& d : it.run->diagnostics)
      if (d.isError()) return &d;
  if (it.verify)
    for (const auto& d : it.verify->diagnostics)
      if (d.isError()) return &d;
  return nullptr;
}

}  // namespace

std::optional<int> bestPassingIteration(const Session& s) {
  std::optional<int> best;
  double bestUs = 0;
  for (const auto& it : s.iterations) {
    if (it.verdict != Verdict::Pass) continue;
    const double us = timeUs(it).value_or(1e300);
    if (!best || us < bestUs) {
      best = it.id;
      bestUs = us;
    }
  }
  return best;
}

std::optional<double> sessionBaselineUs(const Session& s) {
  if (s.task.baseline && s.task.baseline->latencyUs > 0) return s.task.baseline->latencyUs;
  for (const auto& it : s.iterations)
    if (it.verdict == Verdict::Pass)
      if (auto us = timeUs(it)) return us;
  return std::nullopt;
}

std::string iterationHeadline(const Iteration& it) {
  std::string out =
      it.verdict ? std::string(verdictName(*it.verdict)) : std::string(iterationStateName(it.state));
  if (it.verdict == Verdict::Pass) {
    if (auto us = timeUs(it)) out += "  " + fmt(*us, 2) + " us";
    return out;
  }
  if (const Diagnostic* d = firstError(it)) {
    std::string where = d->file.empty() ? "" : std::filesystem::path(d->file).filename().string();
    if (!where.empty() && d->line > 0) where += ":" + std::to_string(d->line);
    out += "  [" + d->category + "]" + (where.empty() ? "" : " " + where) + " " + d->message;
  } else if (it.verify && !it.verify->summary.empty()) {
    out += "  " + it.verify->summary;
  }
  if (out.size() > 160) out = out.substr(0, 157) + "...";
  return out;
}

nlohmann::json sessionSummaryJson(const Session& s) {
  nlohmann::json j;
  j["task"] = s.task.name;
  j["backend"] = s.settings.backend;
  j["provider"] = s.settings.provider;
  j["model"] = s.settings.model;
  j["iterations"] = s.iterations.size();
  int passing = 0;
  std::int64_t prompt = 0, completion = 0;
  for (const auto& it : s.iterations) {
    if (it.verdict == Verdict::Pass) ++passing;
    if (it.usage) {
      prompt += it.usage->promptTokens;
      completion += it.usage->completionTokens;
    }
  }
  j["passing"] = passing;
  j["tokens"] = {{"prompt", prompt}, {"completion", completion}};
  const auto best = bestPassingIteration(s);
  const auto base = sessionBaselineUs(s);
  j["best_iteration"] = best ? nlohmann::json(*best) : nlohmann::json(nullptr);
  j["baseline_us"] = base ? nlohmann::json(*base) : nlohmann::json(nullptr);
  j["best_us"] = nullptr;
  j["speedup"] = nullptr;
  if (best)
    if (auto us = timeUs(*s.findIteration(*best))) {
      j["best_us"] = *us;
      if (base) j["speedup"] = *base / *us;
    }
  j["accepted"] = s.acceptedIteration ? nlohmann::json(*s.acceptedIteration) : nlohmann::json(nullptr);
  nlohmann::json tree = nlohmann::json::array();
  for (const auto& it : s.iterations) {
    nlohmann::json n;
    n["id"] = it.id;
    n["parent"] = it.parentId ? nlohmann::json(*it.parentId) : nlohmann::json(nullptr);
    n["origin"] = originName(it.origin);
    n["state"] = iterationStateName(it.state);
    n["verdict"] = it.verdict ? nlohmann::json(verdictName(*it.verdict)) : nlohmann::json(nullptr);
    n["summary"] = iterationHeadline(it);
    n["us"] = timeUs(it) ? nlohmann::json(*timeUs(it)) : nlohmann::json(nullptr);
    const auto d = durationMs(it);
    n["duration_ms"] = d ? nlohmann::json(*d) : nlohmann::json(nullptr);
    n["compile_ms"] = it.compile ? nlohmann::json(it.compile->durationMs) : nlohmann::json(nullptr);
    n["run_ms"] = it.run ? nlohmann::json(it.run->durationMs) : nlohmann::json(nullptr);
    n["llm_ms"] = it.usage ? nlohmann::json(it.usage->durationMs) : nlohmann::json(nullptr);
    n["created_at"] = it.createdAt;
    n["finished_at"] = it.finishedAt ? nlohmann::json(*it.finishedAt) : nlohmann::json(nullptr);
    n["children"] = s.childrenOf(it.id);
    tree.push_back(std::move(n));
  }
  j["tree"] = std::move(tree);
  return j;
}

std::string renderIterationTree(const Session& s) {
  std::ostringstream out;
  const auto best = bestPassingIteration(s);
  const auto base = sessionBaselineUs(s);
  std::function<void(int, const std::string&, bool, bool)> node = [&](int id, const std::string& prefix,
                                                                      bool last, bool root) {
    const Iteration* it = s.findIteration(id);
    if (!it) return;
    out << prefix;
    if (!root) out << (last ? "└─ " : "├─ ");
    out << "#" << it->id << " " << originName(it->origin) << "  " << iterationHeadline(*it);
    if (it->verdict == Verdict::Pass && base)
      if (auto us = timeUs(*it)) out << " (" << fmt(*base / *us, 2) << "x)";
    std::vector<std::string> times;
    if (it->usage && it->usage->durationMs > 0)
      times.push_back("llm " + fmt(it->usage->durationMs / 1000.0, 1) + "s");
    if (it->compile) times.push_back("compile " + fmt(it->compile->durationMs / 1000.0, 1) + "s");
    if (it->run) times.push_back("run " + fmt(it->run->durationMs / 1000.0, 1) + "s");
    if (auto d = durationMs(*it)) times.push_back("total " + fmt(*d / 1000.0, 1) + "s");
    if (!times.empty()) {
      out << "   (";
      for (std::size_t k = 0; k < times.size(); ++k) out << (k ? ", " : "") << times[k];
      out << ")";
    }
    if (best && *best == it->id) out << "  <- best";
    if (s.acceptedIteration && *s.acceptedIteration == it->id) out << "  <- accepted";
    out << "\n";
    const auto kids = s.childrenOf(id);
    const std::string childPrefix = root ? prefix : prefix + (last ? "   " : "│  ");
    for (std::size_t k = 0; k < kids.size(); ++k) node(kids[k], childPrefix, k + 1 == kids.size(), false);
  };
  const auto roots = s.roots();
  for (std::size_t k = 0; k < roots.size(); ++k) node(roots[k], "", k + 1 == roots.size(), true);
  return out.str();
}

}  // namespace kwb
