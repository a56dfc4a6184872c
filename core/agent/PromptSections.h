// SPDX-License-Identifier: MIT
#pragma once
// Pieces of the prompt builder: sections with a trimming policy, the budget fitter, and the compact
// task description. Internal to core/agent (PromptBuilder.h is the interface).

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/model/Task.h"

namespace kwb {

enum class SectionRole { Required, Trimmable };
enum class CutFrom { End, Middle };

struct PromptSection {
  std::string title;
  std::string body;
  SectionRole role = SectionRole::Trimmable;
  int importance = 50;  // trimmable sections are cut in ascending importance order
  CutFrom cut = CutFrom::End;
};

// Cuts trimmable sections, least important first, until the bodies total at most budgetChars; a
// section cut below a useful size (200 characters) is dropped. Each cut is noted in the text itself
// ("[... N characters trimmed ...]") and in `trimmed`. Required sections are never touched.
void fitSections(std::vector<PromptSection>& sections, std::size_t budgetChars,
                 std::vector<std::string>& trimmed);

// Inputs/outputs with dtypes, attributes, cases with shapes and value ranges, tolerances, SoC, block
// dim hint and baseline, as a markdown list.
std::string describeTask(const Task& task, std::optional<double> baselineUs);

}  // namespace kwb
