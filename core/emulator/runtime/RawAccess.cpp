// SPDX-License-Identifier: MIT
// Raw pointer accesses by kernel code: `__gm__ T*` loops over GM_ADDR arguments, GlobalTensor::
// GetPhyAddr(), `(__ubuf__ T*)LocalTensor::GetPhyAddr()`, references from operator(). The emulated APIs
// touch GM and UB through a runtime alias (runtime.h gmAlias/ubAlias); the kernel view - every address
// kernel code can hold - is PROT_NONE while the block's kernel runs. So each load or store that kernel
// code makes faults here. The handler (async-signal-safe: no allocation, no locks, write(2) only):
//   1. finds the GM block (or UB/L1) the address belongs to and checks the access' bounds
//      (gm-out-of-bounds / ub-out-of-bounds, one line per faulting instruction),
//   2. notes a scalar access record (pipe S, read/write from the page-fault error code, width decoded
//      from the instruction) in a fixed buffer that the next emulated API call drains into the trace,
//   3. fast path: an in-bounds, single-page access by an instruction analysis/X86Decode knows exactly
//      (mov/movzx/movsx, mov imm, ALU with a memory source, SSE moves and scalar arithmetic) is
//      performed here on the runtime alias - registers/EFLAGS updated in the ucontext, RIP advanced;
//      otherwise (anything refused, out of bounds, page-crossing) it opens the page in the kernel view,
//      sets the trap flag and returns; the instruction runs, the following SIGTRAP closes the page
//      again. Either way one faulting instruction = one recorded access, the same record.
// Faults elsewhere go to the crash handler (runtime-crash) as before. See docs/emulator.md.

#include <dlfcn.h>
#include <link.h>
#include <signal.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "BlockContext.h"
#include "RawEmulate.h"
#include "core/emulator/analysis/X86Decode.h"

