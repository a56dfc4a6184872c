// SPDX-License-Identifier: MIT
#pragma once
// Pure parsers for the CSV files `msprof op` and `msprof op simulator` write (column names from
// docs/ascend-notes.md §4 and the msOpProf docs). Running msprof is the backend's job;
// these only read text. The trace.json of the simulator is in MsprofTrace.h.
//
// Values "N/A", "NA", "-" and "" are "absent" (std::nullopt / not in `values`). A missing required column
// throws MsprofParseError naming the file and the column; optional columns may be missing. Unknown
// columns are kept in MsprofBlockRow::values / labels, so newer msprof versions lose nothing.

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace kwb {

class MsprofParseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// OpBasicInfo.csv: one row per profiled kernel launch.
struct MsprofOpBasicInfo {
  std::string opName;
  std::string opType;
  double taskDurationUs = 0;       // "Task Duration(us)" (required)
  int blockDim = 0;                // "Block Dim" (required)
  std::optional<int> mixBlockDim;  // "Mix Block Dim"; N/A for non-mixed kernels
  std::optional<int> deviceId;
  std::optional<long long> pid;
  std::optional<double> currentFreqMHz;
  std::optional<double> ratedFreqMHz;
};
std::vector<MsprofOpBasicInfo> parseOpBasicInfo(std::string_view csv,
                                                std::string_view fileName = "OpBasicInfo.csv");

// One row of a per-block CSV (PipeUtilization, Memory, ...).
struct MsprofBlockRow {
  int blockId = 0;                            // block_id (required)
  std::string subBlock;                       // sub_block_id as written ("0", "vector1"); "" when absent
  std::map<std::string, double> values;       // every numeric cell by its column name
  std::map<std::string, std::string> labels;  // every non-numeric, non-missing cell by column name
  std::optional<double> value(std::string_view column) const;
};

// Time and share of one pipe. core is "aic", "aiv" or "" (310P's prefix-free columns such as vec_ratio);
// pipe is "vec", "cube", "mac", "scalar", "fixpipe", "mte1", "mte2" or "mte3".
struct MsprofPipeTime {
  std::string core;
  std::string pipe;
  std::optional<double> timeUs;  // "<core>_<pipe>_time(us)"
  std::optional<double> ratio;   // "<core>_<pipe>_ratio": pipe cycles / total cycles, a fraction 0..1
};

struct MsprofPipeRow : MsprofBlockRow {
  std::optional<double> aicTimeUs;       // aic_time(us) (310P: aicore_time(us))
  std::optional<double> aicTotalCycles;  // aic_total_cycles (310P: total_cycles)
  std::optional<double> aivTimeUs;
  std::optional<double> aivTotalCycles;
  std::vector<MsprofPipeTime> pipes;  // in column order, only pipes with a time or ratio present
  const MsprofPipeTime* pipe(std::string_view core, std::string_view name) const;
};
std::vector<MsprofPipeRow> parsePipeUtilization(std::string_view csv,
                                                std::string_view fileName = "PipeUtilization.csv");

// The pipe with the highest mean ratio over all rows ("aiv"/"mte2" for a memory-bound vector kernel);
// nullopt when no row has a ratio.
struct MsprofBusiestPipe {
  std::string core;
  std::string pipe;
  double meanRatio = 0;
};
std::optional<MsprofBusiestPipe> busiestPipe(const std::vector<MsprofPipeRow>& rows);

struct MsprofMemoryRow : MsprofBlockRow {
  std::optional<double> gmToUbBandwidthGBs;  // aiv_gm_to_ub_bw(GB/s) (310P: aic_gm_to_ub_bw(GB/s))
  std::optional<double> ubToGmBandwidthGBs;  // aiv_ub_to_gm_bw(GB/s)
  std::optional<double> gmToUbKB;            // GM_to_UB_datas(KB)
  std::optional<double> ubToGmKB;            // UB_to_GM_datas(KB)
  std::optional<double> mainMemReadKB;       // read_main_memory_datas(KB)
  std::optional<double> mainMemWriteKB;      // write_main_memory_datas(KB)
};
std::vector<MsprofMemoryRow> parseMemory(std::string_view csv, std::string_view fileName = "Memory.csv");

// msprof op simulator: core*_code_exe.csv (columns code, call_count, cycles, running_time(us)).
struct SimLineCost {
  std::string code;  // as written, "file:line"
  std::string file;  // split from code; whole code when it has no ":<line>"
  int line = 0;
  long long callCount = 0;
  long long cycles = 0;
  std::optional<double> runningTimeUs;
};
std::vector<SimLineCost> parseSimulatorCodeExe(std::string_view csv, std::string_view fileName);

// core*_instr_exe.csv (columns instr, addr, pipe, call_count, cycles, running_time(us), detail).
struct SimInstrCost {
  std::string instr;
  std::string addr;
  std::string pipe;
  long long callCount = 0;
  long long cycles = 0;
  std::optional<double> runningTimeUs;
  std::string detail;
};
std::vector<SimInstrCost> parseSimulatorInstrExe(std::string_view csv, std::string_view fileName);

// Sums the per-core code_exe rows per file:line (hot spots of the whole kernel), most cycles first; ties
// by file and line. runningTimeUs is summed when every merged row has it.
std::vector<SimLineCost> mergeSourceLineCosts(const std::vector<std::vector<SimLineCost>>& perCore);

// A simulator output folder name: "core3.veccore1" -> {3, "veccore", 1}, "core0.cubecore0" -> {0, "cubecore",
// 0}.
struct SimulatorCoreDir {
  int core = 0;
  std::string unit;
  int index = 0;
};
std::optional<SimulatorCoreDir> parseSimulatorCoreDir(std::string_view name);

}  // namespace kwb
