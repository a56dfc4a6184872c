// SPDX-License-Identifier: MIT
#include "core/emulator/costmodel/CostModel.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unordered_map>

#include "core/emulator/analysis/CrossCoreOrder.h"
#include "core/emulator/costmodel/BlockTimeline.h"
#include "core/emulator/costmodel/InstrCost.h"
#include "core/emulator/costmodel/L2Model.h"
#include "core/emulator/costmodel/SameLineReaders.h"

namespace kwb::sim {

using kwb_sim::MemSpace;
using kwb_sim::Pipe;
using kwb_sim::SyncKind;

namespace {

constexpr int kMaxSharingPasses = 8;
// Rounds of cross-core wait timing per costing: each round re-runs the lanes with the set times of the
// last one, so a chain of n hand-offs needs n rounds (docs/emulator.md, "Mixed AIC/AIV kernels").
constexpr int kMaxFlagRounds = 12;
constexpr int kGmPipes = 3;  // MTE2, MTE3, FIX can each have one GM transfer in flight per core

struct Schedule {
  std::vector<double> start;
  std::vector<int> core;
  double makespan = 0;
};

// Blocks go to cores in index order, each to the core that frees first (lowest id on ties): what the
// hardware's block dispatcher does when there are more blocks than cores.
Schedule schedule(const std::vector<detail::BlockRun>& runs, int cores, double blockStart) {
  Schedule s;
  s.start.resize(runs.size());
  s.core.resize(runs.size());
  std::vector<double> coreFree(static_cast<size_t>(std::max(1, cores)), 0.0);
  for (size_t i = 0; i < runs.size(); ++i) {
    size_t best = 0;
    for (size_t c = 1; c < coreFree.size(); ++c)
      if (coreFree[c] < coreFree[best]) best = c;
    s.start[i] = coreFree[best];
    s.core[i] = static_cast<int>(best);
    coreFree[best] += blockStart + runs[i].end;
    s.makespan = std::max(s.makespan, coreFree[best]);
  }
  return s;
}

const char* kindOfKernel(const kwb_sim::LaunchTrace& trace) {
  bool vec = false, cube = false;
  for (const auto& b : trace.blocks)
    for (const auto& in : b.instrs) {
      if (in.sync != SyncKind::None) continue;
      // L1 belongs to the cube core: a kernel that only copies GM->L1 (data_copy_l1) runs on the AICs.
      if (in.pipe == Pipe::M || in.pipe == Pipe::MTE1 || in.pipe == Pipe::FIX ||
          in.dstSpace == MemSpace::L1 || in.srcSpace == MemSpace::L1)
        cube = true;
      if (in.pipe == Pipe::V) vec = true;
      if (vec && cube) return "mix";
    }
  return cube ? "cube" : "vector";
}

void attributeLines(const kwb_sim::LaunchTrace& trace, const detail::InstrCoster& coster, Profile& p) {
  std::unordered_map<std::uint64_t, size_t> index;
  index.reserve(256);
  for (size_t b = 0; b < trace.blocks.size(); ++b) {
    const auto& instrs = trace.blocks[b].instrs;
    const InstrTiming* t = p.timings.data() + p.blockOffset[b];
    for (size_t k = 0; k < instrs.size(); ++k) {
      const auto& in = instrs[k];
      const std::uint64_t key = (std::uint64_t{in.file} << 32) | in.line;
      auto [it, added] = index.try_emplace(key, p.lines.size());
      if (added) {
        LineCost lc;
        lc.file = trace.str(in.file);
        lc.line = in.line;
        lc.api = trace.str(in.api);
        p.lines.push_back(std::move(lc));
      }
      LineCost& lc = p.lines[it->second];
      lc.calls += std::max<std::uint32_t>(1, in.times);
      const double span = t[k].end - t[k].start;
      lc.cycles += coster.issueCycles(in);
      const bool waits = in.sync == SyncKind::WaitFlag || in.sync == SyncKind::DeQue ||
                         in.sync == SyncKind::AllocTensor || in.sync == SyncKind::Barrier;
      if (in.sync == SyncKind::None)
        lc.cycles += span;
      else if (waits)
        lc.waitCycles += span;
    }
  }
  std::sort(p.lines.begin(), p.lines.end(), [](const LineCost& a, const LineCost& b) {
    if (a.cycles != b.cycles) return a.cycles > b.cycles;
    if (a.file != b.file) return a.file < b.file;
    return a.line < b.line;
  });
}

// One hint per source line whose vector records lose time to UB bank conflicts (docs/calibration.md).
void bankConflictHints(const kwb_sim::LaunchTrace& trace, const detail::InstrCoster& coster, Profile& p) {
  struct Acc {
    PerfHint hint;
    std::uint8_t kinds = 0;
  };
  std::unordered_map<std::uint64_t, Acc> byLine;
  for (const auto& block : trace.blocks)
    for (const auto& in : block.instrs) {
      if (in.pipe != Pipe::V || in.sync != SyncKind::None) continue;
      const detail::WorkCost w = coster.work(in, 0);
      if (w.bankConflictCycles <= 0) continue;
      Acc& a = byLine[(std::uint64_t{in.file} << 32) | in.line];
      if (a.hint.kind.empty()) {
        a.hint.kind = "ub-bank-conflict";
        a.hint.file = trace.str(in.file);
        a.hint.line = in.line;
        a.hint.api = trace.str(in.api);
      }
      a.hint.calls += std::max<std::uint32_t>(1, in.times);
      a.hint.cycles += w.bankConflictCycles;
      a.kinds |= w.bankConflictKinds;
      p.bankConflictCycles += w.bankConflictCycles;
    }
  for (auto& [key, a] : byLine) {
    PerfHint& h = a.hint;
    h.conflict = ubBankConflictName(a.kinds);
    for (const LineCost& lc : p.lines)
      if (lc.line == h.line && lc.file == h.file && lc.cycles > 0) h.share = h.cycles / lc.cycles;
    char pct[32];
    std::snprintf(pct, sizeof pct, "%.0f", h.share * 100);
    h.message =
        "UB bank conflict (" + h.conflict + ") in " + h.api + " at " + h.file + ":" + std::to_string(h.line) +
        ": " + std::to_string(static_cast<long long>(std::llround(h.cycles))) + " cycles over " +
        std::to_string(h.calls) + " calls (" + pct + " % of the line's time). " +
        ((a.kinds & kReadReadConflict) != 0
             ? "The sources' DataBlocks fall into the same bank groups: start one source buffer 256 B "
               "(8 rows of 32 B) further into the UB. "
             : "") +
        ((a.kinds & kReadWriteConflict) != 0
             ? "The destination shares a bank with a source: place it in another 64 KB third of the UB "
               "or use a separate buffer. "
             : "") +
        "Performance hint, not an error.";
    p.hints.push_back(std::move(h));
  }
  std::sort(p.hints.begin(), p.hints.end(), [](const PerfHint& a, const PerfHint& b) {
    if (a.cycles != b.cycles) return a.cycles > b.cycles;
    if (a.file != b.file) return a.file < b.file;
    return a.line < b.line;
  });
}

void classifyBound(Profile& p, const SocParams& soc) {
  const auto ratio = [&](Pipe x) { return p.pipes[static_cast<size_t>(x)].ratio; };
  double gmUtil = 0;
  if (p.kernelCycles > 0 && soc.gmAggregateBytesPerCycle > 0)
    gmUtil = p.gmEquivalentBytes / p.kernelCycles / soc.gmAggregateBytesPerCycle;
  const double memory =
      std::max({ratio(Pipe::MTE2), ratio(Pipe::MTE3), ratio(Pipe::MTE1), ratio(Pipe::FIX), gmUtil});
  const std::pair<const char*, double> candidates[] = {
      {"memory", memory}, {"vector", ratio(Pipe::V)}, {"cube", ratio(Pipe::M)}, {"scalar", ratio(Pipe::S)}};
  const auto* best = &candidates[0];
  for (const auto& c : candidates)
    if (c.second > best->second) best = &c;
  // No unit busy for half the time: the kernel mostly waits on hand-offs, latency and fixed costs.
  p.bound = best->second >= 0.5 ? best->first : "latency";
}

}  // namespace

Profile simulate(const SocParams& soc, const kwb_sim::LaunchTrace& trace, const SimOptions& options) {
  Profile p;
  p.soc = soc.name;
  p.socOrigin = soc.origin;
  p.kernel = trace.kernel;
  p.clockMhz = soc.clockMhz;
  p.blockDim = trace.blockDim;
  p.coupled = soc.coupled;
  p.kernelKind = kindOfKernel(trace);
  p.cores = p.kernelKind == "vector" ? soc.vectorKernelCores : soc.cubeKernelCores;
  p.coresPerBlock = std::max<std::uint32_t>(1, trace.coresPerBlock);
  if (p.coresPerBlock > 1) {
    // A mix kernel: every block is an AIC and 1 or 2 AIVs running at once, each its own lane; the SoC's
    // AI cores (one AIC + two AIV each on 910B) bound how many blocks run together (docs/emulator.md,
    // "Mixed AIC/AIV kernels").
    p.kernelKind = "mix";
    const int groups = std::min(
        soc.aicCores > 0 ? soc.aicCores : soc.cubeKernelCores,
        soc.aivCores > 0 ? soc.aivCores / static_cast<int>(p.coresPerBlock - 1) : soc.cubeKernelCores);
    p.cores = std::max(1, groups) * static_cast<int>(p.coresPerBlock);
  }

  const detail::LaunchTables tables = detail::LaunchTables::build(soc, trace);
  p.notes = tables.notes;
  if (!trace.soc.empty() && trace.soc != soc.name)
    p.notes.push_back("trace was recorded for " + trace.soc + " but costed with " + soc.name + " parameters");
  if (std::size_t{trace.blockDim} * p.coresPerBlock != trace.blocks.size())
    p.notes.push_back("blockDim is " + std::to_string(trace.blockDim) + " but the trace holds " +
                      std::to_string(trace.blocks.size()) + " blocks; only those are costed");

  const size_t nb = trace.blocks.size();
  p.blockOffset.resize(nb + 1);
  size_t total = 0;
  for (size_t b = 0; b < nb; ++b) {
    p.blockOffset[b] = total;
    total += trace.blocks[b].instrs.size();
  }
  p.blockOffset[nb] = total;
  detail::BlockTimeline timeline(soc, tables, options);
  const double agg = soc.gmAggregateBytesPerCycle;
  const std::vector<float> l2Hit = soc.l2AggregateBytesPerCycle > 0
                                       ? detail::l2HitShares(soc, trace, p.blockOffset)
                                       : std::vector<float>{};
  const std::vector<float> readers =
      soc.sameLineReadBytesPerCycle > 0
          ? detail::sameLineReaders(trace, p.blockOffset, soc.sameAddressGranuleBytes)
          : std::vector<float>{};

  // One costing of every block at a given per-transfer GM bandwidth cap, then the wave schedule.
  struct Pass {
    std::vector<detail::BlockRun> runs;
    Schedule sched;
    std::vector<InstrTiming> timings;
    std::vector<FlowLink> flows;
    double share = 0;  // 0 = every transfer at its path's own bandwidth
    double bytes = 0;
    double rate() const { return sched.makespan > 0 ? bytes / sched.makespan : 0; }
    double streams() const {
      double busy = 0;
      for (const auto& r : runs) busy += r.gmBusy;
      return sched.makespan > 0 ? busy / sched.makespan : 0;
    }
  };
  // Cross-core waits: each returns no earlier than the sets that released it arrive (CrossCoreOrder's
  // replay says which). Without this a mix launch would cost as its slowest process, not as the
  // AIC-then-AIV chain its flags impose.
  const std::vector<FlagRelease> releases =
      p.coresPerBlock > 1 || needsCrossCoreOrder(trace) ? flagReleases(trace) : std::vector<FlagRelease>{};
  std::vector<double> releaseAt(releases.empty() ? 0 : total, -1.0);
  bool flagsConverged = true;
  // Moves each matched wait's release to its sets' arrival under `sched`; true when one moved later.
  const auto timeReleases = [&](const Pass& ps) {
    bool changed = false;
    for (const FlagRelease& r : releases) {
      double arrival = -1;
      for (const SetRecord& set : r.sets)
        arrival = std::max(arrival, ps.sched.start[set.proc] +
                                        ps.timings[p.blockOffset[set.proc] + set.record].end +
                                        soc.flagLatencyCycles);
      double& at = releaseAt[p.blockOffset[r.proc] + r.record];
      const double local = arrival - ps.sched.start[r.proc];
      if (local > at + 1e-6) {
        at = local;
        changed = true;
      }
    }
    return changed;
  };
  auto runPass = [&](Pass& ps, double cap) {
    ps.share = cap;
    ps.runs.resize(nb);
    ps.timings.resize(total);
    std::fill(releaseAt.begin(), releaseAt.end(), -1.0);
    for (int round = 0;; ++round) {
      ps.flows.clear();
      ps.flows.reserve(total / 4);
      ps.bytes = 0;
      for (size_t b = 0; b < nb; ++b) {
        ps.runs[b] = timeline.run(trace.blocks[b], cap, ps.timings.data() + p.blockOffset[b], &ps.flows,
                                  static_cast<std::uint32_t>(b),
                                  l2Hit.empty() ? nullptr : l2Hit.data() + p.blockOffset[b],
                                  readers.empty() ? nullptr : readers.data() + p.blockOffset[b],
                                  releaseAt.empty() ? nullptr : releaseAt.data() + p.blockOffset[b]);
        // HBM-equivalent bytes: L2 hits weigh by the HBM/L2 bandwidth ratio, unaligned bytes more.
        ps.bytes += ps.runs[b].gmEquivalent;
      }
      ps.sched = schedule(ps.runs, p.cores, soc.blockStartCycles);
      if (releases.empty() || !timeReleases(ps)) break;
      if (round + 1 >= kMaxFlagRounds) {
        flagsConverged = false;
        break;
      }
    }
    ++p.passes;
  };
  const auto feasible = [&](const Pass& ps) { return ps.bytes == 0 || ps.rate() <= agg * (1 + 1e-9); };

  // Shared GM bandwidth: the transfers in flight split the chip's aggregate bandwidth. How many are in
  // flight depends on how long each takes, so search the per-transfer cap: the largest cap (within 0.5%)
  // at which the launch as a whole moves bytes no faster than the aggregate allows. The first guess is
  // aggregate / (time-averaged transfers in flight); the next ones scale the cap by target/achieved rate
  // (the rate of a saturated launch is proportional to the cap) and fall back to bisection.
  Pass cur, best;
  runPass(cur, 0);
  bool haveBest = feasible(cur);
  if (haveBest) {
    std::swap(best, cur);
  } else {
    double lo = 0, hi = 0;  // largest feasible / smallest infeasible cap tried (0 = none yet)
    double share = agg / std::max(cur.streams(), 1e-9);
    for (int i = 1; i < kMaxSharingPasses; ++i) {
      runPass(cur, share);
      const double rate = cur.rate();
      if (feasible(cur)) {
        lo = share;
        std::swap(best, cur);
        haveBest = true;
        if (rate >= agg * 0.995) break;
      } else {
        hi = share;
      }
      if (lo > 0 && hi > 0 && hi / lo < 1.005) break;
      double next = share * agg * 0.998 / std::max(rate, 1e-9);  // aim just under the limit
      if ((lo > 0 && next <= lo) || (hi > 0 && next >= hi)) next = lo > 0 && hi > 0 ? (lo + hi) / 2 : next;
      if (hi > 0 && next >= hi) next = hi * 0.995;
      share = next;
    }
  }
  if (!haveBest) {
    // Safe bound: no more than kGmPipes transfers per used core can be in flight at once.
    runPass(best, agg / (kGmPipes * std::max(1, std::min<int>(p.cores, static_cast<int>(nb)))));
    p.notes.push_back("GM bandwidth sharing did not converge; used the conservative per-transfer share");
  }
  if (!flagsConverged)
    p.notes.push_back("cross-core waits: the chain of flag hand-offs is longer than " +
                      std::to_string(kMaxFlagRounds) +
                      " timing rounds; later waits are timed too early (the launch time is a lower bound)");
  const std::vector<detail::BlockRun>& runs = best.runs;
  const Schedule& sched = best.sched;
  p.gmShareBytesPerCycle = best.share;
  p.gmConcurrentStreams = best.streams();

  // Per block and aggregate figures.
  p.timings = std::move(best.timings);
  p.flows = std::move(best.flows);
  p.kernelCycles = sched.makespan;
  p.overheadCycles = nb > 0 ? soc.taskOverheadCycles : 0;
  p.totalCycles = p.kernelCycles + p.overheadCycles;
  p.totalUs = p.totalCycles / soc.clockMhz;
  p.coresUsed = std::min<int>(p.cores, static_cast<int>(nb));
  p.waves = p.cores > 0
                ? static_cast<int>((nb + static_cast<size_t>(p.cores) - 1) / static_cast<size_t>(p.cores))
                : 0;
  double blockCyclesSum = 0, vectorPure = 0, cubePure = 0;
  p.blocks.resize(nb);
  for (size_t b = 0; b < nb; ++b) {
    const auto& r = runs[b];
    BlockProfile& bp = p.blocks[b];
    bp.block = trace.blocks[b].block;
    bp.coreKind = trace.blocks[b].core == 1 ? "AIC" : (trace.blocks[b].core == 2 ? "AIV" : "");
    bp.subBlock = trace.blocks[b].subBlock;
    bp.core = sched.core[b];
    bp.startCycle = sched.start[b];
    bp.cycles = soc.blockStartCycles + r.end;
    bp.busy = r.busy;
    // The block start is scalar work (argument and tiling loads, TPipe/InitBuffer set-up): msprof counts it
    // in aiv_scalar_time (docs/calibration.md).
    bp.busy[static_cast<size_t>(Pipe::S)] += soc.blockStartCycles;
    bp.wait = r.wait;
    bp.gmToUbBytes = r.gmToUb;
    bp.ubToGmBytes = r.ubToGm;
    bp.gmReadBytes = r.gmRead;
    bp.gmWriteBytes = r.gmWrite;
    bp.mte2Bytes = r.mte2Bytes;
    bp.mte3Bytes = r.mte3Bytes;
    bp.records = trace.blocks[b].instrs.size();
    bp.complete = trace.blocks[b].complete;
    bp.dropped = trace.blocks[b].dropped;
    if (!bp.complete)
      p.notes.push_back("block " + std::to_string(bp.block) + " did not finish; its timeline is partial");
    if (bp.dropped > 0)
      p.notes.push_back("block " + std::to_string(bp.block) + " dropped " + std::to_string(bp.dropped) +
                        " trace records; its time is an underestimate");
    blockCyclesSum += bp.cycles;
    for (int i = 0; i < kPipes; ++i)
      p.pipes[static_cast<size_t>(i)].busyCycles += bp.busy[static_cast<size_t>(i)];
    p.gmEquivalentBytes += r.gmEquivalent;
    p.gmToUbBytes += r.gmToUb;
    p.ubToGmBytes += r.ubToGm;
    p.gmReadBytes += r.gmRead;
    p.gmWriteBytes += r.gmWrite;
    vectorPure += r.vectorPure;
    cubePure += r.cubePure;
  }
  for (auto& ps : p.pipes) {
    ps.used = ps.busyCycles > 0;
    ps.ratio = blockCyclesSum > 0 ? ps.busyCycles / blockCyclesSum : 0;
  }
  const double gmTotal = static_cast<double>(p.gmReadBytes + p.gmWriteBytes);
  p.achievedGbps = p.totalUs > 0 ? gmTotal / p.totalUs / 1e3 : 0;
  if (!l2Hit.empty() && gmTotal > 0) {
    double hitBytes = 0;
    for (size_t b = 0; b < nb; ++b)
      for (size_t k = 0; k < trace.blocks[b].instrs.size(); ++k)
        hitBytes += static_cast<double>(trace.blocks[b].instrs[k].bytes) * l2Hit[p.blockOffset[b] + k];
    p.l2HitShare = std::min(1.0, hitBytes / gmTotal);
  }

  // Roofline floor of this launch on the whole chip: the slowest of moving its GM bytes at the aggregate
  // bandwidth, its vector work on every vector core, its cube work on every cube core.
  const double memFloor = agg > 0 ? p.gmEquivalentBytes / agg : 0;
  const double vecFloor = vectorPure / std::max(1, soc.vectorKernelCores);
  const double cubeFloor = cubePure / std::max(1, soc.cubeKernelCores);
  p.floorMemoryUs = memFloor / soc.clockMhz;
  p.floorVectorUs = vecFloor / soc.clockMhz;
  p.floorCubeUs = cubeFloor / soc.clockMhz;
  p.floorUs = std::max({p.floorMemoryUs, p.floorVectorUs, p.floorCubeUs});

  classifyBound(p, soc);
  // A cube kernel quotes the cube figure whatever its bound: the calibration table's cube kernels (the
  // matmul) are its only evidence for the cube pipes, the L0 paths and FIX (docs/calibration.md, "Cube").
  std::string errorKind = p.kernelKind == "cube" && soc.expectedErrorPct.count("cube") ? "cube" : p.bound;
  // A memory-bound kernel whose blocks mostly read the same data quotes the shared-read figure, a cube
  // kernel (GM->L1 copies of the same matrix) as well as a vector one: its time depends on how the blocks
  // drift into and out of each other's reads (docs/calibration.md, "Same-address reads").
  if (p.bound == "memory" && soc.expectedErrorPct.count("shared_read") &&
      detail::sharedReadShare(trace, soc.sameAddressGranuleBytes) >= 0.5)
    errorKind = "shared_read";
  if (auto it = soc.expectedErrorPct.find(errorKind); it != soc.expectedErrorPct.end())
    p.expectedErrorPct = it->second;
  const detail::InstrCoster coster(soc, tables);
  attributeLines(trace, coster, p);
  if (soc.ubBanks.present()) bankConflictHints(trace, coster, p);
  return p;
}

}  // namespace kwb::sim
