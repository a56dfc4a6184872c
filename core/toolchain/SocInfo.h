#pragma once
// What the tiling function is told about a SoC: vector/cube core counts and UB size, read from
// resources/soc/<SoC>.json (the emulator's cost-model files, which cite the CANN platform ini).

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kwb {

struct SocInfo {
  std::string name;
  std::uint32_t coreNumAiv = 0;
  std::uint32_t coreNumAic = 0;
  std::uint64_t ubSize = 0;
};

// Folder of the SoC files: $KWB_SOC_DIR, else the source tree's resources/soc.
std::filesystem::path socDir();
// The SoCs socDir() has a file for, sorted ("Ascend310P1", ..., "Ascend910B4").
std::vector<std::string> knownSocs();
// nullopt with `error` set when the SoC has no readable file.
std::optional<SocInfo> loadSocInfo(const std::string& soc, std::string& error);

}  // namespace kwb
