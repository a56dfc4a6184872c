// SPDX-License-Identifier: MIT
// kwb session show DIR [--json]: the iteration tree of a session with verdicts and timings.
// Exit: 0 a healthy session, 1 the session is damaged (the problems are listed; what could be read is
// still shown), 2 not a readable session.
#include <algorithm>
#include <iostream>

#include "app/kwb/Cli.h"
#include "core/agent/SessionSummary.h"
#include "core/store/SessionStore.h"

namespace kwb::cli {
namespace {

int showSession(const std::string& dir, bool json) {
  std::vector<StoreProblem> problems;
  Session s;
  try {
    s = SessionStore::load(dir, &problems);
  } catch (const std::exception& e) {
    if (json)
      printJson({{"error", e.what()}, {"session_dir", dir}});
    else
      std::cerr << "kwb session show: " << e.what() << "\n";
    return BadInput;
  }
  if (json) {
    nlohmann::json j = sessionSummaryJson(s);
    j["session_dir"] = dir;
    nlohmann::json ps = nlohmann::json::array();
    for (const auto& p : problems) ps.push_back(p.describe());
    j["problems"] = ps;
    j["damaged"] = std::any_of(problems.begin(), problems.end(), [](const StoreProblem& p) {
      return p.severity == StoreProblem::Severity::Error;
    });
    printJson(j);
  } else {
    const nlohmann::json j = sessionSummaryJson(s);
    std::cout << "session " << dir << ": task " << s.task.name << ", " << s.iterations.size()
              << " iterations, backend " << s.settings.backend;
    if (!s.settings.provider.empty())
      std::cout << ", " << s.settings.provider << (s.settings.model.empty() ? "" : " " + s.settings.model);
    std::cout << "\n";
    std::cout << renderIterationTree(s);
    if (!j["speedup"].is_null())
      std::cout << "best: iteration " << j["best_iteration"] << ", " << j["best_us"].get<double>() << " us, "
                << j["speedup"].get<double>() << "x the baseline\n";
    for (const auto& p : problems) std::cout << p.describe() << "\n";
  }
  const bool damaged = std::any_of(problems.begin(), problems.end(), [](const StoreProblem& p) {
    return p.severity == StoreProblem::Severity::Error;
  });
  return damaged ? Failed : Success;
}

}  // namespace

void addSessionCommand(CLI::App& app, Context& ctx) {
  auto* group = app.add_subcommand("session", "Inspect agent sessions");
  group->require_subcommand(1);
  auto* show = group->add_subcommand(
      "show",
      "Print the iteration tree with verdicts and timings; exit 1 when the session is damaged (each "
      "problem is listed), 2 when DIR is not a readable session");
  auto dir = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  show->add_option("DIR", *dir, "Session folder")->required();
  show->add_flag("--json", *json, "Print one JSON document");
  show->callback([&ctx, dir, json] { ctx.action = [dir, json] { return showSession(*dir, *json); }; });
}

}  // namespace kwb::cli
