// SPDX-License-Identifier: MIT
#include "core/toolchain/TrustedLaunch.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/diag/GmOverrunCause.h"
#include "core/diag/HandOffCause.h"
#include "core/emulator/analysis/RecordFormat.h"
#include "core/emulator/analysis/SourceText.h"
#include "core/emulator/costmodel/CostModel.h"
#include "core/emulator/costmodel/SocParams.h"

namespace kwb {

namespace {

namespace rec = kwb_sim::records;

// Bounds on what records may make the workbench hold. The runtime folds repeated findings, so a real
// block reports far fewer lines; a forged flood is cut here.
constexpr std::size_t kMaxDiagLinesPerBlock = 4096;
constexpr std::size_t kMaxRelatedPerDiag = 8;
constexpr std::size_t kMaxFieldChars = 4000;

Diagnostic error(std::string category, std::string message, std::string file = {}, int line = 0) {
  Diagnostic d;
  d.source = "workbench";
  d.severity = Severity::Error;
  d.category = std::move(category);
  d.message = std::move(message);
  d.file = std::move(file);
  d.line = line;
  return d;
}

// Strings from records are shown to people and agents: bounded, without control characters.
std::string clean(std::string s) {
  if (s.size() > kMaxFieldChars) s = s.substr(0, kMaxFieldChars) + "...";
  for (char& c : s)
    if (static_cast<unsigned char>(c) < 0x20 && c != '\n') c = ' ';
  return s;
}

std::string str(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? clean(it->get<std::string>()) : std::string();
}
long long num(const nlohmann::json& j, const char* key, long long dflt) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return dflt;
  const double v = it->get<double>();
  return v > -1e15 && v < 1e15 ? static_cast<long long>(v) : dflt;
}

std::string baseName(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// clang-tidy flags the implicit noexcept move constructor: it cannot prove nlohmann::json's noexcept
// move (its invariant checks) non-throwing.
// NOLINTNEXTLINE(bugprone-exception-escape)
struct Frames {
  bool haveLaunch = false;
  nlohmann::json launch;
  bool haveTensors = false;
  nlohmann::json tensors;
  std::string hostLines;
  std::map<std::int32_t, std::string> diag, trace;
};

bool splitFrames(std::string_view bytes, Frames& f, std::vector<Diagnostic>& out) {
  std::size_t pos = 0;
  while (pos < bytes.size()) {
    rec::FrameHeader h;
    if (bytes.size() - pos < sizeof h) {
      out.push_back(error("runtime-crash", "the run's records end inside a frame header at byte " +
                                               std::to_string(pos) +
                                               ": they were cut or written by something else"));
      return false;
    }
    std::memcpy(&h, bytes.data() + pos, sizeof h);
    pos += sizeof h;
    if (h.magic != rec::kFrameMagic || h.length > bytes.size() - pos || h.kind < 1 || h.kind > 5) {
      out.push_back(
          error("runtime-crash", "the run's records hold a malformed frame at byte " +
                                     std::to_string(pos - sizeof h) +
                                     ": they were cut or written by something other than the emulator"));
      return false;
    }
    const std::string_view payload = bytes.substr(pos, h.length);
    pos += h.length;
    auto once = [&](bool& seen, const char* what) {
      if (seen) {
        out.push_back(error("runtime-crash",
                            std::string("the run's records hold ") + what +
                                " twice: the kernel was launched more than once, or records were forged"));
        return false;
      }
      seen = true;
      return true;
    };
    switch (static_cast<rec::FrameKind>(h.kind)) {
      case rec::FrameKind::Launch:
        if (!once(f.haveLaunch, "the launch outcome")) return false;
        f.launch = nlohmann::json::parse(payload, nullptr, false);
        break;
      case rec::FrameKind::Tensors:
        if (!once(f.haveTensors, "the tensor table")) return false;
        f.tensors = nlohmann::json::parse(payload, nullptr, false);
        break;
      case rec::FrameKind::HostDiagnostics:
        f.hostLines.append(payload);
        break;
      case rec::FrameKind::BlockDiagnostics:
      case rec::FrameKind::BlockTrace: {
        auto& m = h.kind == static_cast<std::uint32_t>(rec::FrameKind::BlockTrace) ? f.trace : f.diag;
        if (m.count(h.block)) {
          out.push_back(error("runtime-crash", "the run's records hold block " + std::to_string(h.block) +
                                                   "'s " + (&m == &f.trace ? "trace" : "diagnostics") +
                                                   " twice"));
          return false;
        }
        m[h.block] = std::string(payload);
        break;
      }
    }
  }
  return true;
}

// One emulator diagnostic from a block's JSON line; names and excerpts come from our own copy of the
// candidate, never from the file the line names.
Diagnostic toDiagnostic(const nlohmann::json& j, const LaunchExpectation& expect) {
  Diagnostic d;
  d.source = "emulator";
  const std::string sev = str(j, "severity");
  d.severity = sev == "note" ? Severity::Note : (sev == "warning" ? Severity::Warning : Severity::Error);
  d.category = str(j, "category");
  if (d.category == "note") d.category.clear();
  const std::string file = str(j, "file");
  d.file = baseName(file) == expect.candidateFile ? expect.candidateFile : baseName(file);
  d.line = static_cast<int>(std::clamp(num(j, "line", 0), 0LL, 10000000LL));
  d.message = str(j, "message");
  const std::string api = str(j, "api");
  if (!api.empty()) d.api = api;
  const std::string pipe = str(j, "pipe");
  if (!pipe.empty()) d.pipe = pipe;
  const long long block = num(j, "block", -1);
  if (block >= 0 && block < 65536) d.block = static_cast<int>(block);
  if (d.file == expect.candidateFile && d.line > 0) {
    const int operand = static_cast<int>(num(j, "operand", -2));
    if (!api.empty() && operand >= -1) {
      const auto t =
          kwb_sim::rt::operandTextOf(&expect.candidateLines, static_cast<unsigned>(d.line), api, operand);
      if (!t.name.empty()) {
        d.tensor = t.name;
        if (t.text != t.name) d.notes.push_back("operand as written: " + t.text);
      }
    }
    d.excerpt = kwb_sim::rt::sourceLineOf(&expect.candidateLines, static_cast<unsigned>(d.line));
    // The finding's other lines (the DeQue that waits, ...), read like the main location: bounded, in the
    // candidate's name, never a path the record chose.
    const auto related = j.find("related");
    if (related != j.end() && related->is_array())
      for (const auto& r : *related) {
        if (d.related.size() >= kMaxRelatedPerDiag || !r.is_object()) break;
        const std::string role = str(r, "role");
        const std::string rfile = str(r, "file");
        const long long rline = num(r, "line", 0);
        if (role.empty() || role.size() > 200 || rline <= 0 || rline > 10000000) continue;
        d.related.push_back(RelatedLocation{
            role, baseName(rfile) == expect.candidateFile ? expect.candidateFile : baseName(rfile),
            static_cast<int>(rline)});
      }
    // An access outside its SetGlobalBuffer range: the loop bound or the unclamped length that made it is
    // the cause when our copy of the candidate says so (docs/emulator.md, "Cause lines").
    const auto range = j.find("gm_range");
    if (d.category == category::GmOutOfBounds && range != j.end() && range->is_object()) {
      GmRangeAccess a;
      a.first = range->value("first", -1LL);
      a.length = range->value("length", 0ULL);
      a.rangeBytes = range->value("range_bytes", 0ULL);
      a.write = range->value("write", false);
      placeGmOverrunAtCause(d, a, expect.candidateLines);
    }
    // A missing hand-off seen at a use inside a helper belongs after the helper's call.
    if (d.category == category::QueueMisuse) placeHandOffInOwner(d, expect.candidateLines);
  }
  return d;
}

std::vector<nlohmann::json> jsonLines(const std::string& text) {
  std::vector<nlohmann::json> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line) && out.size() < kMaxDiagLinesPerBlock) {
    if (line.empty()) continue;
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_object()) out.push_back(std::move(j));
  }
  return out;
}

