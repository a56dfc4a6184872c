// SPDX-License-Identifier: MIT
// kwb lesson list | play NAME [--json] [--session DIR]: replays a recorded lesson through the real loop
// and emulator, printing each step's explanation and the feedback it produced.
#include <unistd.h>
#include <filesystem>
#include <iostream>

#include "app/kwb/Cli.h"
#include "core/agent/Lesson.h"
#include "core/agent/SessionSummary.h"

namespace kwb::cli {
namespace {

namespace fs = std::filesystem;

int listCommand(bool json) {
  const auto names = listLessons();
  if (json) {
    nlohmann::json arr = nlohmann::json::array();
    for (const auto& n : names) {
      try {
        const Lesson l = loadLesson(n);
        arr.push_back({{"name", l.name}, {"title", l.title}, {"task", l.task}, {"steps", l.steps.size()}});
      } catch (const std::exception& e) {
        arr.push_back({{"name", n}, {"error", e.what()}});
      }
    }
    printJson({{"lessons", arr}});
  } else {
    for (const auto& n : names) {
      try {
        std::cout << n << "  " << loadLesson(n).title << "\n";
      } catch (const std::exception& e) {
        std::cout << n << "  (unreadable: " << e.what() << ")\n";
      }
    }
  }
  return Success;
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
}

}  // namespace kwb::cli
