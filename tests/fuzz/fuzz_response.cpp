// SPDX-License-Identifier: MIT
// Fuzzes the LLM reply parser (fenced code blocks, file names, prose, truncation): any reply text.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/agent/ResponseParser.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view reply(reinterpret_cast<const char*>(data), size);
  const kwb::ParsedReply parsed = kwb::parseLlmReply(reply);
  for (const auto& f : parsed.files) (void)f.content.size();
  return 0;
}
