// SPDX-License-Identifier: MIT
// TPipe buffer pools, TQue state machines (AllocTensor -> EnQue -> DeQue -> FreeTensor) and event id
// allocation. Misuse that would hang the hardware (AllocTensor with no free buffer, DeQue on an empty
// queue) ends the block after reporting, at the cause: the last use of the tensor whose EnQue or
// FreeTensor is missing, with the hanging call named in the message. Buffers still held when the
// pipe is destroyed (or the kernel ends) are reported as leaks (docs/emulator.md, "Checks").

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
  // An AllocTensor whose tensor was freed without ever being EnQue'd while this queue had tensors
  // waiting for a DeQue: a consumer that allocates where it should dequeue.
  SrcLoc allocInsteadOfDeQue{nullptr, 0};
};

// Why a buffer is where it is, for the hang and leak diagnostics.
struct BufferHistory {
  SrcLoc taken{nullptr, 0};  // the AllocTensor or DeQue that handed it out
  SrcLoc allocLoc{nullptr, 0};
  SrcLoc lastUse{nullptr, 0};  // the last API that read or wrote its bytes since it was taken
  const char* lastUseApi = nullptr;
};
BufferHistory g_history[kMaxBuffers];
SrcLoc g_initLoc[kMaxBuffers];  // the InitBuffer that made each buffer
QueueState g_queues[kMaxQueues];
int g_queueCount = 0;
std::uint32_t g_poolUsed[8] = {};  // bytes used per MemSpace
int g_eventsReserved[64] = {};     // bit set of reserved ids per HardEvent

std::string lineText(SrcLoc loc) {
  return "line " + std::to_string(loc.line);
}

// Where a missing hand-off belongs: after the tensor's last use, else where it was taken.
SrcLoc causeOf(int buf) {
  const BufferHistory& h = g_history[buf];
  return h.lastUse.file ? h.lastUse : h.taken;
}

std::string lastUseText(int buf) {
  const BufferHistory& h = g_history[buf];
  if (!h.lastUse.file) return "never used after it was taken";
  return std::string("last used by ") + (h.lastUseApi ? h.lastUseApi : "an API call") + " at " +
         lineText(h.lastUse);
}

int slotInState(const QueueState& qs, BufState state) {
  for (int i = 0; i < qs.nslots; ++i)
    if (g_block.bufs[qs.slots[i]].state == state) return qs.slots[i];
  return -1;
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
  for (auto& h : g_history) h = BufferHistory{};
  for (auto& l : g_initLoc) l = SrcLoc{nullptr, 0};
  g_block.bufCount = 0;
}

SrcLoc bufferInitLoc(int buf) {
  return buf >= 0 && buf < kMaxBuffers ? g_initLoc[buf] : SrcLoc{nullptr, 0};
}

void queueNoteUse(int buf, const char* api, SrcLoc loc) {
  if (buf < 0 || buf >= kMaxBuffers || !loc.file || g_block.bufs[buf].queue < 0) return;
  g_history[buf].lastUse = loc;
  g_history[buf].lastUseApi = api;
}

