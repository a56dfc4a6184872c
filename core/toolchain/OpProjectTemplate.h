// SPDX-License-Identifier: MIT
#pragma once
// Operator projects in the tiling-template form (docs/emulator.md, "Template tiling keys"): the kernel
// entry is a function template whose arguments ASCENDC_TPL_ARGS_DECL declares and ASCENDC_TPL_SEL
// combines, and the TilingFunc picks the instance through the tiling key (GET_TPL_TILING_KEY). The
// kernel unit then renames the template and ends with a generated extern "C" entry that compiles one
// instance per selected combination and launches the one whose key the TilingFunc set
// (kwb_op/template_dispatch.h). Pure functions on untrusted text; problems name the file and line.

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/model/Diagnostic.h"

namespace kwb {

struct TemplateKernelParam {
  bool isType = false;  // typename/class: an ASCENDC_TPL_DATATYPE_DECL argument
  std::string type;     // a value argument's type as written ("int", "uint32_t", "bool")
  std::string name;
};

struct TemplateKernel {
  std::string file;  // the kernel file and the line of its `template <...>`
  int line = 0;
  std::vector<TemplateKernelParam> params;
  std::string tablesNamespace;  // where ASCENDC_TPL_ARGS_DECL / ASCENDC_TPL_SEL stand ("" = global)
};

// The template form of the kernel entry `entryName` defined in files[kernelFile]: nullopt when that
// entry is not a function template (or is not found: the build reports that). When it is, the
// declaration and the combinations must be in one of `files` that is not a .cpp other than the kernel
// (the kernel unit sees only the kernel and the headers); otherwise the problem is appended.
std::optional<TemplateKernel> parseTemplateKernel(const std::map<std::string, std::string>& files,
                                                  const std::string& kernelFile, const std::string& entryName,
                                                  std::vector<Diagnostic>& problems);

// The symbol the kernel's template is compiled under in the kernel unit.
std::string opProjectTemplateSymbol(const std::string& kernelName);

// The generated entry `entrySymbol` (extern "C", `gmParams` GM_ADDR parameters: the tensors, the
// workspace and the tiling) that launches the instance of `templateSymbol` the tiling key selects.
std::string templateKernelEntry(const TemplateKernel& kernel, const std::string& entrySymbol,
                                const std::string& templateSymbol, std::size_t gmParams);

}  // namespace kwb
