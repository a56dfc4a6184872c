// SPDX-License-Identifier: MIT
#pragma once
// kwb emulator: `platform_ascendc::PlatformAscendC`, the SoC as a TilingFunc sees it, from the
// workbench's SoC description (resources/soc/<soc>.json through the tiling input).
#include <cstdint>
#include <cstring>

#include "kwb_op/tiling_context.h"

namespace platform_ascendc {

enum class CoreMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, RESERVED };
enum class SocVersion { ASCEND910 = 0, ASCEND910B, ASCEND310P, ASCEND310B, ASCEND910_93, RESERVED_VERSION };

class PlatformAscendC {
 public:
  PlatformAscendC() = delete;
  explicit PlatformAscendC(fe::PlatFormInfos* info) : info_(info) {}
  uint32_t GetCoreNum() const { return info_ ? info_->coreNumAiv : 0; }
  uint32_t GetCoreNumAic() const { return info_ ? info_->coreNumAic : 0; }
  uint32_t GetCoreNumAiv() const { return info_ ? info_->coreNumAiv : 0; }
  // The memories the description carries; the others (and all but the UB in a TilingFunc's context)
  // report 0.
  void GetCoreMemSize(CoreMemType type, uint64_t& size) const {
    size = 0;
    if (!info_) return;
    switch (type) {
      case CoreMemType::UB:
        size = info_->ubSize;
        break;
      case CoreMemType::L1:
        size = info_->l1Size;
        break;
      case CoreMemType::L0_A:
        size = info_->l0aSize;
        break;
      case CoreMemType::L0_B:
        size = info_->l0bSize;
        break;
      case CoreMemType::L0_C:
        size = info_->l0cSize;
        break;
      default:
        break;
    }
  }
  SocVersion GetSocVersion() const {
    if (!info_) return SocVersion::RESERVED_VERSION;
    if (std::strncmp(info_->socVersion, "Ascend910B", 10) == 0) return SocVersion::ASCEND910B;
    if (std::strncmp(info_->socVersion, "Ascend310P", 10) == 0) return SocVersion::ASCEND310P;
    if (std::strncmp(info_->socVersion, "Ascend310B", 10) == 0) return SocVersion::ASCEND310B;
    if (std::strncmp(info_->socVersion, "Ascend910", 9) == 0) return SocVersion::ASCEND910;
    return SocVersion::RESERVED_VERSION;
  }
  // The emulator's library API needs no system workspace: 0 bytes (docs/emulator.md).
  uint32_t GetLibApiWorkSpaceSize() const { return 0; }
  // Vector-only and cube-only kernels launch one block per slice.
  uint32_t CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
    if (aicCoreNum == 0 || aivCoreNum == 0 || aicCoreNum > aivCoreNum) return sliceNum;
    const uint32_t ratio = aivCoreNum / aicCoreNum;
    return ratio == 0 ? sliceNum : (sliceNum + ratio - 1) / ratio;
  }

 private:
  fe::PlatFormInfos* info_;
};

// Host code of a kernel-launch program asks the platform through this singleton (the API is one, as in
// CANN): the first call's SoC holds for the process. Without a name it is the SoC the program was built
// for (`kwb sim build --soc`); the numbers come from the runtime's SoC table (runtime/HostPlatform.cpp).
// An unknown name gives nullptr and a message on stderr.
class PlatformAscendCManager {
 public:
  static PlatformAscendC* GetInstance() {
#ifdef KWB_SIM_SOC_NAME
    return GetInstance(KWB_SIM_SOC_NAME);
#else
    return GetInstance("Ascend910B1");
#endif
  }
  static PlatformAscendC* GetInstance(const char* customSocVersion);
};

}  // namespace platform_ascendc
