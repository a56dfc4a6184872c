// SPDX-License-Identifier: MIT
#pragma once
// LocalTensor (UB / L1 views handed out by queues and TBufs) and GlobalTensor (GM views).
// Element access through GetValue/SetValue runs on PIPE_S and is checked (bounds, use after FreeTensor,
// cross-pipe ordering); sub-views created with operator[] keep the identity of their buffer.

#include <cstdint>
#include <cstring>

#include "kwb_sim/runtime.h"

namespace AscendC {
template <typename T>
class LocalTensor;
}  // namespace AscendC

namespace kwb_sim {
// The right-hand side of `dst = a + b` (kwb_sim/tensor_ops.h), caught with the user's line: the
// conversion into this type happens at the assignment, so its default argument is the user's location.
template <typename T>
struct TensorExprAt {
  template <typename E, typename = typename E::KwbTensorExprTag>
  // NOLINTNEXTLINE(google-explicit-constructor)
  TensorExprAt(const E& e, SrcLoc at = SrcLoc::current()) : expr(&e), run(&runExpr<E>), loc(at) {}
  template <typename E>
  static void runExpr(const void* e, const AscendC::LocalTensor<T>& dst, SrcLoc at) {
    static_cast<const E*>(e)->assignTo(dst, at);
  }
  const void* expr;
  void (*run)(const void*, const AscendC::LocalTensor<T>&, SrcLoc);
  SrcLoc loc;
};
}  // namespace kwb_sim

namespace AscendC {

template <typename T>
class LocalTensor {
 public:
  using PrimType = T;
  LocalTensor() = default;
  // Static tensor programming (the reference's LocalTensor(pos, addr, tileSize)): tileSize elements at byte
  // address addr of the position's memory, placed by the kernel rather than by a TPipe. Its accesses are
  // checked against that memory (and alignment), not against a buffer (docs/emulator.md, "Launch forms").
  LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize)
      : ptr_(reinterpret_cast<T*>(kwb_sim::spaceBase(kwb_sim::positionSpace(pos)) + addr)),
        size_(tileSize),
        position_(pos) {
    ref_.space = kwb_sim::positionSpace(pos);
  }

  uint32_t GetSize() const { return size_; }
  uint32_t GetLength() const { return size_ * static_cast<uint32_t>(sizeof(T)); }
  void SetSize(uint32_t size) { size_ = size; }
  // As in CANN's CPU debug mode, the address kernel code may cast to a `__ubuf__ T*`: a kernel-view
  // address (PROT_NONE while the kernel runs), so every access through it is caught, checked and
  // costed as a scalar UB access (runtime/RawAccess.cpp). Alignment modulo 32 equals the UB offset's.
  uint64_t GetPhyAddr() const { return reinterpret_cast<uint64_t>(ptr_); }
  uint64_t GetPhyAddr(uint32_t offset) const { return reinterpret_cast<uint64_t>(ptr_ + offset); }
  TPosition GetPosition() const { return position_; }
  void SetUserTag(int32_t tag) { tag_ = tag; }
  int32_t GetUserTag() const { return tag_; }

  // Operator forms (`dst = a * b`, `mask = a < b`): the operation runs over dst's size (a's size for
  // comparisons), as the real operator overloads do.
  LocalTensor& operator=(const kwb_sim::TensorExprAt<T>& e) {
    e.run(e.expr, *this, e.loc);
    return *this;
  }

  LocalTensor operator[](uint32_t offset) const {
    LocalTensor t = *this;
    t.ptr_ = ptr_ + offset;
    t.size_ = size_ > offset ? size_ - offset : 0;
    return t;
  }

  template <typename U>
  LocalTensor<U> ReinterpretCast() const {
    LocalTensor<U> t;
    t.ptr_ = reinterpret_cast<U*>(ptr_);
    t.size_ = static_cast<uint32_t>(static_cast<uint64_t>(size_) * sizeof(T) / sizeof(U));
    t.ref_ = ref_;
    t.position_ = position_;
    return t;
  }

  T GetValue(uint32_t index, KWB_SIM_LOC) const {
    if (!access(index, false, "GetValue", loc_)) return T{};
    T v;
    std::memcpy(&v, kwb_sim::ubAlias(ptr_ + index), sizeof(T));
    return v;
  }
  void SetValue(uint32_t index, T value, KWB_SIM_LOC) const {
    if (!access(index, true, "SetValue", loc_)) return;
    std::memcpy(kwb_sim::ubAlias(ptr_ + index), &value, sizeof(T));
  }
  // Reference access: the handle and the index are checked here; the reference is a kernel-view one,
  // so the read or write made through it is recorded (and costed) by the raw-access handler.
  T& operator()(uint32_t index) const {
    const uint32_t off = ubOffset() + index * static_cast<uint32_t>(sizeof(T));
    kwb_sim::checkLocal(ref_, off, sizeof(T), "operator()", kwb_sim::SrcLoc{nullptr, 0}, kwb_sim::Pipe::S,
                        kwb_sim::kOperandThis, true);
    return ptr_[index];
  }

