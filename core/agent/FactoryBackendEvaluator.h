// SPDX-License-Identifier: MIT
#pragma once
// A BackendEvaluator whose backend is made by a factory for each evaluation instead of by name: the
// ssh executor hands in one that makes the remote ascend-cann backend (core/remote/RemoteCannBackend.h,
// docs/suites.md "SSH"), so the agent area knows nothing of ssh.

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "core/agent/CandidateEvaluator.h"
#include "core/toolchain/Backend.h"

namespace kwb {

class FactoryBackendEvaluator : public CandidateEvaluator {
 public:
  using Factory = std::function<std::unique_ptr<Backend>(const BackendOptions&)>;
  // `backend`: the made backends' name. Throws std::invalid_argument without a factory.
  FactoryBackendEvaluator(std::string backend, std::string soc, Factory factory,
                          std::optional<std::chrono::milliseconds> caseTimeout = {});
  EvaluationOutcome evaluate(const Task& task, const Candidate& candidate,
                             const EvaluationContext& ctx) override;
  std::string backendName() const override { return backend_; }

 private:
  std::string backend_;
  std::string soc_;
  Factory factory_;
  std::optional<std::chrono::milliseconds> caseTimeout_;
};

// One candidate through the Evaluator on `backend`, phases reported to ctx.onPhase (what
// BackendEvaluator does once it has made its backend).
EvaluationOutcome evaluateOnBackend(Backend& backend, const Task& task, const Candidate& candidate,
                                    const EvaluationContext& ctx);

}  // namespace kwb
