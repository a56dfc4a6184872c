// SPDX-License-Identifier: MIT
#include "core/agent/FactoryBackendEvaluator.h"

#include <stdexcept>

namespace kwb {

FactoryBackendEvaluator::FactoryBackendEvaluator(std::string backend, std::string soc, Factory factory,
                                                 std::optional<std::chrono::milliseconds> caseTimeout)
    : backend_(std::move(backend)),
      soc_(std::move(soc)),
      factory_(std::move(factory)),
      caseTimeout_(caseTimeout) {
  if (!factory_) throw std::invalid_argument("FactoryBackendEvaluator: no backend factory");
}

EvaluationOutcome FactoryBackendEvaluator::evaluate(const Task& task, const Candidate& candidate,
                                                    const EvaluationContext& ctx) {
  BackendOptions bo;
  bo.soc = soc_.empty() ? task.soc : soc_;
  bo.cacheDir = ctx.cacheDir;
  if (caseTimeout_) bo.caseTimeout = *caseTimeout_;
  const std::unique_ptr<Backend> backend = factory_(bo);
  if (!backend) throw std::runtime_error("backend " + backend_ + ": the factory made none");
  return evaluateOnBackend(*backend, task, candidate, ctx);
}

}  // namespace kwb
