// SPDX-License-Identifier: MIT
#include "core/agent/Lesson.h"
#include "core/base/TextFile.h"

#include <algorithm>
#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "core/agent/AgentLoop.h"
#include "core/agent/KnowledgePack.h"
#include "core/llm/ReplayClient.h"
#include "core/model/Task.h"
#include "core/store/SessionStore.h"

namespace kwb {

namespace fs = std::filesystem;

fs::path lessonsDir() {
  return workbenchDataRoot() / "resources" / "lessons";
}

std::vector<std::string> listLessons(const fs::path& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_directory() && fs::exists(e.path() / "lesson.json")) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

const std::vector<std::string>& lessonPanels() {
  static const std::vector<std::string> panels = {"diagnostics", "diff", "profile", "verify", "editor"};
  return panels;
}

namespace {

// A file a lesson names: a plain relative path inside the lesson folder (lessons are shared as
// folders, so a name like ../../x or /etc/x is refused rather than read).
std::string readLessonFile(const fs::path& lessonFile, const std::string& rel, const std::string& where) {
  const fs::path p = rel;
  bool inside = !rel.empty() && p.is_relative();
  for (const auto& part : p)
    if (part == "..") inside = false;
  if (!inside)
    throw std::runtime_error(lessonFile.string() + ": " + where +
                             " must be a file inside the lesson folder, not \"" + rel + "\"");
  try {
    return readTextFileOrThrow(lessonFile.parent_path() / p);
  } catch (const std::exception& e) {
    throw std::runtime_error(lessonFile.string() + ": " + where + ": " + e.what());
  }
}

std::string withKernelBlock(const std::string& prose, const std::string& kernel) {
  std::string out = prose;
  if (!out.empty() && out.back() != '\n') out += "\n";
  out += "\n```cpp kernel.cpp\n" + kernel;
  if (!kernel.empty() && kernel.back() != '\n') out += "\n";
  out += "```\n";
  return out;
}

}  // namespace

Lesson loadLesson(const std::string& nameOrPath) {
  fs::path file = nameOrPath;
  std::error_code ec;
  if (fs::is_directory(file, ec))
    file /= "lesson.json";
  else if (!fs::exists(file, ec))
    file = lessonsDir() / nameOrPath / "lesson.json";
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(readTextFileOrThrow(file));
  } catch (const std::exception& e) {
    throw std::runtime_error(file.string() + ": " + e.what());
  }
  auto field = [&](const nlohmann::json& o, const char* key, const std::string& where) -> std::string {
    if (!o.contains(key) || !o[key].is_string())
      throw std::runtime_error(file.string() + ": " + where + key + " must be a string");
    return o[key].get<std::string>();
  };
  if (j.value("format", std::string()) != "kwb-lesson")
    throw std::runtime_error(file.string() + ": format must be \"kwb-lesson\"");
  Lesson l;
  l.dir = file.parent_path();
  l.name = field(j, "name", "/");
  l.title = field(j, "title", "/");
  l.task = field(j, "task", "/");
  l.summary = j.value("summary", std::string());
  if (!j.contains("steps") || !j["steps"].is_array() || j["steps"].empty())
    throw std::runtime_error(file.string() + ": /steps must be a non-empty array");
  for (std::size_t k = 0; k < j["steps"].size(); ++k) {
    const auto& s = j["steps"][k];
    const std::string where = "/steps/" + std::to_string(k) + "/";
    LessonStep step;
    step.title = field(s, "title", where);
    step.explanation = field(s, "explanation", where);
    step.reply = field(s, "reply", where);
    if (s.contains("kernel")) {
      step.kernelFile = field(s, "kernel", where);
      step.reply = withKernelBlock(step.reply, readLessonFile(file, step.kernelFile, where + "kernel"));
    }
    if (auto look = s.find("look_at"); look != s.end()) {
      if (!look->is_object())
        throw std::runtime_error(file.string() + ": " + where + "look_at must be an object");
      LessonLookAt at{field(*look, "panel", where + "look_at/"), field(*look, "what", where + "look_at/")};
      const auto& panels = lessonPanels();
      if (std::find(panels.begin(), panels.end(), at.panel) == panels.end())
        throw std::runtime_error(file.string() + ": " + where + "look_at/panel \"" + at.panel +
                                 "\" is not one of diagnostics, diff, profile, verify, editor");
      step.lookAt = std::move(at);
    }
    if (auto e = s.find("expect"); e != s.end() && e->is_object()) {
      if (e->contains("verdict")) step.expect.verdict = (*e)["verdict"].get<std::string>();
      step.expect.fails = e->value("fails", false);
      step.expect.categories = e->value("categories", std::vector<std::string>{});
      step.expect.fasterThanPrevious = e->value("faster_than_previous", false);
    }
    l.steps.push_back(std::move(step));
  }
  if (auto e = j.find("exercise"); e != j.end()) {
    if (!e->is_object()) throw std::runtime_error(file.string() + ": /exercise must be an object");
    LessonExercise x;
    x.prompt = field(*e, "prompt", "/exercise/");
    x.task = e->contains("task") ? field(*e, "task", "/exercise/") : l.task;
    x.startFile = field(*e, "start", "/exercise/");
    x.solutionFile = field(*e, "solution", "/exercise/");
    x.startKernel = readLessonFile(file, x.startFile, "/exercise/start");
    x.solutionKernel = readLessonFile(file, x.solutionFile, "/exercise/solution");
    if (auto h = e->find("hints"); h != e->end()) {
      if (!h->is_array()) throw std::runtime_error(file.string() + ": /exercise/hints must be an array");
      for (std::size_t k = 0; k < h->size(); ++k) {
        if (!(*h)[k].is_string())
          throw std::runtime_error(file.string() + ": /exercise/hints/" + std::to_string(k) +
                                   " must be a string");
        x.hints.push_back((*h)[k].get<std::string>());
      }
    }
    if (auto t = e->find("target_us"); t != e->end()) {
      if (!t->is_number() || t->get<double>() <= 0)
        throw std::runtime_error(file.string() + ": /exercise/target_us must be a positive number");
      x.targetUs = t->get<double>();
    }
    l.exercise = std::move(x);
  }
  return l;
}

