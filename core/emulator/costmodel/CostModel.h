// SPDX-License-Identifier: MIT
#pragma once
// Emulator cost model: turns the instruction trace of one emulated launch (kwb_sim::LaunchTrace) into a
// timeline per core and pipe, and from it a profile shaped like msprof op's output. It is an estimate
// from the SoC tables in resources/soc/, never a device measurement, and every report says so.
//
// Per block: the scalar unit issues the trace in order; each pipe is an in-order queue; an instruction
// starts at max(issue time, its pipe free, the sync it waits for) and lasts as the SoC tables say.
// Dependencies come only from the program's own synchronisation (EnQue->DeQue, FreeTensor->AllocTensor,
// SetFlag->WaitFlag, PipeBarrier) plus the compiler's auto-sync of S<->V/MTE2/MTE3 (docs/ascend-notes.md
// §3.5), so double buffering overlaps MTE2 with V exactly when the queues allow it. Blocks are then placed on
// the SoC's cores in waves, and the aggregate GM bandwidth is shared between the transfers that overlap.

#include <array>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/emulator/costmodel/SocParams.h"
#include "core/emulator/include/kwb_sim/trace.h"

namespace kwb::sim {

inline constexpr int kPipes = kwb_sim::kPipeCount;  // S, V, MTE1, MTE2, MTE3, M, FIX

struct SimOptions {
  // Model the compiler's --cce-auto-sync (default on, as in the classic build): scalar accesses wait
  // for the V/MTE2/MTE3 instructions that touched the same UB/GM bytes. Off: only explicit sync orders.
  bool autoSync = true;
};

// Start/end of one trace record, in cycles from its block's start on the core.
struct InstrTiming {
  double start = 0;
  double end = 0;
};

// A synchronisation hand-off: record `from` (SetFlag/EnQue/FreeTensor) released record `to`
// (WaitFlag/DeQue/AllocTensor) of the same block.
struct FlowLink {
  std::uint32_t block = 0;
  std::uint32_t from = 0;
  std::uint32_t to = 0;
};

struct BlockProfile {
  std::int32_t block = 0;
  int core = 0;
  std::string coreKind;   // a mix kernel's process: "AIC" or "AIV" ("" for a vector or cube kernel's block)
  int subBlock = 0;       // the AIV's GetSubBlockIdx()
  double startCycle = 0;  // when the block began on its core (launch timeline)
  double cycles = 0;      // block duration, including the block start cost
  std::array<double, kPipes> busy{};  // cycles each pipe executed work
  std::array<double, kPipes> wait{};  // cycles each pipe sat blocked on a sync it was waiting for
  std::uint64_t gmToUbBytes = 0, ubToGmBytes = 0, gmReadBytes = 0, gmWriteBytes = 0;
  std::uint64_t mte2Bytes = 0, mte3Bytes = 0;
  std::size_t records = 0;
  bool complete = true;
  std::uint64_t dropped = 0;
};

struct PipeUsage {
  double busyCycles = 0;  // summed over blocks
  double ratio = 0;       // busy / summed block cycles (msprof's *_ratio, a fraction)
  bool used = false;
};

// Cycles per kernel source line, summed over all blocks (msprof's code hot-spot view).
struct LineCost {
  std::string file;
  std::uint32_t line = 0;
  std::string api;          // API of the line's first record
  std::uint64_t calls = 0;  // records on the line (folded records count `times`)
  double cycles = 0;        // pipe execution plus scalar issue cycles of those records
  double waitCycles = 0;    // cycles the line's sync records kept a pipe waiting
};

// A performance hint the model can point at a source line (not an error: the kernel is correct, only
// slower than it needs to be). kind "ub-bank-conflict": the line's vector instructions lose `cycles` to UB
// bank conflicts of their operands' placement (UbBanks.h).
struct PerfHint {
  std::string kind;
  std::string file;
  std::uint32_t line = 0;
  std::string api;
  std::string conflict;     // "read-read", "read-write", ... (ub-bank-conflict)
  std::uint64_t calls = 0;  // records of the line that had the conflict (folded records count `times`)
  double cycles = 0;        // cycles the hint's cause added, summed over blocks
  double share = 0;         // cycles / the line's pipe cycles
  std::string message;
};

struct Profile {
  std::string soc;
  std::string socOrigin;
  std::string kernel;
  double clockMhz = 0;
  std::uint32_t blockDim = 0;
  std::string kernelKind;           // "vector", "cube" or "mix"
  std::uint32_t coresPerBlock = 1;  // a mix kernel's processes per block (1 AIC + 1 or 2 AIV)
  bool coupled = false;
  int cores = 0;  // cores the blocks could use
  int coresUsed = 0;
  int waves = 0;

  double kernelCycles = 0;    // makespan of the blocks on the cores
  double overheadCycles = 0;  // launch overhead added once
  double totalCycles = 0;     // kernel + overhead
  double totalUs = 0;

  std::vector<BlockProfile> blocks;
  std::array<PipeUsage, kPipes> pipes{};

  std::uint64_t gmToUbBytes = 0, ubToGmBytes = 0, gmReadBytes = 0, gmWriteBytes = 0;
  // GM bytes weighted by what they cost the chip's HBM/DDR bandwidth (L2 hits less, unaligned more).
  double gmEquivalentBytes = 0;
  double l2HitShare = 0;  // share of the GM bytes served from L2 (0 without an L2 model)
  double achievedGbps = 0;
  double gmShareBytesPerCycle = 0;  // per-transfer GM bandwidth cap after sharing (0 = uncontended)
  double gmConcurrentStreams = 0;   // time-averaged number of GM transfers in flight
  int passes = 0;                   // bandwidth-sharing iterations used

  std::string bound;  // memory | vector | cube | scalar | latency
  // Expected |error| of totalUs in percent for a kernel of this bound, from the SoC file's calibration
  // section (docs/calibration.md); negative when the file gives none.
  double expectedErrorPct = -1;
  double floorUs = 0, floorMemoryUs = 0, floorVectorUs = 0, floorCubeUs = 0;

  std::vector<LineCost> lines;     // sorted by cycles, descending
  std::vector<std::string> notes;  // approximations the model had to make for this trace
  std::vector<PerfHint> hints;     // sorted by cycles, descending
  double bankConflictCycles = 0;   // vector cycles lost to UB bank conflicts, summed over blocks

  // Timeline detail for the trace writer: timings[blockOffset[i] + k] is record k of blocks[i].
  std::vector<std::size_t> blockOffset;
  std::vector<InstrTiming> timings;
  std::vector<FlowLink> flows;
};

Profile simulate(const SocParams& soc, const kwb_sim::LaunchTrace& trace, const SimOptions& options = {});

// "≈ 12.4 µs ± 20 %, emulator estimate" (without the ± part when the error is unknown).
std::string estimateLabel(const Profile& p);

// The `profile` object of the KWB_SIM_REPORT JSON.
nlohmann::json profileToJson(const Profile& p);
void writeProfileJson(const Profile& p, std::ostream& out);
// msprof op style CSVs (column names as msprof where a column has a counterpart; extras after them).
void writePipeUtilizationCsv(const Profile& p, std::ostream& out);
void writeOpBasicInfoCsv(const Profile& p, std::ostream& out);
// msprof simulator code_exe style: code, call_count, cycles, running_time(us), then wait_cycles, api.
void writeHotspotCsv(const Profile& p, std::ostream& out);
// Chrome trace JSON: one process per core, one lane per pipe, one slice per record, flows for hand-offs.
void writeChromeTrace(const Profile& p, const kwb_sim::LaunchTrace& trace, std::ostream& out);

}  // namespace kwb::sim
