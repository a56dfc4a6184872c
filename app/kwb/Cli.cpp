// SPDX-License-Identifier: MIT
#include "app/kwb/Cli.h"

#include <iostream>

namespace kwb::cli {

void printJson(const nlohmann::json& doc) {
  // Text from outside is made UTF-8 where it enters the model (toValidUtf8); should a byte slip through
  // anyway, it is replaced here rather than ending a --json command without its document.
  std::cout << doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
}

}  // namespace kwb::cli
