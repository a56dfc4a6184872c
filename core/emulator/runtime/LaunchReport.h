// SPDX-License-Identifier: MIT
#pragma once
// Parent side of a launch: merging the blocks' diagnostics and traces, the cross-block checks
// (multicore-overlap, crashes, timeouts), the cost model and the KWB_SIM_REPORT JSON / stderr lines.

#include <cstdint>
#include <string>
#include <vector>

#include "core/emulator/analysis/RecordFormat.h"
#include "kwb_sim/runtime.h"

namespace kwb_sim::rt {

enum class BlockStatus { Ok, Aborted, Crashed, TimedOut, ExitedNonZero, ForkFailed };

struct BlockResult {
  BlockStatus status = BlockStatus::Ok;
  int exitCode = 0;
  int signal = 0;
  const char* signalName = "";
  long long elapsedMs = 0;
  long timeoutMs = 0;
};

struct LaunchResult {
  std::string kernel;
  std::uint32_t blockDim = 0;
  SrcLoc launchLoc{nullptr, 0};
  bool autoSync = true;
  std::string workDir;
  std::vector<BlockResult> blocks;       // one per process: a mix kernel's sub-cores each have one
  std::uint32_t coresPerBlock = 1;       // processes per block (KernelType.h)
  int kernelType = 0;                    // the KernelMetaType the launch ran the kernel as
  std::vector<std::string> parentLines;  // diagnostics raised in the parent (JSON lines)
};

void finishLaunch(LaunchResult& res);

// KWB_SIM_RECORDS (RecordsWriter.cpp): the raw records of a launch for the trusted side.
bool recordsEnabled();
void appendRecordFrame(records::FrameKind kind, std::int32_t block, const std::string& payload);
void appendTensorFrame();
int launchErrorCount();
// Diagnostics reported by host code outside a launch (JSON lines), merged into the next report.
void addParentLine(const std::string& line);

}  // namespace kwb_sim::rt