namespace kwb_sim {

LocalViews g_localViews;
int g_rawPending = 0;

namespace {

// The block's local memories in one mapping, each region as large as the largest SoC's: UB at 0, L1
// after it (as the old static storage), then the cube's L0A, L0B, L0C and bias table.
constexpr std::size_t kKiB = 1024;
constexpr std::size_t kUbRegion = 256 * kKiB;
struct Region {
  MemSpace space;
  std::size_t start, bytes;
};
constexpr Region kRegions[] = {
    {MemSpace::UB, 0, kUbRegion},
    {MemSpace::L1, kUbRegion, 1024 * kKiB},
    {MemSpace::L0A, kUbRegion + 1024 * kKiB, 64 * kKiB},
    {MemSpace::L0B, kUbRegion + 1088 * kKiB, 64 * kKiB},
    {MemSpace::L0C, kUbRegion + 1152 * kKiB, 256 * kKiB},
    {MemSpace::BT, kUbRegion + 1408 * kKiB, 4 * kKiB},
};
constexpr std::size_t kLocalBytes = kUbRegion + 1412 * kKiB;
const Region& regionAt(std::size_t off) {
  for (const Region& r : kRegions)
    if (off >= r.start && off < r.start + r.bytes) return r;
  return kRegions[0];
}
alignas(64) std::uint8_t g_fallback[kLocalBytes];  // used when the mappings cannot be made

std::size_t g_page = 4096;
std::uintptr_t g_exeBase = 0;  // load address of the program (RIPs are reported relative to it)

// One noted access (or several folded: `times` ascending contiguous ones from the same instruction).
struct RawRec {
  std::uintptr_t rip;
  std::uintptr_t addr;  // kernel-view address (GM: what traces record as gmAddr)
  std::uint32_t off;    // UB/L1: byte offset in its space
  std::uint32_t times;
  std::uint16_t width;
  MemSpace space;
  bool write;
  SrcLoc loc;  // the last emulated API call before the access
};
constexpr int kPending = 4096;
constexpr int kFoldWindow = 8;  // a scalar loop interleaves a few streams (x[i], y[i], z[i])
RawRec g_pend[kPending];
RawRec g_drain[kPending];
std::uint64_t g_rawDropped = 0;

std::uint32_t g_apiIdx[8][2];  // [MemSpace][read, write]
std::uint32_t g_emptyFile = 0;
bool g_ready = false;

// Single-step state between the SIGSEGV that opened pages and the SIGTRAP after the instruction.
struct Step {
  bool active = false;
  std::uintptr_t rip = 0;
  int pages = 0;
  std::uintptr_t page[4];
};
Step g_step;

struct sigaction g_prevSegv, g_prevTrap;

// Faulting instructions whose out-of-bounds diagnostic was written already (a loop reports once).
std::uintptr_t g_reported[64];
int g_reportedCount = 0;

int spaceIndex(MemSpace s) {
  return static_cast<int>(s) < 8 ? static_cast<int>(s) : 0;
}

// --- async-signal-safe diagnostic line (the format of rt::diagLine)
std::size_t appendStr(char* out, std::size_t k, std::size_t cap, const char* s, bool escape) {
  for (; s && *s && k + 2 < cap; ++s) {
    if (escape && (*s == '"' || *s == '\\')) out[k++] = '\\';
    out[k++] = *s;
  }
  out[k] = 0;
  return k;
}

// The faulting instruction of the diagnostic being written: its offset in its object (0: unknown) and the
// object's path (empty: the program itself).
std::uintptr_t g_diagPc = 0;
const char* g_diagObject = "";
// The loaded objects' code ranges, taken before the kernel runs, so that the fault handler can say which
// object (the program, or the kernel library of a kernel-launch sample) an instruction belongs to.
struct CodeObject {
  std::uintptr_t bias = 0, lo = 0, hi = 0;
  char path[512] = {};  // empty: the program itself
};
constexpr int kMaxObjects = 32;
CodeObject g_objects[kMaxObjects];
int g_objectCount = 0;

void writeDiag(const char* category, const char* api, const char* message) {
  rt::Runtime& r = rt::R();
  r.errors = true;
  const int fd = rt::diagFile();
  if (fd < 0) return;
  char line[2048];
  std::size_t k = appendStr(line, 0, sizeof(line), "{\"category\":\"", false);
  k = appendStr(line, k, sizeof(line), category, false);
  k = appendStr(line, k, sizeof(line), "\",\"severity\":\"error\",\"api\":\"", false);
  k = appendStr(line, k, sizeof(line), api, false);
  k = appendStr(line, k, sizeof(line), "\",\"file\":\"", false);
  k = appendStr(line, k, sizeof(line), r.lastLoc.file, true);
  char tail[128];
  // pc: the faulting instruction's offset in the executable, which the report resolves to the user's line
  // when no emulated API call came before (LaunchReport.cpp).
  std::snprintf(tail, sizeof(tail),
                "\",\"line\":%u,\"pipe\":\"S\",\"operand\":-2,\"block\":%lld,\"pc\":%llu,\"message\":\"",
                r.lastLoc.line, static_cast<long long>(g_block.blockIdx),
                static_cast<unsigned long long>(g_diagPc));
  k = appendStr(line, k, sizeof(line), tail, false);
  k = appendStr(line, k, sizeof(line), message, true);
  k = appendStr(line, k, sizeof(line), "\",\"object\":\"", false);
  k = appendStr(line, k, sizeof(line), g_diagObject, true);
  k = appendStr(line, k, sizeof(line), "\"}\n", false);
  const ssize_t w = ::write(fd, line, k);
  (void)w;
}

bool firstReport(std::uintptr_t rip) {
  for (int i = 0; i < g_reportedCount; ++i)
    if (g_reported[i] == rip) return false;
  if (g_reportedCount < 64) g_reported[g_reportedCount++] = rip;
  return true;
}

// "after the last emulated API call X at line N" / "before any emulated API call".
void whereText(char* out, std::size_t cap, std::uintptr_t rip) {
  g_diagPc = 0;
  g_diagObject = "";
  for (int i = 0; i < g_objectCount; ++i) {
    if (rip >= g_objects[i].lo && rip < g_objects[i].hi) {
      g_diagPc = rip - g_objects[i].bias;
      g_diagObject = g_objects[i].path;
      break;
    }
  }
  const rt::Runtime& r = rt::R();
  if (r.lastApi && *r.lastApi)
    std::snprintf(out, cap, "kernel code at %s+0x%llx, after the emulated %s call at line %u", "exe",
                  static_cast<unsigned long long>(rip - g_exeBase), r.lastApi, r.lastLoc.line);
  else
    std::snprintf(out, cap, "kernel code at exe+0x%llx, before any emulated API call",
                  static_cast<unsigned long long>(rip - g_exeBase));
}

// --- pending records
Instr toInstr(const RawRec& p) {
  Instr in;
  in.api = g_apiIdx[spaceIndex(p.space)][p.write ? 1 : 0];
  in.file = p.loc.file ? rt::intern(p.loc.file) : g_emptyFile;  // interned by that API's record already
  in.line = p.loc.line;
  in.pipe = Pipe::S;
  in.dtype = in.srcDtype = p.width == 1   ? DType::U8
                           : p.width == 2 ? DType::U16
                           : p.width == 4 ? DType::U32
                           : p.width == 8 ? DType::U64
                                          : DType::None;
  in.count = 1;
  in.times = p.times;
  in.bytes = p.width;
  if (p.write)
    in.dstSpace = p.space;
  else
    in.srcSpace = p.space;
  if (p.space == MemSpace::GM) {
    in.gmAddr = p.addr;
    in.burstCount = 1;
    in.burstLen = p.width;
    in.gmStride = p.width;
  } else if (p.write) {
    in.dstOff = p.off;
    in.dstLen = p.width;
  } else {
    in.src0Off = p.off;
    in.src0Len = p.width;
  }
  return in;
}

// Handler side: the buffer is full. Move it into the trace when that needs no allocation (rawDrain
// keeps headroom), else count it as dropped (the cost model then says the trace is partial).
void drainInHandler() {
  rt::Runtime& r = rt::R();
  for (int i = 0; i < g_rawPending; ++i) {
    if (r.trace.size() < r.trace.capacity())
      r.trace.push_back(toInstr(g_pend[i]));
    else {
      ++r.dropped;
      ++g_rawDropped;
    }
  }
  g_rawPending = 0;
}

void note(std::uintptr_t rip, std::uintptr_t addr, std::uint32_t off, unsigned width, MemSpace space,
          bool write) {
  const rt::Runtime& r = rt::R();
  const int lo = g_rawPending > kFoldWindow ? g_rawPending - kFoldWindow : 0;
  for (int i = g_rawPending - 1; i >= lo; --i) {
    RawRec& p = g_pend[i];
    if (p.rip == rip && p.write == write && p.width == width && p.space == space &&
        addr == p.addr + static_cast<std::uintptr_t>(p.times) * width && p.loc.line == r.lastLoc.line &&
        p.loc.file == r.lastLoc.file) {
      ++p.times;
      return;
    }
  }
  if (g_rawPending == kPending) drainInHandler();
  g_pend[g_rawPending++] =
      RawRec{rip, addr, off, 1, static_cast<std::uint16_t>(width), space, write, r.lastLoc};
}

// --- the handlers
bool openPage(std::uintptr_t a) {
  const std::uintptr_t pg = a & ~(static_cast<std::uintptr_t>(g_page) - 1);
  for (int i = 0; i < g_step.pages; ++i)
    if (g_step.page[i] == pg) return true;
  if (g_step.pages == 4) return false;
  // Kernel-view pages are tracked as integer addresses by design (docs/emulator.md, "Raw pointers")
  // NOLINTNEXTLINE(performance-no-int-to-ptr)
  if (::mprotect(reinterpret_cast<void*>(pg), g_page, PROT_READ | PROT_WRITE) != 0) return false;
  g_step.page[g_step.pages++] = pg;
  return true;
}

void chain(const struct sigaction& prev, int sig, siginfo_t* si, void* ctx) {
  if (prev.sa_flags & SA_SIGINFO) {
    if (prev.sa_sigaction) return prev.sa_sigaction(sig, si, ctx);
  } else if (prev.sa_handler != SIG_DFL && prev.sa_handler != SIG_IGN && prev.sa_handler) {
    return prev.sa_handler(sig);
  }
  ::signal(sig, SIG_DFL);  // the instruction runs again and the signal kills the block
}

// Which memory the kernel-view address belongs to; false: not a kernel view (a genuine crash).
struct Where {
  MemSpace space = MemSpace::None;
  std::uint32_t off = 0;  // UB/L1 offset
  long long rel = 0;      // UB/L1 offset, negative in the guard page before UB
  rt::GmBlockInfo gm{};
  bool inLocal = false;  // inside the UB+L1 mapping (not its guard pages)
};
bool classify(std::uintptr_t a, Where& w) {
  if (g_localViews.hi != 0 && a + g_page >= g_localViews.lo && a < g_localViews.hi + g_page) {
    w.inLocal = a >= g_localViews.lo && a < g_localViews.hi;
    const std::uintptr_t o = a - g_localViews.lo;
    const Region& reg = w.inLocal ? regionAt(o) : kRegions[0];
    w.space = reg.space;
    w.off = static_cast<std::uint32_t>(o - reg.start);
    w.rel = static_cast<long long>(a) - static_cast<long long>(g_localViews.lo) -
            static_cast<long long>(reg.start);
    return true;
  }
  if (rt::gmBlockOf(a, w.gm)) {
    w.space = MemSpace::GM;
    return true;
  }
  return false;
}

// True when the access lies inside its GmAlloc block (else reported, once per instruction).
bool checkGmRaw(std::uintptr_t rip, std::uintptr_t a, unsigned width, bool write, const rt::GmBlockInfo& b) {
  const std::uintptr_t userEnd = b.base + b.size;
  if (a >= b.base && a + width <= userEnd) return true;
  if (!firstReport(rip)) return false;
  char where[256], msg[768];
  whereText(where, sizeof(where), rip);
  const long long rel = static_cast<long long>(a) - static_cast<long long>(b.base);
  std::snprintf(
      msg, sizeof(msg),
      "a raw GM pointer %s bytes [%lld, %lld) of a GmAlloc block of %llu bytes (block at 0x%llx): %s its "
      "%s (%s, %u-byte access). On hardware this touches another tensor's memory; the emulator lets it "
      "land in a guard page",
      write ? "writes" : "reads", rel, rel + width, static_cast<unsigned long long>(b.size),
      static_cast<unsigned long long>(b.base), a < b.base ? "before" : "past", a < b.base ? "start" : "end",
      where, width);
  writeDiag("gm-out-of-bounds", "raw GM pointer", msg);
  return false;
}

// True when the access lies inside one InitBuffer buffer of its space (else reported, once per instruction).
bool checkLocalRaw(std::uintptr_t rip, const Where& w, unsigned width, bool write) {
  const std::uint32_t size = spaceSize(w.space);
  const char* name = spaceName(w.space);
  const char* why = nullptr;
  char buf[160];
  if (!w.inLocal || static_cast<std::uint64_t>(w.off) + width > size) {
    std::snprintf(buf, sizeof(buf), "outside the %u-byte %s", size, name);
    why = buf;
  } else {
    bool inside = false;
    for (int i = 0; i < g_block.bufCount && i < kMaxBuffers && !inside; ++i) {
      const BufferSlot& s = g_block.bufs[i];
      inside = s.state != BufState::Unused && s.space == w.space && w.off >= s.off &&
               static_cast<std::uint64_t>(w.off) + width <= static_cast<std::uint64_t>(s.off) + s.len;
    }
    if (!inside) why = "outside every buffer given out by InitBuffer (or across the end of one)";
  }
  if (!why) return true;
  if (!firstReport(rip)) return false;
  char where[256], msg[768];
  whereText(where, sizeof(where), rip);
  std::snprintf(msg, sizeof(msg),
                "a raw %s pointer (e.g. from LocalTensor::GetPhyAddr) %s %s offset %lld (%u bytes), %s; %s",
                name, write ? "writes" : "reads", name, w.rel, width, why, where);
  static const char* const apiOf[8] = {"raw UB pointer",  "raw UB pointer",  "raw UB pointer",
                                       "raw L1 pointer",  "raw L0A pointer", "raw L0B pointer",
                                       "raw L0C pointer", "raw BT pointer"};
  writeDiag("ub-out-of-bounds", apiOf[spaceIndex(w.space)], msg);
  return false;
}

// A raw access to an aclrtMallocHost buffer during a device-style launch (HostBuffers.cpp): reported once
// per buffer, which is then opened so that the instruction runs again and the block goes on. False when
// the address is not in one.
bool hostRaw(std::uintptr_t a, bool write, std::uintptr_t rip) {
  std::uintptr_t base = 0;
  std::size_t size = 0;
  if (!rt::hostBufferOf(a, base, size)) return false;
  char where[256], msg[768];
  whereText(where, sizeof(where), rip);
  std::snprintf(
      msg, sizeof(msg),
      "a raw pointer %s host memory: byte %llu of an aclrtMallocHost buffer of %llu bytes (at 0x%llx), "
      "%s. A kernel cannot reach host memory on a device: copy it to an aclrtMalloc buffer with "
      "aclrtMemcpy and pass that (later accesses to this buffer are not reported again)",
      write ? "writes" : "reads", static_cast<unsigned long long>(a - base),
      static_cast<unsigned long long>(size), static_cast<unsigned long long>(base), where);
  writeDiag("gm-out-of-bounds", "raw host pointer", msg);
  // The buffer is tracked as an integer address (HostBuffers.cpp)
  // NOLINTNEXTLINE(performance-no-int-to-ptr)
  ::mprotect(reinterpret_cast<void*>(base), size, PROT_READ | PROT_WRITE);
  return true;
}

#if defined(__x86_64__)
// --- the fast path: the decoded instruction performed on the runtime alias, registers in the ucontext
std::uint64_t g_rawFast = 0, g_rawSlow = 0;  // accesses emulated / single-stepped (KWB_SIM_RAW_STATS)
bool g_fastPath = true;                      // KWB_SIM_RAW_SLOW=1: always single-step (measurements, tests)
bool g_rawStats = false;                     // KWB_SIM_RAW_STATS=1: one stderr line per block at its end

void onSegv(int sig, siginfo_t* si, void* ctx) {
  auto* uc = static_cast<ucontext_t*>(ctx);
  const std::uintptr_t a = reinterpret_cast<std::uintptr_t>(si->si_addr);
  Where w;
  const std::uintptr_t rip = static_cast<std::uintptr_t>(uc->uc_mcontext.gregs[REG_RIP]);
  if (g_ready && !g_step.active && hostRaw(a, (uc->uc_mcontext.gregs[REG_ERR] & 2) != 0, rip)) return;
  if (!g_ready || !classify(a, w)) return chain(g_prevSegv, sig, si, ctx);
  if (g_step.active) {  // the same instruction reaches a second page (page-crossing or a rep string)
    if (g_step.rip == rip && openPage(a)) return;
    return chain(g_prevSegv, sig, si, ctx);
  }
  const bool write = (uc->uc_mcontext.gregs[REG_ERR] & 2) != 0;
  // The faulting RIP is an integer from the signal context
  // NOLINTNEXTLINE(performance-no-int-to-ptr)
  const auto* code = reinterpret_cast<const std::uint8_t*>(rip);
  const x86::MemInstr mi = x86::decodeMemInstr(code, 15);
  unsigned width = mi.kind != x86::Kind::Refuse ? mi.width : x86::accessWidth(code);
  if (width == 0) width = 4;  // unknown encoding: assume one 32-bit element
  const bool inBounds =
      w.space == MemSpace::GM ? checkGmRaw(rip, a, width, write, w.gm) : checkLocalRaw(rip, w, width, write);
  note(rip, a, w.off, width, w.space, write);
  // Fast path: an in-bounds access the decoder is sure about, inside one page, whose direction agrees
  // with the page fault's, is performed here on the runtime alias (see RawEmulate.h).
  if (mi.kind != x86::Kind::Refuse && inBounds && mi.write == write && (a & (g_page - 1)) + width <= g_page &&
      !(mi.aligned16 && (a & 15) != 0)) {
    const std::uintptr_t alias =
        w.space == MemSpace::GM ? w.gm.alias + (a - w.gm.base) : a + g_localViews.delta;
    if ((w.space == MemSpace::GM || w.inLocal) && g_fastPath &&
        // The runtime alias is computed as an integer (a constant shift of the kernel view)
        // NOLINTNEXTLINE(performance-no-int-to-ptr)
        emulateMemInstr(mi, uc, reinterpret_cast<std::uint8_t*>(alias))) {
      uc->uc_mcontext.gregs[REG_RIP] += mi.length;
      ++g_rawFast;
      return;
    }
  }
  ++g_rawSlow;
  g_step = Step{};
  g_step.active = true;
  g_step.rip = rip;
  if (!openPage(a) || !openPage(a + width - 1)) return chain(g_prevSegv, sig, si, ctx);
  uc->uc_mcontext.gregs[REG_EFL] |= 0x100;  // TF: trap after this one instruction
}

void onTrap(int sig, siginfo_t* si, void* ctx) {
  if (!g_step.active) return chain(g_prevTrap, sig, si, ctx);
  auto* uc = static_cast<ucontext_t*>(ctx);
  for (int i = 0; i < g_step.pages; ++i) {
    // Kernel-view pages are tracked as integer addresses by design (docs/emulator.md, "Raw pointers")
    // NOLINTNEXTLINE(performance-no-int-to-ptr)
    ::mprotect(reinterpret_cast<void*>(g_step.page[i]), g_page, PROT_NONE);
  }
  g_step.active = false;
  uc->uc_mcontext.gregs[REG_EFL] &= ~0x100LL;
}
#else
// No single-stepping here: a raw access is refused with a clear diagnostic, then the block crashes.
void onSegv(int sig, siginfo_t* si, void* ctx) {
  Where w;
  if (g_ready && hostRaw(reinterpret_cast<std::uintptr_t>(si->si_addr), false, 0)) return;
  if (g_ready && classify(reinterpret_cast<std::uintptr_t>(si->si_addr), w))
    writeDiag(
        "runtime-crash", w.space == MemSpace::GM ? "raw GM pointer" : "raw UB pointer",
        "kernel code accessed GM or UB through a raw pointer; the emulator checks and costs raw accesses "
        "only on x86-64 - use GlobalTensor/LocalTensor GetValue/SetValue or DataCopy");
  chain(g_prevSegv, sig, si, ctx);
}
#endif

int findExeBase(dl_phdr_info* info, std::size_t, void* out) {
  *static_cast<std::uintptr_t*>(out) = info->dlpi_addr;  // the first object is the program itself
  return 1;
}

int noteObject(dl_phdr_info* info, std::size_t, void*) {
  if (g_objectCount >= kMaxObjects) return 1;
  CodeObject& o = g_objects[g_objectCount];
  o = CodeObject{};
  o.bias = info->dlpi_addr;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || (ph.p_flags & PF_X) == 0) continue;
    const std::uintptr_t lo = o.bias + ph.p_vaddr, hi = lo + ph.p_memsz;
    if (o.lo == 0 || lo < o.lo) o.lo = lo;
    if (hi > o.hi) o.hi = hi;
  }
  if (g_objectCount > 0 && info->dlpi_name != nullptr)
    std::snprintf(o.path, sizeof(o.path), "%s", info->dlpi_name);
  if (o.hi != 0) ++g_objectCount;
  return 0;
}

}  // namespace

