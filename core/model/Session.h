// SPDX-License-Identifier: MIT
#pragma once
// A working session on one task: the task (an embedded copy, so a session stays readable when the task
// folder changes), the settings it runs with, the pinned constraints, the iteration tree and the
// accepted iteration. The session store (core/store) persists it as a directory.
//
// Settings never hold an API key: keys come from the environment at run time (the settings name
// provider and model only), reading refuses key-like fields and base URLs are stored with
// credentials removed.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/model/Constraint.h"
#include "core/model/Iteration.h"
#include "core/model/JsonReader.h"
#include "core/model/SchemaVersion.h"
#include "core/model/Task.h"

namespace kwb {

struct SessionLimits {
  std::optional<int> maxIterations;
  int candidatesPerRound = 1;             // best-of-N
  std::optional<std::int64_t> maxTokens;  // prompt + completion, whole session
  std::optional<double> maxSeconds;       // wall time budget
  std::optional<double> targetSpeedup;    // versus the task baseline; stop optimising when reached
  std::optional<int> patience;            // stop after this many rounds without improvement
  bool operator==(const SessionLimits&) const = default;
};

struct SessionSettings {
  std::string backend = "ascend-sim";
  std::string soc;       // empty: the task's soc
  std::string provider;  // "openai", "anthropic", "replay"
  std::string model;
  std::string baseUrl;  // credentials stripped (see redactUrl)
  SessionLimits limits;
  bool operator==(const SessionSettings&) const = default;
};

struct Session {
  int schemaVersion = kSchemaVersion;
  std::string createdAt;
  std::string createdBy;  // "kwb 0.1.0"
  Task task;
  std::string taskPath;  // folder the task was loaded from, as given
  SessionSettings settings;
  std::vector<Constraint> constraints;
  std::vector<Iteration> iterations;  // ascending id
  std::optional<int> acceptedIteration;

  const Iteration* findIteration(int id) const;
  Iteration* findIteration(int id);
  std::vector<int> childrenOf(int id) const;
  // Iterations without a parent, or whose parent is not in the session (after a damaged folder).
  std::vector<int> roots() const;
  // Ids from the root down to `id` (empty when id is unknown).
  std::vector<int> lineage(int id) const;
  int nextIterationId() const;
  int nextConstraintId() const;
  // Inserts, or replaces the iteration with the same id, keeping ascending order.
  void upsertIteration(Iteration it);

  bool operator==(const Session&) const = default;
};

// A fresh session: schema version, creation time and creator filled in.
Session makeSession(Task task, std::string taskPath, SessionSettings settings);

// Removes user:password@ and query parameters that look like credentials (key, token, secret,
// signature, password) from a URL before it is stored.
std::string redactUrl(std::string_view url);

// Tree rules: unique ids, parents exist and are older, the accepted iteration exists.
std::vector<ValidationIssue> validateSessionTree(const Session& s);

// Everything but the iterations: what session.json holds besides its iteration index. Checks the
// schema version first (SchemaVersionError when newer).
void readSessionHeader(const JsonReader& r, Session& s);
nlohmann::json sessionHeaderToJson(const Session& s);

void read(const JsonReader& r, SessionSettings& s);
// A whole session as one document (header + full iterations); the tree is validated.
void read(const JsonReader& r, Session& s);
void to_json(nlohmann::json& j, const SessionSettings& s);
void to_json(nlohmann::json& j, const Session& s);
void from_json(const nlohmann::json& j, SessionSettings& s);
void from_json(const nlohmann::json& j, Session& s);

}  // namespace kwb