void queueEndOfKernel() {
  for (int q = 0; q < g_queueCount; ++q) {
    const QueueState& qs = g_queues[q];
    if (!qs.initialised) continue;
    for (int i = 0; i < qs.nslots; ++i) {
      const int buf = qs.slots[i];
      const BufferHistory& h = g_history[buf];
      switch (g_block.bufs[buf].state) {
        case BufState::Allocated:
          reportRelated(
              Cat::QueueMisuse, "EnQue", causeOf(buf), qs.producer, kOperandNone,
              "buffer leak: the tensor from AllocTensor at " + lineText(h.allocLoc) + " (" +
                  lastUseText(buf) +
                  ") is neither EnQue'd nor freed before the kernel ends. Every tensor taken from a queue "
                  "must "
                  "go back to it; once all its buffers leak, the next AllocTensor waits forever on hardware. "
                  "EnQue it to its consumer (or FreeTensor it) after its last use",
              {{"the AllocTensor that took the tensor", h.allocLoc},
               {"the InitBuffer of its queue", qs.initLoc}});
          break;
        case BufState::Enqueued:
          if (qs.allocInsteadOfDeQue.file)
            report(
                Cat::QueueMisuse, "AllocTensor", qs.allocInsteadOfDeQue, qs.consumer, kOperandNone,
                "this AllocTensor takes a fresh, never-written buffer where the consumer should DeQue: the "
                "tensor EnQue'd at " +
                    lineText(g_block.bufs[buf].lastLoc) +
                    " is still in the queue when the kernel ends (never DeQue'd), and the tensor allocated "
                    "here is freed without ever being EnQue'd. Use DeQue here");
          else
            reportRelated(
                Cat::QueueMisuse, "EnQue", g_block.bufs[buf].lastLoc, qs.producer, kOperandNone,
                "buffer leak: the tensor EnQue'd here is never DeQue'd before the kernel ends. Each "
                "EnQue needs one DeQue by the consumer (then FreeTensor)",
                {{"the AllocTensor that took the tensor", h.allocLoc},
                 {"the InitBuffer of its queue", qs.initLoc}});
          break;
        case BufState::Dequeued:
          reportRelated(
              Cat::QueueMisuse, "FreeTensor", causeOf(buf), qs.consumer, kOperandNone,
              "buffer leak: the tensor from DeQue at " + lineText(h.taken) + " (" + lastUseText(buf) +
                  ") is never freed before the kernel ends. With more tiles per block the next "
                  "AllocTensor of this queue waits forever on hardware. FreeTensor it after its "
                  "last use",
              {{"the DeQue that took the tensor", h.taken}, {"the InitBuffer of its queue", qs.initLoc}});
          break;
        default:
          break;
      }
    }
  }
}
}  // namespace rt

int newQueue(const char*) {
  if (g_queueCount >= kMaxQueues) return kMaxQueues - 1;
  g_queues[g_queueCount].used = true;
  return g_queueCount++;
}

void pipeReset() {
  if (g_block.inKernel) rt::queueEndOfKernel();  // the TPipe's destructor: what is still held leaks
  for (int i = 0; i < g_block.bufCount; ++i) {
    g_block.bufs[i].state = BufState::Unused;
    ++g_block.bufs[i].gen;
  }
  g_block.bufCount = 0;
  for (auto& u : g_poolUsed) u = 0;
  for (int q = 0; q < g_queueCount; ++q) g_queues[q].initialised = false;
}

