#include "app/kwb/Cli.h"

#include <iostream>

namespace kwb::cli {

void printJson(const nlohmann::json& doc) {
  std::cout << doc.dump(2) << std::endl;
}

}  // namespace kwb::cli