struct Merged {
  Diagnostic d;
  std::vector<int> blocks;
};

void addMerged(std::vector<Merged>& merged, std::map<std::string, std::size_t>& index, Diagnostic d) {
  const std::string key =
      d.category + "|" + d.file + "|" + std::to_string(d.line) + "|" + (d.api ? *d.api : "");
  const int block = d.block ? *d.block : -1;
  if (auto it = index.find(key); it != index.end()) {
    auto& bs = merged[it->second].blocks;
    if (block >= 0 && std::find(bs.begin(), bs.end(), block) == bs.end()) bs.push_back(block);
    return;
  }
  index[key] = merged.size();
  merged.push_back(Merged{std::move(d), block >= 0 ? std::vector<int>{block} : std::vector<int>{}});
}

}  // namespace

bool TrustedLaunch::hasErrors() const {
  return std::any_of(diagnostics.begin(), diagnostics.end(), [](const Diagnostic& d) { return d.isError(); });
}

TrustedLaunch analyzeLaunchRecords(std::string_view records, const LaunchExpectation& expect) {
  TrustedLaunch r;
  Frames f;
  if (!splitFrames(records, f, r.diagnostics)) return r;
  if (!f.haveLaunch || !f.launch.is_object()) {
    r.diagnostics.push_back(
        error("runtime-crash",
              "the program ended without the emulator's launch records: the kernel launch never "
              "finished (the process exited, crashed or was stopped before ICPU_RUN_KF returned), or "
              "something removed the records"));
    return r;
  }
  const std::string kernel = str(f.launch, "kernel");
  const long long blockDim = num(f.launch, "blockDim", -1);
  if (kernel != expect.kernel || blockDim != static_cast<long long>(expect.blockDim)) {
    r.diagnostics.push_back(
        error("runtime-crash", "the launch records describe kernel '" + kernel + "' on " +
                                   std::to_string(blockDim) + " blocks, but the workbench launched '" +
                                   expect.kernel + "' on " + std::to_string(expect.blockDim)));
    return r;
  }

  // The tensor table: exactly the task's tensors, at their sizes, not overlapping.
  bool tableOk = f.haveTensors && f.tensors.is_array() && f.tensors.size() == expect.tensors.size();
  std::vector<std::pair<std::uint64_t, std::uint64_t>> spans;
  for (std::size_t k = 0; tableOk && k < expect.tensors.size(); ++k) {
    const auto& t = f.tensors[k];
    tableOk = t.is_object() && str(t, "name") == expect.tensors[k].name && t.contains("addr") &&
              t["addr"].is_number_unsigned() && t.contains("bytes") && t["bytes"].is_number_unsigned() &&
              t["bytes"].get<std::uint64_t>() == expect.tensors[k].bytes;
    if (!tableOk) break;
    const std::uint64_t addr = t["addr"].get<std::uint64_t>();
    r.tensorAddress[expect.tensors[k].name] = addr;
    spans.push_back({addr, addr + expect.tensors[k].bytes});
  }
  std::sort(spans.begin(), spans.end());
  for (std::size_t k = 1; tableOk && k < spans.size(); ++k) tableOk = spans[k].first >= spans[k - 1].second;
  if (!tableOk) {
    r.diagnostics.push_back(error("runtime-crash",
                                  "the run's tensor table does not match the task's tensors "
                                  "(names, sizes or non-overlapping GM buffers): the harness's "
                                  "records were altered"));
    return r;
  }

  // Blocks: outcome, diagnostics, trace.
  std::vector<Merged> merged;
  std::map<std::string, std::size_t> index;
  for (const auto& j : jsonLines(f.hostLines)) addMerged(merged, index, toDiagnostic(j, expect));
  const nlohmann::json blocks = f.launch.contains("blocks") && f.launch["blocks"].is_array()
                                    ? f.launch["blocks"]
                                    : nlohmann::json::array();
  r.trace.soc = expect.soc;
  r.trace.kernel = expect.kernel;
  r.trace.blockDim = expect.blockDim;
  // A mix kernel's block is 1 AIC + 1 or 2 AIV processes, each with its own records (frame index
  // block * coresPerBlock + slot, docs/emulator.md "Mixed AIC/AIV kernels"); anything else is forged.
  const long long perBlockClaim = num(f.launch, "coresPerBlock", 1);
  if (perBlockClaim < 1 || perBlockClaim > 3) {
    r.diagnostics.push_back(
        error("runtime-crash", "the launch records claim " + std::to_string(perBlockClaim) +
                                   " cores per block (1 to 3 exist): the records were altered"));
    return r;
  }
  const auto perBlock = static_cast<std::uint32_t>(perBlockClaim);
  const std::uint32_t units = expect.blockDim * perBlock;
  r.trace.coresPerBlock = perBlock;
  bool allComplete = blocks.size() == units;
  for (std::uint32_t u = 0; u < units; ++u) {
    const std::int32_t bi = static_cast<std::int32_t>(u);
    const std::uint32_t b = u / perBlock;
    bool blockError = false;
    for (const auto& j : jsonLines(f.diag.count(bi) ? f.diag[bi] : std::string())) {
      // A count of further occurrences of a finding already listed, not a finding of its own.
      if (j.contains("repeat")) continue;
      Diagnostic d = toDiagnostic(j, expect);
      d.block = static_cast<int>(b);
      blockError = blockError || d.isError();
      addMerged(merged, index, std::move(d));
    }
    const nlohmann::json outcome =
        u < blocks.size() && blocks[u].is_object() ? blocks[u] : nlohmann::json::object();
    const std::string status = str(outcome, "status");
    kwb_sim::BlockTrace bt;
    bt.block = static_cast<std::int32_t>(b);
    bt.core = perBlock == 1 ? 0 : (u % perBlock == 0 ? 1 : 2);
    bt.subBlock = static_cast<std::uint8_t>(perBlock == 1 || u % perBlock == 0 ? 0 : u % perBlock - 1);
    std::string traceError;
    const bool parsed = f.trace.count(bi) && kwb::sim::parseTrace(f.trace[bi], r.trace, bt, traceError);
    if (!parsed) bt.complete = false;
    if (status == "timeout") {
      Diagnostic d =
          error("timeout", "block " + std::to_string(b) + " did not finish within " +
                               std::to_string(num(outcome, "timeout_ms", 0)) +
                               " ms and was killed; on hardware it would hang or run far too long");
      d.source = "emulator";
      d.block = static_cast<int>(b);
      if (!bt.instrs.empty()) {
        const auto& last = bt.instrs.back();
        d.api = r.trace.str(last.api);
        d.file =
            baseName(r.trace.str(last.file)) == expect.candidateFile ? expect.candidateFile : std::string();
        d.line = d.file.empty() ? 0 : static_cast<int>(last.line);
        d.message += "; it was stuck after its last emulated API call, " + *d.api + " at the line given";
      }
      blockError = true;
      addMerged(merged, index, std::move(d));
    } else if (status != "ok" && !blockError) {
      Diagnostic d =
          error("runtime-crash",
                "block " + std::to_string(b) + " ended abnormally (" +
                    (status.empty() ? std::string("no outcome recorded") : status) +
                    (num(outcome, "signal", 0) ? ", signal " + std::to_string(num(outcome, "signal", 0))
                                               : std::string()) +
                    (status == "exited"
                         ? ", exit(" + std::to_string(num(outcome, "exit_code", 0)) + ") inside the kernel"
                         : std::string()) +
                    ")");
      d.source = "emulator";
      d.block = static_cast<int>(b);
      blockError = true;
      addMerged(merged, index, std::move(d));
    }
    if (!bt.complete && !blockError) {
      Diagnostic d =
          error("runtime-crash",
                "block " + std::to_string(b) + " ended without its end-of-kernel record: its trace is " +
                    (parsed ? "incomplete"
                            : "missing or malformed (" +
                                  (traceError.empty() ? std::string("absent") : traceError) + ")") +
                    ". The kernel left the emulator's control (an exit or jump out of the kernel, a "
                    "process that stopped early) or its records were altered; nothing it computed "
                    "can be trusted");
      d.source = "emulator";
      d.block = static_cast<int>(b);
      addMerged(merged, index, std::move(d));
    }
    allComplete = allComplete && bt.complete;
    r.trace.blocks.push_back(std::move(bt));
  }
  r.complete = allComplete;
  std::vector<nlohmann::json> overlap;
  kwb::sim::checkOverlap(r.trace, overlap);
  for (const auto& j : overlap) addMerged(merged, index, toDiagnostic(j, expect));
  for (Merged& m : merged) {
    std::sort(m.blocks.begin(), m.blocks.end());
    if (m.blocks.size() > 1)
      m.d.notes.push_back("reported by " + std::to_string(m.blocks.size()) + " of " +
                          std::to_string(expect.blockDim) + " blocks");
    r.diagnostics.push_back(std::move(m.d));
  }
  r.writes = kwb::sim::gmWrites(r.trace);

  // The cost model, on the SoC file the workbench chose.
  try {
    const kwb::sim::SocParams params = kwb::sim::loadSocParams(expect.socFile);
    kwb::sim::SimOptions opt;
    opt.autoSync = !f.launch.contains("autoSync") || !f.launch["autoSync"].is_boolean() ||
                   f.launch["autoSync"].get<bool>();
    const kwb::sim::Profile model = kwb::sim::simulate(params, r.trace, opt);
    r.profile = kwb::sim::profileToJson(model);
    r.profile["computed_by"] = "workbench (trusted side, from the run's raw records)";
    if (!expect.profileDir.empty()) {
      std::ofstream a(expect.profileDir / "PipeUtilization.csv");
      kwb::sim::writePipeUtilizationCsv(model, a);
      std::ofstream b(expect.profileDir / "OpBasicInfo.csv");
      kwb::sim::writeOpBasicInfoCsv(model, b);
      std::ofstream c(expect.profileDir / "code_hotspot.csv");
      kwb::sim::writeHotspotCsv(model, c);
      std::ofstream t(expect.profileDir / "trace.json");
      kwb::sim::writeChromeTrace(model, r.trace, t);
    }
  } catch (const std::exception& e) {
    r.profile = nlohmann::json{{"error", std::string("cost model unavailable: ") + e.what()}};
  }
  return r;
}

