// SPDX-License-Identifier: MIT
// platform_ascendc::PlatformAscendCManager for host code (tiling/platform/platform_ascendc.h): the SoC's
// core counts and buffer sizes from the runtime's SoC table, the one the emulated launch uses.
#include <cstdio>
#include <cstring>
#include <mutex>

#include "BlockContext.h"
#include "tiling/platform/platform_ascendc.h"

namespace platform_ascendc {

PlatformAscendC* PlatformAscendCManager::GetInstance(const char* customSocVersion) {
  static std::once_flag once;
  static fe::PlatFormInfos info;
  static PlatformAscendC platform(&info);
  static bool known = false;
  std::call_once(once, [&] {
    const kwb_sim::rt::SocCaps* caps = kwb_sim::rt::findSoc(customSocVersion);
    if (!caps) {
      std::fprintf(
          stderr,
          "[ERROR][kwb-sim] PlatformAscendCManager::GetInstance: the emulator does not know SoC '%s' "
          "(it knows Ascend910B1..B4, Ascend310P1, Ascend310P3)\n",
          customSocVersion ? customSocVersion : "");
      return;
    }
    known = true;
    info.coreNumAiv = caps->aiv;
    info.coreNumAic = caps->aic;
    info.ubSize = caps->ubBytes;
    info.l1Size = caps->l1Bytes;
    info.l0aSize = caps->l0aBytes;
    info.l0bSize = caps->l0bBytes;
    info.l0cSize = caps->l0cBytes;
    std::snprintf(info.socVersion, sizeof info.socVersion, "%s", caps->name);
  });
  return known ? &platform : nullptr;
}

}  // namespace platform_ascendc
