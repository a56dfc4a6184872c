// SPDX-License-Identifier: MIT
#include "core/eval/CaseMemory.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace kwb {

std::int64_t CaseMemoryNeed::peakBytes() const {
  const std::int64_t asDoubles = outputElements * std::int64_t{8};
  const std::int64_t trusted = inputBytes + outputBytes + asDoubles + outputBytes + asDoubles;
  const std::int64_t emulatorGm = inputBytes + outputBytes;
  const std::int64_t reference = inputBytes + asDoubles;
  return trusted + std::max(emulatorGm, reference);
}

CaseMemoryNeed caseMemoryNeed(const Task& task, const VerificationCase& c) {
  CaseMemoryNeed need;
  for (const auto& spec : task.caseTensors(c)) {
    if (task.isInput(spec.name)) {
      need.inputBytes += spec.bytes();
    } else {
      need.outputBytes += spec.bytes();
      need.outputElements += spec.elements();
    }
  }
  return need;
}

std::optional<std::int64_t> parseMemAvailable(std::string_view meminfo) {
  constexpr std::string_view kKey = "MemAvailable:";
  std::size_t at = 0;
  while (at < meminfo.size()) {
    const std::size_t end = std::min(meminfo.find('\n', at), meminfo.size());
    std::string_view line = meminfo.substr(at, end - at);
    at = end + 1;
    if (line.substr(0, kKey.size()) != kKey) continue;
    line.remove_prefix(kKey.size());
    while (!line.empty() && line.front() == ' ') line.remove_prefix(1);
    std::int64_t kib = 0;
    const auto [rest, ec] = std::from_chars(line.data(), line.data() + line.size(), kib);
    if (ec != std::errc() || kib < 0 || std::string_view(rest, line.data() + line.size() - rest) != " kB")
      return std::nullopt;
    return kib * 1024;
  }
  return std::nullopt;
}

std::optional<std::int64_t> availableMemoryBytes() {
  std::ifstream in("/proc/meminfo");
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return parseMemAvailable(text.str());
}

std::string bytesText(std::int64_t bytes) {
  char buf[32];
  if (bytes >= (std::int64_t{1} << 30))
    std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(bytes) / static_cast<double>(1 << 30));
  else
    std::snprintf(buf, sizeof buf, "%.0f MiB", static_cast<double>(bytes) / static_cast<double>(1 << 20));
  return buf;
}

std::string caseMemoryProblem(const VerificationCase& c, const CaseMemoryNeed& need,
                              std::optional<std::int64_t> available) {
  if (!available || need.peakBytes() <= *available) return {};
  return "case " + c.name + " needs about " + bytesText(need.peakBytes()) + " of memory (inputs " +
         bytesText(need.inputBytes) + ", outputs " + bytesText(need.outputBytes) +
         ", held several times over: the inputs, the reference's values in double precision, the outputs "
         "read back, and the emulator's global memory), but this machine has " +
         bytesText(*available) +
         " available; free memory, or evaluate the case on a larger machine (kwb suite run --executor)";
}

}  // namespace kwb
