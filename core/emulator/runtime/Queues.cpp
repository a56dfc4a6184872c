// SPDX-License-Identifier: MIT
// TPipe buffer pools, TQue state machines (AllocTensor -> EnQue -> DeQue -> FreeTensor) and event id
// allocation. Misuse that would hang the hardware (AllocTensor with no free buffer, DeQue on an empty
// queue) ends the block after reporting.

#include <string>

#include "BlockContext.h"

namespace kwb_sim {

namespace {
struct QueueState {
  bool used = false;
  bool initialised = false;
  MemSpace space = MemSpace::UB;
  int slots[16] = {};
  int nslots = 0;
  int depth = 1;
  int fifo[16] = {};
  int head = 0, count = 0;
  int nextAlloc = 0;
  Pipe producer = Pipe::MTE2, consumer = Pipe::V;
  SrcLoc initLoc{nullptr, 0};
};
QueueState g_queues[kMaxQueues];
int g_queueCount = 0;
std::uint32_t g_poolUsed[8] = {};  // bytes used per MemSpace
int g_eventsReserved[64] = {};     // bit set of reserved ids per HardEvent

std::string queueName(int q) {
  return "queue #" + std::to_string(q);
}

QueueState* queueOrFatal(int q, const char* api, SrcLoc loc) {
  if (q < 0 || q >= g_queueCount || !g_queues[q].initialised)
    fatal(Cat::QueueMisuse, api, loc, Pipe::S, kOperandThis,
          std::string(api) + " on a TQue that pipe.InitBuffer never initialised: the queue owns no buffers");
  return &g_queues[q];
}

int slotOwnedBy(const QueueState& qs, const TensorRef& ref) {
  for (int i = 0; i < qs.nslots; ++i)
    if (qs.slots[i] == ref.buf) return i;
  return -1;
}

Instr& syncRecord(const char* api, SrcLoc loc, Pipe pipe, SyncKind kind, Pipe src, Pipe dst, int id) {
  Instr& in = record(api, loc, pipe);
  in.sync = kind;
  in.syncSrc = src;
  in.syncDst = dst;
  in.syncId = id;
  return in;
}
}  // namespace

namespace rt {
void queueResetBlock() {
  for (auto& q : g_queues) q = QueueState{};
  g_queueCount = 0;
  for (auto& u : g_poolUsed) u = 0;
  for (auto& e : g_eventsReserved) e = 0;
  for (auto& b : g_block.bufs) b = BufferSlot{};
  g_block.bufCount = 0;
}
}  // namespace rt

int newQueue(const char*) {
  if (g_queueCount >= kMaxQueues) return kMaxQueues - 1;
  g_queues[g_queueCount].used = true;
  return g_queueCount++;
}

void pipeReset() {
  for (int i = 0; i < g_block.bufCount; ++i) {
    g_block.bufs[i].state = BufState::Unused;
    ++g_block.bufs[i].gen;
  }
  g_block.bufCount = 0;
  for (auto& u : g_poolUsed) u = 0;
  for (int q = 0; q < g_queueCount; ++q) g_queues[q].initialised = false;
}

int allocBuffer(MemSpace space, std::uint32_t bytes, int queue, const char* api, SrcLoc loc, int operand) {
  const std::uint32_t len = (bytes + 31u) / 32u * 32u;
  std::uint32_t& used = g_poolUsed[static_cast<int>(space)];
  const std::uint32_t cap = spaceSize(space);
  if (static_cast<std::uint64_t>(used) + len > cap) {
    fatal(Cat::UbOverflow, api, loc, Pipe::S, operand,
          std::string(api) + " needs " + std::to_string(len) + " more bytes of " + spaceName(space) +
              " at offset " + std::to_string(used) + ": " +
              std::to_string(static_cast<std::uint64_t>(used) + len) + " bytes in total exceed the " +
              std::to_string(cap) + "-byte " + spaceName(space) + " of " + rt::soc().name + " (" +
              std::to_string(cap / 1024) + " KB); shrink the tiles or the number of buffers");
  }
  if (g_block.bufCount >= kMaxBuffers || g_block.bufCount >= 64) {
    fatal(Cat::UbOverflow, api, loc, Pipe::S, operand,
          std::string(api) + ": more than 64 buffers in one TPipe (the hardware limit for one kernel)");
  }
  const int slot = g_block.bufCount++;
  BufferSlot& s = g_block.bufs[slot];
  s.off = used;
  s.len = len;
  ++s.gen;
  s.queue = static_cast<std::int16_t>(queue);
  s.space = space;
  s.state = queue >= 0 ? BufState::Free : BufState::Calc;
  s.lastLoc = loc;
  used += len;
  return slot;
}

bool queueInit(int q, MemSpace space, int num, std::uint32_t len, int depth, Pipe producer, Pipe consumer,
               const char* api, SrcLoc loc) {
  QueueState& qs = g_queues[q];
  if (num <= 0 || num > 16) {
    report(Cat::InvalidParam, api, loc, Pipe::S, 1,
           "InitBuffer buffer count " + std::to_string(num) + " is out of range (1..16 per queue)");
    num = num <= 0 ? 1 : 16;
  }
  if (len == 0) report(Cat::InvalidParam, api, loc, Pipe::S, 2, "InitBuffer with a buffer length of 0 bytes");
  qs.initialised = true;
  qs.space = space;
  qs.depth = depth <= 0 ? 1 : depth;
  qs.producer = producer;
  qs.consumer = consumer;
  qs.initLoc = loc;
  qs.nslots = num;
  qs.head = qs.count = qs.nextAlloc = 0;
  for (int i = 0; i < num; ++i) qs.slots[i] = allocBuffer(space, len, q, api, loc, 0);
  return true;
}

int tbufInit(MemSpace space, std::uint32_t len, SrcLoc loc) {
  return allocBuffer(space, len, -1, "InitBuffer", loc, 0);
}

int queueAlloc(int q, SrcLoc loc) {
  QueueState* qs = queueOrFatal(q, "AllocTensor", loc);
  for (int k = 0; k < qs->nslots; ++k) {
    const int i = (qs->nextAlloc + k) % qs->nslots;
    BufferSlot& s = g_block.bufs[qs->slots[i]];
    if (s.state != BufState::Free) continue;
    qs->nextAlloc = (i + 1) % qs->nslots;
    s.state = BufState::Allocated;
    s.lastLoc = loc;
    syncQueueAcquire(qs->consumer, qs->producer, qs->slots[i]);
    syncRecord("AllocTensor", loc, qs->producer, SyncKind::AllocTensor, qs->consumer, qs->producer,
               qs->slots[i]);
    return qs->slots[i];
  }
  std::string held;
  for (int i = 0; i < qs->nslots; ++i) {
    const BufferSlot& s = g_block.bufs[qs->slots[i]];
    if (s.lastLoc.file)
      held += (held.empty() ? "" : ", ") + std::string("line ") + std::to_string(s.lastLoc.line);
  }
  fatal(Cat::QueueMisuse, "AllocTensor", loc, qs->producer, kOperandThis,
        "AllocTensor on a queue whose " + std::to_string(qs->nslots) +
            " buffer(s) are all in use (allocated, " +
            "enqueued or dequeued and not yet freed; last taken at " + held +
            "): on hardware this call waits forever for a FreeTensor (hang). Free each tensor after its last "
            "use, or give the queue more buffers in InitBuffer");
}

void queueEnQue(int q, const TensorRef& ref, std::uint32_t off, SrcLoc loc) {
  QueueState* qs = queueOrFatal(q, "EnQue", loc);
  (void)off;
  if (handleStale(ref) || ref.buf < 0) {
    report(Cat::QueueMisuse, "EnQue", loc, qs->producer, 0,
           ref.buf < 0 ? std::string("EnQue of a LocalTensor that was not allocated from a queue")
                       : std::string("EnQue of a LocalTensor after FreeTensor (its buffer was given back)"));
    return;
  }
  if (slotOwnedBy(*qs, ref) < 0) {
    report(Cat::QueueMisuse, "EnQue", loc, qs->producer, 0,
           "EnQue of a LocalTensor that belongs to another queue or TBuf; a tensor must be enqueued to the "
           "queue "
           "it was allocated from");
    return;
  }
  BufferSlot& s = g_block.bufs[ref.buf];
  if (s.state != BufState::Allocated) {
    report(Cat::QueueMisuse, "EnQue", loc, qs->producer, 0,
           std::string("EnQue of a LocalTensor that is ") +
               (s.state == BufState::Enqueued ? "already in the queue (EnQue twice without DeQue)"
                                              : "not freshly allocated (it was dequeued; FreeTensor it or "
                                                "AllocTensor a new one)"));
    return;
  }
  if (qs->count >= qs->depth) {
    report(Cat::QueueMisuse, "EnQue", loc, qs->producer, 0,
           "EnQue past the queue depth: the queue already holds " + std::to_string(qs->count) +
               " tensor(s) and its depth is " + std::to_string(qs->depth) +
               " (TQue<pos, depth>); DeQue before enqueueing again or raise the depth");
  }
  s.state = BufState::Enqueued;
  s.lastLoc = loc;
  qs->fifo[(qs->head + qs->count) % 16] = ref.buf;
  ++qs->count;
  syncQueueRelease(qs->producer, qs->consumer, ref.buf);
  syncRecord("EnQue", loc, qs->producer, SyncKind::EnQue, qs->producer, qs->consumer, ref.buf);
}

int queueDeQue(int q, SrcLoc loc) {
  QueueState* qs = queueOrFatal(q, "DeQue", loc);
  if (qs->count == 0) {
    fatal(Cat::QueueMisuse, "DeQue", loc, qs->consumer, kOperandThis,
          "DeQue on an empty queue (no EnQue since the last DeQue): on hardware the consumer pipe waits "
          "forever "
          "(hang)");
  }
  const int slot = qs->fifo[qs->head];
  qs->head = (qs->head + 1) % 16;
  --qs->count;
  BufferSlot& s = g_block.bufs[slot];
  s.state = BufState::Dequeued;
  s.lastLoc = loc;
  syncQueueAcquire(qs->producer, qs->consumer, slot);
  syncRecord("DeQue", loc, qs->consumer, SyncKind::DeQue, qs->producer, qs->consumer, slot);
  return slot;
}

void queueFree(int q, const TensorRef& ref, std::uint32_t off, SrcLoc loc) {
  QueueState* qs = queueOrFatal(q, "FreeTensor", loc);
  (void)off;
  if (ref.buf < 0) {
    report(Cat::QueueMisuse, "FreeTensor", loc, qs->consumer, 0,
           "FreeTensor of a LocalTensor that was not allocated from a queue");
    return;
  }
  if (slotOwnedBy(*qs, ref) < 0) {
    report(Cat::QueueMisuse, "FreeTensor", loc, qs->consumer, 0,
           g_block.bufs[ref.buf].queue < 0
               ? std::string("FreeTensor of a TBuf tensor: TBuf memory is not managed by a queue")
               : "FreeTensor to the wrong queue: the tensor was allocated from queue #" +
                     std::to_string(g_block.bufs[ref.buf].queue) + " and is freed to queue #" +
                     std::to_string(q) + "; both queues' buffer accounting is now wrong");
    return;
  }
  BufferSlot& s = g_block.bufs[ref.buf];
  if (handleStale(ref) || s.state == BufState::Free) {
    report(Cat::QueueMisuse, "FreeTensor", loc, qs->consumer, 0,
           "double FreeTensor: this buffer was already freed" +
               (s.lastLoc.file ? " at line " + std::to_string(s.lastLoc.line) : std::string()));
    return;
  }
  if (s.state == BufState::Enqueued) {
    report(Cat::QueueMisuse, "FreeTensor", loc, qs->consumer, 0,
           "FreeTensor of a tensor that is still in the queue (EnQue without DeQue)");
  }
  s.state = BufState::Free;
  s.lastLoc = loc;
  ++s.gen;
  syncQueueRelease(qs->consumer, qs->producer, ref.buf);
  syncRecord("FreeTensor", loc, qs->consumer, SyncKind::FreeTensor, qs->consumer, qs->producer, ref.buf);
}

int queueCount(int q) {
  return q >= 0 && q < g_queueCount ? g_queues[q].count : 0;
}
int queueDepth(int q) {
  return q >= 0 && q < g_queueCount ? g_queues[q].depth : 0;
}
bool queueHasIdle(int q) {
  if (q < 0 || q >= g_queueCount) return false;
  for (int i = 0; i < g_queues[q].nslots; ++i)
    if (g_block.bufs[g_queues[q].slots[i]].state == BufState::Free) return true;
  return false;
}

int eventAlloc(int evt, bool reserve, SrcLoc loc) {
  int& bits = g_eventsReserved[evt & 63];
  for (int id = 0; id < 8; ++id) {
    if (bits & (1 << id)) continue;
    if (reserve) bits |= 1 << id;
    return id;
  }
  report(Cat::UnpairedFlag, reserve ? "AllocEventID" : "FetchEventID", loc, Pipe::S, kOperandNone,
         "no free event id left for this HardEvent (ids 0..7 all reserved); ReleaseEventID ids you no longer "
         "use");
  return 0;
}

void eventRelease(int evt, int id, SrcLoc loc) {
  if (id < 0 || id > 7) {
    report(Cat::UnpairedFlag, "ReleaseEventID", loc, Pipe::S, 0,
           "ReleaseEventID of id " + std::to_string(id) + ", outside the valid range 0..7");
    return;
  }
  g_eventsReserved[evt & 63] &= ~(1 << id);
}

}  // namespace kwb_sim
