// SPDX-License-Identifier: MIT
// kwb lesson list | play NAME | exercise NAME | check NAME --kernel FILE | make SESSION --steps 1,3 --out DIR
// (docs/lessons.md): replays recorded lessons through the real loop and emulator, shows and grades their
// exercises with the verifier and the cost model, and turns a real session into a lesson draft.
#include <unistd.h>
#include <algorithm>
#include <filesystem>
#include <iostream>

#include "app/kwb/Cli.h"
#include "core/agent/Lesson.h"
#include "core/agent/LessonDraft.h"
#include "core/agent/LessonExercise.h"
#include "core/agent/SessionSummary.h"
#include "core/base/TextFile.h"
#include "core/store/SessionStore.h"

namespace kwb::cli {
namespace {

namespace fs = std::filesystem;

// Course order first (resources/lessons/course.json), then any other lesson folder by name.
std::vector<std::string> orderedLessons(std::vector<std::string>* pending) {
  std::vector<std::string> names;
  try {
    const Course course = loadCourse();
    names = course.ready();
    if (pending)
      for (const auto& e : course.entries)
        if (!e.pending.empty()) pending->push_back(e.lesson + " (pending: " + e.pending + ")");
  } catch (const std::exception& e) {
    std::cerr << "kwb lesson: " << e.what() << "\n";
  }
  for (const auto& n : listLessons())
    if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
  return names;
}

int listCommand(bool json) {
  std::vector<std::string> pending;
  const auto names = orderedLessons(&pending);
  if (json) {
    nlohmann::json arr = nlohmann::json::array();
    for (const auto& n : names) {
      try {
        const Lesson l = loadLesson(n);
        arr.push_back({{"name", l.name},
                       {"title", l.title},
                       {"task", l.task},
                       {"steps", l.steps.size()},
                       {"exercise", l.exercise.has_value()}});
      } catch (const std::exception& e) {
        arr.push_back({{"name", n}, {"error", e.what()}});
      }
    }
    printJson({{"lessons", arr}, {"pending", pending}});
  } else {
    int k = 0;
    for (const auto& n : names) {
      try {
        const Lesson l = loadLesson(n);
        std::cout << ++k << ". " << n << "  " << l.title << (l.exercise ? "  [exercise]" : "") << "\n";
      } catch (const std::exception& e) {
        std::cout << ++k << ". " << n << "  (unreadable: " << e.what() << ")\n";
      }
    }
    for (const auto& p : pending) std::cout << "   " << p << "\n";
  }
  return Success;
}

int reportError(const char* command, const std::string& message, bool json) {
  if (json)
    printJson({{"error", message}});
  else
    std::cerr << "kwb lesson " << command << ": " << message << "\n";
  return BadInput;
}

int exerciseCommand(const std::string& name, int hints, bool solution, bool json) {
  Lesson lesson;
  try {
    lesson = loadLesson(name);
  } catch (const std::exception& e) {
    return reportError("exercise", e.what(), json);
  }
  if (!lesson.exercise) return reportError("exercise", "lesson " + lesson.name + " has no exercise", json);
  const LessonExercise& x = *lesson.exercise;
  const int shown = std::clamp(hints, 0, static_cast<int>(x.hints.size()));
  if (json) {
    nlohmann::json doc = {{"lesson", lesson.name},
                          {"task", x.task},
                          {"prompt", x.prompt},
                          {"start", x.startKernel},
                          {"hints_total", x.hints.size()},
                          {"hints", std::vector<std::string>(x.hints.begin(), x.hints.begin() + shown)}};
    if (x.targetUs) doc["target_us"] = *x.targetUs;
    if (solution) doc["solution"] = x.solutionKernel;
    printJson(doc);
    return Success;
  }
  std::cout << "# Exercise: " << lesson.title << "\n\n" << x.prompt << "\n";
  if (x.targetUs) std::cout << "Target: faster than " << *x.targetUs << " us (emulator estimate)\n";
  std::cout << "Task: " << x.task << "\n";
  for (int k = 0; k < shown; ++k)
    std::cout << "Hint " << (k + 1) << ": " << x.hints[static_cast<std::size_t>(k)] << "\n";
  if (shown < static_cast<int>(x.hints.size()))
    std::cout << "(" << (x.hints.size() - static_cast<std::size_t>(shown)) << " more hints: --hints "
              << (shown + 1) << ")\n";
  if (solution)
    std::cout << "\n## Reference solution (" << x.solutionFile << ")\n" << x.solutionKernel;
  else
    std::cout << "\n## Starting kernel (" << x.startFile << ")\n" << x.startKernel;
  return Success;
}

int checkCommand(const std::string& name, const std::string& kernelPath, bool json) {
  Lesson lesson;
  std::string kernel;
  try {
    lesson = loadLesson(name);
    if (!lesson.exercise) throw std::runtime_error("lesson " + lesson.name + " has no exercise");
    kernel = readTextFileOrThrow(kernelPath);
  } catch (const std::exception& e) {
    return reportError("check", e.what(), json);
  }
  const fs::path work =
      fs::temp_directory_path() / ("kwb-lesson-check-" + lesson.name + "-" + std::to_string(::getpid()));
  BackendEvaluator evaluator("ascend-sim", "");
  ExerciseGrade g;
  try {
    g = gradeExercise(lesson, kernel, evaluator, work);
  } catch (const std::exception& e) {
    std::error_code ec;
    fs::remove_all(work, ec);
    return reportError("check", e.what(), json);
  }
  std::error_code ec;
  fs::remove_all(work, ec);
  if (json) {
    nlohmann::json diags = nlohmann::json::array();
    for (const auto& d : g.diagnostics) diags.push_back(d.format());
    printJson({{"lesson", lesson.name},
               {"verdict", std::string(verdictName(g.verdict))},
               {"correct", g.correct},
               {"us", g.timeUs ? nlohmann::json(*g.timeUs) : nlohmann::json(nullptr)},
               {"target_us", g.targetUs ? nlohmann::json(*g.targetUs) : nlohmann::json(nullptr)},
               {"fast_enough", g.fastEnough},
               {"passed", g.passed},
               {"summary", g.summary},
               {"diagnostics", diags}});
  } else {
    std::cout << g.summary << "\n";
    for (const auto& d : g.diagnostics) std::cout << "  " << d.format() << "\n";
  }
  return g.passed ? Success : Failed;
}

int makeCommand(const std::string& sessionDir, const std::string& stepsArg, const std::string& outDir,
                const std::string& name, bool json) {
  try {
    const std::vector<int> steps = parseStepList(stepsArg);
    std::vector<StoreProblem> problems;
    const Session session = SessionStore::load(sessionDir, &problems);
    const fs::path file = writeLessonDraft(session, steps, outDir, {name});
    if (json)
      printJson({{"lesson", file.string()}, {"steps", steps}});
    else
      std::cout << "lesson draft written to " << file.string()
                << "\nannotate the TODO fields, then replay it: kwb lesson play " << outDir << "\n";
    return Success;
  } catch (const std::exception& e) {
    return reportError("make", e.what(), json);
  }
}

int playCommand(const std::string& name, const std::string& sessionArg, bool json) {
  Lesson lesson;
  try {
    lesson = loadLesson(name);
  } catch (const std::exception& e) {
    if (json)
      printJson({{"error", e.what()}});
    else
      std::cerr << "kwb lesson play: " << e.what() << "\n";
    return BadInput;
  }
  const fs::path sessionDir =
      sessionArg.empty()
          ? fs::temp_directory_path() / ("kwb-lesson-" + lesson.name + "-" + std::to_string(::getpid()))
          : fs::path(sessionArg);
  if (!json)
    std::cout << "# " << lesson.title << "\n\n"
              << lesson.summary << "\n(replayed recording, not a live model)\n\n";
  auto evaluator = std::make_shared<BackendEvaluator>("ascend-sim", "");
  const LessonResult r = playLesson(lesson, sessionDir, evaluator);
  if (json) {
    nlohmann::json steps = nlohmann::json::array();
    for (std::size_t k = 0; k < r.steps.size(); ++k) {
      const auto& s = r.steps[k];
      steps.push_back({{"title", lesson.steps[k].title},
                       {"iteration", s.iterationId},
                       {"verdict", s.verdict},
                       {"us", s.timeUs ? nlohmann::json(*s.timeUs) : nlohmann::json(nullptr)},
                       {"problems", s.problems}});
    }
    printJson({{"lesson", lesson.name},
               {"passed", r.passed},
               {"session_dir", sessionDir.string()},
               {"steps", steps},
               {"summary", sessionSummaryJson(r.session)}});
  } else {
    for (std::size_t k = 0; k < lesson.steps.size(); ++k) {
      std::cout << "## Step " << (k + 1) << ": " << lesson.steps[k].title << "\n"
                << lesson.steps[k].explanation << "\n";
      if (k < r.session.iterations.size())
        std::cout << "-> " << iterationHeadline(r.session.iterations[k]) << "\n";
      if (k < r.steps.size())
        for (const auto& p : r.steps[k].problems) std::cout << "!! " << p << "\n";
      std::cout << "\n";
    }
    std::cout << (r.passed ? "lesson replayed to a passing kernel" : "lesson did NOT replay as recorded")
              << " (session " << sessionDir.string() << ")\n";
  }
  return r.passed ? Success : Failed;
}

}  // namespace

void addLessonCommand(CLI::App& app, Context& ctx) {
  auto* group =
      app.add_subcommand("lesson", "Recorded lessons: realistic mistakes repaired from the feedback");
  group->require_subcommand(1);
  auto json = std::make_shared<bool>(false);
  auto* list = group->add_subcommand("list", "List the built-in lessons");
  list->add_flag("--json", *json, "Print one JSON document");
  list->callback([&ctx, json] { ctx.action = [json] { return listCommand(*json); }; });
  auto* play = group->add_subcommand("play", "Replay a lesson through the loop and the emulator");
  auto name = std::make_shared<std::string>();
  auto session = std::make_shared<std::string>();
  play->add_option("NAME", *name, "Lesson name or folder")->required();
  play->add_option("--session", *session, "Session folder to write (default: a temp folder)");
  play->add_flag("--json", *json, "Print one JSON document");
  play->callback([&ctx, name, session, json] {
    ctx.action = [name, session, json] { return playCommand(*name, *session, *json); };
  });

  auto* exercise =
      group->add_subcommand("exercise", "Show a lesson's exercise: prompt, starting kernel, hints");
  auto hints = std::make_shared<int>(0);
  auto solution = std::make_shared<bool>(false);
  exercise->add_option("NAME", *name, "Lesson name or folder")->required();
  exercise->add_option("--hints", *hints, "Show the first N hints of the ladder");
  exercise->add_flag("--solution", *solution, "Reveal the reference solution");
  exercise->add_flag("--json", *json, "Print one JSON document");
  exercise->callback([&ctx, name, hints, solution, json] {
    ctx.action = [name, hints, solution, json] { return exerciseCommand(*name, *hints, *solution, *json); };
  });

  auto* check =
      group->add_subcommand("check", "Grade a kernel for a lesson's exercise (verifier, then target)");
  auto kernel = std::make_shared<std::string>();
  check->add_option("NAME", *name, "Lesson name or folder")->required();
  check->add_option("--kernel", *kernel, "The kernel to grade")->required();
  check->add_flag("--json", *json, "Print one JSON document");
  check->callback([&ctx, name, kernel, json] {
    ctx.action = [name, kernel, json] { return checkCommand(*name, *kernel, *json); };
  });

  auto* make = group->add_subcommand("make", "Turn iterations of a session into a lesson draft");
  auto steps = std::make_shared<std::string>();
  auto out = std::make_shared<std::string>();
  auto lessonName = std::make_shared<std::string>();
  make->add_option("SESSION", *session, "Session folder")->required();
  make->add_option("--steps", *steps, "Iteration ids, comma-separated (1,3,7)")->required();
  make->add_option("--out", *out, "Folder to write the draft into (new or empty)")->required();
  make->add_option("--name", *lessonName, "Lesson name (default: the folder's name)");
  make->add_flag("--json", *json, "Print one JSON document");
  make->callback([&ctx, session, steps, out, lessonName, json] {
    ctx.action = [session, steps, out, lessonName, json] {
      return makeCommand(*session, *steps, *out, *lessonName, *json);
    };
  });
}

}  // namespace kwb::cli