bool launchTraceFromRecords(std::string_view records, kwb_sim::LaunchTrace& trace, std::string& error) {
  Frames f;
  std::vector<Diagnostic> problems;
  if (!splitFrames(records, f, problems)) {
    error = problems.empty() ? std::string("malformed records") : problems.front().message;
    return false;
  }
  if (!f.haveLaunch || !f.launch.is_object()) {
    error = "the records hold no launch outcome: the kernel launch never finished";
    return false;
  }
  const long long blockDim = num(f.launch, "blockDim", -1);
  if (blockDim <= 0) {
    error = "the launch records give no block count";
    return false;
  }
  trace.soc = str(f.launch, "soc");
  trace.kernel = str(f.launch, "kernel");
  trace.blockDim = static_cast<std::uint32_t>(blockDim);
  const long long perBlock = num(f.launch, "coresPerBlock", 1);
  if (perBlock < 1 || perBlock > 3 || blockDim > 65535) {
    error = "the launch records claim an impossible launch shape";
    return false;
  }
  trace.coresPerBlock = static_cast<std::uint32_t>(perBlock);
  for (std::int32_t b = 0; b < static_cast<std::int32_t>(blockDim * perBlock); ++b) {
    kwb_sim::BlockTrace bt;
    bt.block = static_cast<std::int32_t>(b / perBlock);
    bt.core = perBlock == 1 ? 0 : (b % perBlock == 0 ? 1 : 2);
    bt.subBlock = static_cast<std::uint8_t>(perBlock == 1 || b % perBlock == 0 ? 0 : b % perBlock - 1);
    std::string traceError;
    if (!f.trace.count(b) || !kwb::sim::parseTrace(f.trace[b], trace, bt, traceError) || !bt.complete) {
      error = "process " + std::to_string(b) + " left no complete trace" +
              (traceError.empty() ? std::string() : " (" + traceError + ")");
      return false;
    }
    trace.blocks.push_back(std::move(bt));
  }
  return true;
}

