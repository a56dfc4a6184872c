// kwb eval: evaluate one candidate kernel for one task on a backend (docs/candidate-contract.md).
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <unistd.h>

#include "app/kwb/Cli.h"
#include "core/model/JsonReader.h"
#include "core/model/Task.h"
#include "core/toolchain/Evaluator.h"

namespace kwb::cli {
namespace {

namespace fs = std::filesystem;

struct EvalArgs {
  std::string task;
  std::string kernel;
  std::string backend = "ascend-sim";
  std::string soc;
  std::string seed;
  std::string workDir;
  bool json = false;
};

// Builds and reference binaries are shared across evaluations. The sandboxed programs (which may run
// as an unprivileged user) must be able to reach them, so the default lives in the temp folder, not
// under a private $HOME.
fs::path defaultCacheDir() {
  if (const char* c = std::getenv("KWB_EVAL_CACHE_DIR"); c && *c) return c;
  return fs::temp_directory_path() / ("kwb-eval-cache-" + std::to_string(::getuid()));
}

void printText(const EvalReport& r) {
  std::cout << "verdict: " << verdictName(r.verdict) << "  (backend " << r.backend << ", ran on "
            << ranOnName(r.ranOn) << ", seed " << r.seed << ")\n";
  std::cout << r.summary << "\n";
  for (const auto& d : r.diagnostics) {
    std::cout << "  " << d.format() << "\n";
    for (const auto& n : d.notes) std::cout << "      note: " << n << "\n";
  }
  for (const auto& c : r.verify.cases) {
    std::cout << "  case " << c.caseName << ": " << (c.passed ? "pass" : "FAIL") << " (blockDim " << c.blockDim
              << ")\n";
    for (const auto& t : c.outputs) std::cout << "    " << t.summary << "\n";
    for (const auto& i : c.modifiedInputs) std::cout << "    " << i.summary << "\n";
  }
  if (!r.profile.is_null()) std::cout << "profile: " << r.profile.dump().substr(0, 400) << "\n";
  for (const auto& [k, v] : r.artifacts) std::cout << "  " << k << ": " << v << "\n";
}

int runEval(const EvalArgs& a) {
  auto bad = [&](const std::string& msg) {
    if (a.json) printJson({{"error", msg}, {"verdict", nullptr}});
    else std::cerr << "kwb eval: " << msg << "\n";
    return BadInput;
  };
  Task task;
  try {
    task = loadTaskDir(a.task);
  } catch (const std::exception& e) {
    return bad(e.what());
  }
  std::ifstream kf(a.kernel, std::ios::binary);
  if (!kf) return bad("cannot read kernel file " + a.kernel);
  std::stringstream ss;
  ss << kf.rdbuf();
  EvalRequest req;
  req.candidateSource = ss.str();
  req.candidateName = fs::path(a.kernel).filename().string();
  if (!a.seed.empty()) {
    try {
      std::size_t pos = 0;
      req.seed = std::stoull(a.seed, &pos, 0);
      if (pos != a.seed.size()) throw std::invalid_argument("trailing characters");
    } catch (const std::exception&) {
      return bad("--seed must be a non-negative integer, got \"" + a.seed + "\"");
    }
  }
  BackendOptions bo;
  bo.soc = a.soc.empty() ? task.soc : a.soc;
  bo.cacheDir = defaultCacheDir();
  std::string error;
  auto backend = makeBackend(a.backend, bo, error);
  if (!backend) return bad(error);
  req.cacheDir = bo.cacheDir;
  req.workDir = a.workDir.empty() ? fs::temp_directory_path() / ("kwb-eval-" + task.name + "-" +
                                                                  std::to_string(::getpid()))
                                  : fs::path(a.workDir);
  if (!a.json) req.progress = [](const std::string& s) { std::cerr << "kwb eval: " << s << "\n"; };
  const EvalReport r = evaluate(task, *backend, req);
  if (a.json) {
    nlohmann::json j = r;
    j["task"] = task.name;
    j["soc"] = bo.soc;
    printJson(j);
  } else {
    printText(r);
  }
  return r.verdict == Verdict::Pass ? Success : Failed;
}

}  // namespace

void addEvalCommand(CLI::App& app, Context& ctx) {
  auto* cmd = app.add_subcommand("eval", "Compile, run, verify and profile one candidate kernel for a task");
  auto a = std::make_shared<EvalArgs>();
  cmd->add_option("--task", a->task, "Task folder (task.json, reference.cpp)")->required();
  cmd->add_option("--kernel", a->kernel, "Candidate source file (docs/candidate-contract.md)")->required();
  cmd->add_option("--backend", a->backend, "ascend-sim (emulator) or ascend-cann (real CANN toolchain)")
      ->check(CLI::IsMember({"ascend-sim", "ascend-cann"}));
  cmd->add_option("--soc", a->soc, "SoC name (default: the task's)");
  cmd->add_option("--seed", a->seed, "Seed for the random inputs (default: fresh, printed in the report)");
  cmd->add_option("--work-dir", a->workDir, "Where sources, binaries and case files go (default: a temp folder)");
  cmd->add_flag("--json", a->json, "Print one JSON document");
  cmd->callback([&ctx, a] { ctx.action = [a] { return runEval(*a); }; });
}

}  // namespace kwb::cli
