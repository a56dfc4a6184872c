// SPDX-License-Identifier: MIT
#pragma once
// What the tiling function is told about a SoC: vector/cube core counts and UB size. A view on the one
// reader of resources/soc/<SoC>.json (core/emulator/costmodel/SocParams), found through socDirectory().

#include <cstdint>
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

// The SoCs that have a file in socDirectory(), sorted ("Ascend310P1", ..., "Ascend910B4").
std::vector<std::string> knownSocs();
// nullopt with `error` set when the SoC has no readable file (the error lists the known SoCs).
std::optional<SocInfo> loadSocInfo(const std::string& soc, std::string& error);

}  // namespace kwb
