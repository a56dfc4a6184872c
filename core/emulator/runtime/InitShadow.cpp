// SPDX-License-Identifier: MIT
// Device-faithful uninitialised UB/L1 (docs/emulator.md, "Uninitialised memory"). On hardware InitBuffer
// hands out memory that still holds whatever the last kernel left there; the emulator fills it with a
// poison pattern and keeps, per memory space, the byte ranges nothing has written since ("holes"), each
// tagged with the call that left it (the InitBuffer, or the DataCopyPad whose padding it is). Holes are
// few runs, not per-byte state: an access costs one map lookup plus the holes it touches.
//
// Where holes matter: element-wise ops carry them from their sources to their destination (the lanes
// of an unaligned tail computed from stale data are stale too, and harmless until read), while a
// reduction, a scalar GetValue or a copy out to GM that reads a hole is an `uninitialized-read`.

#include <cstring>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "BlockContext.h"

namespace kwb_sim::rt {

namespace {
// 0xCD in every byte: a finite, recognisable value in each element type (float -4.3e8, half -23.2,
// int32 -842150451), so a stale read makes a visibly wrong result without NaN arithmetic.
constexpr unsigned char kPoisonByte = 0xCD;

struct Hole {
  std::uint32_t end;
  int origin;  // index into Shadow::origins
};
struct SpaceShadow {
  std::map<std::uint32_t, Hole> holes;  // disjoint [start, end) ranges never written since InitBuffer
  std::uint32_t poisonedTo = 0;         // bytes below have been handed out once (later reuse keeps data)
};
struct Shadow {
  SpaceShadow spaces[2];  // UB, L1
  std::vector<ShadowOrigin> origins;
};
Shadow* g_shadow = nullptr;

Shadow& S() {
  if (!g_shadow) g_shadow = new Shadow();
  return *g_shadow;
}

SpaceShadow* spaceOf(MemSpace space) {
  if (space == MemSpace::UB) return &S().spaces[0];
  if (space == MemSpace::L1) return &S().spaces[1];
  return nullptr;  // L0A/L0B/L0C/BT: written by the cube's own moves only, not tracked
}

// Removes [lo, hi) from the holes (splitting the ones that straddle either end).
void erase(SpaceShadow& sh, std::uint32_t lo, std::uint32_t hi) {
  if (sh.holes.empty() || lo >= hi) return;
  auto it = sh.holes.upper_bound(lo);
  if (it != sh.holes.begin()) {
    auto prev = std::prev(it);
    if (prev->second.end > lo) it = prev;
  }
  while (it != sh.holes.end() && it->first < hi) {
    const std::uint32_t start = it->first;
    const Hole h = it->second;
    it = sh.holes.erase(it);
    if (start < lo) sh.holes.emplace(start, Hole{lo, h.origin});
    if (h.end > hi) it = sh.holes.emplace(hi, Hole{h.end, h.origin}).first;
  }
}

void insert(SpaceShadow& sh, std::uint32_t lo, std::uint32_t hi, int origin) {
  if (lo >= hi) return;
  erase(sh, lo, hi);
  auto it = sh.holes.emplace(lo, Hole{hi, origin}).first;
  // Join equal-origin neighbours so that a tile written in pieces stays one run.
  if (it != sh.holes.begin()) {
    auto prev = std::prev(it);
    if (prev->second.end == lo && prev->second.origin == origin) {
      prev->second.end = it->second.end;
      sh.holes.erase(it);
      it = prev;
    }
  }
  auto next = std::next(it);
  if (next != sh.holes.end() && next->first == it->second.end && next->second.origin == origin) {
    it->second.end = next->second.end;
    sh.holes.erase(next);
  }
}
}  // namespace

void shadowResetBlock() {
  Shadow& s = S();
  for (auto& sp : s.spaces) sp = SpaceShadow{};
  s.origins.clear();
}

void shadowAllocated(MemSpace space, std::uint32_t off, std::uint32_t len, SrcLoc initLoc) {
  SpaceShadow* sh = spaceOf(space);
  if (!sh || len == 0) return;
  const std::uint32_t end = off + len;
  const std::uint32_t from = off > sh->poisonedTo ? off : sh->poisonedTo;
  if (from >= end || !spaceBase(space)) return;
  std::memset(ubAlias(spaceBase(space)) + from, kPoisonByte, end - from);
  insert(*sh, from, end, shadowOrigin(ShadowOrigin{"InitBuffer", initLoc, 0, 0}));
  sh->poisonedTo = end;
}

int shadowOrigin(const ShadowOrigin& o) {
  auto& v = S().origins;
  for (std::size_t i = v.size(); i-- > 0;) {
    const ShadowOrigin& e = v[i];
    if (e.api == o.api && e.loc.file == o.loc.file && e.loc.line == o.loc.line && e.written == o.written &&
        e.burst == o.burst)
      return static_cast<int>(i);
  }
  v.push_back(o);
  return static_cast<int>(v.size() - 1);
}

const ShadowOrigin& shadowOriginAt(int index) {
  return S().origins[static_cast<std::size_t>(index)];
}

void shadowWritten(MemSpace space, std::uint32_t off, std::uint64_t len) {
  SpaceShadow* sh = spaceOf(space);
  if (!sh || sh->holes.empty() || len == 0) return;
  const std::uint64_t end = static_cast<std::uint64_t>(off) + len;
  erase(*sh, off, end > 0xffffffffull ? 0xffffffffu : static_cast<std::uint32_t>(end));
}

void shadowUnwritten(MemSpace space, std::uint32_t off, std::uint32_t len, int origin) {
  if (SpaceShadow* sh = spaceOf(space)) insert(*sh, off, off + len, origin);
}

void shadowHoles(MemSpace space, std::uint32_t off, std::uint64_t len, std::vector<ShadowHole>& out) {
  rawFlush();  // raw scalar writes made before this call count
  out.clear();
  SpaceShadow* sh = spaceOf(space);
  if (!sh || sh->holes.empty() || len == 0) return;
  const std::uint64_t hi = static_cast<std::uint64_t>(off) + len;
  auto it = sh->holes.upper_bound(off);
  if (it != sh->holes.begin() && std::prev(it)->second.end > off) --it;
  for (; it != sh->holes.end() && it->first < hi; ++it) {
    const std::uint32_t lo = it->first > off ? it->first : off;
    const std::uint64_t end = it->second.end < hi ? it->second.end : hi;
    out.push_back(ShadowHole{lo, static_cast<std::uint32_t>(end - lo), it->second.origin});
  }
}

bool shadowFirstHole(MemSpace space, std::uint32_t off, std::uint64_t len, ShadowHole& out) {
  rawFlush();
  SpaceShadow* sh = spaceOf(space);
  if (!sh || sh->holes.empty() || len == 0) return false;
  const std::uint64_t hi = static_cast<std::uint64_t>(off) + len;
  auto it = sh->holes.upper_bound(off);
  if (it != sh->holes.begin() && std::prev(it)->second.end > off) --it;
  if (it == sh->holes.end() || it->first >= hi) return false;
  const std::uint32_t lo = it->first > off ? it->first : off;
  const std::uint64_t end = it->second.end < hi ? it->second.end : hi;
  out = ShadowHole{lo, static_cast<std::uint32_t>(end - lo), it->second.origin};
  return true;
}

void shadowRetag(MemSpace space, std::uint32_t off, std::uint32_t len, int origin) {
  std::vector<ShadowHole> hs;
  shadowHoles(space, off, len, hs);
  for (const ShadowHole& h : hs) shadowUnwritten(space, h.off, h.len, origin);
}

void shadowCarry(MemSpace dstSpace, std::uint32_t dstOff, std::uint32_t dstEsize, std::uint64_t count,
                 const ShadowSource* srcs, int nsrc) {
  std::vector<ShadowHole> carried;  // in destination bytes
  std::vector<ShadowHole> hs;
  for (int k = 0; k < nsrc; ++k) {
    const ShadowSource& s = srcs[k];
    if (s.esize == 0) continue;
    shadowHoles(s.space, s.off, count * s.esize, hs);
    for (const ShadowHole& h : hs) {
      // Every element a hole touches is stale in the result.
      const std::uint64_t e0 = (h.off - s.off) / s.esize;
      const std::uint64_t e1 = (static_cast<std::uint64_t>(h.off - s.off) + h.len + s.esize - 1) / s.esize;
      carried.push_back(ShadowHole{dstOff + static_cast<std::uint32_t>(e0 * dstEsize),
                                   static_cast<std::uint32_t>((e1 - e0) * dstEsize), h.origin});
    }
  }
  shadowWritten(dstSpace, dstOff, count * dstEsize);
  for (const ShadowHole& h : carried) shadowUnwritten(dstSpace, h.off, h.len, h.origin);
}

std::string shadowReadMessage(const char* api, MemSpace space, const ShadowHole& hole,
                              std::uint32_t operandOff, std::uint32_t esize, int operand) {
  const std::uint32_t es = esize ? esize : 1;
  const std::uint32_t e0 = (hole.off - operandOff) / es;
  const std::uint32_t e1 = (hole.off - operandOff + hole.len + es - 1) / es;
  const ShadowOrigin& o = shadowOriginAt(hole.origin);
  std::string msg =
      std::string(api) + " reads " + spaceName(space) + " that nothing wrote: element" +
      (e1 - e0 == 1 ? " " + std::to_string(e0) : "s " + std::to_string(e0) + ".." + std::to_string(e1 - 1)) +
      (operand >= 0 ? " of operand " + std::to_string(operand + 1) : std::string()) + " (" +
      std::to_string(hole.len) + " bytes)";
  const bool padding = o.burst > o.written;
  if (padding)
    msg += " are the padding the " + std::string(o.api) + " at line " + std::to_string(o.loc.line) +
           " left unwritten: it copies " + std::to_string(o.written) + " bytes per row into " +
           std::to_string(o.burst) +
           "-byte rows, and with DataCopyPadExtParams isPad false the rest of each row is never written";
  else if (o.loc.file)
    msg += " were never written since the " + std::string(o.api) + " at line " + std::to_string(o.loc.line) +
           " made the buffer";
  msg += ". On hardware " + std::string(spaceName(space)) +
         " is not cleared: those bytes hold stale data from earlier work, so the result depends on "
         "garbage. ";
  msg += padding ? "Read only the elements the copy wrote (count = the valid length), or fill the padding "
                   "(DataCopyPadExtParams{true, 0, rightPadding, value}, or a Duplicate of a neutral value "
                   "before the copy)"
                 : "Write every element before it is read, or shorten the read to the elements written";
  return msg;
}

bool shadowCheckRead(MemSpace space, std::uint32_t off, std::uint64_t len, std::uint32_t operandOff,
                     std::uint32_t esize, const char* api, SrcLoc loc, Pipe pipe, int operand) {
  ShadowHole hole;
  if (!shadowFirstHole(space, off, len, hole)) return true;
  report(Cat::UninitializedRead, api, loc, pipe, operand,
         shadowReadMessage(api, space, hole, operandOff, esize, operand));
  // Reported once: the bytes count as written from here on, so the same stale lanes do not raise a
  // second error at every later read of the result.
  shadowWritten(space, off, len);
  return false;
}

}  // namespace kwb_sim::rt
