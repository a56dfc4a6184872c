// SPDX-License-Identifier: MIT
// TBufPool ranges (kwb_sim/buf_pool.h). A pool reserves bytes of the TPipe's bump allocator; InitBuffer on
// a pool points that allocator at the pool's free bytes for the duration of the call, so the buffers it
// makes are ordinary buffer slots (bounds, queue and sync checks unchanged) lying inside the pool.

#include <string>

#include "kwb_sim/buf_pool.h"

namespace kwb_sim {

std::uint32_t& allocCursor(MemSpace space);  // runtime/Queues.cpp
void queueAcquireReleased(int slot);         // runtime/Queues.cpp

namespace {

std::uint32_t rounded(std::uint32_t len) {
  return (len + 31u) / 32u * 32u;
}

}  // namespace

bool poolFromPipe(PoolRange& pool, MemSpace space, std::uint32_t len, SrcLoc loc) {
  const std::uint32_t bytes = rounded(len);
  std::uint32_t& used = allocCursor(space);
  const std::uint32_t cap = spaceSize(space);
  if (static_cast<std::uint64_t>(used) + bytes > cap)
    fatal(Cat::UbOverflow, "InitBufPool", loc, Pipe::S, 1,
          "InitBufPool needs " + std::to_string(bytes) + " bytes of " + spaceName(space) + " at offset " +
              std::to_string(used) + ": " + std::to_string(static_cast<std::uint64_t>(used) + bytes) +
              " bytes in total exceed the " + std::to_string(cap) + "-byte " + spaceName(space) +
              "; shrink the pool or the buffers before it");
  pool = PoolRange{};
  pool.space = space;
  pool.start = pool.cursor = used;
  pool.len = bytes;
  pool.ready = true;
  used += bytes;
  return true;
}

bool poolFromPool(PoolRange& parent, PoolRange& pool, std::uint32_t len, SrcLoc loc) {
  const std::uint32_t bytes = rounded(len);
  if (!parent.ready)
    fatal(
        Cat::QueueMisuse, "InitBufPool", loc, Pipe::S, kOperandThis,
        "TBufPool::InitBufPool on a pool that was never given memory (call TPipe::InitBufPool for it first)");
  if (static_cast<std::uint64_t>(parent.cursor) + bytes >
      static_cast<std::uint64_t>(parent.start) + parent.len)
    fatal(Cat::UbOverflow, "InitBufPool", loc, Pipe::S, 1,
          "InitBufPool needs " + std::to_string(bytes) + " bytes but the enclosing TBufPool has only " +
              std::to_string(parent.start + parent.len - parent.cursor) + " of its " +
              std::to_string(parent.len) + " bytes left");
  pool = PoolRange{};
  pool.space = parent.space;
  pool.start = pool.cursor = parent.cursor;
  pool.len = bytes;
  pool.ready = true;
  parent.cursor += bytes;
  return true;
}

bool poolShared(const PoolRange& shared, PoolRange& pool, std::uint32_t len, SrcLoc loc) {
  const std::uint32_t bytes = rounded(len);
  if (!shared.ready)
    fatal(Cat::QueueMisuse, "InitBufPool", loc, Pipe::S, 2,
          "InitBufPool shares a TBufPool that was never given memory");
  if (bytes > shared.len)
    report(Cat::InvalidParam, "InitBufPool", loc, Pipe::S, 1,
           "InitBufPool in shared mode asks for " + std::to_string(bytes) + " bytes, more than the " +
               std::to_string(shared.len) + " bytes of the pool it shares (the length must not exceed it)");
  pool = PoolRange{};
  pool.space = shared.space;
  pool.start = pool.cursor = shared.start;
  pool.len = bytes > shared.len ? shared.len : bytes;
  pool.ready = true;
  return true;
}

void poolReset(PoolRange& pool, SrcLoc loc) {
  (void)loc;
  for (int k = 0; k < pool.slotCount; ++k) {
    queueAcquireReleased(pool.slots[k]);
    BufferSlot& s = g_block.bufs[pool.slots[k]];
    s.state = BufState::Unused;
    ++s.gen;  // tensors from before the Reset are stale
  }
  pool.slotCount = 0;
  pool.cursor = pool.start;
}

PoolScope::PoolScope(PoolRange& pool, std::uint64_t bytes, SrcLoc loc) : pool_(pool) {
  if (!pool.ready)
    fatal(
        Cat::QueueMisuse, "InitBuffer", loc, Pipe::S, kOperandThis,
        "TBufPool::InitBuffer on a pool that was never given memory (call TPipe::InitBufPool for it first)");
  if (static_cast<std::uint64_t>(pool.cursor) + bytes > static_cast<std::uint64_t>(pool.start) + pool.len)
    fatal(Cat::UbOverflow, "InitBuffer", loc, Pipe::S, 0,
          "InitBuffer needs " + std::to_string(bytes) + " bytes but its TBufPool has only " +
              std::to_string(pool.start + pool.len - pool.cursor) + " of its " + std::to_string(pool.len) +
              " bytes left; enlarge the pool in InitBufPool or shrink the buffers");
  std::uint32_t& used = allocCursor(pool.space);
  savedCursor_ = used;
  used = pool.cursor;
  firstSlot_ = g_block.bufCount;
  ok_ = true;
}

PoolScope::~PoolScope() {
  std::uint32_t& used = allocCursor(pool_.space);
  pool_.cursor = used;
  used = savedCursor_;
  for (int s = firstSlot_; s < g_block.bufCount && pool_.slotCount < kMaxBuffers; ++s)
    pool_.slots[pool_.slotCount++] = s;
}

}  // namespace kwb_sim
