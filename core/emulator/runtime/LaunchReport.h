#pragma once
// Parent side of a launch: merging the blocks' diagnostics and traces, the cross-block checks
// (multicore-overlap, crashes, timeouts), the cost model and the KWB_SIM_REPORT JSON / stderr lines.

#include <cstdint>
#include <string>
#include <vector>

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
  std::vector<BlockResult> blocks;
  std::vector<std::string> parentLines;  // diagnostics raised in the parent (JSON lines)
};

void finishLaunch(LaunchResult& res);
int launchErrorCount();
// Diagnostics reported by host code outside a launch (JSON lines), merged into the next report.
void addParentLine(const std::string& line);

}  // namespace kwb_sim::rt