  // ---- emulator internals (public so that free functions and other instantiations can reach them)
  uint32_t ubOffset() const {
    return static_cast<uint32_t>(reinterpret_cast<const uint8_t*>(ptr_) - kwb_sim::spaceBase(ref_.space));
  }
  T* ptr_ = nullptr;
  uint32_t size_ = 0;
  kwb_sim::TensorRef ref_;
  TPosition position_ = TPosition::VECCALC;
  int32_t tag_ = 0;

 private:
  bool access(uint32_t index, bool write, const char* api, kwb_sim::SrcLoc loc) const {
    const uint32_t off = ubOffset() + index * static_cast<uint32_t>(sizeof(T));
    if (!kwb_sim::checkLocal(ref_, off, sizeof(T), api, loc, kwb_sim::Pipe::S, kwb_sim::kOperandThis, write))
      return false;
    kwb_sim::syncAccess(kwb_sim::Pipe::S, ref_.space, off, sizeof(T), write, api, loc, kwb_sim::kOperandThis);
    kwb_sim::recordScalar(api, loc, kwb_sim::dtypeOf<T>(), ref_.space, 0, off, write);
    return true;
  }
};

// GlobalTensor::SetL2CacheHint's modes (the API reference's SetL2CacheHint page); the emulator has no
// L2, so the hint has no effect.
enum class CacheMode : uint8_t {
  CACHE_MODE_DISABLE = 0,
  CACHE_MODE_NORMAL = 1,
  CACHE_MODE_LAST = 2,
  CACHE_MODE_PERSISTENT = 4
};

template <typename T>
class GlobalTensor {
 public:
  using PrimType = T;
  GlobalTensor() = default;

  void SetGlobalBuffer(__gm__ T* buffer, uint64_t bufferSize, KWB_SIM_LOC) {
    ptr_ = buffer;
    size_ = bufferSize;
    lo_ = reinterpret_cast<std::uintptr_t>(buffer);
    hi_ = lo_ + bufferSize * sizeof(T);
    setAt_ = loc_;
  }
  void SetGlobalBuffer(__gm__ T* buffer, KWB_SIM_LOC) {
    ptr_ = buffer;
    size_ = 0;
    lo_ = reinterpret_cast<std::uintptr_t>(buffer);
    hi_ = 0;
    setAt_ = loc_;
  }
  // Hints without an effect on the CPU.
  template <typename H>
  void SetL2CacheHint(H) {}

  uint64_t GetSize() const { return size_; }
  __gm__ T* GetPhyAddr() const { return ptr_; }
  __gm__ T* GetPhyAddr(uint64_t offset) const { return ptr_ + offset; }
  GlobalTensor operator[](uint64_t offset) const {
    GlobalTensor t = *this;
    t.ptr_ = ptr_ + offset;
    t.size_ = size_ > offset ? size_ - offset : 0;
    return t;
  }

  T GetValue(uint64_t index, KWB_SIM_LOC) const {
    if (!access(index, false, "GetValue", loc_)) return T{};
    T v;
    std::memcpy(&v, kwb_sim::gmAlias(ptr_ + index), sizeof(T));
    return v;
  }
  void SetValue(uint64_t index, T value, KWB_SIM_LOC) const {
    if (!access(index, true, "SetValue", loc_)) return;
    std::memcpy(kwb_sim::gmAlias(ptr_ + index), &value, sizeof(T));
  }
  // A kernel-view reference: the access made through it is checked and recorded by the raw-access
  // handler like any other raw GM access.
  T& operator()(uint64_t index) const { return ptr_[index]; }

  // ---- emulator internals
  // `address_` is the name CANN's GlobalTensor gives this pointer, and samples read it directly
  // (docs/emulator.md, "Launch forms"); both names are the same object (g++ defines reading a union
  // member other than the one last written, and both have the same type).
  union {
    T* ptr_ = nullptr;
    T* address_;
  };
  uint64_t size_ = 0;
  std::uintptr_t lo_ = 0;  // SetGlobalBuffer range [lo_, hi_); hi_ == 0: size not given
  std::uintptr_t hi_ = 0;
  // Where the range came from: a wrong per-block offset shows up at a copy, but its cause is this call
  // (docs/emulator.md, "Cause lines").
  kwb_sim::SrcLoc setAt_{nullptr, 0};

 private:
  bool access(uint64_t index, bool write, const char* api, kwb_sim::SrcLoc loc) const {
    const T* p = ptr_ + index;
    if (kwb_sim::checkGm(p, sizeof(T), lo_, hi_, api, loc, kwb_sim::Pipe::S, kwb_sim::kOperandThis, write) !=
        sizeof(T))
      return false;
    kwb_sim::recordScalar(api, loc, kwb_sim::dtypeOf<T>(), kwb_sim::MemSpace::GM,
                          reinterpret_cast<std::uint64_t>(p), 0, write);
    return true;
  }
};

}  // namespace AscendC
