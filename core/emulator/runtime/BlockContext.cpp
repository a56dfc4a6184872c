// SPDX-License-Identifier: MIT
// Per-block runtime state: memory spaces, diagnostics (child side), trace recording and the block's
// end (end-of-kernel checks, trace file).

#include "BlockContext.h"
#include "LaunchReport.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>
#include <unordered_map>

// Ascend C's kernel-side block index and count (kwb_sim/kernel_misc.h), one pair per block process.
// NOLINTBEGIN(cppcoreguidelines-avoid-non-const-global-variables)
std::int64_t block_idx = 0;
std::int64_t block_num = 1;
// NOLINTEND(cppcoreguidelines-avoid-non-const-global-variables)

namespace kwb_sim {

BlockState g_block;

namespace rt {

namespace {
const SocCaps kSocs[] = {
    {"Ascend910B1", 2201, 192 * 1024, 512 * 1024, 64 * 1024, 64 * 1024, 128 * 1024, 1024, 48, 24, 1850},
    {"Ascend910B2", 2201, 192 * 1024, 512 * 1024, 64 * 1024, 64 * 1024, 128 * 1024, 1024, 48, 24, 1800},
    {"Ascend910B3", 2201, 192 * 1024, 512 * 1024, 64 * 1024, 64 * 1024, 128 * 1024, 1024, 40, 20, 1800},
    {"Ascend910B4", 2201, 192 * 1024, 512 * 1024, 64 * 1024, 64 * 1024, 128 * 1024, 1024, 40, 20, 1500},
    {"Ascend310P3", 2002, 256 * 1024, 1024 * 1024, 64 * 1024, 64 * 1024, 256 * 1024, 0, 7, 8, 1060},
    {"Ascend310P1", 2002, 256 * 1024, 1024 * 1024, 64 * 1024, 64 * 1024, 256 * 1024, 0, 8, 10, 1060},
};
const SocCaps* g_soc = &kSocs[0];

struct DupKey {
  int cat;
  const char* file;
  std::uint32_t line;
  bool operator==(const DupKey& o) const { return cat == o.cat && file == o.file && line == o.line; }
};
struct DupHash {
  std::size_t operator()(const DupKey& k) const {
    return std::hash<const void*>()(k.file) ^ (static_cast<std::size_t>(k.line) * 131u) ^
           static_cast<std::size_t>(k.cat);
  }
};
std::unordered_map<DupKey, std::uint64_t, DupHash>& dupCounts() {
  static std::unordered_map<DupKey, std::uint64_t, DupHash> m;
  return m;
}
std::unordered_map<const void*, std::uint32_t>& internByPtr() {
  static std::unordered_map<const void*, std::uint32_t> m;
  return m;
}

void writeAll(int fd, const void* data, std::size_t n) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w <= 0) return;
    p += w;
    n -= static_cast<std::size_t>(w);
  }
}
}  // namespace

const SocCaps& soc() {
  return *g_soc;
}

const SocCaps* findSoc(const char* name) {
  for (const SocCaps& s : kSocs)
    if (name && std::strcmp(s.name, name) == 0) return &s;
  return nullptr;
}

void selectSoc(const char* name) {
  for (const SocCaps& s : kSocs)
    if (name && std::strcmp(s.name, name) == 0) g_soc = &s;
}

Runtime& R() {
  static Runtime r;
  return r;
}

const char* categoryName(Cat c) {
  switch (c) {
    case Cat::UbOverflow:
      return "ub-overflow";
    case Cat::MisalignedCopy:
      return "misaligned-copy";
    case Cat::GmOutOfBounds:
      return "gm-out-of-bounds";
    case Cat::UbOutOfBounds:
      return "ub-out-of-bounds";
    case Cat::QueueMisuse:
      return "queue-misuse";
    case Cat::MissingSync:
      return "missing-sync";
    case Cat::UnpairedFlag:
      return "unpaired-flag";
    case Cat::MulticoreOverlap:
      return "multicore-overlap";
    case Cat::InvalidParam:
      return "invalid-param";
    case Cat::RuntimeCrash:
      return "runtime-crash";
    case Cat::Timeout:
      return "timeout";
    case Cat::UninitializedRead:
      return "uninitialized-read";
    case Cat::Note:
      return "note";
  }
  return "";
}

