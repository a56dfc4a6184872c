#include "core/toolchain/Backend.h"
#include "core/toolchain/CannBackend.h"
#include "core/toolchain/SimBackend.h"

namespace kwb {

std::unique_ptr<Backend> makeBackend(const std::string& name, const BackendOptions& options, std::string& error) {
  if (name == "ascend-sim") return std::make_unique<SimBackend>(options);
  if (name == "ascend-cann") return std::make_unique<CannBackend>(options);
  error = "unknown backend \"" + name + "\"; expected ascend-sim or ascend-cann";
  return nullptr;
}

}  // namespace kwb
