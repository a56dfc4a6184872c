// SPDX-License-Identifier: MIT
#include "core/suite/SuiteMetrics.h"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/suite/PassAtK.h"

namespace kwb::suite {

namespace {

std::optional<double> meanOf(const std::vector<double>& values) {
  if (values.empty()) return std::nullopt;
  double sum = 0;
  for (double v : values) sum += v;
  return sum / static_cast<double>(values.size());
}

// The share of samples more than p times faster than `baselineUs`; nullopt without a baseline.
std::optional<double> fastShare(const std::vector<const SampleOutcome*>& samples,
                                std::optional<double> baselineUs, double p) {
  if (!baselineUs || *baselineUs <= 0 || samples.empty()) return std::nullopt;
  int fast = 0;
  for (const auto* s : samples)
    if (s->correct && s->bestUs && *s->bestUs > 0 && *baselineUs / *s->bestUs > p) ++fast;
  return static_cast<double>(fast) / static_cast<double>(samples.size());
}

GroupMetrics taskMetrics(const std::string& task, const std::vector<const SampleOutcome*>& samples,
                         std::optional<double> expertUs, const MetricsOptions& options) {
  GroupMetrics g;
  g.name = task;
  g.isTask = true;
  g.tasks = 1;
  g.samples = static_cast<int>(samples.size());
  g.expertUs = expertUs;
  std::vector<double> iterations, tokens;
  std::optional<double> bestUs;
  for (const auto* s : samples) {
    if (s->finished) ++g.finishedSamples;
    if (s->compiled) ++g.compiledSamples;
    if (s->correct) ++g.correctSamples;
    if (s->iterationsToCorrect) iterations.push_back(*s->iterationsToCorrect);
    if (s->tokensToCorrect) tokens.push_back(static_cast<double>(*s->tokensToCorrect));
    if (s->bestUs && (!bestUs || *s->bestUs < *bestUs)) bestUs = s->bestUs;
    if (s->taskBaselineUs) g.taskBaselineUs = s->taskBaselineUs;
    for (const auto& c : s->diagnosticCategories) ++g.diagnosticCategories[c];
    g.ranOn.insert(s->ranOn.begin(), s->ranOn.end());
    g.profileSources.insert(s->profileSources.begin(), s->profileSources.end());
  }
  for (int k : options.ks) {
    g.compileAtK[k] = passAtK(g.samples, g.compiledSamples, k);
    g.correctAtK[k] = passAtK(g.samples, g.correctSamples, k);
  }
  for (double p : options.ps) {
    g.fastVsExpert[p] = fastShare(samples, expertUs, p);
    g.fastVsTask[p] = fastShare(samples, g.taskBaselineUs, p);
  }
  g.meanIterationsToCorrect = meanOf(iterations);
  g.meanTokensToCorrect = meanOf(tokens);
  if (expertUs && bestUs && *bestUs > 0) g.bestSpeedupVsExpert = *expertUs / *bestUs;
  return g;
}

// Mean of the per-task values that exist, key by key.
template <typename Key>
std::map<Key, std::optional<double>> meanByKey(const std::vector<const GroupMetrics*>& tasks,
                                               std::map<Key, std::optional<double>> GroupMetrics::*field) {
  std::map<Key, std::vector<double>> values;
  std::map<Key, std::optional<double>> out;
  for (const auto* t : tasks)
    for (const auto& [key, v] : t->*field) {
      out[key];
      if (v) values[key].push_back(*v);
    }
  for (auto& [key, v] : out) v = meanOf(values[key]);
  return out;
}

GroupMetrics combine(const std::string& name, const std::vector<const GroupMetrics*>& tasks,
                     const std::vector<const SampleOutcome*>& samples) {
  GroupMetrics g;
  g.name = name;
  g.tasks = static_cast<int>(tasks.size());
  for (const auto* t : tasks) {
    g.samples += t->samples;
    g.finishedSamples += t->finishedSamples;
    g.compiledSamples += t->compiledSamples;
    g.correctSamples += t->correctSamples;
    for (const auto& [c, n] : t->diagnosticCategories) g.diagnosticCategories[c] += n;
    g.ranOn.insert(t->ranOn.begin(), t->ranOn.end());
    g.profileSources.insert(t->profileSources.begin(), t->profileSources.end());
  }
  g.compileAtK = meanByKey(tasks, &GroupMetrics::compileAtK);
  g.correctAtK = meanByKey(tasks, &GroupMetrics::correctAtK);
  g.fastVsExpert = meanByKey(tasks, &GroupMetrics::fastVsExpert);
  g.fastVsTask = meanByKey(tasks, &GroupMetrics::fastVsTask);
  // To-first-correct means are over samples, not tasks: each is one run of the agent to a correct kernel.
  std::vector<double> iterations, tokens;
  for (const auto* s : samples) {
    if (s->iterationsToCorrect) iterations.push_back(*s->iterationsToCorrect);
    if (s->tokensToCorrect) tokens.push_back(static_cast<double>(*s->tokensToCorrect));
  }
  g.meanIterationsToCorrect = meanOf(iterations);
  g.meanTokensToCorrect = meanOf(tokens);
  return g;
}

nlohmann::json optionalJson(const std::optional<double>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

}  // namespace

std::string formatP(double p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", p);
  return buf;
}

SuiteMetrics computeSuiteMetrics(const std::vector<SampleOutcome>& samples,
                                 const std::map<std::string, double>& expertUs,
                                 const MetricsOptions& options) {
  SuiteMetrics m;
  m.options = options;
  std::map<std::string, std::vector<const SampleOutcome*>> byTask;
  std::map<std::string, std::string> categoryOf;
  for (const auto& s : samples) {
    byTask[s.task].push_back(&s);
    categoryOf[s.task] = s.category.empty() ? std::string("uncategorised") : s.category;
  }
  for (const auto& [task, list] : byTask) {
    const auto e = expertUs.find(task);
    m.tasks.push_back(taskMetrics(
        task, list, e == expertUs.end() ? std::nullopt : std::optional<double>(e->second), options));
  }
  std::map<std::string, std::vector<const GroupMetrics*>> tasksByCategory;
  std::map<std::string, std::vector<const SampleOutcome*>> samplesByCategory;
  std::vector<const GroupMetrics*> allTasks;
  std::vector<const SampleOutcome*> allSamples;
  for (const auto& t : m.tasks) {
    tasksByCategory[categoryOf[t.name]].push_back(&t);
    allTasks.push_back(&t);
    for (const auto* s : byTask[t.name]) {
      samplesByCategory[categoryOf[t.name]].push_back(s);
      allSamples.push_back(s);
    }
  }
  for (const auto& [category, list] : tasksByCategory)
    m.categories.push_back(combine(category, list, samplesByCategory[category]));
  m.overall = combine("overall", allTasks, allSamples);
  return m;
}

void to_json(nlohmann::json& j, const GroupMetrics& g) {
  nlohmann::json compile = nlohmann::json::object(), correct = nlohmann::json::object();
  for (const auto& [k, v] : g.compileAtK) compile[std::to_string(k)] = optionalJson(v);
  for (const auto& [k, v] : g.correctAtK) correct[std::to_string(k)] = optionalJson(v);
  nlohmann::json fastExpert = nlohmann::json::object(), fastTask = nlohmann::json::object();
  for (const auto& [p, v] : g.fastVsExpert) fastExpert[formatP(p)] = optionalJson(v);
  for (const auto& [p, v] : g.fastVsTask) fastTask[formatP(p)] = optionalJson(v);
  j = {{"name", g.name},
       {"tasks", g.tasks},
       {"samples", g.samples},
       {"finished_samples", g.finishedSamples},
       {"compiled_samples", g.compiledSamples},
       {"correct_samples", g.correctSamples},
       {"compile_at_k", compile},
       {"correct_at_k", correct},
       {"fast_p_vs_expert", fastExpert},
       {"fast_p_vs_task_baseline", fastTask},
       {"mean_iterations_to_correct", optionalJson(g.meanIterationsToCorrect)},
       {"mean_tokens_to_correct", optionalJson(g.meanTokensToCorrect)},
       {"diagnostic_categories", g.diagnosticCategories},
       {"ran_on", g.ranOn},
       {"profile_sources", g.profileSources}};
  if (g.isTask) {
    j["expert_us"] = optionalJson(g.expertUs);
    j["task_baseline_us"] = optionalJson(g.taskBaselineUs);
    j["best_speedup_vs_expert"] = optionalJson(g.bestSpeedupVsExpert);
  }
}

void to_json(nlohmann::json& j, const SuiteMetrics& m) {
  std::vector<double> ps = m.options.ps;
  j = {{"ks", m.options.ks},
       {"ps", ps},
       {"tasks", m.tasks},
       {"categories", m.categories},
       {"overall", m.overall}};
}

}  // namespace kwb::suite
