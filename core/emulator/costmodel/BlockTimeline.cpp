// SPDX-License-Identifier: MIT
#include "core/emulator/costmodel/BlockTimeline.h"

#include <algorithm>

namespace kwb::sim::detail {

using kwb_sim::Instr;
using kwb_sim::MemSpace;
using kwb_sim::Pipe;
using kwb_sim::SyncKind;

namespace {

constexpr std::int64_t kDenseCap = 1 << 16;
constexpr int kDenseFlagIds = 64;  // event ids 0..7 on hardware; wider so misuse still pairs up
constexpr int S = static_cast<int>(Pipe::S);

int pipeIndex(Pipe p) {
  const int i = static_cast<int>(p);
  return i < kPipes ? i : S;
}

std::int64_t flagKey(int src, int dst, std::int32_t id) {
  const std::int64_t pair = src * kPipes + dst;
  if (id >= 0 && id < kDenseFlagIds) return pair * kDenseFlagIds + id;
  return (std::int64_t{1} << 40) + (pair << 32) + static_cast<std::uint32_t>(id);
}

std::uint64_t gmExtent(const Instr& in) {
  if (in.burstCount > 1) return (in.burstCount - 1) * in.gmStride + in.burstLen;
  return in.bytes;
}

}  // namespace

void ReadyTable::reset(std::size_t denseSize) {
  dense_.assign(denseSize, Slot{});
  sparse_.clear();
}

void ReadyTable::set(std::int64_t key, double t, std::uint32_t from) {
  if (key >= 0 && key < kDenseCap) {
    if (static_cast<std::size_t>(key) >= dense_.size()) dense_.resize(static_cast<std::size_t>(key) + 1);
    dense_[static_cast<std::size_t>(key)] = Slot{t, from};
  } else {
    sparse_[key] = Slot{t, from};
  }
}

bool ReadyTable::get(std::int64_t key, double& t, std::uint32_t& from) const {
  const Slot* s = nullptr;
  if (key >= 0 && key < kDenseCap) {
    if (static_cast<std::size_t>(key) < dense_.size()) s = &dense_[static_cast<std::size_t>(key)];
  } else if (auto it = sparse_.find(key); it != sparse_.end()) {
    s = &it->second;
  }
  if (!s || s->t < 0) return false;
  t = s->t;
  from = s->from;
  return true;
}

BlockTimeline::BlockTimeline(const SocParams& soc, const LaunchTables& tables, const SimOptions& options)
    : soc_(soc), options_(options), coster_(soc, tables) {}

void BlockTimeline::remember(MemSpace space, std::uint64_t lo, std::uint64_t len, bool write, double done) {
  if (len == 0 || space == MemSpace::None) return;
  accesses_[accessCount_++ % kAccessRing] = Access{lo, lo + len, done, space, write};
}

double BlockTimeline::conflictReady(MemSpace space, std::uint64_t lo, std::uint64_t len, bool write) const {
  double ready = 0;
  const std::uint64_t hi = lo + std::max<std::uint64_t>(len, 1);
  const std::size_t n = std::min(accessCount_, kAccessRing);
  for (std::size_t i = 0; i < n; ++i) {
    const Access& a = accesses_[i];
    if (a.space == space && a.lo < hi && lo < a.hi && (write || a.write)) ready = std::max(ready, a.done);
  }
  return ready;
}

void BlockTimeline::rememberWork(const Instr& in, double done) {
  // Only what a later scalar access could depend on (auto-sync orders S after V/MTE2/MTE3).
  const MemSpace dst = in.dstSpace == MemSpace::None && in.pipe == Pipe::V ? MemSpace::UB : in.dstSpace;
  const MemSpace src = in.srcSpace == MemSpace::None && in.pipe == Pipe::V ? MemSpace::UB : in.srcSpace;
  if (dst == MemSpace::GM)
    remember(MemSpace::GM, in.gmAddr, gmExtent(in), true, done);
  else
    remember(dst, in.dstOff, in.dstLen, true, done);
  if (src == MemSpace::GM)
    remember(MemSpace::GM, in.gmAddr, gmExtent(in), false, done);
  else
    remember(src, in.src0Off, in.src0Len, false, done);
  remember(src == MemSpace::GM ? MemSpace::UB : src, in.src1Off, in.src1Len, false, done);
}

BlockRun BlockTimeline::run(const kwb_sim::BlockTrace& block, double gmShare, InstrTiming* timings,
                            std::vector<FlowLink>* flows, std::uint32_t blockIndex, const float* l2Hit,
                            const float* sameLineReaders, const double* releaseAt) {
  BlockRun r;
  std::array<double, kPipes> free{}, done{};
  std::array<std::uint64_t, kPipes> issued{};
  const std::size_t depth = static_cast<std::size_t>(std::max(1, soc_.pipeQueueDepth));
  queueRing_.assign(kPipes * depth, 0.0);
  flags_.reset(static_cast<std::size_t>(kPipes) * kPipes * kDenseFlagIds);
  enq_.reset(64);
  freed_.reset(64);
  dcache_.reset(soc_.dcacheBytes, soc_.dcacheLineBytes);
  accessCount_ = 0;

  double s = 0;  // the scalar unit's clock: everything is issued from it in program order
  std::uint32_t prevFile = 0, prevLine = 0;
  const double flagLatency = soc_.flagLatencyCycles;
  const auto& instrs = block.instrs;

  for (std::size_t k = 0; k < instrs.size(); ++k) {
    const Instr& in = instrs[k];
    // Loop control: a jump back to an earlier line of the same file closes one loop iteration.
    if (in.line != 0) {
      if (prevLine != 0 && in.file == prevFile && in.line < prevLine) {
        s += soc_.loopIterationCycles;
        r.busy[S] += soc_.loopIterationCycles;
      }
      prevFile = in.file;
      prevLine = in.line;
    }
    const double issue = coster_.issueCycles(in);
    s += issue;
    r.busy[S] += issue;
    double tStart = s, tEnd = s;

    switch (in.sync) {
      case SyncKind::None: {
        const int p = pipeIndex(in.pipe);
        if (p == S) {
          if (options_.autoSync) {
            const bool write = in.dstSpace == MemSpace::GM || in.dstLen > 0;
            double ready = 0;
            if (write)
              ready = in.dstSpace == MemSpace::GM
                          ? conflictReady(MemSpace::GM, in.gmAddr, scalarGmExtent(in), true)
                          : conflictReady(in.dstSpace == MemSpace::None ? MemSpace::UB : in.dstSpace,
                                          in.dstOff, in.dstLen, true);
            else if (in.srcSpace == MemSpace::GM)
              ready = conflictReady(MemSpace::GM, in.gmAddr, scalarGmExtent(in), false);
            else if (in.src0Len > 0)
              ready = conflictReady(in.srcSpace == MemSpace::None ? MemSpace::UB : in.srcSpace, in.src0Off,
                                    in.src0Len, false);
            if (ready > s) {
              r.wait[S] += ready - s;
              s = ready;
            }
          }
          tStart = s;
          const double d = coster_.scalar(in, dcache_);
          s += d;
          r.busy[S] += d;
          tEnd = s;
          break;
        }
        // The scalar unit stalls while the pipe's instruction queue is full.
        double& slot = queueRing_[static_cast<std::size_t>(p) * depth + issued[p] % depth];
        if (issued[p] >= depth && slot > s) {
          r.wait[S] += slot - s;
          s = slot;
        }
        const WorkCost w =
            coster_.work(in, gmShare, l2Hit ? l2Hit[k] : 0.0, sameLineReaders ? sameLineReaders[k] : 1.0);
        tStart = std::max(s, free[p]);
        tEnd = tStart + w.cycles;
        slot = tStart;
        ++issued[p];
        free[p] = tEnd;
        done[p] = std::max(done[p], tEnd + w.latencyCycles);
        r.busy[p] += w.cycles;
        if (w.gm) {
          r.gmBusy += w.cycles;
          r.gmEquivalent += w.gmEquivalentBytes;
        }
        if (in.pipe == Pipe::V) r.vectorPure += w.pureCycles;
        if (in.pipe == Pipe::M) r.cubePure += w.pureCycles;
        const std::uint64_t bytes = in.bytes * std::max<std::uint32_t>(1, in.times);
        if (in.pipe == Pipe::MTE2) r.mte2Bytes += bytes;
        if (in.pipe == Pipe::MTE3) r.mte3Bytes += bytes;
        if (w.gm) {
          const Path path = coster_.pathOf(in);
          const bool read = path == Path::GmToUb || path == Path::GmToL1;
          (read ? r.gmRead : r.gmWrite) += bytes;
          if (path == Path::GmToUb) r.gmToUb += bytes;
          if (path == Path::UbToGm) r.ubToGm += bytes;
        }
        if (options_.autoSync) rememberWork(in, done[p]);
        break;
      }
      case SyncKind::SetFlag:
      case SyncKind::EnQue:
      case SyncKind::FreeTensor: {
        // Fires once everything issued earlier on the setting pipe has finished (and is visible).
        const int src = pipeIndex(in.syncSrc == Pipe::None ? in.pipe : in.syncSrc);
        const double t = src == S ? s : std::max(s, done[src]);
        const std::int64_t key =
            in.sync == SyncKind::SetFlag ? flagKey(src, pipeIndex(in.syncDst), in.syncId) : in.syncId;
        ReadyTable& table =
            in.sync == SyncKind::SetFlag ? flags_ : (in.sync == SyncKind::EnQue ? enq_ : freed_);
        table.set(key, t + flagLatency, static_cast<std::uint32_t>(k));
        tStart = tEnd = t;
        break;
      }
      case SyncKind::WaitFlag:
      case SyncKind::DeQue:
      case SyncKind::AllocTensor: {
        const int dst = pipeIndex(in.syncDst == Pipe::None ? in.pipe : in.syncDst);
        const std::int64_t key =
            in.sync == SyncKind::WaitFlag ? flagKey(pipeIndex(in.syncSrc), dst, in.syncId) : in.syncId;
        const ReadyTable& table =
            in.sync == SyncKind::WaitFlag ? flags_ : (in.sync == SyncKind::DeQue ? enq_ : freed_);
        double ready = 0;
        std::uint32_t from = 0;
        const bool paired = table.get(key, ready, from);
        if (dst == S) {
          tStart = s;
          s = std::max(s, ready);
          r.wait[S] += s - tStart;
          tEnd = s;
        } else {
          tStart = std::max(s, free[dst]);
          tEnd = std::max(tStart, ready);
          r.wait[dst] += tEnd - tStart;
          free[dst] = tEnd;
          done[dst] = std::max(done[dst], tEnd);
        }
        if (paired && flows) flows->push_back(FlowLink{blockIndex, from, static_cast<std::uint32_t>(k)});
        break;
      }
      case SyncKind::Barrier: {
        const Pipe bp = in.syncSrc == Pipe::None ? in.pipe : in.syncSrc;
        if (bp == Pipe::All) {
          double t = s;
          for (int p = 0; p < kPipes; ++p) t = std::max({t, free[p], done[p]});
          t += soc_.barrierCycles;
          // A cross-core wait also returns no earlier than its set on the other core arrives.
          if (releaseAt && releaseAt[k] > t) t = releaseAt[k];
          r.wait[S] += t - s;
          tStart = s;
          for (int p = 0; p < kPipes; ++p) free[p] = done[p] = std::max(done[p], t);
          s = tEnd = t;
        } else if (pipeIndex(bp) != S) {
          const int p = pipeIndex(bp);
          tStart = std::max(s, free[p]);
          tEnd = std::max(tStart, done[p]) + soc_.barrierCycles;
          r.wait[p] += tEnd - tStart;
          free[p] = tEnd;
          done[p] = std::max(done[p], tEnd);
        }
        break;
      }
    }
    if (timings) timings[k] = InstrTiming{tStart, tEnd};
  }
  r.end = s;
  for (int p = 0; p < kPipes; ++p) r.end = std::max({r.end, free[p], done[p]});
  return r;
}

}  // namespace kwb::sim::detail
