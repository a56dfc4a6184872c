// SPDX-License-Identifier: MIT
// The records file of `kwb eval` runs (KWB_SIM_RECORDS=PATH, core/emulator/analysis/RecordFormat.h):
// the raw per-block diagnostics and traces, the launch's block outcomes and the harness's tensor table,
// appended as frames for the trusted side to analyse. The file is created by the workbench before the
// run (it is bound writable into an otherwise read-only folder), so it is opened without O_CREAT.

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/emulator/analysis/RecordFormat.h"
#include "kwb_sim/host.h"

namespace kwb_sim {

namespace {
struct HarnessTensorEntry {
  std::string name;
  std::uintptr_t addr;
  std::uint64_t bytes;
};
std::vector<HarnessTensorEntry>& harnessTensors() {
  static std::vector<HarnessTensorEntry> v;
  return v;
}
}  // namespace

void recordHarnessTensor(const char* name, const void* p, std::uint64_t bytes) {
  harnessTensors().push_back({name ? name : "", reinterpret_cast<std::uintptr_t>(p), bytes});
}

namespace rt {

bool recordsEnabled() {
  const char* path = std::getenv("KWB_SIM_RECORDS");
  return path && *path;
}

void appendRecordFrame(records::FrameKind kind, std::int32_t block, const std::string& payload) {
  const char* path = std::getenv("KWB_SIM_RECORDS");
  if (!path || !*path) return;
  const int fd = ::open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return;
  records::FrameHeader h;
  h.kind = static_cast<std::uint32_t>(kind);
  h.block = block;
  h.length = payload.size();
  std::string frame(reinterpret_cast<const char*>(&h), sizeof h);
  frame += payload;
  const char* p = frame.data();
  std::size_t n = frame.size();
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w <= 0) break;
    p += w;
    n -= static_cast<std::size_t>(w);
  }
  ::close(fd);
}

void appendTensorFrame() {
  nlohmann::json j = nlohmann::json::array();
  for (const auto& t : harnessTensors())
    j.push_back({{"name", t.name}, {"addr", t.addr}, {"bytes", t.bytes}});
  appendRecordFrame(records::FrameKind::Tensors, -1, j.dump());
}

}  // namespace rt
}  // namespace kwb_sim
