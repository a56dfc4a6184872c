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
  // Only the UB is described to the tiling; other memories report 0.
  void GetCoreMemSize(CoreMemType type, uint64_t& size) const {
    size = (info_ && type == CoreMemType::UB) ? info_->ubSize : 0;
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

}  // namespace platform_ascendc
