// SPDX-License-Identifier: MIT
// GM (GmAlloc: shared mappings with a PROT_NONE guard page, bounds registry) and the bounds /
// use-after-free checks of local and global tensor accesses.

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <mutex>
#include <vector>

#include "BlockContext.h"

namespace kwb_sim {

namespace {
// One GmAlloc block. Its pages live in one shared memfd (so forked blocks share GM) mapped twice:
// `base` is the kernel view (what GmAlloc returns; PROT_NONE inside a running block, see
// RawAccess.cpp), `alias` the runtime view the emulated APIs use. The kernel view has a PROT_NONE
// guard page before and after the body, so a raw access just outside the block faults as well.
struct GmBlock {
  std::uintptr_t base;
  std::size_t size;  // user bytes
  std::size_t body;  // bytes mapped (user bytes rounded up to pages)
  std::uintptr_t alias;
  std::uint64_t fileOff;
};
std::vector<GmBlock>& gmBlocks() {
  static std::vector<GmBlock> v;
  return v;
}
std::size_t pageSize() {
  static const std::size_t p = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  return p;
}
// [base - page, base + body + page): the block and its guard pages.
const GmBlock* findGm(std::uintptr_t a) {
  const std::size_t page = pageSize();
  for (const GmBlock& b : gmBlocks())
    if (a + page >= b.base && a < b.base + b.body + page) return &b;
  return nullptr;
}
std::string hex(std::uintptr_t v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}
int g_gmFd = -2;                  // the memfd behind every GmAlloc block (-1: unavailable)
bool g_deviceMemoryOnly = false;  // setDeviceMemoryOnly
std::uint64_t g_gmFileEnd = 0;
}  // namespace

namespace {
// A device allocation of `bytes` spans more: aclrtMalloc rounds the size up to 32 bytes and adds 32
// (docs/emulator.md, "GM padding"), and torch_npu's allocator pads at least as much.
std::size_t gmPaddedSize(std::size_t bytes) {
  return (bytes + 31) / 32 * 32 + 32;
}
}  // namespace

void* gmAlloc(std::size_t bytes) {
  const std::size_t page = pageSize();
  const std::size_t user = bytes == 0 ? 1 : bytes;
  // Mapped as far as a device allocation reaches (gmPaddedSize) and on to the page end.
  const std::size_t body = (gmPaddedSize(user) + page - 1) / page * page;
  if (g_gmFd == -2) g_gmFd = ::memfd_create("kwb-sim-gm", MFD_CLOEXEC);
  if (g_gmFd < 0 || ::ftruncate(g_gmFd, static_cast<off_t>(g_gmFileEnd + body)) != 0) return nullptr;
  // Kernel view: guard, body, guard (reserved PROT_NONE first, the body mapped over it).
  void* res = ::mmap(nullptr, body + 2 * page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (res == MAP_FAILED) return nullptr;
  char* kv = static_cast<char*>(res) + page;
  void* alias =
      ::mmap(nullptr, body, PROT_READ | PROT_WRITE, MAP_SHARED, g_gmFd, static_cast<off_t>(g_gmFileEnd));
  if (::mmap(kv, body, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, g_gmFd,
             static_cast<off_t>(g_gmFileEnd)) == MAP_FAILED ||
      alias == MAP_FAILED) {
    ::munmap(res, body + 2 * page);
    if (alias != MAP_FAILED) ::munmap(alias, body);
    return nullptr;
  }
  gmBlocks().push_back(GmBlock{reinterpret_cast<std::uintptr_t>(kv), bytes, body,
                               reinterpret_cast<std::uintptr_t>(alias), g_gmFileEnd});
  g_gmFileEnd += body;
  return kv;
}

void gmFree(void* p) {
  auto& v = gmBlocks();
  const std::size_t page = pageSize();
  for (auto it = v.begin(); it != v.end(); ++it) {
    if (it->base == reinterpret_cast<std::uintptr_t>(p)) {
      // GM blocks are tracked as integer addresses by design (docs/emulator.md)
      // NOLINTNEXTLINE(performance-no-int-to-ptr)
      ::munmap(reinterpret_cast<char*>(it->base) - page, it->body + 2 * page);
      // GM blocks are tracked as integer addresses by design (docs/emulator.md)
      // NOLINTNEXTLINE(performance-no-int-to-ptr)
      ::munmap(reinterpret_cast<void*>(it->alias), it->body);
      // Give the pages back; the file range is not reused (offsets only grow, holes cost nothing).
      ::fallocate(g_gmFd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, static_cast<off_t>(it->fileOff),
                  static_cast<off_t>(it->body));
      v.erase(it);
      return;
    }
  }
}

void* gmAliasOf(const void* p) {
  const std::uintptr_t a = reinterpret_cast<std::uintptr_t>(p);
  const GmBlock* b = findGm(a);
  // GM blocks are tracked as integer addresses by design (docs/emulator.md)
  // NOLINTNEXTLINE(performance-no-int-to-ptr)
  return b ? reinterpret_cast<void*>(b->alias + (a - b->base)) : const_cast<void*>(p);
}

namespace rt {
bool gmBlockOf(std::uintptr_t a, GmBlockInfo& out) {
  const GmBlock* b = findGm(a);
  if (!b) return false;
  out = GmBlockInfo{b->base, b->size, b->body, b->alias};
  return true;
}
void gmProtectKernelViews(int prot) {
  // GM blocks are tracked as integer addresses by design (docs/emulator.md)
  // NOLINTNEXTLINE(performance-no-int-to-ptr)
  for (const GmBlock& b : gmBlocks()) ::mprotect(reinterpret_cast<void*>(b.base), b.body, prot);
}
}  // namespace rt

namespace rt {
namespace {
// A burst this long or longer goes through the memfd (pread/pwrite); shorter ones through the mapping,
// where the system call would cost more than the copy (docs/emulator.md, "Speed").
constexpr std::size_t kFileIoMin = 512;

// The memfd offset of [a, a + n) when it lies inside one GmAlloc block's mapped body.
bool gmFileSpan(std::uintptr_t a, std::size_t n, std::uint64_t& off) {
  if (g_gmFd < 0 || n < kFileIoMin) return false;
  const GmBlock* b = findGm(a);
  if (b == nullptr || a < b->base || a + n > b->base + b->body) return false;
  off = b->fileOff + (a - b->base);
  return true;
}
}  // namespace

// A block process that maps a GM page for the first time pays a page fault per page (per 16 with
// fault-around for reads); the same bytes through the file cost one system call per burst and leave the
// process's page tables alone. The page cache pages are the ones every mapping shows, so both ways see
// and leave the same bytes.
void gmCopyIn(std::uint8_t* dst, const void* gm, std::size_t n) {
  std::uint64_t off = 0;
  if (gmFileSpan(reinterpret_cast<std::uintptr_t>(gm), n, off)) {
    std::size_t done = 0;
    while (done < n) {
      const ssize_t r = ::pread(g_gmFd, dst + done, n - done, static_cast<off_t>(off + done));
      if (r <= 0) break;
      done += static_cast<std::size_t>(r);
    }
    dst += done;
    gm = static_cast<const std::uint8_t*>(gm) + done;
    n -= done;
  }
  std::memmove(dst, gmAliasOf(gm), n);
}

void gmCopyOut(void* gm, const std::uint8_t* src, std::size_t n) {
  std::uint64_t off = 0;
  if (gmFileSpan(reinterpret_cast<std::uintptr_t>(gm), n, off)) {
    std::size_t done = 0;
    while (done < n) {
      const ssize_t w = ::pwrite(g_gmFd, src + done, n - done, static_cast<off_t>(off + done));
      if (w <= 0) break;
      done += static_cast<std::size_t>(w);
    }
    src += done;
    gm = static_cast<std::uint8_t*>(gm) + done;
    n -= done;
  }
  std::memmove(gmAliasOf(gm), src, n);
}
}  // namespace rt

bool gmKnown(const void* p) {
  return findGm(reinterpret_cast<std::uintptr_t>(p)) != nullptr;
}

std::uint64_t gmBytesFrom(const void* p) {
  const std::uintptr_t a = reinterpret_cast<std::uintptr_t>(p);
  const GmBlock* b = findGm(a);
  if (b == nullptr || a < b->base || a >= b->base + b->size) return 0;
  return b->base + b->size - a;
}

std::uint64_t checkGm(const void* addr, std::uint64_t len, std::uintptr_t lo, std::uintptr_t hi,
                      const char* api, SrcLoc loc, Pipe pipe, int operand, bool write) {
  const std::uintptr_t a = reinterpret_cast<std::uintptr_t>(addr);
  const std::uintptr_t end = a + len;
  const char* what = write ? "writes" : "reads";
  std::uint64_t ok = len;
  if (hi != 0 && (a < lo || end > hi)) {
    const long long first = static_cast<long long>(a) - static_cast<long long>(lo);
    rt::reportGmRange(
        api, loc, pipe, operand,
        std::string(api) + " " + what + " GM bytes [" + std::to_string(first) + ", " +
            std::to_string(first + static_cast<long long>(len)) +
            ") relative to the GlobalTensor's SetGlobalBuffer start, but the buffer given to SetGlobalBuffer "
            "has only " +
            std::to_string(hi - lo) + " bytes",
        rt::GmRangeFacts{first, len, hi - lo, write});
    if (a < lo) return 0;
  }
  const GmBlock* b = findGm(a);
  if (b == nullptr) {
    // Not in any GmAlloc block: after a device-style launch that is host memory, out of the kernel's
    // reach; after ICPU_RUN_KF it may be a real host pointer (e.g. from malloc), not checked.
    if (g_deviceMemoryOnly) {
      report(Cat::GmOutOfBounds, api, loc, pipe, operand,
             std::string(api) + " " + what + " " + std::to_string(len) + " bytes at " + hex(a) +
                 ", which is host memory, not device memory from aclrtMalloc: a kernel cannot reach host "
                 "memory (copy it to an aclrtMalloc buffer with aclrtMemcpy first); the access is skipped");
      return 0;
    }
    return ok;
  }
  const std::uintptr_t userEnd = b->base + b->size;
  if (a < b->base) {
    report(Cat::GmOutOfBounds, api, loc, pipe, operand,
           std::string(api) + " " + what + " GM bytes starting " + std::to_string(b->base - a) +
               " bytes before a GmAlloc block of " + std::to_string(b->size) + " bytes (block at " +
               hex(b->base) + "); the access is skipped");
    return 0;
  }
  const std::uintptr_t paddedEnd = b->base + gmPaddedSize(b->size);
  if (a < userEnd && end > userEnd && end <= paddedEnd && paddedEnd <= b->base + b->body) {
    // Inside the padding every device allocation has: no fault and no other tensor there on a device,
    // so not an error; but the bytes are not the tensor's (docs/emulator.md, "GM padding").
    report(
        Cat::Note, api, loc, pipe, operand,
        std::string(api) + " " + what + " " + std::to_string(end - userEnd) + " bytes past the end of a " +
            std::to_string(b->size) +
            "-byte GM tensor, inside the padding a device allocation has (aclrtMalloc rounds a size up "
            "to 32 bytes and adds 32): harmless for a tensor of its own, but those bytes are not data, and "
            "a tensor that is a slice of a larger buffer would be overrun there");
    return ok;
  }
  if (a >= userEnd || end > userEnd) {
    report(Cat::GmOutOfBounds, api, loc, pipe, operand,
           std::string(api) + " " + what + " GM bytes [" + std::to_string(a - b->base) + ", " +
               std::to_string(end - b->base) + ") of a GmAlloc block of " + std::to_string(b->size) +
               " bytes (block at " + hex(b->base) +
               "): " + std::to_string(end - (a > userEnd ? a : userEnd)) +
               " bytes past its end; the access is cut at the end of the block");
    ok = a >= userEnd ? 0 : userEnd - a;
  }
  return ok;
}

namespace {
// The overrun buffer's origin: either its InitBuffer length or this access's length is wrong.
std::string initBufferText(int buf, std::uint64_t needed) {
  const SrcLoc init = rt::bufferInitLoc(buf);
  if (!init.file) return {};
  std::string s = ". The buffer comes from InitBuffer at line " + std::to_string(init.line) + " (" +
                  std::to_string(g_block.bufs[buf].len) + " bytes)";
  if (needed > 0)
    s += "; make it at least " + std::to_string(needed) + " bytes there, or shorten this access";
  return s;
}
// True when some other buffer of the same memory space holds `needed` bytes while `buf` does not: `buf`
// is the odd one out, so its InitBuffer length is the likelier mistake than the access length.
bool undersizedBuffer(int buf, std::uint64_t needed) {
  const BufferSlot& b = g_block.bufs[buf];
  if (b.len >= needed) return false;
  for (int i = 0; i < g_block.bufCount; ++i)
    if (i != buf && g_block.bufs[i].space == b.space && g_block.bufs[i].len >= needed) return true;
  return false;
}
}  // namespace

bool checkLocal(const TensorRef& ref, std::uint32_t off, std::uint64_t len, const char* api, SrcLoc loc,
                Pipe pipe, int operand, bool write, bool exactWrite) {
  if (handleStale(ref)) {
    const BufferSlot& s = g_block.bufs[ref.buf];
    std::string where;
    if (s.lastLoc.file) where = " (freed or reallocated at line " + std::to_string(s.lastLoc.line) + ")";
    report(Cat::QueueMisuse, api, loc, pipe, operand,
           std::string(api) + " uses a LocalTensor after FreeTensor: its buffer (" + spaceName(ref.space) +
               " offset " + std::to_string(s.off) + ", " + std::to_string(s.len) +
               " bytes) was given back to its queue" + where +
               "; on hardware the data may already be overwritten by the next AllocTensor");
  }
  const std::uint32_t spaceBytes = spaceSize(ref.space);
  if (ref.buf >= 0 && !handleStale(ref)) rt::queueNoteUse(ref.buf, api, loc);
  if (ref.buf >= 0) {
    const BufferSlot& s = g_block.bufs[ref.buf];
    if (off < s.off || off + len > s.off + s.len) {
      const long long rel = static_cast<long long>(off) - static_cast<long long>(s.off);
      const std::string symptom =
          std::string(api) + " " + (write ? "writes" : "reads") + " bytes [" + std::to_string(rel) + ", " +
          std::to_string(rel + static_cast<long long>(len)) + ") of a " + spaceName(ref.space) +
          " buffer of " + std::to_string(s.len) + " bytes (buffer at " + spaceName(ref.space) + " offset " +
          std::to_string(s.off) +
          "): " + std::to_string(off + len > s.off + s.len ? off + len - (s.off + s.len) : s.off - off) +
          " bytes outside it" + (off + len <= spaceBytes ? ", corrupting a neighbouring buffer" : "");
      const SrcLoc init = rt::bufferInitLoc(ref.buf);
      if (rel == 0 && undersizedBuffer(ref.buf, len) && init.file && loc.file &&
          std::strcmp(init.file, loc.file) == 0) {
        // A whole-buffer access that fits the kernel's other buffers: the one buffer made smaller than
        // its siblings is the cause (docs/emulator.md, "Cause lines"), the access only where it shows.
        report(Cat::UbOutOfBounds, "InitBuffer", init, Pipe::S, 0,
               "the InitBuffer at line " + std::to_string(init.line) + " makes a buffer of " +
                   std::to_string(s.len) + " bytes, smaller than the " + std::to_string(len) + " bytes the " +
                   api + " at line " + std::to_string(loc.line) + " " + (write ? "writes" : "reads") + " (" +
                   symptom +
                   "); the kernel's other buffers hold that much. Give this InitBuffer the tile's full "
                   "length");
      } else {
        report(Cat::UbOutOfBounds, api, loc, pipe, operand,
               symptom + initBufferText(ref.buf, rel >= 0 ? static_cast<std::uint64_t>(rel) + len : 0));
      }
    }
  }
  if (static_cast<std::uint64_t>(off) + len > spaceBytes) {
    if (ref.buf < 0)
      report(Cat::UbOutOfBounds, api, loc, pipe, operand,
             std::string(api) + " accesses " + spaceName(ref.space) + " bytes [" + std::to_string(off) +
                 ", " + std::to_string(off + len) + ") beyond the " + std::to_string(spaceBytes) + "-byte " +
                 spaceName(ref.space) + " of " + rt::soc().name);
    return false;
  }
  // Uninitialised memory (InitShadow.cpp): a write fills its range unless the caller marks the exact
  // bytes; a scalar GetValue of a pipe buffer's never-written element is a stale read.
  if (write && !exactWrite) rt::shadowWritten(ref.space, off, len);
  if (!write && pipe == Pipe::S && ref.buf >= 0 && loc.file && !handleStale(ref))
    rt::shadowCheckRead(ref.space, off, len, g_block.bufs[ref.buf].off, static_cast<std::uint32_t>(len), api,
                        loc, pipe, operand);
  return true;
}

void checkKernelPointerArg(const char* kernel, const char* form, int index, const void* p, SrcLoc loc,
                           bool deviceMemory) {
  if (p == nullptr || gmKnown(p)) return;
  const std::string arg = std::string("argument ") + std::to_string(index + 1) + " of " + kernel;
  if (deviceMemory) {
    report(Cat::Note, form, loc, Pipe::None, index + 2,
           arg +
               " is host memory, not device memory from aclrtMalloc: on a device the kernel cannot reach "
               "it, so every access the kernel makes through it is reported as an error");
    return;
  }
  report(Cat::Note, form, loc, Pipe::None, index + 2,
         arg +
             " points to memory that does not come from AscendC::GmAlloc (or aclrtMalloc): every block runs "
             "in its own process, so writes through it never reach the host program");
}

void setDeviceMemoryOnly(bool on) {
  g_deviceMemoryOnly = on;
}

namespace rt {
bool deviceMemoryOnly() {
  return g_deviceMemoryOnly;
}
}  // namespace rt

}  // namespace kwb_sim
