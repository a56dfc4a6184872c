// SPDX-License-Identifier: MIT
#include "core/suite/SampleOutcome.h"

#include <nlohmann/json.hpp>
#include <stdexcept>

namespace kwb::suite {

namespace {

void collectCategories(const std::vector<Diagnostic>& diagnostics, std::set<std::string>& into) {
  for (const auto& d : diagnostics)
    if (!d.category.empty() && d.severity != Severity::Note) into.insert(d.category);
}

}  // namespace

SampleOutcome sampleOutcomeFromSession(const Session& session, int sample) {
  SampleOutcome o;
  o.task = session.task.name;
  o.category = session.task.category;
  o.sample = sample;
  if (session.task.baseline && session.task.baseline->latencyUs > 0)
    o.taskBaselineUs = session.task.baseline->latencyUs;
  std::int64_t tokensSoFar = 0;
  int evaluatedSoFar = 0;
  // Ids grow with time (docs/session-format.md), so id order is the order the iterations were made.
  for (const auto& it : session.iterations) {
    if (it.usage) tokensSoFar += it.usage->promptTokens + it.usage->completionTokens;
    collectCategories(it.diagnostics, o.diagnosticCategories);
    if (it.compile) {
      collectCategories(it.compile->diagnostics, o.diagnosticCategories);
      if (it.compile->ok) o.compiled = true;
    }
    if (it.run) {
      collectCategories(it.run->diagnostics, o.diagnosticCategories);
      o.ranOn.insert(std::string(ranOnName(it.run->ranOn)));
    }
    if (it.verify) collectCategories(it.verify->diagnostics, o.diagnosticCategories);
    if (it.profile && !it.profile->source.empty()) o.profileSources.insert(it.profile->source);
    if (it.state != IterationState::Done) continue;
    ++evaluatedSoFar;
    if (it.verdict != Verdict::Pass) continue;
    o.correct = true;
    if (!o.iterationsToCorrect) {
      o.iterationsToCorrect = evaluatedSoFar;
      o.tokensToCorrect = tokensSoFar;
    }
    if (it.profile && it.profile->totalUs > 0 && (!o.bestUs || it.profile->totalUs < *o.bestUs))
      o.bestUs = it.profile->totalUs;
  }
  o.iterations = evaluatedSoFar;
  o.tokens = tokensSoFar;
  return o;
}

void to_json(nlohmann::json& j, const SampleOutcome& o) {
  auto opt = [](const auto& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
  j = {{"task", o.task},
       {"category", o.category},
       {"sample", o.sample},
       {"finished", o.finished},
       {"finish_reason", o.finishReason},
       {"iterations", o.iterations},
       {"tokens", o.tokens},
       {"compiled", o.compiled},
       {"correct", o.correct},
       {"best_us", opt(o.bestUs)},
       {"iterations_to_correct", opt(o.iterationsToCorrect)},
       {"tokens_to_correct", opt(o.tokensToCorrect)},
       {"diagnostic_categories", o.diagnosticCategories},
       {"ran_on", o.ranOn},
       {"profile_sources", o.profileSources},
       {"task_baseline_us", opt(o.taskBaselineUs)}};
}

SampleOutcome sampleOutcomeFromJson(const nlohmann::json& j) {
  auto need = [&](const char* key) -> const nlohmann::json& {
    if (!j.is_object() || !j.contains(key))
      throw std::runtime_error(std::string("missing key \"") + key + "\"");
    return j.at(key);
  };
  try {
    SampleOutcome o;
    o.task = need("task").get<std::string>();
    o.category = need("category").get<std::string>();
    o.sample = need("sample").get<int>();
    o.finished = need("finished").get<bool>();
    o.finishReason = need("finish_reason").get<std::string>();
    o.iterations = need("iterations").get<int>();
    o.tokens = need("tokens").get<std::int64_t>();
    o.compiled = need("compiled").get<bool>();
    o.correct = need("correct").get<bool>();
    if (!need("best_us").is_null()) o.bestUs = j["best_us"].get<double>();
    if (!need("iterations_to_correct").is_null())
      o.iterationsToCorrect = j["iterations_to_correct"].get<int>();
    if (!need("tokens_to_correct").is_null()) o.tokensToCorrect = j["tokens_to_correct"].get<std::int64_t>();
    o.diagnosticCategories = need("diagnostic_categories").get<std::set<std::string>>();
    o.ranOn = need("ran_on").get<std::set<std::string>>();
    o.profileSources = need("profile_sources").get<std::set<std::string>>();
    if (!need("task_baseline_us").is_null()) o.taskBaselineUs = j["task_baseline_us"].get<double>();
    return o;
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("a sample outcome has a value of the wrong type: ") + e.what());
  }
}

}  // namespace kwb::suite
