// SPDX-License-Identifier: MIT
#pragma once
// Runtime-internal state of the block running in this process, and the parent/child transport files.

#include <cstdint>
#include <string>
#include <vector>

#include "kwb_sim/runtime.h"
#include "kwb_sim/trace.h"

namespace kwb_sim::rt {

inline constexpr int kAbortExit = 86;  // child exit status after a fatal diagnostic

struct SocCaps {
  const char* name;
  int arch;
  std::uint32_t ubBytes;
  std::uint32_t l1Bytes;
  // The cube buffers, as resources/soc/<soc>.json memory.l0a/l0b/l0c_bytes (CANN platform_config ini)
  // and the bias table bt_size (910B ini [AICoreSpec] bt_size=1024; 310P's AI Core has none: Mmad with a
  // bias is not supported there, devkit Mmad.md).
  std::uint32_t l0aBytes;
  std::uint32_t l0bBytes;
  std::uint32_t l0cBytes;
  std::uint32_t btBytes;
  std::uint32_t aiv;
  std::uint32_t aic;
  std::uint32_t clockMhz;
};
const SocCaps& soc();

const char* categoryName(Cat c);

// Per-process (= per-block) runtime state that the headers do not see.
struct Runtime {
  std::string workDir;       // parent's temp dir for this launch ("" outside a launch)
  int diagFd = -1;           // child: diagnostics file (JSON lines), once diagFile() created it
  char diagPath[4096] = {};  // child: where it goes ("" outside a block); most blocks never create it
  std::vector<Instr> trace;  // child: instruction trace
  std::uint64_t dropped = 0;
  std::vector<std::string> strings;  // interned names (index = Instr::api/file)
  const char* lastApi = "";          // for crash reports
  SrcLoc lastLoc{nullptr, 0};
  bool errors = false;   // child: an error diagnostic was reported
  bool probing = false;  // child: the kernel-type probe (KernelType.cpp), which ends at the first API call
  // Pairs taken from each queue by the last MrgSort (GetMrgSortResult, VecSort.cpp).
  std::uint16_t mrgSortResult[4] = {0, 0, 0, 0};
};
Runtime& R();

std::uint32_t intern(const char* s);
// Where a process sits in a mix kernel's block (KernelType.h); without one it is the block's only core.
struct CorePlace {
  std::uint32_t unit = 0;  // the launch's process index: block * coresPerBlock + slot
  CoreKind core = CoreKind::Plain;
  std::int64_t subBlockIdx = 0;
  std::int64_t subBlockNum = 1;
  std::uint32_t coresPerBlock = 1;
};
void beginBlock(const std::string& dir, std::int64_t idx, std::int64_t num, const CorePlace* place = nullptr);
// Finishes the block: end-of-kernel checks, trace written, diagnostics file closed. finishBlock returns
// (a pool worker runs its next block, BlockPool.h); endBlock then ends the process with exitCode.
void finishBlock(bool complete);
[[noreturn]] void endBlock(int exitCode, bool complete);
// The cube's per-block state ("L0C read before its Mmad", Cube.cpp), fresh for each block.
void cubeResetBlock();
void writeTraceFile(bool complete);  // async-signal tolerant (write(2) only)
// The block's diagnostics file, created at its first line; -1 outside a block (async-signal tolerant).
int diagFile();

// A barrier on every pipe of this block recorded as `api` (SyncAll: its in-block part, BlockSync.cpp).
Instr& syncBarrierAll(const char* api, SrcLoc loc);
// End-of-kernel checks of the sync model (unpaired SetFlag).
void syncEndOfKernel();
// One instruction on pipe p that touches several operands: syncBegin once, then syncOperand per operand.
void syncBegin(Pipe p);
void syncOperand(Pipe p, MemSpace space, std::uint32_t off, std::uint32_t len, bool write, const char* api,
                 SrcLoc loc, int operand);
void selectSoc(const char* name);
const SocCaps* findSoc(const char* name);  // nullptr for a SoC the emulator does not know
bool gmKnownBlock(const void* p);
void syncResetBlock();
void queueResetBlock();
// A queue buffer's bytes were read or written by `api` at `loc` (checkLocal): hang and leak diagnostics
// name the last use as the place the missing EnQue/FreeTensor belongs (docs/emulator.md, "Checks").
void queueNoteUse(int buf, const char* api, SrcLoc loc);
// The InitBuffer call that made buffer `buf` (file null when unknown): overruns name it as the origin.
SrcLoc bufferInitLoc(int buf);
// End-of-kernel check of the queues: every buffer still allocated, enqueued or dequeued is a leak.
void queueEndOfKernel();

// Uninitialised UB/L1 (InitShadow.cpp, docs/emulator.md "Uninitialised memory"): the byte ranges of
// UB/L1 nothing wrote since InitBuffer handed them out ("holes"), each tagged with the call that left it.
struct ShadowOrigin {
  const char* api;  // "InitBuffer", "DataCopyPad"
  SrcLoc loc;
  std::uint32_t written;  // DataCopyPad: payload bytes per row (0: not a padding copy)
  std::uint32_t burst;    // DataCopyPad: bytes per row in UB (payload + padding)
};
struct ShadowHole {
  std::uint32_t off;
  std::uint32_t len;
  int origin;
};
struct ShadowSource {
  MemSpace space;
  std::uint32_t off;
  std::uint32_t esize;
};
void shadowResetBlock();
// InitBuffer made [off, off+len): bytes handed out for the first time in this block are poisoned and
// become holes; bytes reused (a second TPipe, a TBufPool reset) keep what the kernel wrote there.
void shadowAllocated(MemSpace space, std::uint32_t off, std::uint32_t len, SrcLoc initLoc);
int shadowOrigin(const ShadowOrigin& o);
const ShadowOrigin& shadowOriginAt(int index);
void shadowWritten(MemSpace space, std::uint32_t off, std::uint64_t len);
void shadowUnwritten(MemSpace space, std::uint32_t off, std::uint32_t len, int origin);
void shadowHoles(MemSpace space, std::uint32_t off, std::uint64_t len, std::vector<ShadowHole>& out);
bool shadowFirstHole(MemSpace space, std::uint32_t off, std::uint64_t len, ShadowHole& out);
// Re-tags the holes inside [off, off+len) with `origin` (a DataCopyPad's unwritten padding).
void shadowRetag(MemSpace space, std::uint32_t off, std::uint32_t len, int origin);
// An element-wise result: `count` elements written at dstOff, stale wherever a source element was.
void shadowCarry(MemSpace dstSpace, std::uint32_t dstOff, std::uint32_t dstEsize, std::uint64_t count,
                 const ShadowSource* srcs, int nsrc);
std::string shadowReadMessage(const char* api, MemSpace space, const ShadowHole& hole,
                              std::uint32_t operandOff, std::uint32_t esize, int operand);
// A read whose value escapes (reduction, GetValue, copy to GM): reports uninitialized-read when
// [off, off+len) touches a hole and returns false then.
bool shadowCheckRead(MemSpace space, std::uint32_t off, std::uint64_t len, std::uint32_t operandOff,
                     std::uint32_t esize, const char* api, SrcLoc loc, Pipe pipe, int operand);

// GM blocks (Memory.cpp) as the raw-access handler needs them; async-signal-safe lookups.
struct GmBlockInfo {
  std::uintptr_t base;   // kernel view
  std::size_t size;      // user bytes
  std::size_t body;      // mapped bytes (page multiple); a guard page lies before and after
  std::uintptr_t alias;  // runtime view of the same bytes (always accessible)
};
bool gmBlockOf(std::uintptr_t kernelAddr, GmBlockInfo& out);  // the block or one of its guard pages
void gmProtectKernelViews(int prot);
// Host buffers (aclrtMallocHost) in a device-style launch: PROT_NONE in the block process before its kernel
// runs; the fault handler asks which buffer an address lies in (HostBuffers.cpp; async-signal-safe).
bool deviceMemoryOnly();
void hostProtectForKernel();
bool hostBufferOf(std::uintptr_t a, std::uintptr_t& base, std::size_t& size);
// A DataCopy burst between GM (kernel-view address) and local memory: long bursts through the GM memfd,
// short ones, and memory that is not from GmAlloc, through the mapping (Memory.cpp).
void gmCopyIn(std::uint8_t* dst, const void* gm, std::size_t n);
void gmCopyOut(void* gm, const std::uint8_t* src, std::size_t n);
// Raw accesses (RawAccess.cpp). rawSetupLocal: the block's UB/L1 (kernel view + alias) at block start;
// rawEnterKernel: handlers installed (after the crash handlers, which they fall back to) and the kernel
// views protected, just before the kernel runs.
void rawSetupLocal();
void rawEnterKernel();
void rawReportStats();  // KWB_SIM_RAW_STATS=1: emulated / single-stepped counts on stderr (block end)

// A GM access outside its SetGlobalBuffer range, reported (like report()) with the facts the trusted side
// needs to name the cause: where the access starts relative to the range, its length, the range's length
// (docs/emulator.md, "Cause lines": an access starting at the range's end is an extra loop iteration, one
// starting inside and running past is a length that lost its clamp).
struct GmRangeFacts {
  long long first;           // bytes from the range's start to the access's first byte
  std::uint64_t length;      // bytes accessed
  std::uint64_t rangeBytes;  // bytes given to SetGlobalBuffer
  bool write;
};
void reportGmRange(const char* api, SrcLoc loc, Pipe pipe, int operand, const std::string& message,
                   const GmRangeFacts& facts);

// A diagnostic at its cause with the other lines of the finding and their roles (the DeQue that waits,
// the AllocTensor that took the tensor): the record's "related" list (docs/emulator.md, "Cause lines").
// Locations without a file are left out.
struct RelatedLoc {
  const char* role;
  SrcLoc loc;
};
void reportRelated(Cat cat, const char* api, SrcLoc loc, Pipe pipe, int operand, const std::string& message,
                   const std::vector<RelatedLoc>& related);
[[noreturn]] void fatalRelated(Cat cat, const char* api, SrcLoc loc, Pipe pipe, int operand,
                               const std::string& message, const std::vector<RelatedLoc>& related);

// Writes one diagnostic line to the child's file (used by report() and by the parent-side checks).
std::string diagLine(Cat cat, const char* api, SrcLoc loc, Pipe pipe, int operand, const std::string& message,
                     std::int64_t block);

}  // namespace kwb_sim::rt
