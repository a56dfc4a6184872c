// SPDX-License-Identifier: MIT
#include "core/verify/Verification.h"

#include <atomic>
#include <future>
#include <mutex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/verify/InputGenerator.h"
#include "core/verify/Poison.h"

namespace kwb::verify {

namespace {
std::string describeHint(const ValueHint& h) {
  std::string s(distributionName(h.distribution));
  if (h.low || h.high) {
    std::ostringstream os;
    os << " [" << (h.low ? std::to_string(*h.low) : std::string("-inf")) << ", "
       << (h.high ? std::to_string(*h.high) : std::string("inf")) << "]";
    s += os.str();
  }
  return s;
}
}  // namespace

PreparedCase prepareCase(const Task& task, const VerificationCase& c, std::uint64_t seed) {
  return prepareCase(task, c, seed, {});
}

PreparedCase prepareCase(const Task& task, const VerificationCase& c, std::uint64_t seed,
                         std::vector<Bytes> givenInputs, const InputProgress& onProgress) {
  PreparedCase p;
  p.vcase = &c;
  p.attrs = task.caseAttrs(c);
  struct ToGenerate {
    std::size_t index;
    ValueHint hint;
    TensorSpec spec;
  };
  std::vector<ToGenerate> toGenerate;
  for (const auto& spec : task.caseTensors(c)) {
    if (task.isInput(spec.name)) {
      const ValueHint hint = chooseHint(c, spec.name, seed);
      p.distributions[spec.name] = describeHint(hint);
      const std::size_t k = p.inputs.size();
      p.inputs.push_back(spec);
      if (k < givenInputs.size() && givenInputs[k].size() == static_cast<std::size_t>(spec.bytes())) {
        p.inputData.push_back(std::move(givenInputs[k]));
        continue;
      }
      p.inputData.emplace_back();
      toGenerate.push_back({k, hint, spec});
    } else {
      p.outputs.push_back(spec);
      p.outputPoison.push_back(poisonBytes(spec.dtype, spec.elements()));
    }
  }
  std::int64_t total = 0;
  for (const auto& g : toGenerate) total += g.spec.elements();
  // Each tensor draws from its own seed, so tensors can be drawn side by side: a large case's inputs
  // take the time of its largest tensor, not of all of them.
  std::vector<std::atomic<std::int64_t>> done(toGenerate.size());
  std::mutex progressMutex;
  auto generate = [&](std::size_t g) {
    const auto& job = toGenerate[g];
    std::function<void(std::int64_t)> tick;
    if (onProgress)
      tick = [&, g](std::int64_t n) {
        done[g] = n;
        std::int64_t sum = 0;
        for (const auto& d : done) sum += d;
        const std::lock_guard lock(progressMutex);
        onProgress(sum, total);
      };
    p.inputData[job.index] = generateEncoded(job.hint, job.spec.dtype, job.spec.elements(),
                                             deriveSeed(seed, c.name, job.spec.name), tick);
  };
  if (total >= kParallelInputElements && toGenerate.size() > 1) {
    std::vector<std::future<void>> running;
    for (std::size_t g = 0; g < toGenerate.size(); ++g)
      running.push_back(std::async(std::launch::async, generate, g));
    for (auto& r : running) r.get();
  } else {
    for (std::size_t g = 0; g < toGenerate.size(); ++g) generate(g);
  }
  return p;
}

namespace {
std::string describeCase(const PreparedCase& prepared) {
  std::string s;
  auto addTensors = [&](const std::vector<TensorSpec>& specs) {
    for (const auto& spec : specs) {
      s += (s.empty() ? "" : ", ") + spec.name + " [";
      for (std::size_t i = 0; i < spec.shape.size(); ++i)
        s += (i ? ", " : "") + std::to_string(spec.shape[i]);
      s += "]";
    }
  };
  addTensors(prepared.inputs);
  addTensors(prepared.outputs);
  if (prepared.attrs.is_object() && !prepared.attrs.empty()) {
    std::string attrs;
    for (const auto& [name, value] : prepared.attrs.items())
      attrs += (attrs.empty() ? "" : ", ") + name + " " + value.dump();
    s += "; " + attrs;
  }
  return s;
}
}  // namespace

CaseCheck checkCase(const Task& task, const PreparedCase& prepared,
                    const std::vector<std::vector<double>>& expected, const std::vector<Bytes>& outputs,
                    const std::vector<Bytes>& inputsAfter, int blockDim,
                    const std::vector<BlockSlices>& blockWrites) {
  CaseCheck c;
  c.caseName = prepared.vcase ? prepared.vcase->name : std::string();
  c.blockDim = blockDim;
  c.distributions = prepared.distributions;
  c.shapesAndAttrs = describeCase(prepared);
  c.passed = true;
  for (std::size_t k = 0; k < prepared.outputs.size(); ++k) {
    const auto& spec = prepared.outputs[k];
    static const Bytes kEmpty;
    const Bytes& actual = k < outputs.size() ? outputs[k] : kEmpty;
    if (k >= expected.size() || static_cast<std::int64_t>(expected[k].size()) != spec.elements()) {
      c.error = "reference produced no values for output " + spec.name;
      c.passed = false;
      continue;
    }
    auto check =
        checkOutput(spec, expected[k], actual, prepared.outputPoison[k], task.toleranceFor(spec.dtype),
                    LaunchShape{blockDim, k < blockWrites.size() ? blockWrites[k] : BlockSlices{}});
    c.passed = c.passed && check.passed;
    c.outputs.push_back(std::move(check));
  }
  for (std::size_t k = 0; k < prepared.inputs.size(); ++k) {
    if (k >= inputsAfter.size()) continue;
    auto ic = checkInputUnchanged(prepared.inputs[k], prepared.inputData[k], inputsAfter[k]);
    if (ic.changed) {
      c.passed = false;
      c.modifiedInputs.push_back(std::move(ic));
    }
  }
  return c;
}

bool VerifyResult::passed() const {
  if (cases.empty()) return false;
  for (const auto& c : cases)
    if (!c.passed) return false;
  return true;
}

std::vector<Diagnostic> VerifyResult::diagnostics() const {
  std::vector<Diagnostic> out;
  for (const auto& c : cases) {
    auto make = [&](const std::string& tensor, const std::string& msg) {
      Diagnostic d;
      d.source = "verifier";
      d.severity = Severity::Error;
      d.category = std::string(category::WrongAnswer);
      d.message = "case " + c.caseName + ": " + msg;
      if (!tensor.empty()) d.tensor = tensor;
      return d;
    };
    if (!c.error.empty()) out.push_back(make("", c.error));
    for (const auto& t : c.outputs) {
      if (t.passed) continue;
      auto d = make(t.tensor, t.summary);
      if (t.pattern.block) d.block = *t.pattern.block;
      d.notes.push_back("inputs: " +
                        [&] {
                          std::string s;
                          for (const auto& [name, dist] : c.distributions)
                            // A few attribute names per failed case
                            // NOLINTNEXTLINE(performance-inefficient-string-concatenation)
                            s += (s.empty() ? "" : ", ") + name + " " + dist;
                          return s;
                        }() +
                        "; blockDim " + std::to_string(c.blockDim) +
                        (c.shapesAndAttrs.empty() ? "" : "; " + c.shapesAndAttrs));
      out.push_back(std::move(d));
    }
    for (const auto& ic : c.modifiedInputs) out.push_back(make(ic.tensor, ic.summary));
  }
  return out;
}

std::string VerifyResult::summary() const {
  std::size_t ok = 0;
  for (const auto& c : cases) ok += c.passed ? 1 : 0;
  std::string s = std::to_string(ok) + "/" + std::to_string(cases.size()) + " cases pass (seed " +
                  std::to_string(seed) + ")";
  std::string failed;
  for (const auto& c : cases)
    if (!c.passed)
      failed += (failed.empty() ? "" : ", ") + c.caseName +
                (c.shapesAndAttrs.empty() ? "" : " (" + c.shapesAndAttrs + ")");
  if (!failed.empty()) s += "; failed: " + failed;
  for (const auto& c : cases) {
    if (c.passed) continue;
    s += "; case " + c.caseName + ": ";
    if (!c.error.empty())
      s += c.error;
    else if (!c.modifiedInputs.empty())
      s += c.modifiedInputs.front().summary;
    else
      for (const auto& t : c.outputs)
        if (!t.passed) {
          s += t.summary;
          break;
        }
    break;
  }
  return s;
}

void to_json(nlohmann::json& j, const CaseCheck& c) {
  j = {{"case", c.caseName},        {"passed", c.passed},   {"block_dim", c.blockDim},
       {"inputs", c.distributions}, {"outputs", c.outputs}, {"modified_inputs", c.modifiedInputs}};
  if (!c.error.empty()) j["error"] = c.error;
}

void to_json(nlohmann::json& j, const VerifyResult& v) {
  j = {{"seed", v.seed}, {"passed", v.passed()}, {"summary", v.summary()}, {"cases", v.cases}};
}

}  // namespace kwb::verify
