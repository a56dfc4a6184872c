// SPDX-License-Identifier: MIT
#include "core/agent/LessonDraft.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "core/agent/KnowledgePack.h"
#include "core/diff/LineDiff.h"

namespace kwb {

namespace fs = std::filesystem;

std::vector<int> parseStepList(const std::string& text) {
  std::vector<int> out;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const std::size_t comma = std::min(text.find(',', pos), text.size());
    const std::string item = text.substr(pos, comma - pos);
    const std::string where = "--steps element " + std::to_string(out.size() + 1) + " \"" + item + "\"";
    if (item.empty() || item.size() > 9 ||
        !std::all_of(item.begin(), item.end(), [](char c) { return c >= '0' && c <= '9'; }))
      throw std::invalid_argument(where + ": expected a positive iteration number");
    const int id = std::stoi(item);
    if (id <= 0) throw std::invalid_argument(where + ": expected a positive iteration number");
    if (std::find(out.begin(), out.end(), id) != out.end())
      throw std::invalid_argument(where + ": listed twice");
    out.push_back(id);
    pos = comma + 1;
  }
  return out;
}

namespace {

std::vector<const Diagnostic*> allDiagnostics(const Iteration& it) {
  std::vector<const Diagnostic*> out;
  for (const auto& d : it.diagnostics) out.push_back(&d);
  if (it.compile)
    for (const auto& d : it.compile->diagnostics) out.push_back(&d);
  if (it.run)
    for (const auto& d : it.run->diagnostics) out.push_back(&d);
  if (it.verify)
    for (const auto& d : it.verify->diagnostics) out.push_back(&d);
  return out;
}

void writeFile(const fs::path& p, const std::string& text) {
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f << text;
  if (!f.flush()) throw std::runtime_error(p.string() + ": cannot write");
}

// The task the draft replays on: a built-in task by name when the session's task is one (the
// workbench's own copy), else a copy of the session's task folder inside the draft, so the folder
// can be shared on its own.
std::string draftTask(const Session& session, const fs::path& outDir) {
  const fs::path builtIn = workbenchDataRoot() / "resources" / "tasks" / session.task.name;
  std::error_code ec;
  const fs::path source = session.taskPath;
  if (fs::exists(builtIn / "task.json", ec) &&
      (session.taskPath.empty() || fs::equivalent(fs::absolute(source), builtIn, ec)))
    return session.task.name;
  if (session.taskPath.empty() || !fs::exists(source / "task.json", ec))
    throw std::runtime_error("the session's task folder \"" + session.taskPath +
                             "\" has no task.json; the draft needs the task to replay");
  fs::copy(source, outDir / "task", fs::copy_options::recursive, ec);
  if (ec) throw std::runtime_error("copying the task folder " + source.string() + ": " + ec.message());
  return "task";
}

}  // namespace

fs::path writeLessonDraft(const Session& session, const std::vector<int>& ids, const fs::path& outDir,
                          const LessonDraftOptions& options) {
  if (ids.empty()) throw std::runtime_error("no iterations chosen for the lesson");
  std::vector<const Iteration*> chosen;
  for (int id : ids) {
    const Iteration* it = session.findIteration(id);
    if (!it) throw std::runtime_error("iteration " + std::to_string(id) + " is not in the session");
    if (!it->verdict)
      throw std::runtime_error("iteration " + std::to_string(id) + " has no verdict (it did not finish)");
    if (it->candidate.empty())
      throw std::runtime_error("iteration " + std::to_string(id) + " has no candidate kernel");
    if (it->candidate.files.size() != 1)
      throw std::runtime_error("iteration " + std::to_string(id) + " has " +
                               std::to_string(it->candidate.files.size()) +
                               " candidate files; lesson steps hold one kernel file");
    chosen.push_back(it);
  }
  std::error_code ec;
  if (fs::exists(outDir, ec) && !fs::is_empty(outDir, ec))
    throw std::runtime_error(outDir.string() + ": exists and is not empty");
  fs::create_directories(outDir, ec);
  if (ec) throw std::runtime_error(outDir.string() + ": " + ec.message());

  const std::string name =
      options.name.empty() ? fs::absolute(outDir).lexically_normal().filename().string() : options.name;
  nlohmann::json steps = nlohmann::json::array();
  std::string previousKernel;
  for (std::size_t k = 0; k < chosen.size(); ++k) {
    const Iteration& it = *chosen[k];
    const std::string id = std::to_string(it.id);
    const std::string kernel = it.candidate.files.begin()->second;
    const std::string file = "step" + std::to_string(k + 1) + ".cpp";
    writeFile(outDir / file, kernel);

    std::vector<std::string> categories;
    nlohmann::json diagnostics = nlohmann::json::array();
    for (const Diagnostic* d : allDiagnostics(it)) {
      diagnostics.push_back(d->format());
      if (!d->category.empty() &&
          std::find(categories.begin(), categories.end(), d->category) == categories.end())
        categories.push_back(d->category);
    }
    nlohmann::json expect = {{"verdict", std::string(verdictName(*it.verdict))}};
    if (*it.verdict != Verdict::Pass) {
      expect["fails"] = true;
      expect["categories"] = categories;
    }
    nlohmann::json recorded = {{"iteration", it.id},
                               {"verdict", std::string(verdictName(*it.verdict))},
                               {"diagnostics", diagnostics}};
    if (it.profile && it.profile->totalUs > 0) recorded["us"] = it.profile->totalUs;
    recorded["diff"] = unifiedDiff(diffLines(previousKernel, kernel),
                                   k == 0 ? "/dev/null" : "step" + std::to_string(k) + ".cpp", file);
    previousKernel = kernel;
    steps.push_back({{"title", "TODO: title for iteration " + id},
                     {"explanation", "TODO: explain what iteration " + id +
                                         " shows and why (its recorded feedback is under \"recorded\")."},
                     {"reply", it.notes.empty() ? "Recorded iteration " + id + "." : it.notes},
                     {"kernel", file},
                     {"look_at",
                      {{"panel", *it.verdict == Verdict::Pass ? "profile" : "diagnostics"},
                       {"what", "TODO: what to look at in iteration " + id}}},
                     {"expect", expect},
                     {"recorded", recorded}});
  }
  nlohmann::json lesson = {{"format", "kwb-lesson"},
                           {"version", 1},
                           {"name", name},
                           {"title", "TODO: title (draft made from a " + session.task.name + " session)"},
                           {"task", draftTask(session, outDir)},
                           {"summary", "TODO: what this lesson teaches."},
                           {"draft", true},
                           {"steps", steps}};
  fs::path file = outDir / "lesson.json";
  writeFile(file, lesson.dump(2) + "\n");
  return file;
}

}  // namespace kwb
