// SPDX-License-Identifier: MIT
// Fuzzes the compiler and runtime diagnostic parsers on arbitrary tool output, and the JSON every
// diagnostic becomes (tool output is not UTF-8 by contract; the JSON must still dump).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/diag/CompilerDiagnosticParser.h"
#include "core/diag/RuntimeErrorParser.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  nlohmann::json j = kwb::parseCompilerDiagnostics(text);
  (void)j.dump();
  j = kwb::parseRuntimeErrors(text);
  (void)j.dump();
  (void)kwb::parseCompilerOutput(text);
  return 0;
}
