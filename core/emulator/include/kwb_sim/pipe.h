// SPDX-License-Identifier: MIT
#pragma once
// TPipe, TQue / TQueBind and TBuf: buffer allocation in UB/L1 and the queue hand-offs that order the
// pipes (EnQue/DeQue, FreeTensor/AllocTensor). All state lives in the runtime so that every misuse is
// reported with the user's source line.

#include <cstdint>

#include "kwb_sim/runtime.h"
#include "kwb_sim/tensor.h"

namespace kwb_sim {

// Runtime queue interface (runtime/Queues.cpp). Queue ids are per block.
bool queueInit(int q, MemSpace space, int num, std::uint32_t len, int depth, Pipe producer, Pipe consumer,
               const char* api, SrcLoc loc);
int queueAlloc(int q, SrcLoc loc);  // returns a slot (fatal when none is free)
void queueEnQue(int q, const TensorRef& ref, std::uint32_t off, SrcLoc loc);
int queueDeQue(int q, SrcLoc loc);  // returns a slot (fatal when empty)
void queueFree(int q, const TensorRef& ref, std::uint32_t off, SrcLoc loc);
int queueCount(int q);  // tensors waiting in the queue
bool queueHasIdle(int q);
int queueDepth(int q);
int tbufInit(MemSpace space, std::uint32_t len, SrcLoc loc);  // returns the TBuf's slot
void pipeReset();                                             // TPipe construction / destruction
int eventAlloc(int evt, bool reserve, SrcLoc loc);            // AllocEventID / FetchEventID
void eventRelease(int evt, int id, SrcLoc loc);

template <typename T>
AscendC::LocalTensor<T> tensorForSlot(int slot, AscendC::TPosition pos) {
  AscendC::LocalTensor<T> t;
  if (slot < 0) return t;
  const BufferSlot& s = g_block.bufs[slot];
  t.ptr_ = reinterpret_cast<T*>(spaceBase(s.space) + s.off);
  t.size_ = s.len / static_cast<std::uint32_t>(sizeof(T));
  t.ref_.buf = static_cast<std::int16_t>(slot);
  t.ref_.gen = s.gen;
  t.ref_.space = s.space;
  t.position_ = pos;
  return t;
}

}  // namespace kwb_sim

namespace AscendC {

template <TPosition src, TPosition dst, int32_t depth, auto mask = 0>
class TQueBind {
 public:
  TQueBind() = default;
  TQueBind(const TQueBind&) = delete;
  TQueBind& operator=(const TQueBind&) = delete;

  template <typename T>
  LocalTensor<T> AllocTensor(KWB_SIM_LOC) {
    return kwb_sim::tensorForSlot<T>(kwb_sim::queueAlloc(id_, loc_), src);
  }
  template <typename T>
  bool EnQue(const LocalTensor<T>& tensor, KWB_SIM_LOC) {
    kwb_sim::queueEnQue(id_, tensor.ref_, tensor.ubOffset(), loc_);
    return true;
  }
  template <typename T>
  LocalTensor<T> DeQue(KWB_SIM_LOC) {
    return kwb_sim::tensorForSlot<T>(kwb_sim::queueDeQue(id_, loc_), dst);
  }
  template <typename T>
  void FreeTensor(const LocalTensor<T>& tensor, KWB_SIM_LOC) {
    kwb_sim::queueFree(id_, tensor.ref_, tensor.ubOffset(), loc_);
  }
  bool VacantInQue() const { return kwb_sim::queueCount(id_) < kwb_sim::queueDepth(id_); }
  bool HasTensorInQue() const { return kwb_sim::queueCount(id_) > 0; }
  int32_t GetTensorCountInQue() const { return kwb_sim::queueCount(id_); }
  bool HasIdleBuffer() const { return kwb_sim::queueHasIdle(id_); }
  void FreeAllEvent() {}

  int id_ = -1;  // runtime queue id, assigned by TPipe::InitBuffer
};

template <TPosition pos, int32_t depth, auto mask = 0>
class TQue : public TQueBind<pos, pos, depth, mask> {};

template <TPosition pos = TPosition::VECCALC>
class TBuf {
 public:
  TBuf() = default;
  TBuf(const TBuf&) = delete;
  TBuf& operator=(const TBuf&) = delete;

