// SPDX-License-Identifier: MIT
#pragma once
// The records file a launch leaves for the trusted side (KWB_SIM_RECORDS=PATH): a sequence of frames,
// each a fixed header and a payload. Written by the emulator runtime inside the candidate's sandbox,
// so the reader (core/toolchain/TrustedLaunch.cpp) treats every byte as hostile: sizes are checked
// against the file and against caps, and a malformed frame is an error, never a crash.

#include <cstdint>

namespace kwb_sim::records {

inline constexpr std::uint32_t kFrameMagic = 0x5242574bu;  // "KWBR"

enum class FrameKind : std::uint32_t {
  BlockDiagnostics = 1,  // JSON lines the block reported (the runtime's diagLine format)
  BlockTrace = 2,        // the block's instruction trace (the .trace format: header, strings, Instr[])
  Launch = 3,   // JSON: kernel, blockDim, soc, autoSync, blocks: [{status, exit_code, signal, wall_ms}]
  Tensors = 4,  // JSON: [{name, addr, bytes}] the harness GmAlloc'd for the task's tensors
  HostDiagnostics = 5,  // JSON lines raised in the launching process (outside any block)
};

struct FrameHeader {
  std::uint32_t magic = kFrameMagic;
  std::uint32_t kind = 0;
  std::int32_t block = -1;  // block index for block frames, -1 otherwise
  std::uint32_t reserved = 0;
  std::uint64_t length = 0;  // payload bytes that follow
};
static_assert(sizeof(FrameHeader) == 24);

inline constexpr std::uint64_t kTraceMagic = 0x4b57425452414345ull;  // "KWBTRACE" (header word 0)

}  // namespace kwb_sim::records
