#include "core/toolchain/Evaluator.h"

#include <chrono>
#include <fstream>

#include <nlohmann/json.hpp>

#include "core/policy/PolicyChecker.h"
#include "core/verify/InputGenerator.h"
#include "core/verify/ReferenceRunner.h"

namespace kwb {

namespace fs = std::filesystem;

namespace {
void writeBytes(const fs::path& p, const verify::Bytes& b) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}

bool hasCategory(const std::vector<Diagnostic>& ds, std::string_view c) {
  for (const auto& d : ds)
    if (d.category == c && d.isError()) return true;
  return false;
}
}  // namespace

EvalReport evaluate(const Task& task, Backend& backend, const EvalRequest& req) {
  const auto start = std::chrono::steady_clock::now();
  EvalReport rep;
  rep.backend = backend.name();
  rep.ranOn = backend.ranOn();
  rep.seed = req.seed ? *req.seed : verify::freshSeed();
  rep.verify.seed = rep.seed;
  auto say = [&](const std::string& s) {
    if (req.progress) req.progress(s);
  };
  auto finish = [&](Verdict v, const std::string& summary) {
    rep.verdict = v;
    rep.summary = std::string(verdictName(v)) + ": " + summary;
    rep.artifacts = backend.artifacts();
    rep.artifacts["work_dir"] = fs::absolute(req.workDir).string();
    rep.durationMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return rep;
  };

  // 1. Policy.
  PolicyOptions po;
  po.kernelName = task.name;
  po.kernelParamCount = static_cast<int>(task.inputs.size() + task.outputs.size() + 2);
  auto policy = checkCandidatePolicy(req.candidateSource, req.candidateName, po);
  if (!policy.empty()) {
    rep.diagnostics = policy;
    return finish(Verdict::Rejected, std::to_string(policy.size()) + " policy violation(s), first: " +
                                         policy.front().format());
  }

  // 2. Prepare + compile.
  std::error_code ec;
  fs::create_directories(req.workDir, ec);
  if (ec) throw std::runtime_error("cannot create work folder " + req.workDir.string() + ": " + ec.message());
  if (fs::absolute(req.workDir).string().find_first_of(" \t\n") != std::string::npos)
    throw std::runtime_error("work folder path must not contain whitespace: " + req.workDir.string());
  auto prep = backend.prepare(task, req.candidateSource, req.workDir);
  if (!prep.empty()) {
    rep.diagnostics = prep;
    return finish(Verdict::RuntimeError, prep.front().message);
  }
  say("compile (" + backend.name() + ")");
  rep.compile = backend.compile();
  for (const auto& d : rep.compile->diagnostics) rep.diagnostics.push_back(d);
  if (!rep.compile->ok) {
    std::string first = "compilation failed";
    for (const auto& d : rep.compile->diagnostics)
      if (d.isError()) {
        first = d.format();
        break;
      }
    return finish(Verdict::CompileError, first);
  }

  // 3. Reference.
  const fs::path cache = req.cacheDir.empty() ? req.workDir / "cache" : req.cacheDir;
  verify::ReferenceRunner refRunner(cache);
  const auto refBuild = refRunner.build(task);
  if (!refBuild.ok) throw std::runtime_error(refBuild.log);
  for (const auto& w : refBuild.warnings) {  // a discarded cache entry or folder (docs/sandbox.md, "Caches")
    Diagnostic d;
    d.source = "toolchain";
    d.severity = Severity::Warning;
    d.category = std::string(category::CacheIntegrity);
    d.message = w;
    rep.diagnostics.push_back(d);
  }

  // 4. Cases.
  for (const auto& vc : task.cases) {
    say("case " + vc.name);
    const auto prepared = verify::prepareCase(task, vc, rep.seed);
    CaseFiles files;
    files.dir = fs::absolute(req.workDir / "cases" / vc.name);
    fs::remove_all(files.dir, ec);
    fs::create_directories(files.dir, ec);
    for (std::size_t k = 0; k < prepared.inputs.size(); ++k) {
      files.inputs.push_back(files.dir / ("input_" + prepared.inputs[k].name + ".bin"));
      files.inputsAfter.push_back(files.dir / ("input_" + prepared.inputs[k].name + ".after.bin"));
      writeBytes(files.inputs.back(), prepared.inputData[k]);
    }
    for (std::size_t k = 0; k < prepared.outputs.size(); ++k) {
      files.outputsInit.push_back(files.dir / ("output_" + prepared.outputs[k].name + ".poison.bin"));
      files.outputs.push_back(files.dir / ("output_" + prepared.outputs[k].name + ".bin"));
      writeBytes(files.outputsInit.back(), prepared.outputPoison[k]);
    }
    files.manifest = files.dir / "harness.manifest";
    files.tilingResult = files.dir / "tiling.txt";
    files.report = files.dir / "report.json";

    CaseRunResult run = backend.run(prepared, files);
    CaseRunSummary summary{vc.name, run.run, run.tiling, files.dir.string()};
    rep.runs.push_back(summary);
    for (auto d : run.run.diagnostics) {
      d.notes.insert(d.notes.begin(), "case " + vc.name);
      rep.diagnostics.push_back(std::move(d));
    }
    if (rep.profile.is_null()) rep.profile = backend.profile(run);
    if (run.run.status == RunStatus::Timeout || hasCategory(run.run.diagnostics, category::Timeout))
      return finish(Verdict::Timeout, "case " + vc.name + " did not finish in time");
    if (run.run.status != RunStatus::Ok) {
      std::string first = "the run failed";
      for (const auto& d : run.run.diagnostics)
        if (d.isError()) {
          first = d.format();
          break;
        }
      return finish(Verdict::RuntimeError, "case " + vc.name + ": " + first);
    }
    const auto ref = refRunner.run(refBuild, prepared, files.inputs, files.dir);
    if (!ref.ok) throw std::runtime_error("reference of case " + vc.name + ": " + ref.error);
    rep.verify.cases.push_back(backend.verify(task, prepared, ref.outputs, run));
  }
  for (const auto& d : rep.verify.diagnostics()) rep.diagnostics.push_back(d);
  if (!rep.verify.passed()) return finish(Verdict::WrongAnswer, rep.verify.summary());
  return finish(Verdict::Pass, rep.verify.summary());
}

void to_json(nlohmann::json& j, const EvalReport& r) {
  j = nlohmann::json::object();
  j["verdict"] = verdictName(r.verdict);
  j["summary"] = r.summary;
  j["backend"] = r.backend;
  j["ran_on"] = ranOnName(r.ranOn);
  j["seed"] = r.seed;
  j["diagnostics"] = r.diagnostics;
  if (r.compile) j["compile"] = *r.compile;
  nlohmann::json runs = nlohmann::json::array();
  for (const auto& c : r.runs)
    runs.push_back({{"case", c.caseName},
                    {"run", c.run},
                    {"block_dim", c.tiling.blockDim},
                    {"tiling_rc", c.tiling.rc},
                    {"workspace_bytes", c.tiling.workspaceSize},
                    {"dir", c.dir}});
  j["runs"] = runs;
  j["verify"] = r.verify;
  j["profile"] = r.profile;
  j["artifacts"] = r.artifacts;
  j["duration_ms"] = r.durationMs;
}

}  // namespace kwb
