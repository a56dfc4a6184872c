// SPDX-License-Identifier: MIT
// Fuzzes the msprof CSV parsers (OpBasicInfo, PipeUtilization, Memory, simulator code/instr costs)
// on the same bytes. MsprofParseError is the documented answer to a malformed file.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/diag/MsprofParser.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view csv(reinterpret_cast<const char*>(data), size);
  auto guarded = [](auto&& parse) {
    try {
      parse();
    } catch (const kwb::MsprofParseError&) {
    }
  };
  guarded([&] { (void)kwb::parseOpBasicInfo(csv); });
  guarded([&] {
    const auto rows = kwb::parsePipeUtilization(csv);
    (void)kwb::busiestPipe(rows);
  });
  guarded([&] { (void)kwb::parseMemory(csv); });
  guarded([&] {
    const auto lines = kwb::parseSimulatorCodeExe(csv, "core0_code_exe.csv");
    (void)kwb::mergeSourceLineCosts({lines, lines});
  });
  guarded([&] { (void)kwb::parseSimulatorInstrExe(csv, "core0_instr_exe.csv"); });
  guarded([&] { (void)kwb::parseSimulatorCoreDir(csv); });
  return 0;
}
