// SPDX-License-Identifier: MIT
#pragma once
// Hardware parameters of one SoC for the emulator's cost model, loaded from resources/soc/<SoC>.json.
// Every number in those files carries its provenance ({"value", "unit", "source": official|derived|
// assumed, "ref", "note"}); the loader keeps that provenance so reports and docs can say which parts of
// an estimate rest on measured facts and which on assumptions still owing calibration.
//
// The cost model also runs inside emulated user programs (kwb_sim_runtime), where no resource folder is
// at hand: `kwb sim build` embeds the chosen file's text and the runtime calls parseSocParams() on it.

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/emulator/costmodel/UbBanks.h"

namespace kwb::sim {

// Thrown for any unreadable, malformed or incomplete SoC file; what() names the file and the field.
class SocParamsError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Provenance of one number, kept verbatim from the file.
struct ParamSource {
  double value = 0;
  std::string unit;
  std::string source;  // "official" | "measured" | "derived" | "fitted" | "assumed" (docs/calibration.md)
  std::string ref;     // where the number comes from (document, ini key, arithmetic)
  std::string note;    // calibration note (required for "assumed")
};

// Element-size classes the vector throughput tables are keyed by (docs/ascend-notes.md §2.3: 16- and 32-bit
// columns).
enum class SizeClass : std::uint8_t { B8 = 0, B16, B32, B64 };
inline constexpr int kSizeClassCount = 4;
SizeClass sizeClassOf(unsigned bytes);  // 1,2,4,8 -> B8..B64 (anything else -> B32)

struct VectorClass {
  std::string name;
  // Elements per cycle per element size; 0 = not given in the file (see SocParams::vectorElementsPerCycle).
  std::array<double, kSizeClassCount> elementsPerCycle{};
};

// Transfer paths between memories; each is one pipe's data movement (docs/ascend-notes.md §2.1).
enum class Path : std::uint8_t {
  GmToUb = 0,  // MTE2
  UbToGm,      // MTE3
  UbToUb,      // V
  GmToL1,      // MTE2
  L1ToUb,      // MTE2 (coupled arch)
  UbToL1,      // MTE3
  L1ToGm,      // MTE3
  L1ToL0A,     // MTE1
  L1ToL0B,     // MTE1
  L0CToGm,     // FIX
  L0CToL1,     // FIX
  L0CToUb,     // FIX (coupled arch: via the vector unit)
  Count
};
inline constexpr int kPathCount = static_cast<int>(Path::Count);
std::string_view pathKey(Path p);  // "GM->UB", ...

struct TransferPath {
  bool present = false;      // the SoC has this path
  double bytesPerCycle = 0;  // per-core bandwidth of the path
  double startCycles = 0;    // fixed cost per instruction before data flows (pipe occupied)
  double latencyCycles = 0;  // extra cycles until the data is visible to other pipes (pipe not occupied)
  bool sharesGm = false;     // GM side: competes for the SoC's aggregate GM bandwidth
  // Per-core rate of this path's L2 hits (optional "l2_bytes_per_cycle"; 0 =
  // gm.l2_read/write_bytes_per_cycle): the AIC's GM->L1 path reads L2 faster than the AIV's GM->UB path
  // (docs/calibration.md, "Cube").
  double l2BytesPerCycle = 0;
};

// Alignment tiers for GM bursts: the first tier whose minAlign divides the access gets its factor.
struct AlignTier {
  std::uint64_t minAlign = 1;
  double factor = 1.0;
};

struct SocParams {
  std::string name;      // "Ascend910B1"
  std::string arch;      // "dav-2201"
  bool coupled = false;  // 310P: cube and vector in one AI Core; 910B: split AIC / AIV
  std::string origin;    // file name or label the parameters came from (for error messages/reports)

  double clockMhz = 0;
  int aivCores = 0;           // vector cores (910B: 48)
  int aicCores = 0;           // cube / AI cores (910B: 24)
  int vectorKernelCores = 0;  // cores a vector-only kernel's blocks spread over
  int cubeKernelCores = 0;    // cores a kernel with cube work spreads over

  std::uint64_t ubBytes = 0, l1Bytes = 0, l0aBytes = 0, l0bBytes = 0, l0cBytes = 0, l2Bytes = 0;

