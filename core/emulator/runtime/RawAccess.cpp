// Raw pointer accesses by kernel code: `__gm__ T*` loops over GM_ADDR arguments, GlobalTensor::
// GetPhyAddr(), `(__ubuf__ T*)LocalTensor::GetPhyAddr()`, references from operator(). The emulated APIs
// touch GM and UB through a runtime alias (runtime.h gmAlias/ubAlias); the kernel view - every address
// kernel code can hold - is PROT_NONE while the block's kernel runs. So each load or store that kernel
// code makes faults here. The handler (async-signal-safe: no allocation, no locks, write(2) only):
//   1. finds the GM block (or UB/L1) the address belongs to and checks the access' bounds
//      (gm-out-of-bounds / ub-out-of-bounds, one line per faulting instruction),
//   2. notes a scalar access record (pipe S, read/write from the page-fault error code, width decoded
//      from the instruction) in a fixed buffer that the next emulated API call drains into the trace,
//   3. opens the page in the kernel view, sets the trap flag and returns; the instruction runs, the
//      following SIGTRAP closes the page again. One faulting instruction = one recorded access.
// Faults elsewhere go to the crash handler (runtime-crash) as before. See docs/emulator.md.

#include <dlfcn.h>
#include <link.h>
#include <signal.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

#include "BlockContext.h"

