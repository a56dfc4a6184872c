// SPDX-License-Identifier: MIT
#pragma once
// TBufPool: a range of UB/L1 carved out of the TPipe (TPipe::InitBufPool), from which TQue/TBuf buffers
// are given out (TBufPool::InitBuffer) and which can be split again (TBufPool::InitBufPool, also in the
// shared mode that reuses another pool's range). Reset() hands the whole range back: the buffers given
// out since become stale (use after Reset is reported like use after FreeTensor).

#include <cstdint>

#include "kwb_sim/pipe.h"

namespace kwb_sim {

struct PoolRange {
  MemSpace space = MemSpace::UB;
  std::uint32_t start = 0;   // byte offset in the memory space
  std::uint32_t len = 0;     // bytes (rounded up to 32)
  std::uint32_t cursor = 0;  // next free byte
  int slots[kMaxBuffers] = {};
  int slotCount = 0;
  bool ready = false;
};

// A new pool of `len` bytes from the TPipe's own allocator (ub-overflow when it does not fit).
bool poolFromPipe(PoolRange& pool, MemSpace space, std::uint32_t len, SrcLoc loc);
// A new pool of `len` bytes from `parent`'s free bytes.
bool poolFromPool(PoolRange& parent, PoolRange& pool, std::uint32_t len, SrcLoc loc);
// A pool sharing `shared`'s start (len must not exceed shared's length).
bool poolShared(const PoolRange& shared, PoolRange& pool, std::uint32_t len, SrcLoc loc);
void poolReset(PoolRange& pool, SrcLoc loc);

// While alive, the pipe's allocator gives out the pool's bytes (InitBuffer on a pool); `bytes` is what
// the InitBuffer needs, checked against the pool's free bytes first.
class PoolScope {
 public:
  PoolScope(PoolRange& pool, std::uint64_t bytes, SrcLoc loc);
  ~PoolScope();
  PoolScope(const PoolScope&) = delete;
  PoolScope& operator=(const PoolScope&) = delete;
  bool ok() const { return ok_; }

 private:
  PoolRange& pool_;
  std::uint32_t savedCursor_ = 0;
  int firstSlot_ = 0;
  bool ok_ = false;
};

}  // namespace kwb_sim

namespace AscendC {

template <TPosition pos, uint32_t bufIDSize = 4>
class TBufPool {
 public:
  TBufPool() = default;
  TBufPool(const TBufPool&) = delete;
  TBufPool& operator=(const TBufPool&) = delete;

  template <TPosition src, TPosition dst, int32_t depth, auto mask>
  bool InitBuffer(TQueBind<src, dst, depth, mask>& que, uint8_t num, uint32_t len, KWB_SIM_LOC) {
    const kwb_sim::PoolScope scope(range_, static_cast<uint64_t>(num) * ((len + 31u) / 32u) * 32u, loc_);
    if (!scope.ok()) return false;
    if (que.id_ < 0) que.id_ = kwb_sim::newQueue("TQue");
    const kwb_sim::EventPipes pp = kwb_sim::positionPipes(src, dst);
    return kwb_sim::queueInit(que.id_, kwb_sim::positionSpace(src), num, len, depth, pp.src, pp.dst,
                              "InitBuffer", loc_);
  }
  template <TPosition bufPos>
  bool InitBuffer(TBuf<bufPos>& buf, uint32_t len, KWB_SIM_LOC) {
    const kwb_sim::PoolScope scope(range_, static_cast<uint64_t>((len + 31u) / 32u) * 32u, loc_);
    if (!scope.ok()) return false;
    buf.slot_ = kwb_sim::tbufInit(kwb_sim::positionSpace(bufPos), len, loc_);
    return buf.slot_ >= 0;
  }
  template <typename P>
  bool InitBufPool(P& pool, uint32_t len, KWB_SIM_LOC) {
    return kwb_sim::poolFromPool(range_, pool.range_, len, loc_);
  }
  template <typename P, typename S>
  bool InitBufPool(P& pool, uint32_t len, S& shareBuf, KWB_SIM_LOC) {
    return kwb_sim::poolShared(shareBuf.range_, pool.range_, len, loc_);
  }
  void Reset(KWB_SIM_LOC) { kwb_sim::poolReset(range_, loc_); }

  // ---- emulator internals (TPipe::InitBufPool fills it)
  bool kwbInitFromPipe(uint32_t len, kwb_sim::SrcLoc loc) {
    return kwb_sim::poolFromPipe(range_, kwb_sim::positionSpace(pos), len, loc);
  }
  template <typename S>
  bool kwbInitShared(uint32_t len, S& shareBuf, kwb_sim::SrcLoc loc) {
    return kwb_sim::poolShared(shareBuf.range_, range_, len, loc);
  }
  kwb_sim::PoolRange range_;
};

}  // namespace AscendC