  // GM (HBM/DDR) bandwidth of the whole chip in bytes per cycle, shared by all active cores.
  double gmAggregateBytesPerCycle = 0;
  // L2 (optional in the file; 0 = no L2 model, every GM byte at HBM/DDR rates): the chip's L2 bandwidth
  // shared by all cores, and one core's read / write rate when the data is L2-resident.
  double l2AggregateBytesPerCycle = 0;
  double l2ReadBytesPerCycle = 0, l2WriteBytesPerCycle = 0;
  // Fixed MTE cycles per GM burst (one DataCopy block) on top of the copy's start cost (optional, 0).
  double gmBurstCycles = 0;
  // Bytes per cycle that one GM line read by several blocks at once is delivered at, to all of them
  // together (optional, 0 = no same-address serialisation; SameLineReaders.h).
  double sameLineReadBytesPerCycle = 0;
  // GM requests are handled in aligned units of this many bytes: two blocks reading different addresses
  // of one unit at once read "the same address" (optional "gm.same_address_granule_bytes", default 512).
  std::uint64_t sameAddressGranuleBytes = 512;

  int pipeQueueDepth = 32;  // instructions a pipe's queue holds before the scalar unit stalls

  // Vector pipe.
  double vectorHeadCycles = 0;  // fixed start cost per vector instruction
  std::vector<VectorClass> vectorClasses;
  std::unordered_map<std::string, int> vectorOpClass;  // API name -> index into vectorClasses
  int defaultVectorClass = 0;                          // for API names the table does not list
  // UB bank layout and the cost of a read-write conflict (optional "vector.ub_banks"; absent: no bank
  // conflicts are modelled).
  UbBankGeometry ubBanks;

  // Data movement.
  std::array<TransferPath, kPathCount> paths{};
  double burstGranuleBytes = 32;      // GM bursts are whole multiples of this
  std::vector<AlignTier> alignTiers;  // sorted by minAlign, descending

  // Scalar unit.
  double apiIssueCycles = 0;       // scalar work to set up and issue one API call (address math, regs)
  double queueOpCycles = 0;        // EnQue/DeQue/AllocTensor/FreeTensor bookkeeping
  double syncIssueCycles = 0;      // SetFlag/WaitFlag/PipeBarrier issue
  double loopIterationCycles = 0;  // loop control per detected loop back-edge
  double ubGetValueCycles = 0, ubSetValueCycles = 0;
  double gmGetValueHitCycles = 0, gmGetValueMissCycles = 0, gmSetValueCycles = 0;
  double maskSetCycles = 0;        // SetMaskCount/SetMaskNorm/SetVectorMask/ResetMask
  double scalarDefaultCycles = 0;  // any other scalar record
  std::uint64_t dcacheBytes = std::uint64_t{32} * 1024, dcacheLineBytes = 64;

  // Synchronisation.
  double flagLatencyCycles = 0;  // SetFlag to the waiting pipe seeing it
  double barrierCycles = 0;      // PipeBarrier drain cost on the barred pipe

  // Cube.
  double cubeHeadCycles = 0;
  std::array<double, kSizeClassCount> cubeMacsPerCycle{};  // by input element size

  // Launch.
  double taskOverheadCycles = 0;  // once per launch (task dispatch, core wake-up)
  double blockStartCycles = 0;    // per block started on a core

  // Expected |error| of a time estimate in percent, by the profile's bound (memory, vector, scalar,
  // latency, cube), from the calibration table (docs/calibration.md); optional "calibration" section,
  // empty = unknown.
  std::map<std::string, double> expectedErrorPct;

  // Every parameter's provenance, keyed by its dotted path in the file ("transfer.GM->UB.bytes_per_cycle").
  std::map<std::string, ParamSource> provenance;

  // Vector throughput of class `cls` for elements of `bytes` size. A size the file does not list is
  // derived from the nearest listed one at equal bytes per cycle (the vector unit is 256 B wide);
  // `derived` (if given) is set when that happened.
  double vectorElementsPerCycle(int cls, unsigned bytes, bool* derived = nullptr) const;
  double cubeMacsPerCycleFor(unsigned bytes) const;
};

// Parses the text of a SoC file. `origin` names it in errors ("Ascend910B1.json").
SocParams parseSocParams(std::string_view jsonText, std::string_view origin);

// Reads and parses a SoC file.
SocParams loadSocParams(const std::filesystem::path& file);

// Loads <dir>/<soc>.json; error names the SoC and the files that exist when it is not found. Tools find
// `dir` with socDirectory() (core/base/InstallLayout.h); this layer also runs inside candidate programs,
// so it has no folder rule of its own.
SocParams loadSocByName(std::string_view soc, const std::filesystem::path& dir);

// SoC names with a file in `dir`, sorted.
std::vector<std::string> availableSocs(const std::filesystem::path& dir);

}  // namespace kwb::sim