std::uint32_t intern(const char* s) {
  if (!s) s = "";
  auto& byPtr = internByPtr();
  auto it = byPtr.find(s);
  if (it != byPtr.end()) return it->second;
  Runtime& r = R();
  std::uint32_t idx = 0;
  for (; idx < r.strings.size(); ++idx)
    if (r.strings[idx] == s) break;
  if (idx == r.strings.size()) r.strings.emplace_back(s);
  byPtr.emplace(s, idx);
  return idx;
}

std::string diagLine(Cat cat, const char* api, SrcLoc loc, Pipe pipe, int operand, const std::string& message,
                     std::int64_t block) {
  nlohmann::json j{{"category", categoryName(cat)},
                   {"severity", cat == Cat::Note ? "note" : "error"},
                   {"api", api ? api : ""},
                   {"file", loc.file ? loc.file : ""},
                   {"line", loc.line},
                   {"pipe", pipe == Pipe::None ? "" : pipeName(pipe)},
                   {"operand", operand},
                   {"block", block},
                   {"message", message}};
  return j.dump() + "\n";
}

void beginBlock(const std::string& dir, std::int64_t idx, std::int64_t num, const CorePlace* place) {
  Runtime& r = R();
  r.workDir = dir;
  g_block.blockIdx = idx;
  g_block.blockNum = num;
  const CorePlace plain{static_cast<std::uint32_t>(idx), CoreKind::Plain, 0, 1, 1};
  const CorePlace& at = place ? *place : plain;
  g_block.unit = at.unit;
  g_block.core = at.core;
  g_block.subBlockIdx = at.subBlockIdx;
  g_block.subBlockNum = at.subBlockNum;
  g_block.coresPerBlock = at.coresPerBlock;
  // On a mix kernel's AIV the block index is the AIV's own (docs/emulator.md, "Mixed AIC/AIV kernels").
  ::block_idx = at.core == CoreKind::Aiv ? idx * at.subBlockNum + at.subBlockIdx : idx;
  ::block_num = num;
  g_block.ubSize = soc().ubBytes;
  g_block.l1Size = soc().l1Bytes;
  g_block.l0aSize = soc().l0aBytes;
  g_block.l0bSize = soc().l0bBytes;
  g_block.l0cSize = soc().l0cBytes;
  g_block.btSize = soc().btBytes;
  rawSetupLocal();  // fresh zeroed UB/L1: kernel view + runtime alias (RawAccess.cpp)
  g_block.mask = MaskState{};
  g_block.atomicOp = AtomicOp::None;
  g_block.atomicType = DType::None;
  g_block.inKernel = true;
  r.trace.clear();
  r.trace.reserve(1 << 16);
  r.dropped = 0;
  r.errors = false;
  dupCounts().clear();
  // Created at the first diagnostic (diagFile): a missing file reads as an empty one (LaunchReport.cpp),
  // and most blocks report nothing, so a launch does not pay for a file per block it does not need.
  if (r.diagFd >= 0) ::close(r.diagFd);
  r.diagFd = -1;
  std::snprintf(r.diagPath, sizeof(r.diagPath), "%s/b%u.diag", dir.c_str(), g_block.unit);
  syncResetBlock();
  queueResetBlock();
  shadowResetBlock();
  cubeResetBlock();
}

int diagFile() {
  Runtime& r = R();
  if (r.diagFd < 0 && r.diagPath[0] != 0)
    r.diagFd = ::open(r.diagPath, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0600);
  return r.diagFd;
}

void writeTraceFile(bool complete) {
  Runtime& r = R();
  if (r.workDir.empty()) return;
  char path[4096];
  std::snprintf(path, sizeof(path), "%s/b%u.trace", r.workDir.c_str(), g_block.unit);
  const int fd = ::open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return;
  const std::uint64_t header[4] = {
      0x4b57425452414345ull, r.trace.size(), r.dropped,
      (static_cast<std::uint64_t>(r.strings.size()) << 1) | (complete ? 1u : 0u)};
  writeAll(fd, header, sizeof(header));
  for (const std::string& s : r.strings) {
    const std::uint32_t n = static_cast<std::uint32_t>(s.size());
    writeAll(fd, &n, sizeof(n));
    writeAll(fd, s.data(), n);
  }
  if (!r.trace.empty()) writeAll(fd, r.trace.data(), r.trace.size() * sizeof(Instr));
  ::close(fd);
}

