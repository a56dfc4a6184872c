// SPDX-License-Identifier: MIT
#pragma once
// A case's generated inputs and its reference outputs, reused across evaluations of the same task
// with the same seed (docs/architecture.md, "Evaluation caches"). Both come from trusted code only:
// the inputs from the workbench's generator, the outputs from the task's reference program run on
// those inputs from memory, never from anything a candidate's run wrote. Keys:
//   inputs:    the task (its JSON), the case, the seed and kwb's own executable (the generator);
//   reference: the same plus the SHA-256 of the reference program that computed them.
// Entries live in the private evaluation cache and are checked like every other entry there
// (VerifiedBlob.h): a corrupt, truncated or swapped entry is discarded and recomputed.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/model/Task.h"
#include "core/verify/ElementCodec.h"

namespace kwb {

class CaseDataCache {
 public:
  // `dir` is made private (or refused) on first use; an empty dir keeps nothing.
  CaseDataCache(std::filesystem::path dir, const Task& task, std::uint64_t seed);

  std::optional<std::vector<verify::Bytes>> inputs(const std::string& caseName,
                                                   std::vector<std::string>& warnings) const;
  void storeInputs(const std::string& caseName, const std::vector<verify::Bytes>& inputs,
                   std::vector<std::string>& warnings) const;

  // `referenceSha256`: the verified digest of the reference program (ReferenceBuild::sha256).
  std::optional<std::vector<std::vector<double>>> referenceOutputs(const std::string& caseName,
                                                                   const std::string& referenceSha256,
                                                                   std::vector<std::string>& warnings) const;
  void storeReferenceOutputs(const std::string& caseName, const std::string& referenceSha256,
                             const std::vector<std::vector<double>>& outputs,
                             std::vector<std::string>& warnings) const;

 private:
  bool ready(std::vector<std::string>& warnings) const;
  std::string inputsKey(const std::string& caseName) const;
  std::string referenceKey(const std::string& caseName, const std::string& referenceSha256) const;
  std::filesystem::path dir_;
  std::string taskKey_;  // SHA-256 of the task, the seed and the generator
};

}  // namespace kwb
