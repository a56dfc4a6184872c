// SPDX-License-Identifier: MIT
#pragma once
// kwb_sim instruction trace: the record every emulated Ascend C API call leaves behind, one vector per
// block (core). The runtime fills it while a block runs; the parent process merges the blocks of one
// launch into a LaunchTrace and hands it to the cost model (core/emulator/costmodel/) and the
// cross-block checks. Plain C++17 (compiled into user programs and into kwb_core), no allocation per
// instruction, no strings per instruction: API names and source files are interned in
// LaunchTrace::strings and referenced by index.
//
// Pipe semantics (docs/ascend-notes.md §2.1): each pipe is an in-order queue; different pipes run in
// parallel. The scalar unit (S) issues everything. Sync records (sync != None) cost nothing by themselves;
// they only create dependencies between pipes:
//   SetFlag      pipe = syncSrc. Becomes ready when every earlier instruction on syncSrc has finished.
//   WaitFlag     pipe = syncDst. Later instructions on syncDst may not start before the matching
//                SetFlag (same syncSrc/syncDst/syncId, most recent one before it) is ready.
//   EnQue        like SetFlag from the queue's producer pipe (syncSrc) to its consumer (syncDst);
//                syncId = buffer id (unique per block). pipe = syncSrc.
//   DeQue        like WaitFlag on the consumer pipe for the latest EnQue of the same buffer id.
//                pipe = syncDst.
//   FreeTensor   like SetFlag from the consumer pipe (syncSrc) back to the producer (syncDst) for the
//                buffer id: the buffer may be refilled once the consumer is done with it. pipe = syncSrc.
//   AllocTensor  like WaitFlag on the producer pipe (syncDst) for the latest FreeTensor of the same
//                buffer id (none for the buffer's first use). pipe = syncDst.
//   Barrier      PipeBarrier<p>: syncSrc = syncDst = p; pipe = p. With p == Pipe::All every pipe waits
//                until all earlier instructions on all pipes have finished.
//   Cross-core records (core/emulator/analysis/CrossCoreOrder.h): a CrossCoreSetFlag is a work record on
//                its pipe with syncId = flag id and count = mode; a CrossCoreWaitFlag is a Barrier on
//                every pipe with syncId = flag id; a SyncAll is a Barrier on every pipe with syncId 1 when
//                it spans the AIVs only (else 0) and count = a plain kernel's participating blocks.
// Queue positions map to pipes as on hardware: VECIN producer MTE2 / consumer V, VECOUT producer V /
// consumer MTE3, VECCALC V/V, TQueBind<VECIN,VECOUT> MTE2/MTE3, A1/B1 MTE2/MTE1, A2/B2 MTE1/M, CO1 M/FIX.
//
// Work records (sync == None):
//   vector ops (pipe V): count = elements actually computed (after mask, over all repeats),
//     repeat = repeat times of the mask/repeat form (count form: ceil(count*sizeof(T)/256)),
//     bytes = count * sizeof(dtype) of the destination; dst/src0/src1 = UB byte ranges touched
//     (the hull of the strided pattern; len 0 = operand not used).
//   data copies: pipe MTE2 (GM->UB/L1), MTE3 (UB->GM), V (UB->UB), MTE1 (L1->L0); bytes = payload
//     bytes actually moved; gmAddr = host address of the first GM byte (gmAddr % 512 gives the burst
//     alignment); burstCount/burstLen/gmStride describe the GM access pattern (contiguous copy:
//     burstCount 1, burstLen == bytes, gmStride == burstLen).
//   scalar (pipe S): GetValue/SetValue/mask setters; count = elements touched (1).
//   times > 1: the record stands for `times` identical consecutive instructions (the runtime folds
//     long scalar loops this way; every other field describes ONE of them). A folded GM scalar record
//     covers ascending contiguous elements: instance k touches gmAddr + k * bytes.

#include <cstdint>
#include <string>
#include <vector>