std::vector<std::string> Course::ready() const {
  std::vector<std::string> out;
  for (const auto& e : entries)
    if (e.pending.empty()) out.push_back(e.lesson);
  return out;
}

Course loadCourse(const fs::path& dir) {
  const fs::path file = dir / "course.json";
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(readTextFileOrThrow(file));
  } catch (const std::exception& e) {
    throw std::runtime_error(file.string() + ": " + e.what());
  }
  if (!j.is_object() || j.value("format", std::string()) != "kwb-course")
    throw std::runtime_error(file.string() + ": format must be \"kwb-course\"");
  Course c;
  c.title = j.value("title", std::string());
  if (!j.contains("lessons") || !j["lessons"].is_array())
    throw std::runtime_error(file.string() + ": /lessons must be an array");
  const auto existing = listLessons(dir);
  for (std::size_t k = 0; k < j["lessons"].size(); ++k) {
    const auto& e = j["lessons"][k];
    const std::string where = file.string() + ": /lessons/" + std::to_string(k);
    if (!e.is_object() || !e.contains("name") || !e["name"].is_string())
      throw std::runtime_error(where + "/name must be a string");
    CourseEntry entry{e["name"].get<std::string>(), e.value("pending", std::string())};
    const bool exists = std::find(existing.begin(), existing.end(), entry.lesson) != existing.end();
    if (entry.pending.empty() && !exists)
      throw std::runtime_error(where + ": no lesson folder \"" + entry.lesson + "\" with a lesson.json");
    for (const auto& prior : c.entries)
      if (prior.lesson == entry.lesson)
        throw std::runtime_error(where + ": \"" + entry.lesson + "\" listed twice");
    c.entries.push_back(std::move(entry));
  }
  return c;
}

namespace {

fs::path resolveTaskDir(const Lesson& l, const std::string& task) {
  fs::path rel = l.dir / task;
  std::error_code ec;
  if (fs::exists(rel / "task.json", ec)) return rel;
  return workbenchDataRoot() / "resources" / "tasks" / task;
}

}  // namespace

fs::path lessonTaskDir(const Lesson& l) {
  return resolveTaskDir(l, l.task);
}

fs::path exerciseTaskDir(const Lesson& l) {
  return resolveTaskDir(l, l.exercise ? l.exercise->task : l.task);
}