std::vector<Diagnostic> checkProvenance(const std::string& tensor, std::uint64_t address,
                                        const std::vector<std::uint8_t>& before,
                                        const std::vector<std::uint8_t>& after,
                                        const std::vector<sim::GmRange>& writes, const std::string& file) {
  std::vector<Diagnostic> out;
  const std::size_t n = std::min(before.size(), after.size());
  std::uint64_t unaccounted = 0, first = 0;
  auto w = writes.begin();
  for (std::size_t k = 0; k < n; ++k) {
    if (before[k] == after[k]) continue;
    const std::uint64_t a = address + k;
    while (w != writes.end() && w->hi <= a) ++w;
    if (w != writes.end() && w->lo <= a) continue;
    if (unaccounted++ == 0) first = k;
  }
  if (unaccounted > 0) {
    Diagnostic d =
        error("runtime-crash",
              std::to_string(unaccounted) + " byte(s) of output " + tensor + " changed (first at byte " +
                  std::to_string(first) +
                  ") without any recorded write to them: the kernel's output "
                  "must come from emulated writes (DataCopy/DataCopyPad, SetValue, or stores the "
                  "emulator sees). Bytes written by host code, after the launch, or through memory the "
                  "emulator cannot see are not the kernel's result",
              file);
    d.tensor = tensor;
    out.push_back(std::move(d));
  }
  return out;
}

