#include "core/toolchain/SocInfo.h"
#include "core/toolchain/InstallLayout.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>

#include <nlohmann/json.hpp>

namespace kwb {

std::filesystem::path socDir() {
  if (const char* d = std::getenv("KWB_SOC_DIR"); d && *d) return d;
  return currentInstallLayout().dataRoot / "resources" / "soc";
}

std::vector<std::string> knownSocs() {
  std::vector<std::string> out;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(socDir(), ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".json") out.push_back(it->path().stem().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::optional<SocInfo> loadSocInfo(const std::string& soc, std::string& error) {
  const auto file = socDir() / (soc + ".json");
  std::ifstream in(file);
  if (!in) {
    error = "unknown SoC \"" + soc + "\": no " + file.string();
    return std::nullopt;
  }
  try {
    const auto j = nlohmann::json::parse(in);
    SocInfo s;
    s.name = soc;
    s.coreNumAiv = j.at("cores").at("aiv").at("value").get<std::uint32_t>();
    s.coreNumAic = j.at("cores").at("aic").at("value").get<std::uint32_t>();
    s.ubSize = j.at("memory").at("ub_bytes").at("value").get<std::uint64_t>();
    return s;
  } catch (const std::exception& e) {
    error = file.string() + ": " + e.what();
    return std::nullopt;
  }
}

}  // namespace kwb
