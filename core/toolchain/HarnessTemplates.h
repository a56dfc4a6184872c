// SPDX-License-Identifier: MIT
#pragma once
// The programs kwb generates around a candidate (the CPU-mode harness, the ACL harness, the CANN
// kernel-launch CMake project) are templates under resources/harness/, embedded into kwb at build time
// (cmake/KwbEmbedText.cmake). Placeholders are @NAME@; @MANIFEST_READER@ is always the one shared reader
// of the case manifest (resources/harness/manifest_reader.inc).

#include <map>
#include <string>
#include <string_view>

namespace kwb {

// The embedded text of resources/harness/<fileName>; empty when there is no such template.
std::string_view harnessTemplateText(std::string_view fileName);

// The template with every @NAME@ replaced by vars[NAME] (and @MANIFEST_READER@ by the shared reader).
// Throws std::logic_error naming the template and the placeholder when a placeholder has no value or a
// value no placeholder: a generator and its template out of step is a bug, never a silent gap.
std::string renderHarnessTemplate(std::string_view fileName, const std::map<std::string, std::string>& vars);

}  // namespace kwb