void finishBlock(bool complete) {
  Runtime& r = R();
  rawFlush();  // raw accesses since the last API call
  rawReportStats();
  g_block.inKernel = false;
  if (complete) {
    syncEndOfKernel();
    queueEndOfKernel();  // a TPipe that is never destroyed (a static one): its held buffers leak too
  }
  // Repeated diagnostics: one line each with the count of further occurrences.
  for (const auto& [key, n] : dupCounts()) {
    if (n <= 1 || r.diagPath[0] == 0) continue;
    nlohmann::json j{{"repeat", n},
                     {"category", categoryName(static_cast<Cat>(key.cat))},
                     {"file", key.file ? key.file : ""},
                     {"line", key.line}};
    const std::string line = j.dump() + "\n";
    writeAll(diagFile(), line.data(), line.size());
  }
  writeTraceFile(complete);
  if (r.diagFd >= 0) ::close(r.diagFd);
  r.diagFd = -1;
  r.diagPath[0] = 0;
  std::fflush(nullptr);
}

void endBlock(int exitCode, bool complete) {
  finishBlock(complete);
  ::_exit(exitCode);
}

}  // namespace rt

std::uint8_t* spaceBase(MemSpace s) {
  switch (s) {
    case MemSpace::L1:
      return g_block.l1;
    case MemSpace::L0A:
      return g_block.l0a;
    case MemSpace::L0B:
      return g_block.l0b;
    case MemSpace::L0C:
      return g_block.l0c;
    case MemSpace::BT:
      return g_block.bt;
    default:
      return g_block.ub;
  }
}
std::uint32_t spaceSize(MemSpace s) {
  switch (s) {
    case MemSpace::L1:
      return g_block.l1Size;
    case MemSpace::L0A:
      return g_block.l0aSize;
    case MemSpace::L0B:
      return g_block.l0bSize;
    case MemSpace::L0C:
      return g_block.l0cSize;
    case MemSpace::BT:
      return g_block.btSize;
    default:
      return g_block.ubSize;
  }
}
const char* spaceName(MemSpace s) {
  switch (s) {
    case MemSpace::GM:
      return "GM";
    case MemSpace::L1:
      return "L1";
    case MemSpace::L0A:
      return "L0A";
    case MemSpace::L0B:
      return "L0B";
    case MemSpace::L0C:
      return "L0C";
    case MemSpace::BT:
      return "BT";
    default:
      return "UB";
  }
}

namespace {
// report() and reportGmRange(): the first diagnostic of its category at a line is written (with `fields`
// added to its JSON object), the later ones only counted.
void reportOnce(Cat cat, const char* api, SrcLoc loc, Pipe pipe, int operand, const std::string& message,
                const nlohmann::json& fields) {
  rt::Runtime& r = rt::R();
  if (cat != Cat::Note) r.errors = true;
  auto& counts = rt::dupCounts();
  auto& n = counts[rt::DupKey{static_cast<int>(cat), loc.file, loc.line}];
  if (++n > 1) return;
  const bool inBlock = r.diagPath[0] != 0;
  const std::int64_t block = inBlock ? g_block.blockIdx : -1;
  std::string line = rt::diagLine(cat, api, loc, pipe, operand, message, block);
  if (!fields.empty()) {
    nlohmann::json j = nlohmann::json::parse(line);
    j.update(fields);
    line = j.dump() + "\n";
  }
  if (inBlock) {
    rt::writeAll(rt::diagFile(), line.data(), line.size());
  } else {
    rt::addParentLine(line);
  }
}
}  // namespace

void report(Cat cat, const char* api, SrcLoc loc, Pipe pipe, int operand, const std::string& message) {
  reportOnce(cat, api, loc, pipe, operand, message, nlohmann::json::object());
}

