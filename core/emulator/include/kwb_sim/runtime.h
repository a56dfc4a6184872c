// SPDX-License-Identifier: MIT
#pragma once
// The interface between the kernel-side headers and the kwb_sim runtime library (libkwb_sim_runtime.a).
// One process runs one block, so the per-block state is a process global. Hot paths (tensor validity,
// trace recording) are inline here; everything that reports lives in the runtime.

#include <cstdint>
#include <string>

#include "kwb_sim/base.h"
#include "kwb_sim/types.h"

namespace kwb_sim {

// Diagnostic categories (the stable strings of core/model/Diagnostic.h, repeated here: the runtime cannot
// link kwb_model).
enum class Cat : std::uint8_t {
  UbOverflow,
  MisalignedCopy,
  GmOutOfBounds,
  UbOutOfBounds,
  QueueMisuse,
  MissingSync,
  UnpairedFlag,
  MulticoreOverlap,
  InvalidParam,
  RuntimeCrash,
  Timeout,
  UninitializedRead,
  Note,  // informational, severity note
};

// Which argument of the user's call a diagnostic is about (the runtime reads the call's source text
// to name the tensor): 0 = first argument, 1 = second, ...; -1 = the object the method was called on.
enum : int { kOperandThis = -1, kOperandNone = -2 };

enum class BufState : std::uint8_t { Unused = 0, Free, Allocated, Enqueued, Dequeued, Calc };

inline constexpr int kMaxBuffers = 128;
inline constexpr int kMaxQueues = 64;

struct BufferSlot {
  std::uint32_t off = 0;    // byte offset in its memory space
  std::uint32_t len = 0;    // bytes (rounded up to 32)
  std::uint32_t gen = 1;    // bumped by FreeTensor: handles from an earlier allocation go stale
  std::int16_t queue = -1;  // owning queue id, -1 for TBuf
  MemSpace space = MemSpace::UB;
  BufState state = BufState::Unused;
  SrcLoc lastLoc{nullptr, 0};  // where it was last allocated / dequeued / freed
};

// Identity of a local tensor's buffer: lets every API detect use after FreeTensor and accesses past
// the end of the buffer.
struct TensorRef {
  std::int16_t buf = -1;  // BufferSlot index, -1: not from a pipe buffer (bounds = whole memory space)
  std::uint32_t gen = 0;
  MemSpace space = MemSpace::UB;
};

struct MaskState {
  bool counter = false;  // SetMaskCount mode
  std::uint64_t bits[2] = {~0ull, ~0ull};
};

// Which core of its block a process is (docs/emulator.md, "Mixed AIC/AIV kernels"): Plain for the one
// core a vector or cube kernel runs on per block; Aic / Aiv for the sub-cores of a mix kernel, which run
// concurrently as separate processes, each with its own local memories.
enum class CoreKind : std::uint8_t { Plain, Aic, Aiv };

struct BlockState {
  std::int64_t blockIdx = 0;
  std::int64_t blockNum = 1;
  CoreKind core = CoreKind::Plain;
  std::int64_t subBlockIdx = 0;     // AIV: 0 or 1 within its block; AIC and Plain: 0
  std::int64_t subBlockNum = 1;     // AIV: the block's AIV count (1 or 2); AIC and Plain: 1
  std::uint32_t unit = 0;           // this process in the launch: blockIdx * coresPerBlock + core slot
  std::uint32_t coresPerBlock = 1;  // 1; 2 for KERNEL_TYPE_MIX_AIC_1_1, 3 for _1_2 (AIC first)
  std::uint8_t* ub = nullptr;
  std::uint32_t ubSize = 0;
  std::uint8_t* l1 = nullptr;
  std::uint32_t l1Size = 0;
  // The cube unit's buffers (docs/emulator.md, "Cube unit"): L0A (A2), L0B (B2), L0C (CO1), bias table (C2).
  std::uint8_t* l0a = nullptr;
  std::uint8_t* l0b = nullptr;
  std::uint8_t* l0c = nullptr;
  std::uint8_t* bt = nullptr;
  std::uint32_t l0aSize = 0, l0bSize = 0, l0cSize = 0, btSize = 0;
  MaskState mask;
  std::uint64_t cmpMask[2] = {0, 0};   // the CMPMASK register (kwb_sim/vec_cmp_mask.h)
  AtomicOp atomicOp = AtomicOp::None;  // SetAtomicAdd/Max/Min<T> ... SetAtomicNone
  DType atomicType = DType::None;
  bool padValueSet = false;    // SetPadValue was called: DataCopyPad with isPad = false fills with padValue
  std::uint64_t padValue = 0;  // its bit pattern (the low bytes of the copy's element size are used)
  BufferSlot bufs[kMaxBuffers];
  int bufCount = 0;
  bool autoSync = KWB_SIM_AUTO_SYNC != 0;
  bool inKernel = false;
  bool determineInit = false;        // InitDetermineComputeWorkspace was called (block_sync.h)
  std::uint32_t determineWaits = 0;  // WaitPreBlock calls so far
};
extern BlockState g_block;

// --- memory spaces
std::uint8_t* spaceBase(MemSpace s);
std::uint32_t spaceSize(MemSpace s);
const char* spaceName(MemSpace s);

// --- diagnostics. `fatal` ends the block after reporting (the hardware would hang or fault there).
void report(Cat cat, const char* api, SrcLoc loc, Pipe pipe, int operand, const std::string& message);
[[noreturn]] void fatal(Cat cat, const char* api, SrcLoc loc, Pipe pipe, int operand,
                        const std::string& message);

// --- trace recording
Instr& record(const char* api, SrcLoc loc, Pipe pipe);
// Scalar accesses: folded into the previous record when identical (see trace.h `times`).
void recordScalar(const char* api, SrcLoc loc, DType dt, MemSpace space, std::uint64_t gmAddr,
                  std::uint32_t ubOff, bool write);

// --- checks used by the tensor/copy/vector headers
// Local tensor access [off, off+len) bytes in `ref.space`: use-after-free and buffer bounds.
// Returns false when the access must be skipped (it lies outside the memory space).
// A write marks the whole range as written (docs/emulator.md, "Uninitialised memory") unless `exactWrite`:
// then the caller marks the bytes it really writes (DataCopyPad's payload, an element-wise result).
bool checkLocal(const TensorRef& ref, std::uint32_t off, std::uint64_t len, const char* api, SrcLoc loc,
                Pipe pipe, int operand, bool write, bool exactWrite = false);
// GM access [addr, addr+len): inside the SetGlobalBuffer range [lo, hi) (hi == 0: unbounded) and inside a
// GmAlloc block. Returns the number of leading bytes that may be touched safely (== len when fine).
std::uint64_t checkGm(const void* addr, std::uint64_t len, std::uintptr_t lo, std::uintptr_t hi,
                      const char* api, SrcLoc loc, Pipe pipe, int operand, bool write);
// Cross-pipe ordering of a UB/L1 access (missing-sync).
void syncAccess(Pipe pipe, MemSpace space, std::uint32_t off, std::uint32_t len, bool write, const char* api,
                SrcLoc loc, int operand);
void syncBarrier(Pipe p, SrcLoc loc);
void syncQueueRelease(Pipe src, Pipe dst, int buf);  // EnQue / FreeTensor
void syncQueueAcquire(Pipe src, Pipe dst, int buf);  // DeQue / AllocTensor

// --- pipe / queues
int allocBuffer(MemSpace space, std::uint32_t bytes, int queue, const char* api, SrcLoc loc, int operand);
int newQueue(const char* kind);

// --- vector engine kernels (runtime/VecKernels.cpp, VecCast.cpp): contiguous, element type `dt`.
enum class VOp : std::uint8_t {
  Add,
  Sub,
  Mul,
  Div,
  Max,
  Min,
  And,
  Or,  // binary
  Adds,
  Muls,
  Maxs,
  Mins,
  LeakyRelu,  // tensor-scalar
  ShiftLeft,
  ShiftRight,
  ShiftRightRound,  // tensor-scalar: shift count in the scalar
  Axpy,             // dst = src * scalar + dst (reads dst)
  Exp,
  Ln,
  Abs,
  Sqrt,
  Rsqrt,
  Reciprocal,
  Relu,
  Copy,
  Not,
  Neg,  // unary
  Dup,  // dst = scalar
};
inline bool vopIsBinary(VOp op) {
  return op <= VOp::Or;
}
inline bool vopHasScalar(VOp op) {
  return (op >= VOp::Adds && op <= VOp::Axpy) || op == VOp::Dup;
}
void vecBinary(VOp op, DType dt, void* dst, const void* a, const void* b, std::size_t n);
void vecScalar(VOp op, DType dt, void* dst, const void* a, double scalar, std::size_t n);
void vecUnary(VOp op, DType dt, void* dst, const void* a, std::size_t n);
// Axpy: dst = a * scalar + acc (acc is usually dst itself; float-like types, computed in float).
void vecAxpy(DType dt, void* dst, const void* a, const void* acc, double scalar, std::size_t n);
void vecCast(DType dstT, DType srcT, int roundMode, void* dst, const void* src, std::size_t n);
double loadAsDouble(DType dt, const void* p);
void storeFromDouble(DType dt, void* p, double v);

// --- launch (host side)
using KernelThunk = void (*)(void* ctx);
// `form` names the launch form in its diagnostics ("ICPU_RUN_KF", "<<<>>>", "ACLRT_LAUNCH_KERNEL");
// `entry` is the kernel function's address (its __mix__ section gives a mix kernel's core ratio);
// `mixCube`/`mixVector` the ratio of a `__mix__` the launch rewrite read from the source, -1 when none.
int launch(const char* kernelName, std::uint32_t blockDim, KernelThunk thunk, void* ctx, SrcLoc loc,
           const char* socName, bool autoSync, const char* form = "ICPU_RUN_KF", const void* entry = nullptr,
           int mixCube = -1, int mixVector = -1);
void* gmAlloc(std::size_t bytes);
void gmFree(void* p);
void setTilingKey(std::uint64_t key);
std::uint64_t tilingKey();

// --- two views of GM and UB (runtime/RawAccess.cpp, docs/emulator.md "Raw pointers")
// GM blocks and the block's UB/L1 are each mapped twice: the kernel view (the addresses kernel code
// holds: GM_ADDR, GlobalTensor/LocalTensor::ptr_, GetPhyAddr) is PROT_NONE while the kernel runs, so
// any access by kernel code faults and is checked, recorded and costed as a scalar access; the
// emulated APIs touch memory through the alias below, which stays readable and writable.
struct LocalViews {
  std::uintptr_t lo = 0, hi = 0;  // kernel view of UB+L1 (0, 0: not set up)
  std::uintptr_t delta = 0;       // alias = kernel view + delta (mod 2^64)
};
extern LocalViews g_localViews;
// Runtime alias of a kernel-view UB/L1 address: a constant shift, also for addresses outside UB so
// that offsets computed from the alias stay exact and the bounds checks (made before any access) see
// them; nullptr stays nullptr ("no operand").
template <typename T>
inline T* ubAlias(T* p) {
  const std::uintptr_t a = reinterpret_cast<std::uintptr_t>(p);
  // A local view is the GM address shifted into its mapping
  // NOLINTNEXTLINE(performance-no-int-to-ptr)
  return a == 0 ? p : reinterpret_cast<T*>(a + g_localViews.delta);
}
// Runtime alias of a kernel-view GM address (inside a GmAlloc block or its guard pages); other
// addresses (host memory not from GmAlloc) are returned unchanged.
void* gmAliasOf(const void* p);
template <typename T>
inline T* gmAlias(T* p) {
  return static_cast<T*>(gmAliasOf(static_cast<const void*>(p)));
}
// Raw accesses recorded by the fault handler wait in a small buffer until the next emulated API call
// (no allocation in the handler); every recording / sync entry point drains it first so program order
// is kept.
extern int g_rawPending;
void rawDrain();
inline void rawFlush() {
  if (g_rawPending) rawDrain();
}

// Inline hot path: validity of a tensor handle (use after FreeTensor).
inline bool handleStale(const TensorRef& r) {
  return r.buf >= 0 && g_block.bufs[r.buf].gen != r.gen;
}

}  // namespace kwb_sim
