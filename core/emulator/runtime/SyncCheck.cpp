// SPDX-License-Identifier: MIT
// Cross-pipe ordering model (missing-sync, unpaired-flag). Each pipe is in order; pipes run in parallel.
// Vector clocks: vc[p][q] = the last instruction of pipe q known to have finished before pipe p's next
// instruction. SetFlag/EnQue/FreeTensor snapshot the setter's clock; WaitFlag/DeQue/AllocTensor merge it;
// PipeBarrier<PIPE_ALL> joins everything. UB/L1 are tracked in 32-byte granules (the UB alignment unit):
// last writer and last reader per pipe. An access that conflicts with another pipe's access that is not
// ordered before it is a hazard - unless --cce-auto-sync (docs/ascend-notes.md §3.5) would insert that sync
// itself: S<->V, S<->MTE2, S<->MTE3 and V->V. MTE2->V, V->MTE3, MTE2<->MTE3 and V->MTE2 always need the
// program's own EnQue/DeQue, flag pair or barrier.

#include <cstdio>
#include <cstring>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "BlockContext.h"

namespace kwb_sim {

namespace {
constexpr int P = kPipeCount;
constexpr std::uint32_t kGranule = 32;

struct Site {
  const char* api;
  SrcLoc loc;
};
// What the checker knows of one 32-byte granule: its last write and, per pipe, its last read.
struct Granule {
  std::uint32_t wSeq = 0;
  std::uint32_t wSite = 0;
  std::uint8_t wPipe = 0;
  std::uint32_t rSeq[P] = {};
  std::uint32_t rSite[P] = {};
  bool operator==(const Granule&) const = default;
};

// The granules of one buffer (UB or L1) as runs of equal state: a run starts at its key and ends at
// `end` (granule indices). Kernels move whole tiles, so a tile is one run and an instruction touches a
// few runs whatever its length: the check costs O(runs touched), not O(bytes) (issue 20). Every granule
// reads the same as it would in a flat array.
struct Run {
  std::uint32_t end;
  Granule state;
};
class GranuleRuns {
 public:
  void reset(std::uint32_t granules) {
    runs_.clear();
    size_ = granules;
    if (granules) runs_.emplace(0u, Run{granules, Granule{}});
  }
  std::uint32_t size() const { return size_; }
  // The runs covering [g0, g1], split so that the first starts at g0 and the last ends after g1.
  std::map<std::uint32_t, Run>::iterator splitRange(std::uint32_t g0, std::uint32_t g1) {
    split(g1 + 1);
    return split(g0);
  }
  std::map<std::uint32_t, Run>::iterator end() { return runs_.end(); }
  // Joins equal neighbours from the run before g0 to the run after g1.
  void mergeAround(std::uint32_t g0, std::uint32_t g1) {
    auto it = runs_.upper_bound(g0);
    if (it != runs_.begin()) --it;
    if (it != runs_.begin()) --it;
    while (it != runs_.end() && it->first <= g1 + 1) {
      auto next = std::next(it);
      if (next == runs_.end()) break;
      if (it->second.end == next->first && it->second.state == next->second.state) {
        it->second.end = next->second.end;
        runs_.erase(next);
      } else {
        it = next;
      }
    }
  }

