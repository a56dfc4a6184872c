// SPDX-License-Identifier: MIT
#include "core/toolchain/SocInfo.h"

#include "core/base/InstallLayout.h"
#include "core/emulator/costmodel/SocParams.h"

namespace kwb {

std::vector<std::string> knownSocs() {
  return sim::availableSocs(socDirectory(currentInstallLayout()));
}

std::optional<SocInfo> loadSocInfo(const std::string& soc, std::string& error) {
  try {
    const sim::SocParams p = sim::loadSocByName(soc, socDirectory(currentInstallLayout()));
    SocInfo s;
    s.name = soc;
    s.coreNumAiv = static_cast<std::uint32_t>(p.aivCores);
    s.coreNumAic = static_cast<std::uint32_t>(p.aicCores);
    s.ubSize = p.ubBytes;
    return s;
  } catch (const std::exception& e) {
    error = e.what();
    return std::nullopt;
  }
}

}  // namespace kwb
