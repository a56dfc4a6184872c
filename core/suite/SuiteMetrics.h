// SPDX-License-Identifier: MIT
#pragma once
// The suite's metrics over its samples (docs/suites.md, "Metrics"), per task, per task category and
// overall:
//   compile@k, correct@k  the unbiased pass@k estimator over samples that compiled / passed (PassAtK.h)
//   fast_p                 the share of samples whose fastest passing kernel is more than p times faster
//                          than a baseline (a sample that never passed counts as not fast), against the
//                          expert candidate's measured time and against the task's stated baseline
//   to first correct       mean evaluated iterations and tokens up to the first passing kernel, over the
//                          samples that reached one
//   diagnostic categories  how many samples met each category on the way
// Per-category and overall values are the mean of the per-task values that exist (a task without a
// baseline has no fast_p), so a task with more samples does not weigh more.

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/suite/SampleOutcome.h"

namespace kwb::suite {

struct MetricsOptions {
  std::vector<int> ks{1, 2, 5};
  std::vector<double> ps{0.0, 0.8, 1.0, 1.5, 2.0};
};

struct GroupMetrics {
  std::string name;  // task name, category name, or "overall"
  bool isTask = false;
  int tasks = 0;
  int samples = 0;
  int finishedSamples = 0;
  int compiledSamples = 0;
  int correctSamples = 0;
  std::map<int, std::optional<double>> compileAtK;
  std::map<int, std::optional<double>> correctAtK;
  std::map<double, std::optional<double>> fastVsExpert;
  std::map<double, std::optional<double>> fastVsTask;
  std::optional<double> meanIterationsToCorrect;
  std::optional<double> meanTokensToCorrect;
  std::optional<double> bestSpeedupVsExpert;        // the fastest sample's speedup (per task only)
  std::map<std::string, int> diagnosticCategories;  // category -> samples that met it
  std::set<std::string> ranOn;
  std::set<std::string> profileSources;
  std::optional<double> expertUs;  // per task only
  std::optional<double> taskBaselineUs;
};

struct SuiteMetrics {
  MetricsOptions options;
  std::vector<GroupMetrics> tasks;       // by task name
  std::vector<GroupMetrics> categories;  // by category name
  GroupMetrics overall;
};

// `expertUs`: task name -> the expert candidate's measured time (absent: not measured or it failed).
SuiteMetrics computeSuiteMetrics(const std::vector<SampleOutcome>& samples,
                                 const std::map<std::string, double>& expertUs,
                                 const MetricsOptions& options);

// The p values as they are written in keys ("fast_1.5"): shortest form, no trailing zeros.
std::string formatP(double p);

void to_json(nlohmann::json& j, const GroupMetrics& g);
void to_json(nlohmann::json& j, const SuiteMetrics& m);

}  // namespace kwb::suite
