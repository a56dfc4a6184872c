// SPDX-License-Identifier: MIT
#pragma once
// Which sample each element of a Slurm job array runs (docs/suites.md, "Slurm"). The submitting kwb
// writes DIR/slurm/array-<n>.json atomically before it calls sbatch; element i of that array runs
// `kwb suite run-sample DIR --manifest DIR/slurm/array-<n>.json` and reads entry i (its
// SLURM_ARRAY_TASK_ID). A file rather than the job's argv: the --wrap line stays one short command
// whatever the array's size, a retry is simply a new manifest, and a person can see what each
// `<jobid>_<index>` ran.

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace kwb::suite {

struct SlurmArrayElement {
  std::string task;
  int sample = 0;   // from 1
  int attempt = 0;  // 1 = the sample's first submission
  bool operator==(const SlurmArrayElement&) const = default;
};

// DIR/slurm/array-<number>.json and the output pattern of its elements, DIR/slurm/array-<number>.%a.out.
std::filesystem::path slurmArrayManifestFile(const std::filesystem::path& suiteDir, int number);
std::filesystem::path slurmArrayOutputPattern(const std::filesystem::path& suiteDir, int number);
// The output file of element `index` of array `number` (the pattern with %a replaced).
std::filesystem::path slurmArrayOutputFile(const std::filesystem::path& suiteDir, int number, int index);
// One more than the highest array-<n>.json in DIR/slurm (1 when there is none): a resumed suite's
// arrays never overwrite an earlier run's manifests.
int nextSlurmArrayNumber(const std::filesystem::path& suiteDir);

// {"elements": [{"task", "sample", "attempt"}, ...]}, element i at index i.
nlohmann::json slurmArrayManifestToJson(const std::vector<SlurmArrayElement>& elements);
// Throws std::runtime_error naming `label` and what is wrong (not an object, a missing or mistyped
// field, a sample below 1).
std::vector<SlurmArrayElement> slurmArrayManifestFromJson(const nlohmann::json& doc,
                                                          const std::string& label);

}  // namespace kwb::suite
