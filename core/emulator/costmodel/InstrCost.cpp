// SPDX-License-Identifier: MIT
#include "core/emulator/costmodel/InstrCost.h"

#include <algorithm>
#include <cmath>

namespace kwb::sim::detail {

using kwb_sim::Instr;
using kwb_sim::MemSpace;
using kwb_sim::Pipe;
using kwb_sim::SyncKind;

namespace {

constexpr double kRepeatBytes = 256;  // one vector repeat = 8 DataBlocks of 32 B (docs/ascend-notes.md §1.4)

ApiKind kindOf(const std::string& api) {
  if (api == "GetValue") return ApiKind::GetValue;
  if (api == "SetValue") return ApiKind::SetValue;
  // Loads and stores kernel code makes through raw pointers (runtime/RawAccess.cpp): the same scalar
  // memory accesses as GetValue/SetValue on that memory space.
  if (api == "raw GM read" || api == "raw UB read" || api == "raw L1 read") return ApiKind::GetValue;
  if (api == "raw GM write" || api == "raw UB write" || api == "raw L1 write") return ApiKind::SetValue;
  if (api == "SetMaskCount" || api == "SetMaskNorm" || api == "SetVectorMask" || api == "ResetMask")
    return ApiKind::MaskSet;
  if (api.find("Copy") != std::string::npos) return ApiKind::Copy;
  return ApiKind::Other;
}

Path mainPathOf(Pipe p) {
  switch (p) {
    case Pipe::MTE2:
      return Path::GmToUb;
    case Pipe::MTE3:
      return Path::UbToGm;
    case Pipe::MTE1:
      return Path::L1ToL0A;
    case Pipe::FIX:
      return Path::L0CToGm;
    default:
      return Path::UbToUb;
  }
}

bool pathBySpaces(MemSpace src, MemSpace dst, Path& out) {
  using M = MemSpace;
  struct Entry {
    M s, d;
    Path p;
  };
  static constexpr Entry table[] = {
      {M::GM, M::UB, Path::GmToUb},   {M::UB, M::GM, Path::UbToGm},   {M::UB, M::UB, Path::UbToUb},
      {M::GM, M::L1, Path::GmToL1},   {M::L1, M::UB, Path::L1ToUb},   {M::UB, M::L1, Path::UbToL1},
      {M::L1, M::GM, Path::L1ToGm},   {M::L1, M::L0A, Path::L1ToL0A}, {M::L1, M::L0B, Path::L1ToL0B},
      {M::L0C, M::GM, Path::L0CToGm}, {M::L0C, M::L1, Path::L0CToL1}, {M::L0C, M::UB, Path::L0CToUb},
  };
  for (const auto& e : table)
    if (e.s == src && e.d == dst) {
      out = e.p;
      return true;
    }
  return false;
}

bool isTransferPipe(Pipe p) {
  return p == Pipe::MTE1 || p == Pipe::MTE2 || p == Pipe::MTE3 || p == Pipe::FIX;
}

}  // namespace

unsigned elementBytes(const Instr& in) {
  unsigned b = std::max(kwb_sim::dtypeSize(in.dtype), kwb_sim::dtypeSize(in.srcDtype));
  if (b == 0 && in.count > 0 && in.bytes > 0) b = static_cast<unsigned>(in.bytes / in.count);
  if (b == 1 || b == 2 || b == 4 || b == 8) return b;
  return b == 0 ? 2 : (b < 4 ? 4 : 8);
}

LaunchTables LaunchTables::build(const SocParams& soc, const kwb_sim::LaunchTrace& trace) {
  LaunchTables t;
  const size_t n = trace.strings.size();
  t.vectorClass.assign(n, -1);
  t.kind.assign(n, ApiKind::Other);
  for (size_t i = 0; i < n; ++i) {
    auto it = soc.vectorOpClass.find(trace.strings[i]);
    if (it != soc.vectorOpClass.end()) t.vectorClass[i] = static_cast<std::int16_t>(it->second);
    t.kind[i] = kindOf(trace.strings[i]);
  }
  // One sweep to find what the tables cannot cost exactly, so the report can say so once per API.
  std::vector<std::uint8_t> noted(n, 0);
  bool missingPath[kPathCount] = {};
  const InstrCoster coster(soc, t);
  for (const auto& b : trace.blocks) {
    for (const Instr& in : b.instrs) {
      if (in.sync != SyncKind::None) continue;
      const size_t api = in.api < n ? in.api : 0;
      if (in.pipe == Pipe::V && api < n && t.vectorClass[api] < 0 && t.kind[api] != ApiKind::Copy &&
          !noted[api]) {
        noted[api] = 1;
        t.notes.push_back("vector API '" + trace.strings[api] + "' is not in the " + soc.name +
                          " op table; costed as class '" +
                          soc.vectorClasses[static_cast<size_t>(soc.defaultVectorClass)].name + "'");
      }
      if (isTransferPipe(in.pipe) ||
          (in.pipe == Pipe::V && api < n && t.vectorClass[api] < 0 && t.kind[api] == ApiKind::Copy)) {
        Path p;
        if (pathBySpaces(in.srcSpace, in.dstSpace, p) && !soc.paths[static_cast<size_t>(p)].present &&
            !missingPath[static_cast<int>(p)]) {
          missingPath[static_cast<int>(p)] = true;
          t.notes.push_back("transfer path " + std::string(pathKey(p)) + " is not in the " + soc.name +
                            " tables; costed as " + std::string(pathKey(coster.pathOf(in))));
        }
      }
    }
  }
  return t;
}

void DCache::reset(std::uint64_t bytes, std::uint64_t line) {
  line_ = line == 0 ? 64 : line;
  const std::uint64_t lines = std::max<std::uint64_t>(1, bytes / line_);
  tags_.assign(static_cast<size_t>(lines), ~std::uint64_t{0});
}

bool DCache::access(std::uint64_t addr) {
  if (tags_.empty()) reset(std::uint64_t{32} * 1024, 64);
  const std::uint64_t tag = addr / line_;
  std::uint64_t& slot = tags_[static_cast<size_t>(tag % tags_.size())];
  const bool hit = slot == tag;
  slot = tag;
  return hit;
}

Path InstrCoster::pathOf(const Instr& in) const {
  Path p;
  if (pathBySpaces(in.srcSpace, in.dstSpace, p) && soc_.paths[static_cast<size_t>(p)].present) return p;
  p = mainPathOf(in.pipe);
  if (soc_.paths[static_cast<size_t>(p)].present) return p;
  // A coupled SoC has no FIX/L1 paths of its own; the GM read path is always present.
  return in.pipe == Pipe::FIX || in.pipe == Pipe::MTE3 ? Path::UbToGm : Path::GmToUb;
}

double InstrCoster::alignFactor(const Instr& in, Path path) const {
  std::uint64_t a = in.gmAddr;
  if (in.burstCount > 1) a |= in.gmStride;
  const std::uint64_t align = a == 0 ? ~std::uint64_t{0} : (a & (~a + 1));
  // GM->L1 (ND->NZ) moves every row in 32 B C0 blocks: a row that starts off a 32 B boundary makes each
  // block straddle two 32 B sectors, twice the sectors of the aligned row (docs/calibration.md, "GM->L1").
  if (path == Path::GmToL1 && align < 32) return 0.5;
  // A burst aligned to its own size (128, 256 or 512 B, the hardware's burst sizes, docs/ascend-notes.md
  // §1.3) moves whole bursts and loses nothing, however short: data_copy S1/S2 and L1 S1 (128 B bursts on
  // 128 B boundaries) run at full rate (docs/calibration.md, "GM alignment").
  const double bursts = in.burstCount > 0 ? in.burstCount : 1;
  const double len = in.burstLen > 0 ? in.burstLen : std::ceil(static_cast<double>(in.bytes) / bursts);
  const double g = std::max(1.0, soc_.burstGranuleBytes);
  std::uint64_t own = static_cast<std::uint64_t>(g);
  while (own < 512 && static_cast<double>(own) < std::ceil(len / g) * g) own *= 2;
  if (!soc_.alignTiers.empty() && align >= std::min<std::uint64_t>(own, soc_.alignTiers.front().minAlign))
    return soc_.alignTiers.front().factor;
  for (const AlignTier& t : soc_.alignTiers)
    if (align >= t.minAlign) return t.factor;
  return soc_.alignTiers.empty() ? 1.0 : soc_.alignTiers.back().factor;
}

double InstrCoster::issueCycles(const Instr& in) const {
  double c = 0;
  switch (in.sync) {
    case SyncKind::None:
      c = in.pipe == Pipe::S ? 0 : soc_.apiIssueCycles;
      break;
    case SyncKind::EnQue:
    case SyncKind::DeQue:
    case SyncKind::AllocTensor:
    case SyncKind::FreeTensor:
      c = soc_.queueOpCycles;
      break;
    case SyncKind::SetFlag:
    case SyncKind::WaitFlag:
    case SyncKind::Barrier:
      c = soc_.syncIssueCycles;
      break;
  }
  return c * std::max<std::uint32_t>(1, in.times);
}

WorkCost InstrCoster::work(const Instr& in, double gmShare, double l2Hit, double readers) const {
  switch (in.pipe) {
    case Pipe::V: {
      const size_t api = in.api;
      if (api < tables_.vectorClass.size() && tables_.vectorClass[api] < 0 &&
          tables_.kind[api] == ApiKind::Copy)
        return transfer(in, gmShare, l2Hit, readers);
      return vectorOp(in);
    }
    case Pipe::M:
      return cube(in);
    case Pipe::MTE1:
    case Pipe::MTE2:
    case Pipe::MTE3:
    case Pipe::FIX:
      return transfer(in, gmShare, l2Hit, readers);
    default:
      return {};
  }
}

WorkCost InstrCoster::vectorOp(const Instr& in) const {
  const size_t api = in.api;
  const int cls = api < tables_.vectorClass.size() && tables_.vectorClass[api] >= 0 ? tables_.vectorClass[api]
                                                                                    : soc_.defaultVectorClass;
  const unsigned size = elementBytes(in);
  const double perRepeat = kRepeatBytes / size;
  const double reps =
      in.repeat > 0 ? in.repeat : std::ceil(static_cast<double>(in.count) * size / kRepeatBytes);
  // A partial mask still occupies the whole repeat; the count guards against a repeat figure computed
  // with the narrower type of a Cast.
  const double elements = std::max(reps * perRepeat, static_cast<double>(in.count));
  const double times = std::max<std::uint32_t>(1, in.times);
  const double elementsPerCycle = soc_.vectorElementsPerCycle(cls, size);
  WorkCost w;
  w.pureCycles = elements / elementsPerCycle * times;
  // A repeat takes the longer of its computation and its UB accesses; bank conflicts lengthen the
  // accesses (UbBanks.h, docs/calibration.md "UB bank conflicts"), so they cost only where the op is
  // faster than one repeat per access cycle, as the devkit's bank-conflict guide describes for Add.
  const UbBankConflicts banks = ubBankConflicts(soc_.ubBanks, in);
  const double computePerRepeat = perRepeat / elementsPerCycle;
  if (banks.beatsPerRepeat > computePerRepeat) {
    w.bankConflictCycles = (banks.beatsPerRepeat - computePerRepeat) * reps * times;
    w.bankConflictKinds = banks.kinds;
  }
  w.cycles = soc_.vectorHeadCycles * times + w.pureCycles + w.bankConflictCycles;
  return w;
}

WorkCost InstrCoster::transfer(const Instr& in, double gmShare, double l2Hit, double readers) const {
  const TransferPath& tp = soc_.paths[static_cast<size_t>(pathOf(in))];
  const double times = std::max<std::uint32_t>(1, in.times);
  double bytes = static_cast<double>(in.bytes);
  WorkCost w;
  if (!tp.sharesGm) {
    w.pureCycles = bytes / tp.bytesPerCycle * times;
    w.cycles = tp.startCycles * times + w.pureCycles;
    w.latencyCycles = tp.latencyCycles;
    return w;
  }
  // GM moves whole bursts (docs/ascend-notes.md §1.3): each DataCopy block is rounded up to the burst
  // granule and costs a fixed number of cycles of its own (docs/calibration.md: 128 B bursts), and an
  // address below the best alignment loses bandwidth on the core and on the chip alike.
  const double bursts = in.burstCount > 0 ? in.burstCount : 1;
  const double len = in.burstLen > 0 ? in.burstLen : std::ceil(bytes / bursts);
  const double g = soc_.burstGranuleBytes;
  bytes = std::max(bytes, bursts * std::ceil(len / g) * g);
  const double align = alignFactor(in, pathOf(in));
  // Per core: L2-resident bytes at the core's L2 rate, the rest at the path's HBM/DDR rate.
  const bool l2 = soc_.l2AggregateBytesPerCycle > 0;
  const double hit = l2 ? std::clamp(l2Hit, 0.0, 1.0) : 0.0;
  const bool read = in.srcSpace == MemSpace::GM;
  // The path's own L2 rate where the file gives one: the AIC's GM->L1 reads L2 faster than the AIV's
  // GM->UB (docs/calibration.md, "Cube").
  const double l2Rate = tp.l2BytesPerCycle > 0 ? tp.l2BytesPerCycle
                        : read                 ? soc_.l2ReadBytesPerCycle
                                               : soc_.l2WriteBytesPerCycle;
  double coreCycles = bytes * (1 - hit) / tp.bytesPerCycle;
  if (hit > 0) coreCycles += bytes * hit / (l2Rate > 0 ? l2Rate : tp.bytesPerCycle);
  w.gmEquivalentBytes =
      bytes * ((1 - hit) + (l2 ? hit * soc_.gmAggregateBytesPerCycle / soc_.l2AggregateBytesPerCycle : 0)) /
      align;
  coreCycles /= align;
  // A line several blocks read at once is delivered to them one after another (SameLineReaders.h,
  // docs/calibration.md "Same-address reads"): each gets its share of the line's rate.
  if (read && readers > 1 && soc_.sameLineReadBytesPerCycle > 0)
    coreCycles = std::max(coreCycles, bytes / align * readers / soc_.sameLineReadBytesPerCycle);
  const double sharedCycles = gmShare > 0 ? w.gmEquivalentBytes / gmShare : 0;
  w.gm = true;
  w.pureCycles = std::max(coreCycles, sharedCycles) * times;
  w.gmEquivalentBytes *= times;
  // The per-burst cost belongs to the bursts that go to HBM/DDR: a burst served from L2 costs nothing of
  // its own (docs/calibration.md, "Per-burst cost": the one-block matmul's 384 L2-hit bursts fit in its
  // measured MTE2 time only without it).
  w.cycles = (tp.startCycles + bursts * soc_.gmBurstCycles * (1 - hit)) * times + w.pureCycles;
  w.latencyCycles = tp.latencyCycles;
  return w;
}

WorkCost InstrCoster::cube(const Instr& in) const {
  // Mmad records carry the multiply-accumulate count (m*n*k, padded to the cube shape) in `count`.
  const unsigned size = kwb_sim::dtypeSize(in.srcDtype != kwb_sim::DType::None ? in.srcDtype : in.dtype);
  const double times = std::max<std::uint32_t>(1, in.times);
  WorkCost w;
  w.pureCycles = static_cast<double>(in.count) / soc_.cubeMacsPerCycleFor(size) * times;
  w.cycles = soc_.cubeHeadCycles * times + w.pureCycles;
  return w;
}

std::uint64_t scalarGmExtent(const Instr& in) {
  const std::uint64_t stride = in.bytes > 0 ? in.bytes : std::max(1u, kwb_sim::dtypeSize(in.dtype));
  return stride * std::max<std::uint32_t>(1, in.times);
}

std::uint64_t InstrCoster::touchLines(const Instr& in, DCache& dcache) const {
  const std::uint64_t line = std::max<std::uint64_t>(1, soc_.dcacheLineBytes);
  const std::uint64_t first = in.gmAddr / line, last = (in.gmAddr + scalarGmExtent(in) - 1) / line;
  std::uint64_t misses = 0;
  for (std::uint64_t l = first; l <= last; ++l)
    if (!dcache.access(l * line)) ++misses;
  return std::min<std::uint64_t>(misses, std::max<std::uint32_t>(1, in.times));
}

double InstrCoster::scalar(const Instr& in, DCache& dcache) const {
  const double times = std::max<std::uint32_t>(1, in.times);
  const ApiKind k = in.api < tables_.kind.size() ? tables_.kind[in.api] : ApiKind::Other;
  switch (k) {
    case ApiKind::GetValue:
      if (in.srcSpace == MemSpace::GM) {
        // A folded record walks ascending contiguous elements (trace.h): only the first access to
        // each DCache line can miss.
        const std::uint64_t misses = touchLines(in, dcache);
        return misses * soc_.gmGetValueMissCycles +
               (times - static_cast<double>(misses)) * soc_.gmGetValueHitCycles;
      }
      return soc_.ubGetValueCycles * times;
    case ApiKind::SetValue:
      if (in.dstSpace == MemSpace::GM) {
        touchLines(in, dcache);
        return soc_.gmSetValueCycles * times;
      }
      return soc_.ubSetValueCycles * times;
    case ApiKind::MaskSet:
      return soc_.maskSetCycles * times;
    default:
      return soc_.scalarDefaultCycles * times;
  }
}

}  // namespace kwb::sim::detail
