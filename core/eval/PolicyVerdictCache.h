// SPDX-License-Identifier: MIT
#pragma once
// Clean policy verdicts, remembered by content (docs/architecture.md, "Evaluation caches"). The key
// is the SHA-256 of everything the verdict depends on: the candidate's files, the task, the
// preprocessor's flags, the rules themselves (kwb's own executable and kPolicyRulesVersion), the
// compiler, and every header the preprocessor may read (the emulator's and the task's include
// folders, by path, size and modification time). Only a clean verdict is kept; a candidate with
// violations is checked again each time (it never reaches the compiler anyway).
//
// Trust: the entries live in the private evaluation cache (preparePrivateDir), which no sandboxed
// run is given; each is checked against its SHA-256 sidecar and must restate its full key
// (VerifiedBlob.h). Anything else found there is discarded and the policy runs.

#include <filesystem>
#include <string>
#include <vector>

namespace kwb {

// Bumped when a rule changes in a way the executable's identity would not show (it always changes
// with a rebuild of kwb).
inline constexpr const char* kPolicyRulesVersion = "policy-rules-1";

// Size and modification time of every regular file under each folder, in a stable order: a header
// edited, added or removed changes the text.
std::string folderStamp(const std::vector<std::filesystem::path>& folders);

// Path, size and modification time of the running executable (kwb's own code: rules, generators).
std::string selfExecutableStamp();

// The same of the file behind `program` (a path, or a name looked up on PATH), then of the running
// executable.
std::string executableStamp(const std::string& program);

class PolicyVerdictCache {
 public:
  // `dir` is made private (or refused) on first use; an empty dir keeps nothing.
  explicit PolicyVerdictCache(std::filesystem::path dir);

  // `material`: the candidate's files, the task and the flags, as the caller spells them;
  // `headerFolders`: what the preprocessor may read; `compiler`: what runs it.
  std::string keyFor(const std::string& material, const std::vector<std::filesystem::path>& headerFolders,
                     const std::string& compiler) const;

  // True when a clean verdict was stored under `key` and its entry checks out.
  bool knownClean(const std::string& key, std::vector<std::string>& warnings) const;
  void rememberClean(const std::string& key, std::vector<std::string>& warnings) const;

 private:
  bool ready(std::vector<std::string>& warnings) const;
  std::filesystem::path entryPath(const std::string& key) const;
  std::filesystem::path dir_;
};

}  // namespace kwb
