// SPDX-License-Identifier: MIT
// Generated sources of the ascend-cann backend: the ACL host harness and the equivalent CMake project.
#include "core/toolchain/CannBackend.h"
#include "core/toolchain/HarnessTemplates.h"

namespace kwb {

std::string npuArchFor(const std::string& soc) {
  auto starts = [&](const char* p) { return soc.rfind(p, 0) == 0; };
  if (starts("Ascend910B") || starts("Ascend910_93")) return "dav-2201";
  if (starts("Ascend310P")) return "dav-2002";
  if (starts("Ascend310B")) return "dav-3002";
  return {};
}

std::string generateAclHarness(const Task& task) {
  const std::size_t n = task.inputs.size() + task.outputs.size();
  std::string args;
  for (std::size_t k = 0; k < n; ++k)
    args += "static_cast<GM_ADDR>(g_tensors[" + std::to_string(k) + "].dev), ";
  return renderHarnessTemplate(
      "acl_harness.cpp.in", {{"KERNEL", task.name}, {"DEV_ARGS", args}, {"TENSOR_COUNT", std::to_string(n)}});
}

std::string generateCannCMake(const Task& task, const std::string& soc) {
  return renderHarnessTemplate("cann_launch_project.cmake.in", {{"KERNEL", task.name}, {"SOC", soc}});
}

}  // namespace kwb