  template <typename T>
  LocalTensor<T> Get(KWB_SIM_LOC) {
    if (slot_ < 0)
      kwb_sim::fatal(kwb_sim::Cat::QueueMisuse, "Get", loc_, kwb_sim::Pipe::S, kwb_sim::kOperandThis,
                     "TBuf::Get before pipe.InitBuffer gave this TBuf any memory");
    return kwb_sim::tensorForSlot<T>(slot_, pos);
  }
  template <typename T>
  LocalTensor<T> Get(uint32_t len, KWB_SIM_LOC) {
    LocalTensor<T> t = Get<T>(loc_);
    if (len > t.size_)
      kwb_sim::report(kwb_sim::Cat::UbOutOfBounds, "Get", loc_, kwb_sim::Pipe::S, 0,
                      "TBuf::Get<T>(" + std::to_string(len) + ") asks for " +
                          std::to_string(len * sizeof(T)) + " bytes but the TBuf holds only " +
                          std::to_string(t.size_ * sizeof(T)) + " bytes");
    t.size_ = len;
    return t;
  }
  template <typename T>
  LocalTensor<T> GetWithOffset(uint32_t size, uint32_t bufOffset, KWB_SIM_LOC) {
    LocalTensor<T> t = Get<T>(loc_);
    const uint64_t end = static_cast<uint64_t>(bufOffset) + static_cast<uint64_t>(size) * sizeof(T);
    if (end > static_cast<uint64_t>(t.size_) * sizeof(T))
      kwb_sim::report(kwb_sim::Cat::UbOutOfBounds, "GetWithOffset", loc_, kwb_sim::Pipe::S, 1,
                      "GetWithOffset(" + std::to_string(size) + ", " + std::to_string(bufOffset) +
                          ") ends at byte " + std::to_string(end) + " of a TBuf of " +
                          std::to_string(t.size_ * sizeof(T)) + " bytes");
    if (bufOffset % 32 != 0)
      kwb_sim::report(kwb_sim::Cat::MisalignedCopy, "GetWithOffset", loc_, kwb_sim::Pipe::S, 1,
                      "GetWithOffset offset " + std::to_string(bufOffset) +
                          " bytes is not 32-byte aligned; UB tensors must start on a 32-byte boundary");
    t.ptr_ = reinterpret_cast<T*>(reinterpret_cast<uint8_t*>(t.ptr_) + bufOffset);
    t.size_ = size;
    return t;
  }
  // The queue calls the reference's TBuf keeps from TQueBind: AllocTensor and DeQue give the whole
  // buffer, as Get does; EnQue and FreeTensor do nothing, so they order nothing either (a TBuf has no
  // queue to hand a buffer through; docs/emulator.md, "TBuf's queue calls").
  template <typename T>
  LocalTensor<T> AllocTensor(KWB_SIM_LOC) {
    return Get<T>(loc_);
  }
  template <typename T>
  LocalTensor<T> DeQue(KWB_SIM_LOC) {
    return Get<T>(loc_);
  }
  template <typename T>
  void EnQue(const LocalTensor<T>& /*tensor*/) {}
  template <typename T>
  void FreeTensor(const LocalTensor<T>& /*tensor*/) {}

  int slot_ = -1;
};

class TPipe {
 public:
  TPipe() {
    kwb_sim::pipeReset();
    current() = this;
  }
  ~TPipe() {
    kwb_sim::pipeReset();
    if (current() == this) current() = nullptr;
  }
  TPipe(const TPipe&) = delete;
  TPipe& operator=(const TPipe&) = delete;

  template <TPosition src, TPosition dst, int32_t depth, auto mask>
  bool InitBuffer(TQueBind<src, dst, depth, mask>& que, uint8_t num, uint32_t len, KWB_SIM_LOC) {
    if (que.id_ < 0) que.id_ = kwb_sim::newQueue("TQue");
    const kwb_sim::EventPipes pp = kwb_sim::positionPipes(src, dst);
    return kwb_sim::queueInit(que.id_, kwb_sim::positionSpace(src), num, len, depth, pp.src, pp.dst,
                              "InitBuffer", loc_);
  }
  template <TPosition pos>
  bool InitBuffer(TBuf<pos>& buf, uint32_t len, KWB_SIM_LOC) {
    buf.slot_ = kwb_sim::tbufInit(kwb_sim::positionSpace(pos), len, loc_);
    return buf.slot_ >= 0;
  }

  // TBufPool (kwb_sim/buf_pool.h): a range of the pipe's memory, or one sharing another pool's range.
  template <typename P>
  bool InitBufPool(P& pool, uint32_t len, KWB_SIM_LOC) {
    return pool.kwbInitFromPipe(len, loc_);
  }
  template <typename P, typename S>
  bool InitBufPool(P& pool, uint32_t len, S& shareBuf, KWB_SIM_LOC) {
    return pool.kwbInitShared(len, shareBuf, loc_);
  }

  template <HardEvent evt>
  TEventID AllocEventID(KWB_SIM_LOC) {
    return static_cast<TEventID>(kwb_sim::eventAlloc(static_cast<int>(evt), true, loc_));
  }
  template <HardEvent evt>
  void ReleaseEventID(TEventID id, KWB_SIM_LOC) {
    kwb_sim::eventRelease(static_cast<int>(evt), id, loc_);
  }
  TEventID FetchEventID(HardEvent evt, KWB_SIM_LOC) {
    return static_cast<TEventID>(kwb_sim::eventAlloc(static_cast<int>(evt), false, loc_));
  }
  template <HardEvent evt>
  TEventID FetchEventID(KWB_SIM_LOC) {
    return static_cast<TEventID>(kwb_sim::eventAlloc(static_cast<int>(evt), false, loc_));
  }
  void Destroy() { kwb_sim::pipeReset(); }
  void Reset() { kwb_sim::pipeReset(); }

