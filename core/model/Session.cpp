// SPDX-License-Identifier: MIT
#include "core/model/Session.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "core/model/Time.h"

#ifndef KWB_VERSION
#define KWB_VERSION "unknown"
#endif

namespace kwb {

namespace {

std::string lower(std::string_view s) {
  std::string out;
  for (char c : s) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool looksLikeSecretName(std::string_view name) {
  const std::string n = lower(name);
  for (std::string_view word : {"key", "token", "secret", "password", "passwd", "sig", "auth", "credential"})
    if (n.find(word) != std::string::npos) return true;
  return false;
}

}  // namespace

const Iteration* Session::findIteration(int id) const {
  // `iterations` is kept in ascending id order (Session.h), so a binary search finds it in O(log n):
  // lineage() and the tree checks call this once per iteration, which was quadratic as a scan
  // (docs/benchmarks.md, "10,000 iterations"). A vector someone left unsorted still answers
  // correctly, by the scan.
  const auto pos = std::lower_bound(iterations.begin(), iterations.end(), id,
                                    [](const Iteration& a, int wanted) { return a.id < wanted; });
  if (pos != iterations.end() && pos->id == id) return &*pos;
  for (const auto& it : iterations)
    if (it.id == id) return &it;
  return nullptr;
}

Iteration* Session::findIteration(int id) {
  return const_cast<Iteration*>(static_cast<const Session*>(this)->findIteration(id));
}

std::vector<int> Session::childrenOf(int id) const {
  std::vector<int> out;
  for (const auto& it : iterations)
    if (it.parentId == id) out.push_back(it.id);
  return out;
}

std::vector<int> Session::roots() const {
  std::vector<int> out;
  for (const auto& it : iterations)
    if (!it.parentId || !findIteration(*it.parentId)) out.push_back(it.id);
  return out;
}

std::vector<int> Session::lineage(int id) const {
  std::vector<int> chain;
  const Iteration* it = findIteration(id);
  // Parents are strictly older, so the walk ends; the bound guards against hand-edited cycles.
  while (it && chain.size() <= iterations.size()) {
    chain.push_back(it->id);
    it = it->parentId ? findIteration(*it->parentId) : nullptr;
  }
  std::reverse(chain.begin(), chain.end());
  return chain;
}

int Session::nextIterationId() const {
  int maxId = 0;
  for (const auto& it : iterations) maxId = std::max(maxId, it.id);
  return maxId + 1;
}

int Session::nextConstraintId() const {
  int maxId = 0;
  for (const auto& c : constraints) maxId = std::max(maxId, c.id);
  return maxId + 1;
}

void Session::upsertIteration(Iteration it) {
  auto pos = std::lower_bound(iterations.begin(), iterations.end(), it.id,
                              [](const Iteration& a, int id) { return a.id < id; });
  if (pos != iterations.end() && pos->id == it.id)
    *pos = std::move(it);
  else
    iterations.insert(pos, std::move(it));
}

Session makeSession(Task task, std::string taskPath, SessionSettings settings) {
  Session s;
  s.createdAt = nowIso8601();
  s.createdBy = std::string("kwb ") + KWB_VERSION;
  s.task = std::move(task);
  s.task.files = TaskFiles{};
  s.taskPath = std::move(taskPath);
  settings.baseUrl = redactUrl(settings.baseUrl);
  s.settings = std::move(settings);
  return s;
}

std::string redactUrl(std::string_view url) {
  std::string out(url);
  // Userinfo: between "://" and the first '@' before the path.
  if (auto scheme = out.find("://"); scheme != std::string::npos) {
    const auto hostStart = scheme + 3;
    const auto pathStart = out.find_first_of("/?#", hostStart);
    const auto at = out.rfind('@', pathStart == std::string::npos ? std::string::npos : pathStart);
    if (at != std::string::npos && at >= hostStart) out.erase(hostStart, at + 1 - hostStart);
  }
  const auto q = out.find('?');
  if (q == std::string::npos) return out;
  const auto hash = out.find('#', q);
  const std::string query = out.substr(q + 1, hash == std::string::npos ? std::string::npos : hash - q - 1);
  const std::string fragment = hash == std::string::npos ? "" : out.substr(hash);
  std::string kept;
  std::size_t start = 0;
  while (start <= query.size()) {
    auto end = query.find('&', start);
    if (end == std::string::npos) end = query.size();
    const std::string param = query.substr(start, end - start);
    const std::string name = param.substr(0, param.find('='));
    if (!param.empty() && !looksLikeSecretName(name)) kept += (kept.empty() ? "" : "&") + param;
    start = end + 1;
  }
  return out.substr(0, q) + (kept.empty() ? "" : "?" + kept) + fragment;
}

std::vector<ValidationIssue> validateSessionTree(const Session& s) {
  std::vector<ValidationIssue> issues;
  std::set<int> ids;
  for (std::size_t i = 0; i < s.iterations.size(); ++i) {
    const auto& it = s.iterations[i];
    const std::string p = "/iterations/" + std::to_string(i);
    if (!ids.insert(it.id).second)
      issues.push_back({p + "/id", "duplicate iteration id " + std::to_string(it.id)});
    if (it.parentId) {
      if (*it.parentId >= it.id)
        issues.push_back({p + "/parent_id", "parent " + std::to_string(*it.parentId) +
                                                " is not older than iteration " + std::to_string(it.id)});
      else if (!s.findIteration(*it.parentId))
        issues.push_back(
            {p + "/parent_id", "parent iteration " + std::to_string(*it.parentId) + " does not exist"});
    }
  }
  if (s.acceptedIteration && !s.findIteration(*s.acceptedIteration))
    issues.push_back({"/accepted_iteration",
                      "accepted iteration " + std::to_string(*s.acceptedIteration) + " does not exist"});
  return issues;
}

void read(const JsonReader& r, SessionSettings& s) {
  r.requireObject();
  for (const auto& [key, value] : r.members())
    if (looksLikeSecretName(key))
      value.fail("sessions never store API keys or tokens; remove \"" + key +
                 "\" and provide the key through the environment variable your provider settings name");
  r.allowOnly({"backend", "soc", "provider", "model", "base_url", "limits"});
  s = SessionSettings{};
  s.backend = r.getString("backend", s.backend);
  s.soc = r.getString("soc", "");
  s.provider = r.getString("provider", "");
  s.model = r.getString("model", "");
  s.baseUrl = redactUrl(r.getString("base_url", ""));
  if (auto l = r.find("limits")) {
    l->allowOnly({"max_iterations", "candidates_per_round", "max_tokens", "max_seconds", "target_speedup",
                  "patience"});
    auto& lim = s.limits;
    if (auto v = l->find("max_iterations"))
      lim.maxIterations = static_cast<int>(v->asInt(1, kMaxIterationId));
    if (auto v = l->find("candidates_per_round")) lim.candidatesPerRound = static_cast<int>(v->asInt(1, 64));
    if (auto v = l->find("max_tokens")) lim.maxTokens = v->asInt(1, INT64_MAX);
    lim.maxSeconds = l->optNumber("max_seconds");
    lim.targetSpeedup = l->optNumber("target_speedup");
    if (auto v = l->find("patience")) lim.patience = static_cast<int>(v->asInt(1, 1000));
  }
}

void to_json(nlohmann::json& j, const SessionSettings& s) {
  j = {{"backend", s.backend},
       {"soc", s.soc},
       {"provider", s.provider},
       {"model", s.model},
       {"base_url", redactUrl(s.baseUrl)}};
  nlohmann::json lim = {{"candidates_per_round", s.limits.candidatesPerRound}};
  if (s.limits.maxIterations) lim["max_iterations"] = *s.limits.maxIterations;
  if (s.limits.maxTokens) lim["max_tokens"] = *s.limits.maxTokens;
  if (s.limits.maxSeconds) lim["max_seconds"] = *s.limits.maxSeconds;
  if (s.limits.targetSpeedup) lim["target_speedup"] = *s.limits.targetSpeedup;
  if (s.limits.patience) lim["patience"] = *s.limits.patience;
  j["limits"] = lim;
}

void readSessionHeader(const JsonReader& r, Session& s) {
  r.requireObject();
  // The version decides how to read the rest, so it is checked before anything else is looked at.
  const auto version = r.at("schema_version").asInt(1, 1'000'000);
  if (version > kSchemaVersion) throw SchemaVersionError(r.file(), static_cast<int>(version), kSchemaVersion);
  r.allowOnly({"schema_version", "created_at", "created_by", "task", "task_path", "settings", "constraints",
               "accepted_iteration", "iterations"});
  s = Session{};
  s.schemaVersion = static_cast<int>(version);
  s.createdAt = readTimestamp(r.at("created_at"));
  s.createdBy = r.getString("created_by", "");
  Task task;
  read(r.at("task"), task);
  if (auto issues = validateTask(task); !issues.empty())
    throw LoadError(r.file(), r.pointer() + "/task" + issues.front().pointer, issues.front().message);
  s.task = std::move(task);
  s.taskPath = r.getString("task_path", "");
  if (auto st = r.find("settings")) read(*st, s.settings);
  if (auto c = r.find("constraints")) readList(*c, s.constraints);
  std::set<int> constraintIds;
  if (auto c = r.find("constraints"))
    for (std::size_t i = 0; i < s.constraints.size(); ++i)
      if (!constraintIds.insert(s.constraints[i].id).second)
        c->at(i).at("id").expected("a constraint id not used before");
  if (auto a = r.find("accepted_iteration"))
    s.acceptedIteration = static_cast<int>(a->asInt(1, kMaxIterationId));
}

nlohmann::json sessionHeaderToJson(const Session& s) {
  nlohmann::json j = nlohmann::json::object();
  j["schema_version"] = s.schemaVersion;
  j["created_at"] = s.createdAt;
  j["created_by"] = s.createdBy;
  j["task"] = s.task;
  j["task_path"] = s.taskPath;
  j["settings"] = s.settings;
  j["constraints"] = s.constraints;
  if (s.acceptedIteration) j["accepted_iteration"] = *s.acceptedIteration;
  return j;
}

void read(const JsonReader& r, Session& s) {
  readSessionHeader(r, s);
  if (auto its = r.find("iterations")) readList(*its, s.iterations);
  // Validate before sorting so that the pointers in errors index the file's own order.
  if (auto issues = validateSessionTree(s); !issues.empty())
    throw LoadError(r.file(), r.pointer() + issues.front().pointer, issues.front().message);
  std::sort(s.iterations.begin(), s.iterations.end(),
            [](const Iteration& a, const Iteration& b) { return a.id < b.id; });
}

void to_json(nlohmann::json& j, const Session& s) {
  j = sessionHeaderToJson(s);
  j["iterations"] = s.iterations;
}

void from_json(const nlohmann::json& j, SessionSettings& s) {
  read(JsonReader(j, ""), s);
}

void from_json(const nlohmann::json& j, Session& s) {
  read(JsonReader(j, ""), s);
}

}  // namespace kwb