void rawDrain() {
  const int n = g_rawPending;
  if (n == 0) return;
  std::memcpy(g_drain, g_pend, sizeof(RawRec) * static_cast<std::size_t>(n));
  g_rawPending = 0;
  rt::Runtime& r = rt::R();
  for (int i = 0; i < n; ++i) {
    const RawRec& p = g_drain[i];
    if (p.space !=
        MemSpace::GM)  // cross-pipe ordering as for GetValue/SetValue (matters with --no-auto-sync)
      syncAccess(Pipe::S, p.space, p.off, p.width * p.times, p.write,
                 p.write ? "raw UB write" : "raw UB read", p.loc, kOperandNone);
    if (p.space != MemSpace::GM && p.write)
      rt::shadowWritten(p.space, p.off, static_cast<std::uint64_t>(p.width) * p.times);  // InitShadow.cpp
    if (r.trace.size() >= (std::size_t{1} << 24)) {
      ++r.dropped;
      continue;
    }
    r.trace.push_back(toInstr(p));
  }
  if (r.trace.capacity() - r.trace.size() < static_cast<std::size_t>(kPending))
    r.trace.reserve(r.trace.size() * 2 + kPending);
}

namespace {
// Zeroes the block's local memories through the alias, as a fresh mapping reads. Only the pages the
// memfd holds can be non-zero (mincore: resident in its page cache), so a block that used 96 KiB of UB
// clears 96 KiB, not the 1.4 MiB of every region.
void clearLocalViews() {
  // The local views are tracked as integer addresses by design (docs/emulator.md, "Raw pointers")
  // NOLINTNEXTLINE(performance-no-int-to-ptr)
  auto* alias = reinterpret_cast<std::uint8_t*>(g_localViews.lo + g_localViews.delta);
  constexpr std::size_t kMaxPages = kLocalBytes / 4096 + 1;
  static unsigned char resident[kMaxPages];
  const std::size_t pages = (kLocalBytes + g_page - 1) / g_page;
  if (pages > kMaxPages || ::mincore(alias, kLocalBytes, resident) != 0) {
    std::memset(alias, 0, kLocalBytes);
    return;
  }
  for (std::size_t p = 0; p < pages; ++p) {
    if ((resident[p] & 1) == 0) continue;
    const std::size_t off = p * g_page;
    std::memset(alias + off, 0, std::min(g_page, kLocalBytes - off));
  }
}

// A fresh memfd mapped twice (kernel view between guard pages, runtime alias): zeroed UB/L1.
void mapLocalViews() {
  const int fd = ::memfd_create("kwb-sim-ub", MFD_CLOEXEC);
  void* res = MAP_FAILED;
  void* alias = MAP_FAILED;
  if (fd >= 0 && ::ftruncate(fd, kLocalBytes) == 0) {
    res = ::mmap(nullptr, kLocalBytes + 2 * g_page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                 -1, 0);
    alias = ::mmap(nullptr, kLocalBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  }
  char* kv = res == MAP_FAILED ? nullptr : static_cast<char*>(res) + g_page;
  if (kv && alias != MAP_FAILED &&
      ::mmap(kv, kLocalBytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) != MAP_FAILED) {
    g_localViews.lo = reinterpret_cast<std::uintptr_t>(kv);
    g_localViews.hi = g_localViews.lo + kLocalBytes;
    g_localViews.delta = reinterpret_cast<std::uintptr_t>(alias) - g_localViews.lo;
    g_block.ub = reinterpret_cast<std::uint8_t*>(kv);
  } else {  // no second view: raw UB accesses go unchecked (fresh mapping failed, e.g. address-space limit)
    g_localViews = LocalViews{};
    std::memset(g_fallback, 0, sizeof(g_fallback));
    g_block.ub = g_fallback;
  }
  if (fd >= 0) ::close(fd);
}
}  // namespace

namespace rt {

void rawSetupLocal() {
  g_page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  g_ready = false;
  g_rawPending = 0;
  g_step = Step{};
  g_reportedCount = 0;
  g_rawDropped = 0;
  if (g_localViews.hi != 0) {  // a pool worker's next block (BlockPool.h): the same views, zeroed again
    clearLocalViews();
    // As a fresh mapping: the kernel view is open until rawEnterKernel closes it.
    // NOLINTNEXTLINE(performance-no-int-to-ptr)
    ::mprotect(reinterpret_cast<void*>(g_localViews.lo), kLocalBytes, PROT_READ | PROT_WRITE);
    // NOLINTNEXTLINE(performance-no-int-to-ptr)
    g_block.ub = reinterpret_cast<std::uint8_t*>(g_localViews.lo);
  } else {
    mapLocalViews();
  }
  g_block.l1 = g_block.ub + kRegions[1].start;
  g_block.l0a = g_block.ub + kRegions[2].start;
  g_block.l0b = g_block.ub + kRegions[3].start;
  g_block.l0c = g_block.ub + kRegions[4].start;
  g_block.bt = g_block.ub + kRegions[5].start;
}

void rawEnterKernel() {
  static const char* const names[8][2] = {
      {"raw UB read", "raw UB write"},   {"raw GM read", "raw GM write"},   {"raw UB read", "raw UB write"},
      {"raw L1 read", "raw L1 write"},   {"raw L0A read", "raw L0A write"}, {"raw L0B read", "raw L0B write"},
      {"raw L0C read", "raw L0C write"}, {"raw BT read", "raw BT write"}};
  for (int s = 0; s < 8; ++s)
    for (int w = 0; w < 2; ++w) g_apiIdx[s][w] = intern(names[s][w]);
  g_emptyFile = intern(nullptr);
  Runtime& r = R();
  r.trace.reserve(r.trace.size() + std::size_t{2} * kPending);
  ::dl_iterate_phdr(findExeBase, &g_exeBase);
  g_objectCount = 0;
  ::dl_iterate_phdr(noteObject, nullptr);

  struct sigaction sa {};
  sa.sa_sigaction = onSegv;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  ::sigemptyset(&sa.sa_mask);
  ::sigaction(SIGSEGV, &sa, &g_prevSegv);
#if defined(__x86_64__)
  sa.sa_sigaction = onTrap;
  ::sigaction(SIGTRAP, &sa, &g_prevTrap);
#endif
#if defined(__x86_64__)
  const char* slow = std::getenv("KWB_SIM_RAW_SLOW");
  g_fastPath = !(slow && *slow == '1');
  const char* stats = std::getenv("KWB_SIM_RAW_STATS");
  g_rawStats = stats && *stats == '1';
  g_rawFast = g_rawSlow = 0;
#endif
  g_ready = true;
  // The local views are tracked as integer addresses by design (docs/emulator.md, "Raw pointers")
  // NOLINTNEXTLINE(performance-no-int-to-ptr)
  if (g_localViews.hi != 0) ::mprotect(reinterpret_cast<void*>(g_localViews.lo), kLocalBytes, PROT_NONE);
  gmProtectKernelViews(PROT_NONE);
  hostProtectForKernel();
}

void rawReportStats() {
#if defined(__x86_64__)
  if (!g_rawStats) return;
  char line[160];
  const int n = std::snprintf(
      line, sizeof(line), "kwb-sim raw accesses: block %lld emulated %llu single-stepped %llu\n",
      static_cast<long long>(g_block.blockIdx), static_cast<unsigned long long>(g_rawFast),
      static_cast<unsigned long long>(g_rawSlow));
  if (n > 0) {
    const ssize_t w = ::write(2, line, static_cast<std::size_t>(n));
    (void)w;
  }
#endif
}

}  // namespace rt

}  // namespace kwb_sim