  static TPipe*& current() {
    static TPipe* p = nullptr;
    return p;
  }
};

inline TPipe* GetTPipePtr() {
  return TPipe::current();
}

// Static tensor programming (no TPipe/TQue): LocalMemAllocator<hard> hands out LocalTensors from one
// physical memory in order. Each Alloc is a buffer of its own (bounds, use-after-free and capacity
// checked like InitBuffer's, at the memory's alignment); GetCurAddr is the byte offset where the next
// one starts. The legal memories are UB, L1, L0A, L0B, L0C, BIAS and FIXBUF (docs/emulator.md,
// "Static tensor programming"); FIXBUF has no emulated memory.
enum class Hardware : uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };

namespace detail {
// The position a tensor from LocalMemAllocator<hard>::Alloc gets when the call names none.
template <Hardware hard>
constexpr TPosition allocatorDefaultPosition() {
  if constexpr (hard == Hardware::L1)
    return TPosition::A1;
  else if constexpr (hard == Hardware::L0A)
    return TPosition::A2;
  else if constexpr (hard == Hardware::L0B)
    return TPosition::B2;
  else if constexpr (hard == Hardware::L0C)
    return TPosition::CO1;
  else if constexpr (hard == Hardware::BIAS)
    return TPosition::C2;
  else
    return TPosition::VECCALC;
}
}  // namespace detail

template <Hardware hard = Hardware::UB>
class LocalMemAllocator {
  static_assert(hard != Hardware::GM && hard != Hardware::MAX,
                "kwb-sim: invalid-param: LocalMemAllocator serves UB, L1, L0A, L0B, L0C, BIAS or FIXBUF, not "
                "GM");
  static_assert(hard != Hardware::FIXBUF,
                "kwb-sim: unsupported-api: LocalMemAllocator<Hardware::FIXBUF> is not emulated (the kwb "
                "emulator has no Fixpipe buffer)");
  static constexpr TPosition kPos = detail::allocatorDefaultPosition<hard>();

 public:
  LocalMemAllocator() = default;
  uint32_t GetCurAddr() const { return next_; }

  template <typename T, uint32_t tileSize>
  LocalTensor<T> Alloc(KWB_SIM_LOC) {
    return allocate<T>(kPos, tileSize, loc_);
  }
  template <TPosition pos, typename T, uint32_t tileSize>
  LocalTensor<T> Alloc(KWB_SIM_LOC) {
    return allocate<T>(pos, tileSize, loc_);
  }
  template <typename T>
  LocalTensor<T> Alloc(uint32_t tileSize, KWB_SIM_LOC) {
    return allocate<T>(kPos, tileSize, loc_);
  }
  template <TPosition pos, typename T>
  LocalTensor<T> Alloc(uint32_t tileSize, KWB_SIM_LOC) {
    return allocate<T>(pos, tileSize, loc_);
  }

 private:
  template <typename T>
  LocalTensor<T> allocate(TPosition pos, uint32_t tileSize, kwb_sim::SrcLoc loc) {
    const kwb_sim::MemSpace space = kwb_sim::positionSpace(kPos);
    // The reference: pos must name a position of the allocator's physical memory (Alloc.md).
    if (kwb_sim::positionSpace(pos) != space) {
      kwb_sim::fatal(kwb_sim::Cat::InvalidParam, "LocalMemAllocator::Alloc", loc, kwb_sim::Pipe::S,
                     kwb_sim::kOperandNone,
                     std::string("LocalMemAllocator::Alloc: the position asked for lives in ") +
                         kwb_sim::spaceName(kwb_sim::positionSpace(pos)) + ", but this allocator serves " +
                         kwb_sim::spaceName(space) +
                         "; name a position of the allocator's memory (or none, to get its default)");
    }
    const uint64_t bytes = static_cast<uint64_t>(tileSize) * sizeof(T);
    const int slot = kwb_sim::allocBuffer(space, static_cast<uint32_t>(bytes), -1, "LocalMemAllocator::Alloc",
                                          loc, kwb_sim::kOperandNone);
    LocalTensor<T> t = kwb_sim::tensorForSlot<T>(slot, pos);
    if (slot >= 0) {
      t.size_ = tileSize;
      const kwb_sim::BufferSlot& s = kwb_sim::g_block.bufs[slot];
      next_ = s.off + s.len;
    }
    return t;
  }
  uint32_t next_ = 0;
};

}  // namespace AscendC

// CANN declares GetTPipePtr at global scope too: the devkit's samples call it unqualified in templates
// that have no `using namespace AscendC` (e.g. the compare example).
using AscendC::GetTPipePtr;