 private:
  // The run that starts at g (made so by splitting the run holding it); end() when g is past the end.
  std::map<std::uint32_t, Run>::iterator split(std::uint32_t g) {
    if (g >= size_) return runs_.end();
    auto it = runs_.upper_bound(g);
    --it;  // the run holding g (runs cover [0, size_) without gaps)
    if (it->first == g) return it;
    Run tail{it->second.end, it->second.state};
    it->second.end = g;
    return runs_.emplace_hint(std::next(it), g, tail);
  }
  std::map<std::uint32_t, Run> runs_;
  std::uint32_t size_ = 0;
};

struct SyncState {
  std::uint32_t seq[P];
  std::uint32_t vc[P][P];
  std::uint32_t flagSnap[64][8][P];
  bool flagPending[64][8];
  Site flagSite[64][8];
  std::uint32_t qSnap[kMaxBuffers][P][P];
  std::vector<Site> sites;
  GranuleRuns granules[8];  // per MemSpace: UB, L1 and the cube's L0A/L0B/L0C/BT
};
SyncState* g_sync = nullptr;

SyncState& S() {
  if (!g_sync) g_sync = new SyncState();
  return *g_sync;
}

int pi(Pipe p) {
  return static_cast<int>(p) < P ? static_cast<int>(p) : 0;
}

bool autoOrdered(int from, int to) {
  if (!g_block.autoSync) return false;
  const int s = pi(Pipe::S), v = pi(Pipe::V), m2 = pi(Pipe::MTE2), m3 = pi(Pipe::MTE3);
  if (from == s && (to == v || to == m2 || to == m3)) return true;
  if (to == s && (from == v || from == m2 || from == m3)) return true;
  return from == v && to == v;
}

const char* hardEventName(int from, int to) {
  static char buf[32];
  std::snprintf(buf, sizeof(buf), "%s_%s", pipeName(static_cast<Pipe>(from)),
                pipeName(static_cast<Pipe>(to)));
  return buf;
}

std::uint32_t siteOf(const char* api, SrcLoc loc) {
  SyncState& st = S();
  if (!st.sites.empty()) {
    const Site& last = st.sites.back();
    if (last.api == api && last.loc.file == loc.file && last.loc.line == loc.line)
      return static_cast<std::uint32_t>(st.sites.size() - 1);
  }
  st.sites.push_back(Site{api, loc});
  return static_cast<std::uint32_t>(st.sites.size() - 1);
}

void merge(std::uint32_t* into, const std::uint32_t* from) {
  for (int q = 0; q < P; ++q)
    if (from[q] > into[q]) into[q] = from[q];
}

void snapshot(int src, std::uint32_t* out) {
  SyncState& st = S();
  std::memcpy(out, st.vc[src], sizeof(std::uint32_t) * P);
  out[src] = st.seq[src];
}

void hazard(const char* api, SrcLoc loc, int p, int operand, bool write, std::uint32_t off, std::uint32_t len,
            MemSpace space, int q, const Site& other, bool otherWrote) {
  const std::string kind = write ? "overwrites" : "reads";
  const std::string otherKind = otherWrote ? "wrote" : "reads";
  std::string msg = std::string(api) + " on pipe " + pipeName(static_cast<Pipe>(p)) + " " + kind + " " +
                    spaceName(space) + " bytes [" + std::to_string(off) + ", " + std::to_string(off + len) +
                    ") that " + (other.api ? other.api : "?") + " on pipe " + pipeName(static_cast<Pipe>(q)) +
                    " " + otherKind + " at line " + std::to_string(other.loc.line) +
                    ", with no EnQue/DeQue, SetFlag/WaitFlag<HardEvent::" + hardEventName(q, p) +
                    "> or PipeBarrier<PIPE_ALL> ordering the two pipes";
  if (g_block.autoSync)
    msg += "; --cce-auto-sync does not insert " + std::string(pipeName(static_cast<Pipe>(q))) + "->" +
           pipeName(static_cast<Pipe>(p)) + " syncs, so on hardware the pipes race";
  else
    msg += " (auto-sync is off for this build, so every cross-pipe dependency needs explicit sync)";
  report(Cat::MissingSync, api, loc, static_cast<Pipe>(p), operand, msg);
}

void access(int p, MemSpace space, std::uint32_t off, std::uint32_t len, bool write, const char* api,
            SrcLoc loc, int operand) {
  if (len == 0) return;
  SyncState& st = S();
  GranuleRuns& gs = st.granules[static_cast<int>(space) < 8 ? static_cast<int>(space) : 0];
  if (gs.size() == 0) return;
  std::uint32_t g0 = off / kGranule, g1 = (off + len - 1) / kGranule;
  if (g1 >= gs.size()) g1 = gs.size() - 1;
  if (g0 > g1) return;
  const std::uint32_t me = st.seq[p];
  const std::uint32_t* known = st.vc[p];
  const std::uint32_t site = siteOf(api, loc);
  bool reported = false;
  for (auto run = gs.splitRange(g0, g1); run != gs.end() && run->first <= g1; ++run) {
    Granule& gr = run->second.state;
    if (!reported) {
      const int q = gr.wPipe;
      if (gr.wSeq != 0 && q != p && !autoOrdered(q, p) && known[q] < gr.wSeq) {
        hazard(api, loc, p, operand, write, off, len, space, q, st.sites[gr.wSite], true);
        reported = true;
      } else if (write) {
        for (int r = 0; r < P && !reported; ++r) {
          if (r == p || gr.rSeq[r] == 0 || autoOrdered(r, p) || known[r] >= gr.rSeq[r]) continue;
          hazard(api, loc, p, operand, write, off, len, space, r, st.sites[gr.rSite[r]], false);
          reported = true;
        }
      }
    }
    if (write) {
      gr.wSeq = me;
      gr.wPipe = static_cast<std::uint8_t>(p);
      gr.wSite = site;
    } else {
      gr.rSeq[p] = me;
      gr.rSite[p] = site;
    }
  }
  gs.mergeAround(g0, g1);
}
}  // namespace

namespace rt {
void syncResetBlock() {
  SyncState& st = S();
  std::memset(st.seq, 0, sizeof(st.seq));
  std::memset(st.vc, 0, sizeof(st.vc));
  std::memset(st.flagSnap, 0, sizeof(st.flagSnap));
  std::memset(st.flagPending, 0, sizeof(st.flagPending));
  std::memset(st.qSnap, 0, sizeof(st.qSnap));
  st.sites.clear();
  st.sites.reserve(4096);
  for (MemSpace s : {MemSpace::UB, MemSpace::L1, MemSpace::L0A, MemSpace::L0B, MemSpace::L0C, MemSpace::BT})
    st.granules[static_cast<int>(s)].reset(static_cast<std::uint32_t>(spaceSize(s) / kGranule));
}

// Internal: one instruction on pipe p touching several operands.
void syncBegin(Pipe p) {
  rawFlush();  // earlier raw scalar accesses are ordered before this instruction
  ++S().seq[pi(p)];
}
void syncOperand(Pipe p, MemSpace space, std::uint32_t off, std::uint32_t len, bool write, const char* api,
                 SrcLoc loc, int operand) {
  access(pi(p), space, off, len, write, api, loc, operand);
}

void syncEndOfKernel() {
  SyncState& st = S();
  for (int e = 0; e < 64; ++e)
    for (int id = 0; id < 8; ++id) {
      if (!st.flagPending[e][id]) continue;
      const Site& s = st.flagSite[e][id];
      report(
          Cat::UnpairedFlag, "SetFlag", s.loc, Pipe::None, kOperandNone,
          "SetFlag with event id " + std::to_string(id) +
              " is never matched by a WaitFlag of the same HardEvent and id before the kernel ends; the "
              "pending flag leaks into the next kernel on hardware (and TPipe's final PipeBarrier<PIPE_ALL> "
              "can hang)");
    }
}
}  // namespace rt

void syncAccess(Pipe pipe, MemSpace space, std::uint32_t off, std::uint32_t len, bool write, const char* api,
                SrcLoc loc, int operand) {
  rt::syncBegin(pipe);
  access(pi(pipe), space, off, len, write, api, loc, operand);
}

void syncQueueRelease(Pipe src, Pipe dst, int buf) {
  (void)dst;
  rawFlush();
  if (buf < 0 || buf >= kMaxBuffers) return;
  snapshot(pi(src), S().qSnap[buf][pi(src)]);
}

void syncQueueAcquire(Pipe src, Pipe dst, int buf) {
  rawFlush();
  if (buf < 0 || buf >= kMaxBuffers) return;
  merge(S().vc[pi(dst)], S().qSnap[buf][pi(src)]);
}

void flagSet(AscendC::HardEvent evt, int id, SrcLoc loc) {
  const EventPipes ep = eventPipes(evt);
  Instr& in = record("SetFlag", loc, ep.src);
  in.sync = SyncKind::SetFlag;
  in.syncSrc = ep.src;
  in.syncDst = ep.dst;
  in.syncId = id;
  if (id < 0 || id > 7) {
    report(Cat::UnpairedFlag, "SetFlag", loc, ep.src, 0,
           "SetFlag<HardEvent::" + std::string(hardEventName(pi(ep.src), pi(ep.dst))) + ">(" +
               std::to_string(id) +
               "): event id out of range; valid ids are 0..7 (keep to 0..5, id 7 is used by TPipe)");
    return;
  }
  SyncState& st = S();
  const int e = static_cast<int>(evt) & 63;
  if (st.flagPending[e][id]) {
    report(Cat::UnpairedFlag, "SetFlag", loc, ep.src, 0,
           "SetFlag<HardEvent::" + std::string(hardEventName(pi(ep.src), pi(ep.dst))) + ">(" +
               std::to_string(id) + ") set again while the previous SetFlag of the same event and id (line " +
               std::to_string(st.flagSite[e][id].loc.line) +
               ") has not been waited: setting a flag twice is undefined and can hang PipeBarrier<PIPE_ALL>");
  }
  snapshot(pi(ep.src), st.flagSnap[e][id]);
  st.flagPending[e][id] = true;
  st.flagSite[e][id] = Site{"SetFlag", loc};
}

void flagWait(AscendC::HardEvent evt, int id, SrcLoc loc) {
  const EventPipes ep = eventPipes(evt);
  Instr& in = record("WaitFlag", loc, ep.dst);
  in.sync = SyncKind::WaitFlag;
  in.syncSrc = ep.src;
  in.syncDst = ep.dst;
  in.syncId = id;
  if (id < 0 || id > 7) {
    report(Cat::UnpairedFlag, "WaitFlag", loc, ep.dst, 0,
           "WaitFlag<HardEvent::" + std::string(hardEventName(pi(ep.src), pi(ep.dst))) + ">(" +
               std::to_string(id) + "): event id out of range; valid ids are 0..7");
    return;
  }
  SyncState& st = S();
  const int e = static_cast<int>(evt) & 63;
  if (!st.flagPending[e][id]) {
    report(Cat::UnpairedFlag, "WaitFlag", loc, ep.dst, 0,
           "WaitFlag<HardEvent::" + std::string(hardEventName(pi(ep.src), pi(ep.dst))) + ">(" +
               std::to_string(id) + ") has no matching SetFlag before it: on hardware pipe " +
               pipeName(ep.dst) + " waits forever (hang)");
    return;
  }
  st.flagPending[e][id] = false;
  merge(st.vc[pi(ep.dst)], st.flagSnap[e][id]);
}

namespace {
Instr& barrierNamed(const char* api, Pipe p, SrcLoc loc) {
  Instr& in = record(api, loc, p == Pipe::None ? Pipe::S : p);
  in.sync = SyncKind::Barrier;
  in.syncSrc = in.syncDst = p;
  if (p != Pipe::All) return in;
  SyncState& st = S();
  for (int a = 0; a < P; ++a)
    for (int b = 0; b < P; ++b) st.vc[a][b] = st.seq[b];
  return in;
}
}  // namespace

void barrier(pipe_t pipe, SrcLoc loc) {
  barrierNamed("PipeBarrier", toPipe(pipe), loc);
}

namespace rt {
Instr& syncBarrierAll(const char* api, SrcLoc loc) {
  return barrierNamed(api, Pipe::All, loc);
}
}  // namespace rt

void maskSetCounter(bool counter, SrcLoc loc) {
  g_block.mask.counter = counter;
  record(counter ? "SetMaskCount" : "SetMaskNorm", loc, Pipe::S);
}

void maskSet(std::uint64_t high, std::uint64_t low, bool counterCall, std::uint32_t esize, SrcLoc loc) {
  record("SetVectorMask", loc, Pipe::S);
  if (counterCall || g_block.mask.counter) {
    g_block.mask.bits[0] = low;
    g_block.mask.bits[1] = 0;
    return;
  }
  const std::uint32_t lanes = 256 / (esize ? esize : 2);
  if ((high | low) == 0)
    report(Cat::InvalidParam, "SetVectorMask", loc, Pipe::S, 0,
           "SetVectorMask with an all-zero mask: no element would be computed");
  else if (lanes <= 64 && high != 0)
    report(Cat::InvalidParam, "SetVectorMask", loc, Pipe::S, 0,
           "SetVectorMask: maskHigh must be 0 for " + std::to_string(esize * 8) +
               "-bit types (only 64 elements per repeat)");
  g_block.mask.bits[0] = low;
  g_block.mask.bits[1] = high;
}

void maskReset(SrcLoc loc) {
  record("ResetMask", loc, Pipe::S);
  g_block.mask.bits[0] = g_block.mask.bits[1] = ~0ull;
}

}  // namespace kwb_sim
