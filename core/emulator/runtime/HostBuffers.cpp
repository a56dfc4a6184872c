// SPDX-License-Identifier: MIT
// Host memory from aclrtMallocHost (docs/emulator.md, "Launch forms", device memory semantics). A device
// cannot reach host memory: a kernel API access to it is refused in Memory.cpp, and a raw pointer access is
// caught here. During a device-style launch (<<<>>>, ACLRT_LAUNCH_KERNEL, aclrtlaunch_<kernel>) each block
// process makes the page-aligned host buffers PROT_NONE before its kernel runs; a fault inside one is
// reported once per buffer (gm-out-of-bounds, at the last emulated API call, as every raw access) and the
// buffer is opened again so that the block goes on. ICPU_RUN_KF launches keep host memory reachable (CANN's
// CPU mode shares one address space).

#include <sys/mman.h>

#include <cstdint>
#include <mutex>

#include "BlockContext.h"

namespace kwb_sim {

namespace {

struct HostBuffer {
  std::uintptr_t base = 0;
  std::size_t size = 0;  // page multiple
};

// A fixed table: the fault handler scans it without locks or allocation. Buffers past the table's size
// are host memory that is simply not trapped (their API accesses are still refused).
constexpr int kMaxHostBuffers = 512;
HostBuffer g_host[kMaxHostBuffers];
int g_hostCount = 0;
std::mutex g_hostMutex;

}  // namespace

void registerHostBuffer(void* p, std::size_t size) {
  if (p == nullptr || size == 0) return;
  const std::lock_guard<std::mutex> lock(g_hostMutex);
  for (int i = 0; i < kMaxHostBuffers; ++i) {
    if (g_host[i].base == 0) {
      g_host[i] = HostBuffer{reinterpret_cast<std::uintptr_t>(p), size};
      if (i >= g_hostCount) g_hostCount = i + 1;
      return;
    }
  }
}

void unregisterHostBuffer(void* p) {
  const std::lock_guard<std::mutex> lock(g_hostMutex);
  for (int i = 0; i < g_hostCount; ++i)
    if (g_host[i].base == reinterpret_cast<std::uintptr_t>(p)) g_host[i] = HostBuffer{};
}

namespace rt {

void hostProtectForKernel() {
  if (!deviceMemoryOnly()) return;
  for (int i = 0; i < g_hostCount; ++i) {
    if (g_host[i].base == 0) continue;
    // Host buffers are tracked as integer addresses, like the GM blocks (docs/emulator.md)
    // NOLINTNEXTLINE(performance-no-int-to-ptr)
    ::mprotect(reinterpret_cast<void*>(g_host[i].base), g_host[i].size, PROT_NONE);
  }
}

bool hostBufferOf(std::uintptr_t a, std::uintptr_t& base, std::size_t& size) {
  for (int i = 0; i < g_hostCount; ++i) {
    if (g_host[i].base != 0 && a >= g_host[i].base && a < g_host[i].base + g_host[i].size) {
      base = g_host[i].base;
      size = g_host[i].size;
      return true;
    }
  }
  return false;
}

}  // namespace rt

}  // namespace kwb_sim
