// SPDX-License-Identifier: MIT
#include "core/emulator/analysis/LaunchAnalysis.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>

#include "core/emulator/analysis/CrossCoreOrder.h"
#include "core/emulator/analysis/RecordFormat.h"

namespace kwb::sim {

using namespace kwb_sim;

namespace {
// A trace claims its own sizes; nothing near these is legitimate (the runtime caps a block's trace far
// below them), so a larger claim is a forged or corrupt header, not a reason to allocate.
constexpr std::uint64_t kMaxStrings = 1u << 20;
constexpr std::uint32_t kMaxStringBytes = 1u << 16;

struct GmWrite {
  std::uint64_t lo, hi;
  std::int32_t block;  // the writer's block (a mix kernel's AIC and AIVs share one)
  std::uint32_t proc;  // its index in LaunchTrace::blocks
  std::uint32_t instr;
  bool atomic;          // a UB->GM copy under SetAtomicAdd/Max/Min
  std::uint32_t epoch;  // SyncAll calls the block made before the write, or its segment (CrossCoreOrder.h)
};

// Two blocks writing the same GM bytes in one launch. Atomic accumulations (SetAtomic*) from different
// blocks into the same bytes are the point of atomics and do not conflict with each other; a plain write
// overlapping another block's plain or atomic write does. Writes separated by a SyncAll (different epochs:
// every block has passed the barrier between them) are ordered, not a race (docs/emulator.md, "SyncAll").
bool isSyncAll(const LaunchTrace& lt, const Instr& i) {
  return i.sync == SyncKind::Barrier && lt.str(i.api) == "SyncAll";
}
}  // namespace

namespace {
using SeenSites = std::map<std::pair<std::string, std::string>, bool>;

// "block 3", or in a mix kernel "block 3 (AIV 1)" when both writers are of one block.
std::string writerName(const LaunchTrace& lt, const GmWrite& w, bool sameBlock) {
  std::string block = "block " + std::to_string(w.block);
  if (!sameBlock || w.proc >= lt.blocks.size()) return block;
  const BlockTrace& bt = lt.blocks[w.proc];
  return block + (bt.core == 1 ? std::string(" (AIC)") : " (AIV " + std::to_string(bt.subBlock) + ")");
}

void reportOverlap(const LaunchTrace& lt, const GmWrite& a, const GmWrite& b, SeenSites& seen,
                   std::vector<nlohmann::json>& out) {
  const Instr& ia = lt.blocks[a.proc].instrs[a.instr];
  const Instr& ib = lt.blocks[b.proc].instrs[b.instr];
  const std::string siteA = lt.str(ia.file) + ":" + std::to_string(ia.line);
  const std::string siteB = lt.str(ib.file) + ":" + std::to_string(ib.line);
  bool& reported = seen[{siteA, siteB}];
  if (reported || seen.size() >= 8) return;
  reported = true;
  const bool sameBlock = a.block == b.block;
  const std::string nameA = writerName(lt, a, sameBlock), nameB = writerName(lt, b, sameBlock);
  const std::uint64_t hi = std::min(a.hi, b.hi);
  char addr[64];
  std::snprintf(addr, sizeof(addr), "0x%llx", static_cast<unsigned long long>(b.lo));
  // The cause of two blocks writing the same bytes is the offset their GM range was given: report at the
  // SetGlobalBuffer line when it is in the same file as the write (docs/emulator.md, "Cause lines"); the
  // copies are the symptom and are named in the message. A plain write into another block's atomic
  // accumulation is caused by the missing SetAtomic* mode at that write, not the range. Two sub-cores of
  // one block share the block's offset, so what is missing between them is an order (a cross-core flag).
  const bool atOrigin = !sameBlock && !a.atomic && !b.atomic && ib.gmSetLine != 0 && ib.gmSetFile == ib.file;
  const std::string atomicHint = a.atomic || b.atomic
                                     ? std::string(
                                           ", or make every block's write to these bytes an atomic "
                                           "accumulation (SetAtomicAdd/Max/Min): a plain write "
                                           "overwrites whatever the other block accumulated")
                                     : std::string();
  const std::string who = sameBlock ? nameA + " and " + nameB
                                    : "blocks " + std::to_string(a.block) + " and " + std::to_string(b.block);
  const std::string both = who + " both write GM bytes [" + addr + ", +" + std::to_string(hi - b.lo) +
                           ") in one launch (" + nameA + " at " + siteA + " (" +
                           // The overlap message, built once per reported overlap
                           // NOLINTNEXTLINE(performance-inefficient-string-concatenation)
                           lt.str(ia.api) + "), " + nameB + " at " + siteB + ")";
  std::string message;
  if (sameBlock)
    message = both +
              " with nothing ordering the two writes; the final value depends on which core finishes last. "
              "Order them with CrossCoreSetFlag/CrossCoreWaitFlag (or SyncAll), or give each core its own "
              "bytes (offset by GetSubBlockIdx())";
  else if (atOrigin)
    message = "the SetGlobalBuffer at line " + std::to_string(ib.gmSetLine) +
              " gives the blocks overlapping GM ranges: " + both +
              "; the final value depends on which core finishes last. Offset each block's "
              // The overlap message, built once per reported overlap
              // NOLINTNEXTLINE(performance-inefficient-string-concatenation)
              "range by GetBlockIdx() times its own length there" +
              atomicHint;
  else
    message = both +
              "; the final value depends on which core finishes last. Give each block "
              // The overlap message, built once per reported overlap
              // NOLINTNEXTLINE(performance-inefficient-string-concatenation)
              "its own GM range (offset by GetBlockIdx())" +
              atomicHint;
  nlohmann::json j{{"category", "multicore-overlap"},
                   {"severity", "error"},
                   {"api", atOrigin ? std::string("SetGlobalBuffer") : lt.str(ib.api)},
                   {"file", lt.str(ib.file)},
                   {"line", atOrigin ? ib.gmSetLine : ib.line},
                   {"pipe", pipeName(ib.pipe)},
                   {"operand", 0},
                   {"block", b.block},
                   {"message", message}};
  out.push_back(j);
}

// Every process's GM writes, merged per process, segment and kind. `phase` is the SyncAll epoch, or with
// `bySegment` the segment between ordering events (CrossCoreOrder.h).
std::vector<GmWrite> collectWrites(const LaunchTrace& lt, bool bySegment) {
  std::vector<GmWrite> ws;
  for (std::uint32_t proc = 0; proc < lt.blocks.size(); ++proc) {
    const BlockTrace& bt = lt.blocks[proc];
    std::vector<GmWrite> mine;
    std::uint32_t epoch = 0;
    for (std::uint32_t k = 0; k < bt.instrs.size(); ++k) {
      const Instr& i = bt.instrs[k];
      if (bySegment ? isOrderingEvent(lt, i) : isSyncAll(lt, i)) ++epoch;
      if (i.dstSpace != MemSpace::GM || i.bytes == 0 || i.sync != SyncKind::None) continue;
      if (i.pipe == Pipe::S) {
        mine.push_back({i.gmAddr, i.gmAddr + i.bytes * i.times, bt.block, proc, k, false, epoch});
        continue;
      }
      const std::uint32_t bursts = i.burstCount ? i.burstCount : 1;
      for (std::uint32_t b = 0; b < bursts; ++b) {
        const std::uint64_t lo = i.gmAddr + b * i.gmStride;
        mine.push_back({lo, lo + i.burstLen, bt.block, proc, k, i.atomic != AtomicOp::None, epoch});
      }
    }
    const auto byEpochThenLo = [](const GmWrite& a, const GmWrite& b) {
      return a.epoch != b.epoch ? a.epoch < b.epoch : a.lo < b.lo;
    };
    std::sort(mine.begin(), mine.end(), byEpochThenLo);
    for (const GmWrite& w : mine) {
      if (!ws.empty() && ws.back().proc == w.proc && ws.back().atomic == w.atomic &&
          ws.back().epoch == w.epoch && w.lo <= ws.back().hi) {
        ws.back().hi = std::max(ws.back().hi, w.hi);
        continue;
      }
      ws.push_back(w);
    }
  }
  return ws;
}

// Plain kernels ordered by SyncAll only: a sweep per epoch against the furthest-reaching interval.
void checkOverlapByEpoch(const LaunchTrace& lt, std::vector<GmWrite> ws, std::vector<nlohmann::json>& out) {
  std::sort(ws.begin(), ws.end(), [](const GmWrite& a, const GmWrite& b) {
    return a.epoch != b.epoch ? a.epoch < b.epoch : a.lo < b.lo;
  });
  SeenSites seen;
  // The plain and the atomic interval reaching furthest so far (npos: none yet).
  constexpr std::size_t npos = static_cast<std::size_t>(-1);
  std::size_t activePlain = npos, activeAtomic = npos;
  for (std::size_t k = 0; k < ws.size(); ++k) {
    const GmWrite& b = ws[k];
    if (k > 0 && ws[k - 1].epoch != b.epoch) activePlain = activeAtomic = npos;  // a new SyncAll phase
    std::size_t other = npos;
    if (activePlain != npos && b.lo < ws[activePlain].hi && ws[activePlain].block != b.block)
      other = activePlain;
    else if (!b.atomic && activeAtomic != npos && b.lo < ws[activeAtomic].hi &&
             ws[activeAtomic].block != b.block)
      other = activeAtomic;
    std::size_t& active = b.atomic ? activeAtomic : activePlain;
    if (other != npos) reportOverlap(lt, ws[other], b, seen, out);
    if (active == npos || b.hi > ws[active].hi) active = k;
  }
}

// Cross-core flags or sub-cores: every pair of overlapping writes of two processes that nothing orders.
// The pairs looked at are capped, so a launch rewriting one workspace tile thousands of times stays fast.
void checkOverlapByOrder(const LaunchTrace& lt, std::vector<GmWrite> ws, std::vector<nlohmann::json>& out) {
  std::vector<std::vector<std::uint32_t>> segments(lt.blocks.size());
  for (const GmWrite& w : ws) segments[w.proc].push_back(w.epoch);
  for (auto& s : segments) {
    std::sort(s.begin(), s.end());
    s.erase(std::unique(s.begin(), s.end()), s.end());
  }
  const CrossCoreOrder order = CrossCoreOrder::replay(lt, segments);
  std::sort(ws.begin(), ws.end(), [](const GmWrite& a, const GmWrite& b) { return a.lo < b.lo; });
  SeenSites seen;
  std::vector<std::size_t> active;
  std::uint64_t budget = std::uint64_t{1} << 26;
  for (std::size_t k = 0; k < ws.size() && budget > 0; ++k) {
    const GmWrite& b = ws[k];
    active.erase(
        std::remove_if(active.begin(), active.end(), [&](std::size_t a) { return ws[a].hi <= b.lo; }),
        active.end());
    for (std::size_t a : active) {
      if (--budget == 0) break;
      const GmWrite& w = ws[a];
      if (w.proc == b.proc || (w.atomic && b.atomic)) continue;
      if (!order.ordered(w.proc, w.epoch, b.proc, b.epoch)) {
        reportOverlap(lt, w, b, seen, out);
        break;
      }
    }
    active.push_back(k);
  }
}
}  // namespace

void checkOverlap(const LaunchTrace& lt, std::vector<nlohmann::json>& out) {
  const bool byOrder = needsCrossCoreOrder(lt);
  std::vector<GmWrite> ws = collectWrites(lt, byOrder);
  if (byOrder)
    checkOverlapByOrder(lt, std::move(ws), out);
  else
    checkOverlapByEpoch(lt, std::move(ws), out);
}

bool parseTrace(std::string_view bytes, LaunchTrace& lt, BlockTrace& bt, std::string& error) {
  std::uint64_t header[4];
  if (bytes.size() < sizeof header) {
    error = "the trace is " + std::to_string(bytes.size()) + " bytes, shorter than its header";
    return false;
  }
  std::memcpy(header, bytes.data(), sizeof header);
  if (header[0] != records::kTraceMagic) {
    error = "the trace does not start with the trace marker";
    return false;
  }
  std::size_t pos = sizeof header;
  const std::uint64_t n = header[1], nStrings = header[3] >> 1;
  bt.dropped = header[2];
  bt.complete = (header[3] & 1u) != 0;
  if (nStrings > kMaxStrings) {
    error = "the trace claims " + std::to_string(nStrings) + " strings";
    return false;
  }
  std::vector<std::uint32_t> remap(static_cast<std::size_t>(nStrings), 0);
  for (std::uint64_t i = 0; i < nStrings; ++i) {
    std::uint32_t len = 0;
    if (bytes.size() - pos < sizeof len) {
      error = "the trace ends inside its string table";
      return false;
    }
    std::memcpy(&len, bytes.data() + pos, sizeof len);
    pos += sizeof len;
    if (len > kMaxStringBytes || bytes.size() - pos < len) {
      error = "the trace's string " + std::to_string(i) + " claims " + std::to_string(len) + " bytes";
      return false;
    }
    std::string s(bytes.substr(pos, len));
    pos += len;
    auto it = std::find(lt.strings.begin(), lt.strings.end(), s);
    remap[i] = static_cast<std::uint32_t>(it - lt.strings.begin());
    if (it == lt.strings.end()) lt.strings.push_back(std::move(s));
  }
  const std::uint64_t available = (bytes.size() - pos) / sizeof(Instr);
  const std::uint64_t keep = std::min(n, available);
  if (keep < n) bt.complete = false;
  bt.instrs.resize(static_cast<std::size_t>(keep));
  if (keep) std::memcpy(bt.instrs.data(), bytes.data() + pos, static_cast<std::size_t>(keep * sizeof(Instr)));
  for (Instr& i : bt.instrs) {
    i.api = i.api < remap.size() ? remap[i.api] : 0;
    i.file = i.file < remap.size() ? remap[i.file] : 0;
    i.gmSetFile = i.gmSetFile < remap.size() ? remap[i.gmSetFile] : 0;
    // Enumerations come from raw bytes: clamp what the cost model indexes by.
    if (static_cast<unsigned>(i.pipe) > static_cast<unsigned>(Pipe::None)) i.pipe = Pipe::None;
    if (static_cast<unsigned>(i.syncSrc) > static_cast<unsigned>(Pipe::None)) i.syncSrc = Pipe::None;
    if (static_cast<unsigned>(i.syncDst) > static_cast<unsigned>(Pipe::None)) i.syncDst = Pipe::None;
    if (static_cast<unsigned>(i.sync) > static_cast<unsigned>(SyncKind::Barrier)) i.sync = SyncKind::None;
    if (static_cast<unsigned>(i.dtype) > static_cast<unsigned>(DType::F64)) i.dtype = DType::None;
    if (static_cast<unsigned>(i.srcDtype) > static_cast<unsigned>(DType::F64)) i.srcDtype = DType::None;
    if (static_cast<unsigned>(i.dstSpace) > static_cast<unsigned>(MemSpace::BT)) i.dstSpace = MemSpace::None;
    if (static_cast<unsigned>(i.srcSpace) > static_cast<unsigned>(MemSpace::BT)) i.srcSpace = MemSpace::None;
    if (static_cast<unsigned>(i.atomic) > static_cast<unsigned>(AtomicOp::Min)) i.atomic = AtomicOp::None;
    if (i.times == 0) i.times = 1;
  }
  return true;
}

namespace {
void appendBlockWrites(const BlockTrace& bt, std::vector<GmRange>& ws) {
  for (const Instr& i : bt.instrs) {
    if (i.dstSpace != MemSpace::GM || i.bytes == 0 || i.sync != SyncKind::None) continue;
    if (i.pipe == Pipe::S) {
      ws.push_back({i.gmAddr, i.gmAddr + i.bytes * i.times});
      continue;
    }
    const std::uint32_t bursts = i.burstCount ? i.burstCount : 1;
    const std::uint64_t len = i.burstLen ? i.burstLen : i.bytes;
    for (std::uint32_t b = 0; b < bursts; ++b) {
      const std::uint64_t lo = i.gmAddr + b * i.gmStride;
      ws.push_back({lo, lo + len});
    }
  }
}

std::vector<GmRange> sortedMerged(std::vector<GmRange> ws) {
  std::sort(ws.begin(), ws.end(), [](const GmRange& a, const GmRange& b) { return a.lo < b.lo; });
  std::vector<GmRange> merged;
  for (const GmRange& w : ws) {
    if (!merged.empty() && w.lo <= merged.back().hi)
      merged.back().hi = std::max(merged.back().hi, w.hi);
    else
      merged.push_back(w);
  }
  return merged;
}
}  // namespace

std::vector<GmRange> gmWrites(const LaunchTrace& lt) {
  std::vector<GmRange> ws;
  for (const BlockTrace& bt : lt.blocks) appendBlockWrites(bt, ws);
  return sortedMerged(std::move(ws));
}

std::vector<std::vector<GmRange>> gmWritesByBlock(const LaunchTrace& lt) {
  std::vector<std::vector<GmRange>> out;
  out.reserve(lt.blocks.size());
  for (const BlockTrace& bt : lt.blocks) {
    std::vector<GmRange> ws;
    appendBlockWrites(bt, ws);
    out.push_back(sortedMerged(std::move(ws)));
  }
  return out;
}

}  // namespace kwb::sim
