// SPDX-License-Identifier: MIT
#include "core/model/Iteration.h"

#include <nlohmann/json.hpp>

#include "core/model/JsonReader.h"
#include "core/model/SchemaVersion.h"
#include "core/model/Time.h"

namespace kwb {

namespace {
constexpr std::pair<std::string_view, IterationState> kStates[] = {
    {"pending", IterationState::Pending},     {"generating", IterationState::Generating},
    {"compiling", IterationState::Compiling}, {"running", IterationState::Running},
    {"verifying", IterationState::Verifying}, {"profiling", IterationState::Profiling},
    {"done", IterationState::Done},           {"stopped", IterationState::Stopped},
    {"failed", IterationState::Failed},
};
}  // namespace

std::string_view iterationStateName(IterationState s) {
  return enumName(kStates, s);
}

bool isFinal(IterationState s) {
  return s == IterationState::Done || s == IterationState::Stopped || s == IterationState::Failed;
}

void read(const JsonReader& r, LlmUsage& u) {
  u = LlmUsage{};
  u.promptTokens = r.find("prompt_tokens") ? r.at("prompt_tokens").asInt(0, INT64_MAX) : 0;
  u.completionTokens = r.find("completion_tokens") ? r.at("completion_tokens").asInt(0, INT64_MAX) : 0;
  u.model = r.getString("model", "");
  u.provider = r.getString("provider", "");
  u.durationMs = r.getNumber("duration_ms", 0.0);
}

void read(const JsonReader& r, Iteration& it) {
  it = Iteration{};
  if (auto v = r.find("schema_version")) {
    const auto version = v->asInt(1, 1'000'000);
    if (version > kSchemaVersion)
      throw SchemaVersionError(r.file(), static_cast<int>(version), kSchemaVersion);
  }
  it.id = static_cast<int>(r.at("id").asInt(1, kMaxIterationId));
  if (auto p = r.find("parent_id")) {
    auto parent = p->asInt(1, kMaxIterationId);
    if (parent >= it.id) p->expected("the id of an earlier iteration (< " + std::to_string(it.id) + ")");
    it.parentId = static_cast<int>(parent);
  }
  read(r.at("origin"), it.origin);
  it.state = r.at("state").asEnum(kStates);
  if (auto v = r.find("verdict")) read(*v, it.verdict.emplace());
  it.createdAt = readTimestamp(r.at("created_at"));
  it.updatedAt = r.find("updated_at") ? readTimestamp(r.at("updated_at")) : it.createdAt;
  if (auto f = r.find("finished_at")) it.finishedAt = readTimestamp(*f);
  if (auto u = r.find("usage")) read(*u, it.usage.emplace());
  read(r.at("candidate"), it.candidate);
  if (auto c = r.find("compile")) read(*c, it.compile.emplace());
  if (auto c = r.find("run")) read(*c, it.run.emplace());
  if (auto c = r.find("verify")) read(*c, it.verify.emplace());
  if (auto c = r.find("profile")) read(*c, it.profile.emplace());
  if (auto d = r.find("diagnostics")) readList(*d, it.diagnostics);
  it.hint = r.getString("hint", "");
  it.notes = r.getString("notes", "");
  if (auto b = r.find("after_rollback")) it.afterRollback = b->asBool();
}

void to_json(nlohmann::json& j, const LlmUsage& u) {
  j = {{"prompt_tokens", u.promptTokens},
       {"completion_tokens", u.completionTokens},
       {"model", u.model},
       {"provider", u.provider},
       {"duration_ms", u.durationMs}};
}

void to_json(nlohmann::json& j, const Iteration& it) {
  j = nlohmann::json::object();
  j["id"] = it.id;
  if (it.parentId) j["parent_id"] = *it.parentId;
  j["origin"] = originName(it.origin);
  j["state"] = iterationStateName(it.state);
  if (it.verdict) j["verdict"] = *it.verdict;
  j["created_at"] = it.createdAt;
  j["updated_at"] = it.updatedAt;
  if (it.finishedAt) j["finished_at"] = *it.finishedAt;
  if (it.usage) j["usage"] = *it.usage;
  j["candidate"] = it.candidate;
  if (it.compile) j["compile"] = *it.compile;
  if (it.run) j["run"] = *it.run;
  if (it.verify) j["verify"] = *it.verify;
  if (it.profile) j["profile"] = *it.profile;
  if (!it.diagnostics.empty()) j["diagnostics"] = it.diagnostics;
  if (!it.hint.empty()) j["hint"] = it.hint;
  if (!it.notes.empty()) j["notes"] = it.notes;
  if (it.afterRollback) j["after_rollback"] = true;
}

void from_json(const nlohmann::json& j, LlmUsage& u) {
  read(JsonReader(j, ""), u);
}

void from_json(const nlohmann::json& j, Iteration& it) {
  read(JsonReader(j, ""), it);
}

}  // namespace kwb
