// SPDX-License-Identifier: MIT
#pragma once
// Loads the texts the system prompt is made of: docs/candidate-contract.md (verbatim) and
// resources/knowledge/*.md (in file-name order), from the workbench's data root.

#include <filesystem>

#include "core/agent/PromptBuilder.h"

namespace kwb {

// The folder holding docs/ and resources/: $KWB_DATA_DIR when set, else the source tree the workbench
// was built from.
std::filesystem::path workbenchDataRoot();

// Throws std::runtime_error naming the missing file when the contract or the knowledge folder is absent.
PromptResources loadPromptResources(const std::filesystem::path& root = workbenchDataRoot());

}  // namespace kwb