int allocBuffer(MemSpace space, std::uint32_t bytes, int queue, const char* api, SrcLoc loc, int operand) {
  // A mix kernel's cores have their own memories (docs/emulator.md, "Mixed AIC/AIV kernels"): the AIC
  // has L1, L0A/L0B, L0C and the bias table, the AIV only UB.
  if (g_block.core != CoreKind::Plain && (space == MemSpace::UB) != (g_block.core == CoreKind::Aiv)) {
    const bool onAiv = g_block.core == CoreKind::Aiv;
    fatal(Cat::InvalidParam, api, loc, Pipe::S, operand,
          std::string(api) + " asks for " + spaceName(space) + " on the " + (onAiv ? "AIV" : "AIC") +
              " (block " + std::to_string(g_block.blockIdx) +
              (onAiv ? ", AIV " + std::to_string(g_block.subBlockIdx) : std::string()) + "), which has " +
              (onAiv ? "only UB: L1, L0A/L0B, L0C and the bias table belong to the AIC"
                     : "no UB: vector buffers (VECIN/VECOUT/VECCALC) belong to the AIVs") +
              ". Guard the buffer's InitBuffer and its use with " +
              (onAiv ? "if ASCEND_IS_AIC" : "if ASCEND_IS_AIV") +
              ", and hand data between the cores through GM (a workspace) with CrossCoreSetFlag/WaitFlag");
  }
  // Buffers start where the memory's alignment rule puts them (docs/ascend-notes.md §2.2: L0A/L0B 512 B,
  // L0C and the bias table 64 B, UB/L1 32 B), so a cube operand from InitBuffer is always aligned.
  const std::uint32_t align = space == MemSpace::L0A || space == MemSpace::L0B  ? 512u
                              : space == MemSpace::L0C || space == MemSpace::BT ? 64u
                                                                                : 32u;
  const std::uint32_t len = (bytes + align - 1u) / align * align;
  std::uint32_t& used = g_poolUsed[static_cast<int>(space)];
  const std::uint32_t cap = spaceSize(space);
  if (static_cast<std::uint64_t>(used) + len > cap) {
    // The call that tips the total over is often not the one to shrink: name the largest buffer too.
    int largest = -1;
    for (int i = 0; i < g_block.bufCount; ++i)
      if (g_block.bufs[i].space == space && (largest < 0 || g_block.bufs[i].len > g_block.bufs[largest].len))
        largest = i;
    std::string biggest;
    if (largest >= 0 && g_initLoc[largest].file && g_block.bufs[largest].len > len)
      biggest = "; the largest buffer so far is " + std::to_string(g_block.bufs[largest].len) +
                " bytes, from InitBuffer at " + lineText(g_initLoc[largest]);
    fatal(Cat::UbOverflow, api, loc, Pipe::S, operand,
          std::string(api) + " needs " + std::to_string(len) + " more bytes of " + spaceName(space) +
              " at offset " + std::to_string(used) + ": " +
              std::to_string(static_cast<std::uint64_t>(used) + len) + " bytes in total exceed the " +
              std::to_string(cap) + "-byte " + spaceName(space) + " of " + rt::soc().name + " (" +
              std::to_string(cap / 1024) + " KB)" + biggest + "; shrink the tiles or the number of buffers");
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
  g_initLoc[slot] = loc;
  used += len;
  rt::shadowAllocated(space, s.off, s.len, loc);  // fresh memory holds stale data on hardware: poisoned
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
  // A 0-byte buffer breaks no rule of the API reference: a block with no work commonly sizes its buffers
  // from its (empty) share. Only a use of it is wrong, and that is caught at the use as out of bounds
  // (docs/emulator.md, "Cause lines").
  if (len == 0)
    report(Cat::Note, api, loc, Pipe::S, 2,
           "InitBuffer with a buffer length of 0 bytes: this block has no room in that queue, so any tensor "
           "taken from it is out of bounds at its first use");
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
    g_history[qs->slots[i]] = BufferHistory{loc, loc, {nullptr, 0}, nullptr};
    syncQueueAcquire(qs->consumer, qs->producer, qs->slots[i]);
    syncRecord("AllocTensor", loc, qs->producer, SyncKind::AllocTensor, qs->consumer, qs->producer,
               qs->slots[i]);
    return qs->slots[i];
  }
  // The cause: a dequeued tensor that was never freed, a consumer allocating where it should DeQue, or
  // a tensor allocated and never handed on.
  const std::string hang = ": on hardware the AllocTensor at " + lineText(loc) +
                           " waits forever for a buffer (hang); every buffer of this queue (" +
                           std::to_string(qs->nslots) + ", from InitBuffer at " + lineText(qs->initLoc) +
                           ") is still held";
  if (const int buf = slotInState(*qs, BufState::Dequeued); buf >= 0)
    rt::fatalRelated(Cat::QueueMisuse, "FreeTensor", causeOf(buf), qs->consumer, kOperandNone,
                     "the tensor from DeQue at " + lineText(g_history[buf].taken) + " is never freed (" +
                         lastUseText(buf) + ")" + hang + ". FreeTensor each tensor after its last use",
                     {{"the AllocTensor that waits forever", loc},
                      {"the DeQue that took the tensor", g_history[buf].taken}});
  if (qs->allocInsteadOfDeQue.file && slotInState(*qs, BufState::Enqueued) >= 0)
    rt::fatalRelated(
        Cat::QueueMisuse, "AllocTensor", qs->allocInsteadOfDeQue, qs->consumer, kOperandNone,
        "this AllocTensor takes a fresh, never-written buffer where the consumer should DeQue: the "
        "tensors EnQue'd to this queue are never DeQue'd" +
            hang + ". Use DeQue here",
        {{"the AllocTensor that waits forever", loc}});
  if (const int buf = slotInState(*qs, BufState::Allocated); buf >= 0 && g_history[buf].lastUse.file)
    rt::fatalRelated(Cat::QueueMisuse, "EnQue", causeOf(buf), qs->producer, kOperandNone,
                     "the tensor from AllocTensor at " + lineText(g_history[buf].allocLoc) +
                         " is neither EnQue'd nor freed (" + lastUseText(buf) + ")" + hang +
                         ". EnQue it after its last use",
                     {{"the AllocTensor that waits forever", loc},
                      {"the AllocTensor that took the tensor", g_history[buf].allocLoc}});
  std::string held;
  for (int i = 0; i < qs->nslots; ++i) {
    const BufferSlot& s = g_block.bufs[qs->slots[i]];
    if (s.lastLoc.file) held += (held.empty() ? "" : ", ") + lineText(s.lastLoc);
  }
  fatal(Cat::QueueMisuse, "AllocTensor", loc, qs->producer, kOperandThis,
        "AllocTensor on a queue whose " + std::to_string(qs->nslots) +
            " buffer(s) are all in use (allocated, enqueued or dequeued and not yet freed; last taken at " +
            held +
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
    // The cause is the missing EnQue: after the last use of a tensor allocated from this queue.
    if (const int buf = slotInState(*qs, BufState::Allocated); buf >= 0)
      rt::fatalRelated(
          Cat::QueueMisuse, "EnQue", causeOf(buf), qs->producer, kOperandNone,
          "nothing was EnQue'd after this " +
              std::string(g_history[buf].lastUseApi ? g_history[buf].lastUseApi : "AllocTensor") +
              " (the tensor from AllocTensor at " + lineText(g_history[buf].allocLoc) +
              " never reaches the queue), so the DeQue at " + lineText(loc) +
              " waits forever on hardware (hang). EnQue the tensor after its last write",
          {{"the DeQue that waits forever", loc},
           {"the AllocTensor that took the tensor", g_history[buf].allocLoc}});
    fatal(Cat::QueueMisuse, "DeQue", loc, qs->consumer, kOperandThis,
          "DeQue on an empty queue (no EnQue since the last DeQue): on hardware the consumer pipe waits "
          "forever (hang). Every DeQue needs an earlier EnQue of a tensor allocated from the same queue");
  }
  const int slot = qs->fifo[qs->head];
  qs->head = (qs->head + 1) % 16;
  --qs->count;
  BufferSlot& s = g_block.bufs[slot];
  s.state = BufState::Dequeued;
  s.lastLoc = loc;
  g_history[slot].taken = loc;
  g_history[slot].lastUse = SrcLoc{nullptr, 0};
  g_history[slot].lastUseApi = nullptr;
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
  if (s.state == BufState::Allocated && qs->count > 0) qs->allocInsteadOfDeQue = g_history[ref.buf].allocLoc;
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

std::uint32_t& allocCursor(MemSpace space) {
  return g_poolUsed[static_cast<int>(space)];
}

// TBufPool::Reset waits for every pool buffer's pending release (the FreeTensor flag from the
// consumer back to the producer), as the next AllocTensor of that buffer would.
void queueAcquireReleased(int slot) {
  const int q = g_block.bufs[slot].queue;
  if (q < 0 || q >= g_queueCount) return;
  syncQueueAcquire(g_queues[q].consumer, g_queues[q].producer, slot);
}

}  // namespace kwb_sim