namespace kwb_sim {

enum class Pipe : std::uint8_t { S = 0, V, MTE1, MTE2, MTE3, M, FIX, All, None };
inline constexpr int kPipeCount = 7;  // S..FIX (All/None are markers, not pipes)

inline const char* pipeName(Pipe p) {
  switch (p) {
    case Pipe::S:
      return "S";
    case Pipe::V:
      return "V";
    case Pipe::MTE1:
      return "MTE1";
    case Pipe::MTE2:
      return "MTE2";
    case Pipe::MTE3:
      return "MTE3";
    case Pipe::M:
      return "M";
    case Pipe::FIX:
      return "FIX";
    case Pipe::All:
      return "ALL";
    case Pipe::None:
      break;
  }
  return "";
}

enum class DType : std::uint8_t { None = 0, U8, I8, U16, I16, F16, BF16, U32, I32, F32, U64, I64, F64 };

inline const char* dtypeName(DType d) {
  switch (d) {
    case DType::U8:
      return "uint8_t";
    case DType::I8:
      return "int8_t";
    case DType::U16:
      return "uint16_t";
    case DType::I16:
      return "int16_t";
    case DType::F16:
      return "half";
    case DType::BF16:
      return "bfloat16_t";
    case DType::U32:
      return "uint32_t";
    case DType::I32:
      return "int32_t";
    case DType::F32:
      return "float";
    case DType::U64:
      return "uint64_t";
    case DType::I64:
      return "int64_t";
    case DType::F64:
      return "double";
    case DType::None:
      break;
  }
  return "";
}

inline unsigned dtypeSize(DType d) {
  switch (d) {
    case DType::U8:
    case DType::I8:
      return 1;
    case DType::U16:
    case DType::I16:
    case DType::F16:
    case DType::BF16:
      return 2;
    case DType::U32:
    case DType::I32:
    case DType::F32:
      return 4;
    case DType::U64:
    case DType::I64:
    case DType::F64:
      return 8;
    case DType::None:
      break;
  }
  return 0;
}

enum class SyncKind : std::uint8_t {
  None = 0,
  EnQue,
  DeQue,
  AllocTensor,
  FreeTensor,
  SetFlag,
  WaitFlag,
  Barrier
};

// BT: the bias table (TPosition::C2) that Mmad reads its bias row from (docs/emulator.md, "Cube unit").
enum class MemSpace : std::uint8_t { None = 0, GM, UB, L1, L0A, L0B, L0C, BT };

// SetAtomicAdd/Max/Min: UB->GM copies accumulate into GM instead of overwriting.
enum class AtomicOp : std::uint8_t { None = 0, Add, Max, Min };

struct Instr {
  std::uint32_t api = 0;      // LaunchTrace::strings index of the API name ("Add", "DataCopy", "EnQue", ...)
  std::uint32_t file = 0;     // LaunchTrace::strings index of the user's source file of the call
  std::uint32_t line = 0;     // 1-based line of the user's call (0 = unknown)
  Pipe pipe = Pipe::S;        // pipe the instruction occupies (see the header comment for sync records)
  DType dtype = DType::None;  // element type of the destination (copies: of the data moved)
  DType srcDtype = DType::None;  // element type of the source (differs from dtype for Cast)
  SyncKind sync = SyncKind::None;
  MemSpace dstSpace = MemSpace::None;  // where the destination lives (copies: GM/UB/L1; vector: UB)
  MemSpace srcSpace = MemSpace::None;
  Pipe syncSrc = Pipe::None;     // sync records: producing / setting pipe
  Pipe syncDst = Pipe::None;     // sync records: consuming / waiting pipe
  std::int32_t syncId = -1;      // SetFlag/WaitFlag: event id; queue records: buffer id; else -1
  std::uint32_t times = 1;       // identical consecutive instructions folded into this record (>= 1)
  std::uint32_t count = 0;       // elements processed
  std::uint32_t repeat = 0;      // repeat times (vector), 0 for others
  std::uint64_t bytes = 0;       // bytes moved (copies) or written (vector)
  std::uint64_t gmAddr = 0;      // GM host address of the first byte accessed (copies to/from GM), else 0
  std::uint32_t burstCount = 0;  // GM bursts (DataCopyParams::blockCount; 1 for contiguous)
  std::uint32_t burstLen = 0;    // bytes per GM burst
  std::uint64_t gmStride = 0;    // bytes from the start of one GM burst to the next
  std::uint32_t dstOff = 0, dstLen = 0;    // destination byte range in UB/L1 (len 0: none / GM)
  std::uint32_t src0Off = 0, src0Len = 0;  // first source byte range in UB/L1 (len 0: none / GM)
  std::uint32_t src1Off = 0, src1Len = 0;  // second source byte range in UB (len 0: none)
  AtomicOp atomic =
      AtomicOp::None;  // UB->GM copies: the SetAtomic* mode the copy ran under (None: overwrite)
  // Copies to/from GM: the SetGlobalBuffer call that set the GlobalTensor's range (line 0: unknown, e.g.
  // a raw pointer), so that an overlap is reported at the offset's origin.
  std::uint32_t gmSetFile = 0;  // LaunchTrace::strings index
  std::uint32_t gmSetLine = 0;
};

struct BlockTrace {
  std::int32_t block = 0;     // the block's index (of a mix kernel's sub-core: the block it belongs to)
  std::uint8_t core = 0;      // 0: the block's only core; 1: a mix kernel's AIC; 2: one of its AIVs
  std::uint8_t subBlock = 0;  // the AIV's GetSubBlockIdx()
  std::vector<Instr> instrs;  // in issue order
  std::uint64_t dropped = 0;  // records not kept because the per-block cap was reached
  bool complete = true;       // false: the block crashed / timed out / aborted; trace is partial
};

struct LaunchTrace {
  std::string soc;     // e.g. "Ascend910B1"
  std::string kernel;  // kernel function name as given to ICPU_RUN_KF
  std::uint32_t blockDim = 0;
  std::vector<std::string> strings;  // interned API names and file paths (Instr::api / Instr::file)
  std::vector<BlockTrace> blocks;    // one per block, index == block; a mix kernel's: one per sub-core,
                                     // index == block * coresPerBlock + slot (slot 0 the AIC)
  std::uint32_t coresPerBlock = 1;   // 2 or 3 for a mix kernel (1 AIC + 1 or 2 AIV)

  const std::string& str(std::uint32_t i) const {
    static const std::string empty;
    return i < strings.size() ? strings[i] : empty;
  }
};

}  // namespace kwb_sim
