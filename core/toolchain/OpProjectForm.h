// SPDX-License-Identifier: MIT
#pragma once
// The operator-project form of a candidate (docs/candidate-contract.md): op_kernel/<op>.cpp (the
// primary file, reading its tiling with GET_TILING_DATA), op_host/<op>.cpp (the OpDef and its
// TilingFunc, under the candidate name <op>_host.cpp) and op_host/<op>_tiling.h (the TilingData
// class). The emulator build compiles two generated units around them: the kernel unit includes the
// tiling headers before the kernel (msopgen's build generates that header for the kernel), and the
// host unit includes the op_host source and defines kwb_tiling as a call of its TilingFunc through
// kwb_op/tiling_bridge.h. Both are checked by the same policy as any candidate file.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/model/Diagnostic.h"
#include "core/model/Task.h"
#include "core/toolchain/OpProjectSource.h"
#include "core/toolchain/OpProjectTemplate.h"

namespace kwb {

inline constexpr const char* kOpKernelUnitName = "kwb_op_kernel.cpp";
inline constexpr const char* kOpHostUnitName = "kwb_op_host.cpp";

struct OpProjectForm {
  std::string hostFile;  // the candidate file that registers the OpDef
  // The project's other op_host sources (candidate names "<x>_host.cpp"), compiled into the tiling
  // program with it: the tiling may be registered there (IMPL_OP_OPTILING).
  std::vector<std::string> otherHostFiles;
  OpDefSignature opDef;
  std::vector<std::string> tilingHeaders;  // candidate headers defining TilingData classes
  std::string tilingDataClass;             // registered for opDef.opType; empty: none
  // Registered TilingData classes declared in a namespace ("optiling::LessEqualTilingData") that the
  // kernel unit also names at global scope: msopgen's build gives the kernel its tiling structs
  // outside any namespace, so kernels write the bare class name. Left out when the kernel file
  // defines a class of that name itself.
  std::vector<std::string> kernelTilingAliases;
  // The kernel entry is a function template chosen through the tiling key (parseTemplateKernel).
  std::optional<TemplateKernel> templateKernel;
};

// nullopt with no problems: the candidate is in the kwb_tiling form. A source file other than the
// primary that calls OP_ADD makes it the operator-project form; its problems (no usable OpDef, unknown
// dtype, no tiling function) are appended to `problems`, each naming the file and line.
std::optional<OpProjectForm> detectOpProjectForm(const std::map<std::string, std::string>& files,
                                                 const std::string& primaryName,
                                                 std::vector<Diagnostic>& problems);

// The generated kernel unit: the tiling headers, then the kernel file `kernelFileName`. With
// `renamedEntry` (the task's kernel name) the unit the build compiles also renames the kernel entry to
// opProjectEntrySymbol(renamedEntry): operators are often named after C library functions (div, fmax,
// asinh, ...), whose extern "C" symbols the entry would otherwise clash with in the one host program the
// emulator links (docs/emulator.md, "Operator projects"). The policy checks the unit without the
// rename, which is the workbench's own code; the standard headers it includes first keep the rename
// out of their declarations. In the template form (form.templateKernel) the build renames the template
// to opProjectTemplateSymbol instead and the unit ends with the generated entry that launches its
// instances (core/toolchain/OpProjectTemplate.h).
std::string opProjectKernelUnit(const OpProjectForm& form, const std::string& kernelFileName,
                                const std::string& renamedEntry = {});
// The symbol the kernel entry `kernelName` is compiled under in the operator-project form.
std::string opProjectEntrySymbol(const std::string& kernelName);
// The generated host unit: the op_host source and kwb_tiling calling its TilingFunc.
std::string opProjectHostUnit(const OpProjectForm& form);
// The -D that names GET_TILING_DATA's class ("KWB_OP_TILING_DATA=optiling::TilingData"); empty when
// the project registers none for its operator.
std::string opProjectTilingDefine(const OpProjectForm& form);
// Every -D (without the -D) the operator project's units are compiled with: the tiling class above and,
// as msopgen's kernel build defines them for the dtype combination being compiled, DTYPE_<NAME> (the
// tensor's name in upper case) as the Ascend C type of each of the task's inputs and outputs
// ("DTYPE_X1=half"), and ORIG_DTYPE_<NAME> as its ge::DataType name ("ORIG_DTYPE_X1=DT_FLOAT16";
// the kernel unit defines the DT_* names as macros).
std::vector<std::string> opProjectDefines(const OpProjectForm& form, const Task& task);

}  // namespace kwb
