// SPDX-License-Identifier: MIT
#pragma once
// Pure parser for CANN / ACL runtime failures as a host program prints them (stdout + stderr of a real NPU
// or CANN-simulator run). Running the program is someone else's job; this only reads the text.
//
// Recognised (formats: docs/ascend-notes.md §5):
//   "main.cpp:45 aclError:507035"                          CHECK_ACL macro of the official samples
//   "[ERROR] aclrtSynchronizeStream(stream) failed: 507035"  (also "..., errorCode = N", "... failed. ERROR:
//   N") "NPU function error: aclrtSynchronizeDevice, error code is 507015"   torch_npu wrappers "EZ9999:
//   Inner Error!" and other E[A-Z0-9]NNNN error-code lines
//   "... there is an exception of aivec error, core id is 36, error code = 0x..."   device exception
//   "The extend info: errcode:(...) errorStr: VEC instruction error: the ub address out of bounds. ..."
//   "Kernel task happen error, retCode=0x31, [vector core exception]."
// Each failing call becomes one Diagnostic (source "runtime"); the device-side report (error codes,
// exception, errorStr, retCode) is folded into the first kernel-level failure as notes and refines its
// category: "ub address out of bounds" -> ub-out-of-bounds, GM/DDR out of bounds/range -> gm-out-of-bounds,
// timeouts -> timeout, other device exceptions -> runtime-crash, parameter errors -> invalid-param.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/Diagnostic.h"

namespace kwb {

struct AclErrorInfo {
  int code = 0;
  std::string_view name;      // "ACL_ERROR_RT_VECTOR_CORE_EXCEPTION"
  std::string_view meaning;   // "vector core exception"
  std::string_view category;  // kwb::category value used for a failure with this code
};

// The aclError / rt error codes of acl_base.h and rt_error_codes.h; nullopt for codes not in the table.
std::optional<AclErrorInfo> lookupAclError(int code);

// All runtime failures in a program's output, in order of the failing calls (a device report with no
// failing call still yields one diagnostic). Empty when the text shows no failure.
std::vector<Diagnostic> parseRuntimeErrors(std::string_view output);

}  // namespace kwb