std::vector<Diagnostic> checkInputsUnwritten(const std::string& tensor, std::uint64_t address,
                                             std::uint64_t bytes, const std::vector<sim::GmRange>& writes,
                                             const std::string& file) {
  std::vector<Diagnostic> out;
  for (const auto& w : writes) {
    if (w.hi <= address || w.lo >= address + bytes) continue;
    const std::uint64_t lo = std::max(w.lo, address) - address,
                        hi = std::min(w.hi, address + bytes) - address;
    Diagnostic d = error("wrong-answer",
                         "the kernel wrote input " + tensor + " (bytes [" + std::to_string(lo) + ", " +
                             std::to_string(hi) + ")); inputs are read-only",
                         file);
    d.tensor = tensor;
    out.push_back(std::move(d));
    break;
  }
  return out;
}

std::vector<std::vector<sim::GmRange>> tensorWritesByBlock(const kwb_sim::LaunchTrace& trace,
                                                           std::uint64_t address, std::uint64_t bytes) {
  const auto perBlock = sim::gmWritesByBlock(trace);
  std::size_t blocks = trace.blockDim;
  for (const auto& bt : trace.blocks)
    if (bt.block >= 0) blocks = std::max(blocks, static_cast<std::size_t>(bt.block) + 1);
  std::vector<std::vector<sim::GmRange>> out(std::min<std::size_t>(blocks, 65536));
  for (std::size_t k = 0; k < trace.blocks.size() && k < perBlock.size(); ++k) {
    const auto b = static_cast<std::size_t>(trace.blocks[k].block);
    if (trace.blocks[k].block < 0 || b >= out.size()) continue;
    for (const auto& w : perBlock[k]) {
      if (w.hi <= address || w.lo >= address + bytes) continue;
      out[b].push_back({std::max(w.lo, address) - address, std::min(w.hi, address + bytes) - address});
    }
  }
  return out;
}

int tensorRangeSetLine(const kwb_sim::LaunchTrace& trace, std::uint64_t address, std::uint64_t bytes,
                       const std::string& file) {
  int line = 0;
  for (const auto& bt : trace.blocks)
    for (const auto& i : bt.instrs) {
      if (i.dstSpace != kwb_sim::MemSpace::GM || i.bytes == 0 || i.sync != kwb_sim::SyncKind::None) continue;
      // The extent of every burst: a strided copy's first byte may lie before the tensor.
      const std::uint64_t bursts = i.pipe == kwb_sim::Pipe::S || i.burstCount == 0 ? 1 : i.burstCount;
      const std::uint64_t hi = i.pipe == kwb_sim::Pipe::S ? i.gmAddr + i.bytes * i.times
                                                          : i.gmAddr + (bursts - 1) * i.gmStride + i.burstLen;
      if (i.gmAddr >= address + bytes || hi <= address) continue;
      if (i.gmSetLine == 0 || baseName(trace.str(i.gmSetFile)) != file) return 0;
      const int l = static_cast<int>(i.gmSetLine);
      if (line != 0 && l != line) return 0;
      line = l;
    }
  return line;
}

}  // namespace kwb