LessonResult playLesson(const Lesson& lesson, const fs::path& sessionDir,
                        std::shared_ptr<CandidateEvaluator> evaluator, AgentObserver* observer,
                        std::optional<std::uint64_t> seed) {
  const fs::path taskDir = lessonTaskDir(lesson);
  Task task = loadTaskDir(taskDir);
  SessionSettings settings;
  settings.backend = evaluator->backendName();
  settings.provider = "replay";
  settings.model = "lesson:" + lesson.name;
  settings.limits.maxIterations = static_cast<int>(lesson.steps.size());
  settings.limits.patience = static_cast<int>(lesson.steps.size());
  SessionStore store =
      SessionStore::create(sessionDir, makeSession(task, fs::absolute(taskDir).string(), settings));

  std::vector<ReplayEntry> entries;
  for (const auto& s : lesson.steps) {
    ReplayEntry e;
    e.text = s.reply;
    e.model = "lesson:" + lesson.name;
    entries.push_back(std::move(e));
  }
  ReplayOptions ro;
  ro.source = (lesson.dir / "lesson.json").string();
  auto llm = std::make_shared<ReplayClient>(std::move(entries), ro);

  AgentLoopOptions options;
  options.seed = seed;
  AgentLoop loop(std::move(store), llm, std::move(evaluator), options);
  if (observer) loop.addObserver(observer);
  loop.start();
  loop.waitUntilDone();
  if (observer) loop.removeObserver(observer);

  LessonResult r;
  r.session = loop.snapshot();
  r.finishReason = loop.finishReason();
  std::optional<double> previousUs;
  for (std::size_t k = 0; k < lesson.steps.size(); ++k) {
    LessonStepResult sr;
    const LessonExpectation& ex = lesson.steps[k].expect;
    const Iteration* it = k < r.session.iterations.size() ? &r.session.iterations[k] : nullptr;
    if (!it) {
      sr.problems.push_back("step " + std::to_string(k + 1) + " produced no iteration (" + r.finishReason +
                            ")");
      r.steps.push_back(sr);
      continue;
    }
    sr.iterationId = it->id;
    sr.verdict = it->verdict ? std::string(verdictName(*it->verdict)) : std::string();
    if (it->profile && it->profile->totalUs > 0) sr.timeUs = it->profile->totalUs;
    const std::string label = "step " + std::to_string(k + 1) + " (iteration " + std::to_string(it->id) + ")";
    if (ex.verdict && sr.verdict != *ex.verdict)
      sr.problems.push_back(label + ": verdict " + (sr.verdict.empty() ? "none" : sr.verdict) +
                            ", expected " + *ex.verdict);
    if (ex.fails && it->verdict == Verdict::Pass)
      sr.problems.push_back(label + ": passed, but the lesson shows it failing");
    std::vector<Diagnostic> all = it->diagnostics;
    if (it->compile) all.insert(all.end(), it->compile->diagnostics.begin(), it->compile->diagnostics.end());
    if (it->run) all.insert(all.end(), it->run->diagnostics.begin(), it->run->diagnostics.end());
    if (it->verify) all.insert(all.end(), it->verify->diagnostics.begin(), it->verify->diagnostics.end());
    for (const auto& c : ex.categories)
      if (std::none_of(all.begin(), all.end(), [&](const Diagnostic& d) { return d.category == c; }))
        // A replay problem, reported once
        // NOLINTNEXTLINE(performance-inefficient-string-concatenation)
        sr.problems.push_back(label + ": no " + c + " diagnostic");
    if (ex.fasterThanPrevious && (!sr.timeUs || !previousUs || *sr.timeUs >= *previousUs))
      sr.problems.push_back(label + ": not faster than the previous step");
    previousUs = sr.timeUs;
    r.steps.push_back(std::move(sr));
  }
  // A lesson ends on a passing kernel, unless its last step records a failure (a draft made from a
  // session may stop at a failing iteration; its expectations still say what it shows).
  const bool lastAsRecorded = !r.session.iterations.empty() &&
                              r.session.iterations.size() >= lesson.steps.size() &&
                              (r.session.iterations[lesson.steps.size() - 1].verdict == Verdict::Pass ||
                               lesson.steps.back().expect.fails);
  r.passed = lastAsRecorded && std::all_of(r.steps.begin(), r.steps.end(),
                                           [](const LessonStepResult& s) { return s.problems.empty(); });
  return r;
}

}  // namespace kwb