namespace kwb_sim {

LocalViews g_localViews;
int g_rawPending = 0;

namespace {

constexpr std::size_t kUbRegion = 256 * 1024;                 // UB at 0, L1 after it (as the old static storage)
constexpr std::size_t kLocalBytes = kUbRegion + 1024 * 1024;
alignas(64) std::uint8_t g_fallback[kLocalBytes];             // used when the mappings cannot be made

std::size_t g_page = 4096;
std::uintptr_t g_exeBase = 0;  // load address of the program (RIPs are reported relative to it)

// One noted access (or several folded: `times` ascending contiguous ones from the same instruction).
struct RawRec {
  std::uintptr_t rip;
  std::uintptr_t addr;   // kernel-view address (GM: what traces record as gmAddr)
  std::uint32_t off;     // UB/L1: byte offset in its space
  std::uint32_t times;
  std::uint16_t width;
  MemSpace space;
  bool write;
  SrcLoc loc;            // the last emulated API call before the access
};
constexpr int kPending = 4096;
constexpr int kFoldWindow = 8;  // a scalar loop interleaves a few streams (x[i], y[i], z[i])
RawRec g_pend[kPending];
RawRec g_drain[kPending];
std::uint64_t g_rawDropped = 0;

std::uint32_t g_apiIdx[3][2];  // [GM, UB, L1][read, write]
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

int spaceIndex(MemSpace s) { return s == MemSpace::GM ? 0 : (s == MemSpace::L1 ? 2 : 1); }

// --- instruction width (x86-64): enough of the encoding for the loads and stores gcc emits for scalar
// code (mov/movzx/movsx, ALU with a memory operand, SSE/AVX scalar and vector moves, conversions).
// 0 = not recognised (the caller assumes 4 bytes).
unsigned vexWidth(const std::uint8_t* p) {
  unsigned map = 1, pp, L, W = 0;
  const std::uint8_t* op;
  if (p[0] == 0xC5) {
    pp = p[1] & 3; L = (p[1] >> 2) & 1; op = p + 2;
  } else {
    map = p[1] & 0x1F; W = p[2] >> 7; pp = p[2] & 3; L = (p[2] >> 2) & 1; op = p + 3;
  }
  const unsigned vec = 16u << L, sc = pp == 2 ? 4 : (pp == 3 ? 8 : 0);
  const std::uint8_t o = *op;
  if (map == 1) {
    if (o == 0x10 || o == 0x11 || (o >= 0x51 && o <= 0x5F && o != 0x5A && o != 0x5B)) return sc ? sc : vec;
    if (o == 0x5A) return sc ? sc : (pp == 0 ? vec / 2 : vec);
    if (o == 0x6E || o == 0x7E) return pp == 2 ? 8 : (W ? 8 : 4);
    if (o == 0xD6 || o == 0x12 || o == 0x13 || o == 0x16 || o == 0x17) return 8;
    if (o == 0x2E || o == 0x2F) return pp == 1 ? 8 : 4;
    if (o == 0x2A) return W ? 8 : 4;
    if (o == 0x2C || o == 0x2D) return pp == 2 ? 4 : 8;
    if (o == 0xC4) return 2;
    return vec;
  }
  if (map == 2) {
    if (o == 0x13) return vec / 2;  // vcvtph2ps reads halves
    if (o == 0x18 || o == 0x58) return 4;
    if (o == 0x19 || o == 0x59) return 8;
    if (o == 0x78) return 1;
    if (o == 0x79) return 2;
    return vec;
  }
  if (map == 3) {
    if (o == 0x1D) return vec / 2;  // vcvtps2ph stores halves
    if (o == 0x14 || o == 0x20) return 1;
    if (o == 0x15) return 2;
    if (o == 0x16 || o == 0x22) return W ? 8 : 4;
    if (o == 0x17 || o == 0x21) return 4;
    return vec;
  }
  return 0;
}

unsigned decodeWidth(const std::uint8_t* p) {
  bool opsz16 = false, rexW = false;
  std::uint8_t rep = 0;
  for (int i = 0; i < 14; ++i, ++p) {
    const std::uint8_t b = *p;
    if (b == 0x66) opsz16 = true;
    else if (b == 0xF3 || b == 0xF2) rep = b;
    else if (!(b == 0xF0 || b == 0x2E || b == 0x36 || b == 0x3E || b == 0x26 || b == 0x64 || b == 0x65 || b == 0x67))
      break;
  }
  if ((*p & 0xF0) == 0x40) { rexW = (*p & 8) != 0; ++p; }
  const unsigned osz = rexW ? 8 : (opsz16 ? 2 : 4);
  const std::uint8_t op = *p;
  if (op == 0xC5 || op == 0xC4) return vexWidth(p);
  if (op != 0x0F) {
    if (op < 0x40 && (op & 7) < 4) return (op & 1) ? osz : 1;  // add/or/adc/sbb/and/sub/xor/cmp r/m
    switch (op) {
      case 0x88: case 0x8A: case 0xC6: case 0x80: case 0x82: case 0x84: case 0x86: case 0xF6: case 0xFE:
      case 0xD0: case 0xD2: case 0xC0: case 0xA4: case 0xA6: case 0xAA: case 0xAC: case 0xAE: return 1;
      case 0x89: case 0x8B: case 0xC7: case 0x81: case 0x83: case 0x85: case 0x87: case 0xF7: case 0xD1:
      case 0xD3: case 0xC1: case 0x69: case 0x6B: case 0xA5: case 0xA7: case 0xAB: case 0xAD: case 0xAF: return osz;
      case 0x63: return 4;
      case 0x8F: return 8;
      case 0xFF: return ((p[1] >> 3) & 7) < 2 ? osz : 8;  // inc/dec vs call/jmp/push
      default: return 0;
    }
  }
  const std::uint8_t o = p[1];
  const unsigned sc = rep == 0xF3 ? 4 : (rep == 0xF2 ? 8 : 0);
  if (o == 0x3A) {
    switch (p[2]) {
      case 0x14: case 0x20: return 1;
      case 0x15: return 2;
      case 0x16: case 0x22: return rexW ? 8 : 4;
      case 0x17: case 0x21: case 0x0A: return 4;
      case 0x0B: return 8;
      default: return 16;
    }
  }
  if (o == 0x38) return 16;
  if (o == 0xB6 || o == 0xBE || o == 0xB0 || o == 0xC0 || (o >= 0x90 && o <= 0x9F) || o == 0x18 || o == 0x0D) return 1;
  if (o == 0xB7 || o == 0xBF || o == 0xC4) return 2;
  if (o == 0xB1 || o == 0xC1 || o == 0xAF || (o >= 0x40 && o <= 0x4F) || o == 0xA3 || o == 0xAB || o == 0xB3 ||
      o == 0xBB || o == 0xBA)
    return osz;
  if (o == 0xC7) return 8;
  if (o == 0x10 || o == 0x11 || (o >= 0x51 && o <= 0x5F && o != 0x5A && o != 0x5B)) return sc ? sc : 16;
  if (o == 0x5A) return sc ? sc : (opsz16 ? 16 : 8);
  if (o == 0x2A) return sc ? osz : 8;
  if (o == 0x2C || o == 0x2D) return sc ? sc : 8;
  if (o == 0x2E || o == 0x2F) return opsz16 ? 8 : 4;
  if (o == 0x12 || o == 0x13 || o == 0x16 || o == 0x17 || o == 0xD6) return 8;
  if (o == 0x6E || o == 0x7E) return rep == 0xF3 ? 8 : (rexW ? 8 : 4);
  if ((o >= 0x28 && o <= 0x2B) || (o >= 0x50 && o <= 0x7F) || o == 0xC2 || o == 0xC6 || o >= 0xD0) return 16;
  return 0;
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

void writeDiag(const char* category, const char* api, const char* message) {
  rt::Runtime& r = rt::R();
  r.errors = true;
  if (r.diagFd < 0) return;
  char line[2048];
  std::size_t k = appendStr(line, 0, sizeof(line), "{\"category\":\"", false);
  k = appendStr(line, k, sizeof(line), category, false);
  k = appendStr(line, k, sizeof(line), "\",\"severity\":\"error\",\"api\":\"", false);
  k = appendStr(line, k, sizeof(line), api, false);
  k = appendStr(line, k, sizeof(line), "\",\"file\":\"", false);
  k = appendStr(line, k, sizeof(line), r.lastLoc.file, true);
  char tail[96];
  std::snprintf(tail, sizeof(tail), "\",\"line\":%u,\"pipe\":\"S\",\"operand\":-2,\"block\":%lld,\"message\":\"",
                r.lastLoc.line, static_cast<long long>(g_block.blockIdx));
  k = appendStr(line, k, sizeof(line), tail, false);
  k = appendStr(line, k, sizeof(line), message, true);
  k = appendStr(line, k, sizeof(line), "\"}\n", false);
  const ssize_t w = ::write(r.diagFd, line, k);
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
  in.dtype = in.srcDtype = p.width == 1 ? DType::U8 : p.width == 2 ? DType::U16 : p.width == 4 ? DType::U32
                         : p.width == 8 ? DType::U64 : DType::None;
  in.count = 1;
  in.times = p.times;
  in.bytes = p.width;
  if (p.write) in.dstSpace = p.space; else in.srcSpace = p.space;
  if (p.space == MemSpace::GM) {
    in.gmAddr = p.addr;
    in.burstCount = 1;
    in.burstLen = p.width;
    in.gmStride = p.width;
  } else if (p.write) {
    in.dstOff = p.off; in.dstLen = p.width;
  } else {
    in.src0Off = p.off; in.src0Len = p.width;
  }
  return in;
}

// Handler side: the buffer is full. Move it into the trace when that needs no allocation (rawDrain
// keeps headroom), else count it as dropped (the cost model then says the trace is partial).
void drainInHandler() {
  rt::Runtime& r = rt::R();
  for (int i = 0; i < g_rawPending; ++i) {
    if (r.trace.size() < r.trace.capacity()) r.trace.push_back(toInstr(g_pend[i]));
    else { ++r.dropped; ++g_rawDropped; }
  }
  g_rawPending = 0;
}

void note(std::uintptr_t rip, std::uintptr_t addr, std::uint32_t off, unsigned width, MemSpace space, bool write) {
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
  g_pend[g_rawPending++] = RawRec{rip, addr, off, 1, static_cast<std::uint16_t>(width), space, write, r.lastLoc};
}

// --- the handlers
bool openPage(std::uintptr_t a) {
  const std::uintptr_t pg = a & ~(static_cast<std::uintptr_t>(g_page) - 1);
  for (int i = 0; i < g_step.pages; ++i)
    if (g_step.page[i] == pg) return true;
  if (g_step.pages == 4) return false;
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
  std::uint32_t off = 0;          // UB/L1 offset
  long long rel = 0;              // UB/L1 offset, negative in the guard page before UB
  rt::GmBlockInfo gm{};
  bool inLocal = false;           // inside the UB+L1 mapping (not its guard pages)
};
bool classify(std::uintptr_t a, Where& w) {
  if (g_localViews.hi != 0 && a + g_page >= g_localViews.lo && a < g_localViews.hi + g_page) {
    w.inLocal = a >= g_localViews.lo && a < g_localViews.hi;
    const std::uintptr_t o = a - g_localViews.lo;
    w.space = w.inLocal && o >= kUbRegion ? MemSpace::L1 : MemSpace::UB;
    w.off = static_cast<std::uint32_t>(w.space == MemSpace::L1 ? o - kUbRegion : o);
    w.rel = static_cast<long long>(a) - static_cast<long long>(g_localViews.lo) -
            (w.space == MemSpace::L1 ? static_cast<long long>(kUbRegion) : 0);
    return true;
  }
  if (rt::gmBlockOf(a, w.gm)) {
    w.space = MemSpace::GM;
    return true;
  }
  return false;
}

void checkGmRaw(std::uintptr_t rip, std::uintptr_t a, unsigned width, bool write, const rt::GmBlockInfo& b) {
  const std::uintptr_t userEnd = b.base + b.size;
  if (a >= b.base && a + width <= userEnd) return;
  if (!firstReport(rip)) return;
  char where[256], msg[768];
  whereText(where, sizeof(where), rip);
  const long long rel = static_cast<long long>(a) - static_cast<long long>(b.base);
  std::snprintf(msg, sizeof(msg),
                "a raw GM pointer %s bytes [%lld, %lld) of a GmAlloc block of %llu bytes (block at 0x%llx): %s its "
                "%s (%s, %u-byte access). On hardware this touches another tensor's memory; the emulator lets it "
                "land in a guard page",
                write ? "writes" : "reads", rel, rel + width, static_cast<unsigned long long>(b.size),
                static_cast<unsigned long long>(b.base), a < b.base ? "before" : "past", a < b.base ? "start" : "end",
                where, width);
  writeDiag("gm-out-of-bounds", "raw GM pointer", msg);
}

void checkLocalRaw(std::uintptr_t rip, const Where& w, unsigned width, bool write) {
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
  if (!why || !firstReport(rip)) return;
  char where[256], msg[768];
  whereText(where, sizeof(where), rip);
  std::snprintf(msg, sizeof(msg), "a raw %s pointer (e.g. from LocalTensor::GetPhyAddr) %s %s offset %lld (%u bytes), %s; %s",
                name, write ? "writes" : "reads", name, w.rel, width, why, where);
  writeDiag("ub-out-of-bounds", w.space == MemSpace::L1 ? "raw L1 pointer" : "raw UB pointer", msg);
}

#if defined(__x86_64__)
void onSegv(int sig, siginfo_t* si, void* ctx) {
  auto* uc = static_cast<ucontext_t*>(ctx);
  const std::uintptr_t a = reinterpret_cast<std::uintptr_t>(si->si_addr);
  Where w;
  if (!g_ready || !classify(a, w)) return chain(g_prevSegv, sig, si, ctx);
  const std::uintptr_t rip = static_cast<std::uintptr_t>(uc->uc_mcontext.gregs[REG_RIP]);
  if (g_step.active) {  // the same instruction reaches a second page (page-crossing or a rep string)
    if (g_step.rip == rip && openPage(a)) return;
    return chain(g_prevSegv, sig, si, ctx);
  }
  const bool write = (uc->uc_mcontext.gregs[REG_ERR] & 2) != 0;
  unsigned width = decodeWidth(reinterpret_cast<const std::uint8_t*>(rip));
  if (width == 0) width = 4;  // unknown encoding: assume one 32-bit element
  if (w.space == MemSpace::GM) checkGmRaw(rip, a, width, write, w.gm);
  else checkLocalRaw(rip, w, width, write);
  note(rip, a, w.off, width, w.space, write);
  g_step = Step{};
  g_step.active = true;
  g_step.rip = rip;
  if (!openPage(a) || !openPage(a + width - 1)) return chain(g_prevSegv, sig, si, ctx);
  uc->uc_mcontext.gregs[REG_EFL] |= 0x100;  // TF: trap after this one instruction
}

void onTrap(int sig, siginfo_t* si, void* ctx) {
  if (!g_step.active) return chain(g_prevTrap, sig, si, ctx);
  auto* uc = static_cast<ucontext_t*>(ctx);
  for (int i = 0; i < g_step.pages; ++i) ::mprotect(reinterpret_cast<void*>(g_step.page[i]), g_page, PROT_NONE);
  g_step.active = false;
  uc->uc_mcontext.gregs[REG_EFL] &= ~0x100LL;
}
#else
// No single-stepping here: a raw access is refused with a clear diagnostic, then the block crashes.
void onSegv(int sig, siginfo_t* si, void* ctx) {
  Where w;
  if (g_ready && classify(reinterpret_cast<std::uintptr_t>(si->si_addr), w))
    writeDiag("runtime-crash", w.space == MemSpace::GM ? "raw GM pointer" : "raw UB pointer",
              "kernel code accessed GM or UB through a raw pointer; the emulator checks and costs raw accesses "
              "only on x86-64 - use GlobalTensor/LocalTensor GetValue/SetValue or DataCopy");
  chain(g_prevSegv, sig, si, ctx);
}
#endif

int findExeBase(dl_phdr_info* info, std::size_t, void* out) {
  *static_cast<std::uintptr_t*>(out) = info->dlpi_addr;  // the first object is the program itself
  return 1;
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
    if (p.space != MemSpace::GM)  // cross-pipe ordering as for GetValue/SetValue (matters with --no-auto-sync)
      syncAccess(Pipe::S, p.space, p.off, p.width * p.times, p.write, p.write ? "raw UB write" : "raw UB read", p.loc,
                 kOperandNone);
    if (r.trace.size() >= (std::size_t{1} << 24)) { ++r.dropped; continue; }
    r.trace.push_back(toInstr(p));
  }
  if (r.trace.capacity() - r.trace.size() < static_cast<std::size_t>(kPending))
    r.trace.reserve(r.trace.size() * 2 + kPending);
}

namespace rt {

void rawSetupLocal() {
  g_page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  g_ready = false;
  g_rawPending = 0;
  g_step = Step{};
  g_reportedCount = 0;
  const int fd = ::memfd_create("kwb-sim-ub", MFD_CLOEXEC);
  void* res = MAP_FAILED;
  void* alias = MAP_FAILED;
  if (fd >= 0 && ::ftruncate(fd, kLocalBytes) == 0) {
    res = ::mmap(nullptr, kLocalBytes + 2 * g_page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
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
  g_block.l1 = g_block.ub + kUbRegion;
}

void rawEnterKernel() {
  static const char* const names[3][2] = {
      {"raw GM read", "raw GM write"}, {"raw UB read", "raw UB write"}, {"raw L1 read", "raw L1 write"}};
  for (int s = 0; s < 3; ++s)
    for (int w = 0; w < 2; ++w) g_apiIdx[s][w] = intern(names[s][w]);
  g_emptyFile = intern(nullptr);
  Runtime& r = R();
  r.trace.reserve(r.trace.size() + 2 * kPending);
  ::dl_iterate_phdr(findExeBase, &g_exeBase);

  struct sigaction sa{};
  sa.sa_sigaction = onSegv;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  ::sigemptyset(&sa.sa_mask);
  ::sigaction(SIGSEGV, &sa, &g_prevSegv);
#if defined(__x86_64__)
  sa.sa_sigaction = onTrap;
  ::sigaction(SIGTRAP, &sa, &g_prevTrap);
#endif
  g_ready = true;
  if (g_localViews.hi != 0) ::mprotect(reinterpret_cast<void*>(g_localViews.lo), kLocalBytes, PROT_NONE);
  gmProtectKernelViews(PROT_NONE);
}

}  // namespace rt

}  // namespace kwb_sim