namespace rt {
void reportGmRange(const char* api, SrcLoc loc, Pipe pipe, int operand, const std::string& message,
                   const GmRangeFacts& facts) {
  reportOnce(Cat::GmOutOfBounds, api, loc, pipe, operand, message,
             nlohmann::json{{"gm_range",
                             {{"first", facts.first},
                              {"length", facts.length},
                              {"range_bytes", facts.rangeBytes},
                              {"write", facts.write}}}});
}

namespace {
nlohmann::json relatedFields(const std::vector<RelatedLoc>& related) {
  nlohmann::json list = nlohmann::json::array();
  for (const RelatedLoc& r : related)
    if (r.loc.file && r.loc.line > 0)
      list.push_back({{"role", r.role ? r.role : ""}, {"file", r.loc.file}, {"line", r.loc.line}});
  return list.empty() ? nlohmann::json::object() : nlohmann::json{{"related", list}};
}
}  // namespace

void reportRelated(Cat cat, const char* api, SrcLoc loc, Pipe pipe, int operand, const std::string& message,
                   const std::vector<RelatedLoc>& related) {
  reportOnce(cat, api, loc, pipe, operand, message, relatedFields(related));
}

void fatalRelated(Cat cat, const char* api, SrcLoc loc, Pipe pipe, int operand, const std::string& message,
                  const std::vector<RelatedLoc>& related) {
  reportOnce(cat, api, loc, pipe, operand, message, relatedFields(related));
  if (!g_block.inKernel) std::_Exit(kAbortExit);
  endBlock(kAbortExit, false);
}
}  // namespace rt

void fatal(Cat cat, const char* api, SrcLoc loc, Pipe pipe, int operand, const std::string& message) {
  report(cat, api, loc, pipe, operand, message);
  if (!g_block.inKernel) std::_Exit(rt::kAbortExit);
  rt::endBlock(rt::kAbortExit, false);
}

Instr& record(const char* api, SrcLoc loc, Pipe pipe) {
  rt::Runtime& r = rt::R();
  if (r.probing) ::_exit(0);  // the kernel-type probe ends at the first API call (runtime/KernelType.cpp)
  rawFlush();                 // raw accesses made before this call come first in the trace
  r.lastApi = api;
  r.lastLoc = loc;
  static Instr sink;
  if (r.trace.size() >= (std::size_t{1} << 24)) {  // 16M records per block
    ++r.dropped;
    sink = Instr{};
    return sink;
  }
  Instr& in = r.trace.emplace_back();
  in.api = rt::intern(api);
  in.file = rt::intern(loc.file);
  in.line = loc.line;
  in.pipe = pipe;
  return in;
}

void recordScalar(const char* api, SrcLoc loc, DType dt, MemSpace space, std::uint64_t gmAddr,
                  std::uint32_t ubOff, bool write) {
  rawFlush();
  rt::Runtime& r = rt::R();
  r.lastApi = api;
  r.lastLoc = loc;
  if (!r.trace.empty()) {
    Instr& last = r.trace.back();
    if (last.pipe == Pipe::S && last.line == loc.line && last.dtype == dt && last.sync == SyncKind::None &&
        (write ? last.dstSpace : last.srcSpace) == space && r.strings[last.api] == api &&
        r.strings[last.file] == (loc.file ? loc.file : "")) {
      const bool gmContig = space != MemSpace::GM || gmAddr == last.gmAddr + last.times * last.bytes;
      if (gmContig) {
        ++last.times;
        return;
      }
    }
  }
  Instr& in = record(api, loc, Pipe::S);
  in.dtype = in.srcDtype = dt;
  in.count = 1;
  in.bytes = dtypeSize(dt);
  if (write) {
    in.dstSpace = space;
    if (space != MemSpace::GM) {
      in.dstOff = ubOff;
      in.dstLen = dtypeSize(dt);
    }
  } else {
    in.srcSpace = space;
    if (space != MemSpace::GM) {
      in.src0Off = ubOff;
      in.src0Len = dtypeSize(dt);
    }
  }
  if (space == MemSpace::GM) {
    in.gmAddr = gmAddr;
    in.burstCount = 1;
    in.burstLen = dtypeSize(dt);
    in.gmStride = dtypeSize(dt);
  }
}

}  // namespace kwb_sim
