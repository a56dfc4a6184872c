// SPDX-License-Identifier: MIT
// kwb_mutation_bench: generates single-bug mutants of the built-in expert kernels, evaluates each with
// the real evaluator, and scores detected / right category / at the cause line, plus false alarms on
// the unmutated experts (docs/benchmarks.md, "Mutation benchmark").
#include <CLI/CLI.hpp>
#include <algorithm>
#include <fstream>
#include <iostream>

#include "bench/mutation/MutationRunner.h"

namespace {

using namespace kwb::mutation;

struct Args {
  std::string tasksDir = KWB_SOURCE_DIR "/resources/tasks";
  std::vector<std::string> tasks;
  std::vector<std::string> ops;
  std::uint64_t seed = 1;
  std::string markdown;
  std::string shard;  // "i/n": every n-th mutant starting at i, to split a run over processes
  bool list = false;
  bool noExperts = false;
};

bool parseShard(const std::string& text, std::size_t& index, std::size_t& count) {
  const auto slash = text.find('/');
  if (slash == std::string::npos) return false;
  try {
    index = std::stoul(text.substr(0, slash));
    count = std::stoul(text.substr(slash + 1));
  } catch (const std::exception&) {
    return false;
  }
  return count > 0 && index < count;
}

int run(const Args& a) {
  for (const auto& op : a.ops) {
    const auto ids = mutationOperatorIds();
    if (std::find(ids.begin(), ids.end(), op) == ids.end()) {
      std::cerr << "kwb_mutation_bench: unknown operator --op " << op << "\n";
      return 2;
    }
  }
  std::size_t shardIndex = 0, shardCount = 1;
  if (!a.shard.empty() && !parseShard(a.shard, shardIndex, shardCount)) {
    std::cerr << "kwb_mutation_bench: --shard must be i/n with 0 <= i < n, got \"" << a.shard << "\"\n";
    return 2;
  }
  const std::vector<Expert> experts = loadExperts(a.tasksDir, a.tasks);
  std::vector<std::pair<const Expert*, Mutant>> mutants;
  for (const auto& e : experts)
    for (auto& m : generateMutants(e.kernel))
      if (a.ops.empty() || std::find(a.ops.begin(), a.ops.end(), m.op) != a.ops.end())
        mutants.emplace_back(&e, std::move(m));
  if (a.list) {
    for (const auto& [e, m] : mutants)
      std::cout << m.id() << "\t" << m.expectedCategory << "\t" << m.description << "\n";
    return 0;
  }
  if (const std::size_t swept = removeAbandonedMutationScratch(); swept > 0)
    std::cerr << "removed " << swept << " scratch folder(s) of killed runs\n";
  RunOptions options;
  options.seed = a.seed;
  std::vector<MutantOutcome> outcomes;
  for (std::size_t i = shardIndex; i < mutants.size(); i += shardCount) {
    const auto& [e, m] = mutants[i];
    std::cerr << "[" << i + 1 << "/" << mutants.size() << "] " << m.id() << " ... " << std::flush;
    outcomes.push_back(evaluateMutant(e->task, m, options));
    const auto& o = outcomes.back();
    std::cerr << o.verdict << (o.rightCategory ? ", category" : "") << (o.atCauseLine ? ", at cause" : "")
              << "\n";
  }
  std::vector<ExpertOutcome> expertOutcomes;
  if (!a.noExperts)
    for (std::size_t i = shardIndex; i < experts.size(); i += shardCount) {
      std::cerr << "[expert] " << experts[i].task.name << " ... " << std::flush;
      expertOutcomes.push_back(evaluateExpert(experts[i], options));
      std::cerr << (expertOutcomes.back().falseAlarm() ? "FALSE ALARM" : "clean") << "\n";
    }
  const std::string report = markdownReport(outcomes, expertOutcomes);
  std::cout << report;
  if (!a.markdown.empty()) {
    std::ofstream out(a.markdown);
    out << report;
    if (!out) {
      std::cerr << "kwb_mutation_bench: cannot write " << a.markdown << "\n";
      return 3;
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Mutation benchmark of the emulator's and verifier's feedback"};
  Args a;
  app.add_option("--tasks", a.tasksDir, "Folder of task folders with expert_candidate.cpp");
  app.add_option("--task", a.tasks, "Only this task (repeatable)");
  app.add_option("--op", a.ops, "Only this mutation operator (repeatable)");
  app.add_option("--seed", a.seed, "Seed of the cases' inputs");
  app.add_option("--markdown", a.markdown, "Also write the Markdown report to this file");
  app.add_option("--shard", a.shard, "i/n: evaluate every n-th mutant from the i-th (0-based)");
  app.add_flag("--list", a.list, "List the mutants and exit");
  app.add_flag("--no-experts", a.noExperts, "Skip the false-alarm runs of the unmutated experts");
  CLI11_PARSE(app, argc, argv);
  try {
    return run(a);
  } catch (const std::exception& e) {
    std::cerr << "kwb_mutation_bench: " << e.what() << "\n";
    return 2;
  }
}
