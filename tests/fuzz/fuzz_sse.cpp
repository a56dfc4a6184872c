// SPDX-License-Identifier: MIT
// Fuzzes the incremental SSE parser: the first byte picks a chunk size, the rest is the stream. The
// events must not depend on how the bytes were chunked (checked against one whole-buffer feed).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/llm/SseParser.h"

namespace {
std::vector<std::string> eventsOf(std::string_view stream, std::size_t chunk) {
  std::vector<std::string> out;
  kwb::SseParser p([&](const kwb::SseEvent& e) {
    out.push_back(e.event + '\x1f' + e.data + '\x1f' + e.id);
    return true;
  });
  for (std::size_t pos = 0; pos < stream.size(); pos += chunk) p.feed(stream.substr(pos, chunk));
  p.finish();
  return out;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::size_t chunk = 1 + data[0] % 17;
  const std::string_view stream(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (eventsOf(stream, chunk) != eventsOf(stream, stream.size() + 1)) std::abort();
  return 0;
}
