// SPDX-License-Identifier: MIT
#include "core/agent/PromptBuilder.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "core/agent/PromptSections.h"

namespace kwb {

namespace {

std::string fmt(double v, int decimals = 1) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string fmtValue(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string baseName(const std::string& path) {
  if (path.empty()) return path;
  return std::filesystem::path(path).filename().string();
}

// Every diagnostic of an iteration, in the order the agent should read them: policy/agent findings,
// compiler, run (emulator/runtime/sandbox), verifier.
std::vector<Diagnostic> allDiagnostics(const Iteration& it) {
  std::vector<Diagnostic> out = it.diagnostics;
  if (it.compile)
    for (const auto& d : it.compile->diagnostics) out.push_back(d);
  if (it.run)
    for (const auto& d : it.run->diagnostics) out.push_back(d);
  if (it.verify)
    for (const auto& d : it.verify->diagnostics) out.push_back(d);
  // The same finding can reach the iteration through two routes (a run diagnostic also listed in the
  // evaluation's list): keep the first.
  std::vector<Diagnostic> unique;
  for (auto& d : out)
    if (std::find(unique.begin(), unique.end(), d) == unique.end()) unique.push_back(std::move(d));
  return unique;
}

struct DiagGroup {
  Diagnostic first;
  int count = 0;
  std::set<int> blocks;
};

// A message with its numbers blanked: the same finding in another block or case differs only in its
// offsets, lengths and counts, and is one group of the feedback (issue 15: deduplicated across blocks
// and cases).
std::string messageShape(const std::string& m) {
  std::string out;
  out.reserve(m.size());
  for (std::size_t i = 0; i < m.size(); ++i) {
    if (std::isdigit(static_cast<unsigned char>(m[i]))) {
      if (out.empty() || out.back() != '#') out += '#';
      continue;
    }
    out += m[i];
  }
  return out;
}

std::vector<DiagGroup> groupDiagnostics(const std::vector<Diagnostic>& ds, bool errors) {
  std::vector<DiagGroup> groups;
  for (const auto& d : ds) {
    if (d.isError() != errors) continue;
    auto same = [&](const DiagGroup& g) {
      return g.first.category == d.category && baseName(g.first.file) == baseName(d.file) &&
             g.first.line == d.line &&
             (g.first.message == d.message || messageShape(g.first.message) == messageShape(d.message));
    };
    auto it = std::find_if(groups.begin(), groups.end(), same);
    if (it == groups.end()) {
      groups.push_back({d, 0, {}});
      it = groups.end() - 1;
    }
    ++it->count;
    if (d.block) it->blocks.insert(*d.block);
  }
  return groups;
}

// Cause first (issue 15): an error located in the candidate's own source names the line to change; one
// without a line, or in another file, less so; a crash, a timeout or a wrong answer is usually what an
// earlier error led to, so it goes last. Stable: equal ranks keep the order of allDiagnostics.
int causeRank(const Diagnostic& d, const std::string& candidateFileName) {
  if (d.category == category::RuntimeCrash || d.category == category::Timeout ||
      d.category == category::WrongAnswer)
    return 2;
  return d.line > 0 && baseName(d.file) == candidateFileName ? 0 : 1;
}

void rankCauseFirst(std::vector<DiagGroup>& groups, const std::string& candidateFileName) {
  std::stable_sort(groups.begin(), groups.end(), [&](const DiagGroup& a, const DiagGroup& b) {
    return causeRank(a.first, candidateFileName) < causeRank(b.first, candidateFileName);
  });
}

std::string describeGroup(const DiagGroup& g, const Iteration& it, const std::string& candidateFileName,
                          bool withExcerpt) {
  const Diagnostic& d = g.first;
  std::ostringstream s;
  s << "[" << (d.category.empty() ? "diagnostic" : d.category) << "] ";
  const std::string file = d.file.empty() ? std::string() : baseName(d.file);
  if (!file.empty()) {
    s << file;
    if (d.line > 0) s << ":" << d.line;
    if (d.column > 0) s << ":" << d.column;
    s << " ";
  }
  std::vector<std::string> tags;
  if (d.api) tags.push_back("API " + *d.api);
  if (d.tensor) tags.push_back("tensor " + *d.tensor);
  if (d.pipe) tags.push_back("pipe " + *d.pipe);
  if (d.constraintId) tags.push_back("constraint " + std::to_string(*d.constraintId));
  if (g.blocks.size() == 1)
    tags.push_back("block " + std::to_string(*g.blocks.begin()));
  else if (g.blocks.size() > 1)
    tags.push_back(std::to_string(g.blocks.size()) + " blocks");
  if (!tags.empty()) {
    s << "(";
    for (std::size_t k = 0; k < tags.size(); ++k) s << (k ? ", " : "") << tags[k];
    s << ") ";
  }
  s << "from " << (d.source.empty() ? "workbench" : d.source) << ": " << d.message;
  if (g.count > 1) s << " (reported " << g.count << " times)";
  s << "\n";
  for (const auto& r : d.related)
    s << "   related: " << (r.file.empty() ? std::string() : baseName(r.file))
      << (r.line > 0 ? ":" + std::to_string(r.line) : std::string()) << ": " << r.role << "\n";
  for (const auto& n : d.notes) s << "   note: " << n << "\n";
  if (withExcerpt && d.line > 0) {
    const std::string* src = nullptr;
    if (!file.empty()) src = it.candidate.file(file);
    if (!src && (file.empty() || file == candidateFileName)) src = it.candidate.file(candidateFileName);
    if (src) {
      const std::string ex = sourceExcerpt(*src, d.line);
      if (!ex.empty()) s << "```cpp\n" << ex << "```\n";
    } else if (!d.excerpt.empty()) {
      s << "```\n" << d.excerpt << (d.excerpt.back() == '\n' ? "" : "\n") << "```\n";
    }
  }
  return s.str();
}

}  // namespace

std::string_view promptModeName(PromptMode m) {
  switch (m) {
    case PromptMode::Initial:
      return "initial";
    case PromptMode::Repair:
      return "repair";
    case PromptMode::Optimize:
      return "optimize";
  }
  return "initial";
}

int estimateTokens(std::string_view text) {
  return static_cast<int>((text.size() + 3) / 4);
}

std::string sourceExcerpt(std::string_view source, int line, int radius) {
  if (line <= 0) return {};
  std::vector<std::string_view> lines;
  std::size_t pos = 0;
  while (pos <= source.size()) {
    const auto nl = source.find('\n', pos);
    if (nl == std::string_view::npos) {
      if (pos < source.size()) lines.push_back(source.substr(pos));
      break;
    }
    lines.push_back(source.substr(pos, nl - pos));
    pos = nl + 1;
  }
  if (line > static_cast<int>(lines.size())) return {};
  const int from = std::max(1, line - radius);
  const int to = std::min(static_cast<int>(lines.size()), line + radius);
  std::ostringstream s;
  for (int k = from; k <= to; ++k) {
    char prefix[32];
    std::snprintf(prefix, sizeof prefix, "%s%4d | ", k == line ? ">>" : "  ", k);
    std::string_view l = lines[static_cast<std::size_t>(k - 1)];
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    s << prefix << l << "\n";
  }
  return s.str();
}

std::string describeProfile(const ProfileReport& p, std::optional<double> baselineUs) {
  std::ostringstream s;
  s << "- estimated time: " << fmt(p.totalUs, 2) << " us (" << p.totalCycles << " cycles";
  if (!p.source.empty()) s << ", " << p.source;
  s << ")\n";
  if (baselineUs && *baselineUs > 0 && p.totalUs > 0)
    s << "- speedup vs baseline (" << fmt(*baselineUs, 2) << " us): " << fmt(*baselineUs / p.totalUs, 2)
      << "x\n";
  if (!p.bound.empty()) s << "- bound: " << p.bound << "\n";
  if (!p.pipes.empty()) {
    std::vector<std::pair<std::string, PipeStat>> pipes(p.pipes.begin(), p.pipes.end());
    std::sort(pipes.begin(), pipes.end(),
              [](const auto& a, const auto& b) { return a.second.ratio > b.second.ratio; });
    s << "- pipe busy ratios:";
    for (std::size_t k = 0; k < pipes.size(); ++k)
      s << (k ? "," : "") << " " << pipes[k].first << " " << fmt(pipes[k].second.ratio * 100.0, 0) << "%";
    s << "\n";
  }
  if (p.floorUs && *p.floorUs > 0 && p.totalUs > 0)
    s << "- roofline floor: " << fmt(*p.floorUs, 2) << " us; the kernel is " << fmt(p.totalUs / *p.floorUs, 2)
      << "x above it\n";
  if (p.gmBytes > 0) s << "- GM traffic: " << p.gmBytes << " bytes";
  if (p.achievedGbps) s << (p.gmBytes > 0 ? ", " : "- ") << "achieved " << fmt(*p.achievedGbps, 1) << " GB/s";
  if (p.gmBytes > 0 || p.achievedGbps) s << "\n";
  if (auto it = p.extra.find("block_dim"); it != p.extra.end() && it->is_number())
    s << "- blocks: " << it->get<long long>();
  if (auto it = p.extra.find("cores"); it != p.extra.end() && it->is_number())
    s << " on " << it->get<long long>() << " cores";
  if (p.extra.contains("block_dim")) s << "\n";
  // The costliest source lines, when the profiler attributes time to lines.
  if (auto it = p.extra.find("lines"); it != p.extra.end() && it->is_array() && !it->empty()) {
    std::vector<nlohmann::json> lines(it->begin(), it->end());
    std::sort(lines.begin(), lines.end(), [](const nlohmann::json& a, const nlohmann::json& b) {
      return a.value("cycles", 0.0) > b.value("cycles", 0.0);
    });
    s << "- hottest lines:";
    for (std::size_t k = 0; k < lines.size() && k < 3; ++k)
      s << (k ? ";" : "") << " line " << lines[k].value("line", 0) << " "
        << lines[k].value("api", std::string()) << " " << lines[k].value("cycles", 0.0) << " cycles";
    s << "\n";
  }
  return s.str();
}

std::string describeFeedback(const Iteration& it, const std::string& candidateFileName, int maxDiagnostics) {
  std::ostringstream s;
  if (it.verdict)
    s << "Verdict: " << verdictName(*it.verdict);
  else
    s << "State: " << iterationStateName(it.state);
  if (it.verify && !it.verify->summary.empty()) s << " (" << it.verify->summary << ")";
  s << "\n";
  const auto diags = allDiagnostics(it);
  auto errors = groupDiagnostics(diags, true);
  rankCauseFirst(errors, candidateFileName);
  const auto warnings = groupDiagnostics(diags, false);
  int listed = 0;
  if (!errors.empty()) {
    s << "\nErrors (most important first):\n";
    for (const auto& g : errors) {
      if (listed >= maxDiagnostics) {
        s << "... and " << (errors.size() - static_cast<std::size_t>(listed)) << " more error groups\n";
        break;
      }
      s << (listed + 1) << ". " << describeGroup(g, it, candidateFileName, listed < 4);
      ++listed;
    }
  }
  if (it.verify) {
    bool header = false;
    for (const auto& c : it.verify->cases) {
      if (c.passed) continue;
      if (!header) {
        s << "\nVerifier (outputs compared with the reference):\n";
        header = true;
      }
      s << "- case " << c.caseName << ", output " << c.tensor << ": " << c.mismatches << " of " << c.elements
        << " elements wrong";
      if (c.unwritten) s << ", " << c.unwritten << " never written";
      if (c.nonFinite) s << ", " << c.nonFinite << " NaN/Inf";
      s << "; max abs error " << fmtValue(c.maxAbsError) << ", max rel error " << fmtValue(c.maxRelError)
        << "\n";
      if (!c.pattern.empty()) s << "  pattern: " << c.pattern << "\n";
      if (!c.message.empty() && c.message != c.pattern) s << "  " << c.message << "\n";
      if (!c.firstMismatches.empty()) {
        s << "  first wrong elements:";
        for (std::size_t k = 0; k < c.firstMismatches.size() && k < 5; ++k) {
          const auto& m = c.firstMismatches[k];
          s << (k ? ";" : "") << " [" << m.index << "] expected " << fmtValue(m.expected) << " got "
            << fmtValue(m.actual);
        }
        s << "\n";
      }
    }
    if (!it.verify->inputsUnchanged)
      s << "- an input tensor was modified by the kernel (inputs are read-only)\n";
  }
  if (it.run && it.run->status != RunStatus::Ok && errors.empty()) {
    s << "\nThe run ended with status " << runStatusName(it.run->status);
    if (it.run->exitCode) s << ", exit code " << *it.run->exitCode;
    if (it.run->signal) s << ", signal " << *it.run->signal;
    s << ".\n";
    if (!it.run->stderrExcerpt.empty())
      s << "stderr:\n```\n" << it.run->stderrExcerpt.substr(0, 1500) << "\n```\n";
  }
  if (it.compile && !it.compile->ok && errors.empty() && !it.compile->log.empty()) {
    const std::string& log = it.compile->log;
    s << "\nCompiler output (no diagnostic could be parsed from it):\n```\n"
      << (log.size() > 2000 ? log.substr(0, 2000) + "\n..." : log) << "\n```\n";
  }
  if (!warnings.empty()) {
    s << "\nWarnings:\n";
    int w = 0;
    for (const auto& g : warnings) {
      if (w >= maxDiagnostics) break;
      s << "- " << describeGroup(g, it, candidateFileName, false);
      ++w;
    }
  }
  return s.str();
}

std::string buildSystemPrompt(const PromptResources& resources, int budgetTokens,
                              std::vector<std::string>* trimmed) {
  std::ostringstream head;
  head << "You are an expert Ascend C kernel engineer working inside Kernel Workbench. You write NPU kernels "
          "for Huawei Ascend (Ascend C, CANN) that are correct first and fast second. Every candidate you "
          "write is compiled, run on an emulator or device, checked against a double-precision reference on "
          "several shapes (including unaligned tails) and profiled; the results come back to you.\n\n";
  std::ostringstream tail;
  tail << "\n# How to answer\n"
          "- Think briefly about the cause of any failure named in the feedback, then give the fix.\n"
          "- Reply with exactly ONE fenced code block: ```cpp kernel.cpp ... ``` holding the COMPLETE "
          "candidate "
          "file (kernel and kwb_tiling), never a diff or an excerpt, never \"...\" elisions. Or, in the "
          "operator-project form of the contract, the three files of a msopgen project, each COMPLETE in its "
          "own block named with its path: ```cpp op_kernel/<task>.cpp```, ```cpp op_host/<task>.cpp``` "
          "(TilingFunc and OpDef), ```cpp op_host/<task>_tiling.h``` (TilingData). Keep the form the current "
          "candidate uses.\n"
          "- Keep every pinned constraint: locked regions verbatim, fixed parameters at their values.\n"
          "- Outside the code block, at most a few sentences saying what you changed and why.\n";
  std::string contract = "# The candidate contract\n\n" + resources.contract + "\n";
  std::string result = head.str() + contract;
  const std::string end = tail.str();
  int used = estimateTokens(result) + estimateTokens(end);
  std::string knowledge = "\n# Ascend C knowledge pack\n";
  for (const auto& doc : resources.knowledge) {
    const int cost = estimateTokens(doc.text) + 2;
    if (used + cost > budgetTokens) {
      if (trimmed) trimmed->push_back("knowledge " + doc.name + " dropped (system budget)");
      continue;
    }
    knowledge += "\n" + doc.text + (doc.text.empty() || doc.text.back() == '\n' ? "" : "\n");
    used += cost;
  }
  return result + knowledge + end;
}

BuiltPrompt buildPrompt(const PromptResources& resources, const PromptInput& in) {
  if (!in.task) throw std::invalid_argument("buildPrompt: no task");
  BuiltPrompt out;
  out.request.system = buildSystemPrompt(resources, in.budget.systemTokens, &out.trimmed);
  out.systemTokens = estimateTokens(out.request.system);

  const std::string& file = in.candidateFileName;
  std::vector<PromptSection> sections;
  // 1. What to do now.
  {
    std::ostringstream s;
    const Task& t = *in.task;
    switch (in.mode) {
      case PromptMode::Initial:
        s << "Write the first candidate for task `" << t.name << "`: a complete " << file
          << " following the candidate contract, correct for every case below (including unaligned tails), "
             "multi-block, with the tiling function computing everything from the shapes.";
        break;
      case PromptMode::Repair:
        s << "The previous candidate for task `" << t.name
          << "` failed. Read the feedback below, find the cause, and reply with the complete repaired "
          << file << ". Fix the reported problem at its source line; do not rewrite what works.";
        break;
      case PromptMode::Optimize:
        s << "The candidate below for task `" << t.name
          << "` is correct. Make it faster while keeping it correct for every case: use the profile (bound "
             "pipe, "
             "pipe ratios, roofline gap) to choose the change (double buffering, larger tiles, more blocks, "
             "fewer or cheaper instructions). Reply with the complete faster "
          << file << ".";
        if (in.targetSpeedup) s << " Target: " << fmt(*in.targetSpeedup, 2) << "x the baseline.";
        break;
    }
    sections.push_back({"Instruction",
                        "# " + std::string(promptModeName(in.mode)) + ": " + t.name + "\n\n" + s.str() + "\n",
                        SectionRole::Required, 0, CutFrom::End});
  }
  // 2. Constraints and hint: never trimmed.
  if (!in.constraints.empty()) {
    std::ostringstream s;
    s << "## Pinned constraints (MUST hold; a candidate that breaks one is rejected without running)\n";
    for (const auto& c : in.constraints) {
      s << "- " << c.describe() << "\n";
      if (c.kind == ConstraintKind::LockedRegion)
        s << "```cpp\n" << c.text << (c.text.empty() || c.text.back() == '\n' ? "" : "\n") << "```\n";
    }
    sections.push_back({"Pinned constraints", s.str(), SectionRole::Required, 0, CutFrom::End});
  }
  if (!in.hint.empty())
    sections.push_back({"Hint", "## Hint from the engineer (follow it)\n" + in.hint + "\n",
                        SectionRole::Required, 0, CutFrom::End});
  // 3. Feedback.
  if (in.previous && in.mode == PromptMode::Repair) {
    sections.push_back({"Feedback",
                        "## Feedback on iteration " + std::to_string(in.previous->id) + "\n" +
                            describeFeedback(*in.previous, file),
                        SectionRole::Trimmable, 80, CutFrom::End});
  }
  if (in.previous && in.mode == PromptMode::Optimize) {
    std::string body = "## Profile of iteration " + std::to_string(in.previous->id) + " (correct)\n";
    if (in.previous->profile)
      body += describeProfile(*in.previous->profile, in.baselineUs);
    else
      body += "- no profile was produced for it\n";
    sections.push_back({"Profile", body, SectionRole::Trimmable, 70, CutFrom::End});
  }
  if (in.lastAttempt) {
    std::string body =
        "## Your latest attempt (iteration " + std::to_string(in.lastAttempt->id) + ") was not kept\n";
    if (in.lastAttempt->verdict == Verdict::Pass && in.lastAttempt->profile) {
      body += "It was correct but not faster:\n" + describeProfile(*in.lastAttempt->profile, in.baselineUs);
    } else {
      body += describeFeedback(*in.lastAttempt, file, 4);
    }
    sections.push_back({"Latest attempt", body, SectionRole::Trimmable, 40, CutFrom::End});
  }
  // 4. The candidate to change.
  if (in.previous && !in.previous->candidate.files.empty()) {
    // The primary file (the one rule, core/model/Candidate.h) first, then the files it may include.
    const auto& files = in.previous->candidate.files;
    const std::string name = choosePrimaryFile(files, file).name;
    auto block = [](const std::string& n, const std::string& text) {
      return "```cpp " + n + "\n" + text + (text.empty() || text.back() == '\n' ? "" : "\n") + "```\n";
    };
    std::string body =
        "## " +
        std::string(in.mode == PromptMode::Optimize ? "Current best candidate" : "Previous candidate") +
        " (" + name + ", iteration " + std::to_string(in.previous->id) + ")\n" + block(name, files.at(name));
    for (const auto& [other, text] : files)
      if (other != name) body += block(other, text);
    sections.push_back({"Previous candidate", body, SectionRole::Trimmable, 90, CutFrom::Middle});
  }
  // 5. The task.
  sections.push_back({"Task", "## Task specification\n" + describeTask(*in.task, in.baselineUs),
                      SectionRole::Trimmable, in.mode == PromptMode::Initial ? 95 : 60, CutFrom::End});
  if (!in.taskReadme.empty())
    sections.push_back(
        {"Task README", "## Task README\n" + in.taskReadme + "\n", SectionRole::Trimmable, 10, CutFrom::End});

  const int budgetChars = std::max(0, in.budget.userTokens) * 4;
  fitSections(sections, static_cast<std::size_t>(budgetChars), out.trimmed);
  std::string user;
  for (const auto& sec : sections) {
    if (sec.body.empty()) continue;
    user += sec.body;
    if (user.back() != '\n') user += '\n';
    user += '\n';
    out.sections.push_back(sec.title);
  }
  out.userTokens = estimateTokens(user);
  out.request.messages.push_back({LlmRole::User, std::move(user)});
  return out;
}

}  // namespace kwb
