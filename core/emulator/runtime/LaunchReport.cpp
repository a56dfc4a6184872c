#include "LaunchReport.h"

#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "BlockContext.h"
#include "SourceText.h"
#include "core/emulator/costmodel/CostModel.h"
#include "core/model/Diagnostic.h"

// `kwb sim build` links the text of resources/soc/<SoC>.json into the program under this name.
extern "C" __attribute__((weak)) const char kwb_sim_soc_json[];

namespace kwb_sim::rt {

namespace {
struct Totals {
  std::vector<kwb::Diagnostic> diags;
  nlohmann::json profile;  // of the last launch
  std::uint32_t blocks = 0;
  int errors = 0;
  bool untrusted = false;
  nlohmann::json launches = nlohmann::json::array();
};
Totals& totals() {
  static Totals t;
  return t;
}
std::vector<std::string>& pendingParentLines() {
  static std::vector<std::string> v;
  return v;
}

std::vector<nlohmann::json> readJsonLines(const std::string& path) {
  std::vector<nlohmann::json> out;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    try {
      out.push_back(nlohmann::json::parse(line));
    } catch (...) {
    }
  }
  return out;
}

bool readTrace(const std::string& path, LaunchTrace& lt, BlockTrace& bt) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::uint64_t header[4];
  if (!in.read(reinterpret_cast<char*>(header), sizeof(header)) || header[0] != 0x4b57425452414345ull) return false;
  const std::uint64_t n = header[1], nStrings = header[3] >> 1;
  bt.dropped = header[2];
  bt.complete = (header[3] & 1u) != 0;
  std::vector<std::uint32_t> remap(nStrings);
  for (std::uint64_t i = 0; i < nStrings; ++i) {
    std::uint32_t len = 0;
    in.read(reinterpret_cast<char*>(&len), sizeof(len));
    std::string s(len, '\0');
    in.read(s.data(), len);
    auto it = std::find(lt.strings.begin(), lt.strings.end(), s);
    remap[i] = static_cast<std::uint32_t>(it - lt.strings.begin());
    if (it == lt.strings.end()) lt.strings.push_back(std::move(s));
  }
  bt.instrs.resize(n);
  if (n && !in.read(reinterpret_cast<char*>(bt.instrs.data()), static_cast<std::streamsize>(n * sizeof(Instr)))) {
    bt.instrs.resize(static_cast<std::size_t>(in.gcount() / static_cast<std::streamsize>(sizeof(Instr))));
    bt.complete = false;
  }
  for (Instr& i : bt.instrs) {
    i.api = i.api < remap.size() ? remap[i.api] : 0;
    i.file = i.file < remap.size() ? remap[i.file] : 0;
  }
  return true;
}

kwb::Diagnostic toDiag(const nlohmann::json& j) {
  kwb::Diagnostic d;
  d.source = "emulator";
  const std::string sev = j.value("severity", "error");
  d.severity = sev == "note" ? kwb::Severity::Note : (sev == "warning" ? kwb::Severity::Warning : kwb::Severity::Error);
  d.category = j.value("category", "");
  if (d.category == "note") d.category.clear();
  d.file = j.value("file", "");
  d.line = j.value("line", 0);
  d.message = j.value("message", "");
  const std::string api = j.value("api", "");
  if (!api.empty()) d.api = api;
  const std::string pipe = j.value("pipe", "");
  if (!pipe.empty()) d.pipe = pipe;
  const long long block = j.value("block", -1LL);
  if (block >= 0) d.block = static_cast<int>(block);
  const int operand = j.value("operand", -2);
  if (!d.file.empty() && d.line > 0 && !api.empty() && operand >= -1) {
    const OperandText t = operandText(d.file, static_cast<unsigned>(d.line), api, operand);
    if (!t.name.empty()) {
      d.tensor = t.name;
      if (t.text != t.name) d.notes.push_back("operand as written: " + t.text);
    }
  }
  if (!d.file.empty() && d.line > 0) d.excerpt = sourceLine(d.file, static_cast<unsigned>(d.line));
  return d;
}

std::string blockList(const std::vector<int>& blocks) {
  std::string s;
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    std::size_t j = i;
    while (j + 1 < blocks.size() && blocks[j + 1] == blocks[j] + 1) ++j;
    if (!s.empty()) s += ", ";
    s += std::to_string(blocks[i]);
    if (j > i) s += "-" + std::to_string(blocks[j]);
    i = j;
  }
  return s;
}

struct GmWrite {
  std::uint64_t lo, hi;
  std::int32_t block;
  std::uint32_t instr;
  bool atomic;  // a UB->GM copy under SetAtomicAdd/Max/Min
};

// Two blocks writing the same GM bytes in one launch. Atomic accumulations (SetAtomic*) from different
// blocks into the same bytes are the point of atomics and do not conflict with each other; a plain write
// overlapping another block's plain or atomic write does.
void checkOverlap(const LaunchTrace& lt, std::vector<nlohmann::json>& out) {
  std::vector<GmWrite> ws;
  for (const BlockTrace& bt : lt.blocks) {
    std::vector<GmWrite> mine;
    for (std::uint32_t k = 0; k < bt.instrs.size(); ++k) {
      const Instr& i = bt.instrs[k];
      if (i.dstSpace != MemSpace::GM || i.bytes == 0 || i.sync != SyncKind::None) continue;
      if (i.pipe == Pipe::S) {
        mine.push_back({i.gmAddr, i.gmAddr + i.bytes * i.times, bt.block, k, false});
        continue;
      }
      const std::uint32_t bursts = i.burstCount ? i.burstCount : 1;
      for (std::uint32_t b = 0; b < bursts; ++b) {
        const std::uint64_t lo = i.gmAddr + b * i.gmStride;
        mine.push_back({lo, lo + i.burstLen, bt.block, k, i.atomic != AtomicOp::None});
      }
    }
    std::sort(mine.begin(), mine.end(), [](const GmWrite& a, const GmWrite& b) { return a.lo < b.lo; });
    for (const GmWrite& w : mine) {
      if (!ws.empty() && ws.back().block == w.block && ws.back().atomic == w.atomic && w.lo <= ws.back().hi) {
        ws.back().hi = std::max(ws.back().hi, w.hi);
        continue;
      }
      ws.push_back(w);
    }
  }
  std::sort(ws.begin(), ws.end(), [](const GmWrite& a, const GmWrite& b) { return a.lo < b.lo; });
  std::map<std::pair<std::string, std::string>, bool> seen;
  // The plain and the atomic interval reaching furthest so far (npos: none yet).
  constexpr std::size_t npos = static_cast<std::size_t>(-1);
  std::size_t activePlain = npos, activeAtomic = npos;
  for (std::size_t k = 0; k < ws.size(); ++k) {
    const GmWrite& b = ws[k];
    std::size_t other = npos;
    if (activePlain != npos && b.lo < ws[activePlain].hi && ws[activePlain].block != b.block) other = activePlain;
    else if (!b.atomic && activeAtomic != npos && b.lo < ws[activeAtomic].hi && ws[activeAtomic].block != b.block)
      other = activeAtomic;
    std::size_t& active = b.atomic ? activeAtomic : activePlain;
    if (other != npos) {
      const GmWrite& a = ws[other];
      const Instr& ia = lt.blocks[a.block].instrs[a.instr];
      const Instr& ib = lt.blocks[b.block].instrs[b.instr];
      const std::string siteA = lt.str(ia.file) + ":" + std::to_string(ia.line);
      const std::string siteB = lt.str(ib.file) + ":" + std::to_string(ib.line);
      if (!seen[{siteA, siteB}] && seen.size() < 8) {
        seen[{siteA, siteB}] = true;
        const std::uint64_t hi = std::min(a.hi, b.hi);
        char addr[64];
        std::snprintf(addr, sizeof(addr), "0x%llx", static_cast<unsigned long long>(b.lo));
        nlohmann::json j{{"category", "multicore-overlap"}, {"severity", "error"}, {"api", lt.str(ib.api)},
                         {"file", lt.str(ib.file)}, {"line", ib.line}, {"pipe", pipeName(ib.pipe)},
                         {"operand", 0}, {"block", b.block},
                         {"message", "blocks " + std::to_string(a.block) + " and " + std::to_string(b.block) +
                                         " both write GM bytes [" + addr + ", +" + std::to_string(hi - b.lo) +
                                         ") in one launch (block " + std::to_string(a.block) + " at " + siteA + " (" +
                                         lt.str(ia.api) + "), block " + std::to_string(b.block) + " at " + siteB +
                                         "); the final value depends on which core finishes last. Give each block "
                                         "its own GM range (offset by GetBlockIdx())" +
                                         (a.atomic || b.atomic
                                              ? std::string(", or make every block's write to these bytes an atomic "
                                                            "accumulation (SetAtomicAdd/Max/Min): a plain write "
                                                            "overwrites whatever the other block accumulated")
                                              : std::string())}};
        out.push_back(j);
      }
    }
    if (active == npos || b.hi > ws[active].hi) active = k;
  }
}

nlohmann::json runCostModel(const LaunchTrace& lt, bool autoSync, std::string& error, kwb::sim::Profile* keep) {
  try {
    kwb::sim::SocParams params;
    if (&kwb_sim_soc_json != nullptr && kwb_sim_soc_json[0]) {
      params = kwb::sim::parseSocParams(kwb_sim_soc_json, "embedded:" + lt.soc);
    } else {
      const char* dir = std::getenv("KWB_SIM_SOC_DIR");
      params = kwb::sim::loadSocParams(std::string(dir && *dir ? dir : KWB_SIM_DEFAULT_SOC_DIR) + "/" + lt.soc + ".json");
    }
    kwb::sim::SimOptions opt;
    opt.autoSync = autoSync;
    *keep = kwb::sim::simulate(params, lt, opt);
    return kwb::sim::profileToJson(*keep);
  } catch (const std::exception& e) {
    error = e.what();
  }
  return nlohmann::json();
}

void writeProfileFiles(const kwb::sim::Profile& p, const LaunchTrace& lt, const std::string& reportPath) {
  std::string dir;
  if (const char* d = std::getenv("KWB_SIM_PROFILE_DIR"); d && *d) dir = d;
  else if (!reportPath.empty()) {
    const auto slash = reportPath.rfind('/');
    dir = slash == std::string::npos ? "." : reportPath.substr(0, slash);
  }
  if (dir.empty()) return;
  std::ofstream a(dir + "/PipeUtilization.csv");
  kwb::sim::writePipeUtilizationCsv(p, a);
  std::ofstream b(dir + "/OpBasicInfo.csv");
  kwb::sim::writeOpBasicInfoCsv(p, b);
  std::ofstream c(dir + "/code_hotspot.csv");
  kwb::sim::writeHotspotCsv(p, c);
  std::ofstream t(dir + "/trace.json");
  kwb::sim::writeChromeTrace(p, lt, t);
}

// The shared Diagnostic's JSON shape (core/model/Diagnostic.cpp to_json), written here so that user
// programs do not link kwb_core; tests/core/EmulatorReportTest reads it back with kwb::from_json.
nlohmann::json diagToJson(const kwb::Diagnostic& d) {
  nlohmann::json j{{"source", d.source},     {"severity", d.severity == kwb::Severity::Note ? "note" : d.severity == kwb::Severity::Warning ? "warning" : d.severity == kwb::Severity::Fatal ? "fatal" : "error"},
                   {"category", d.category}, {"file", d.file},
                   {"line", d.line},         {"column", d.column},
                   {"message", d.message}};
  if (d.api) j["api"] = *d.api;
  if (d.tensor) j["tensor"] = *d.tensor;
  if (d.block) j["block"] = *d.block;
  if (d.pipe) j["pipe"] = *d.pipe;
  if (!d.notes.empty()) j["notes"] = d.notes;
  if (!d.excerpt.empty()) j["excerpt"] = d.excerpt;
  return j;
}

void writeReport(const std::string& path) {
  Totals& t = totals();
  nlohmann::json j;
  j["status"] = t.errors > 0 ? "error" : "ok";
  j["blocks"] = t.blocks;
  j["diagnostics"] = nlohmann::json::array();
  for (const kwb::Diagnostic& d : t.diags) j["diagnostics"].push_back(diagToJson(d));
  j["profile"] = t.profile.is_null() ? nlohmann::json::object() : t.profile;
  j["untrusted"] = t.untrusted;
  j["launches"] = t.launches;
  const std::string tmp = path + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(tmp);
    out << j.dump(2) << "\n";
  }
  std::rename(tmp.c_str(), path.c_str());
}

void removeDir(const std::string& dir) {
  if (dir.empty()) return;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (dirent* e = ::readdir(d)) {
      const std::string n = e->d_name;
      if (n != "." && n != "..") ::unlink((dir + "/" + n).c_str());
    }
    ::closedir(d);
  }
  ::rmdir(dir.c_str());
}
}  // namespace

int launchErrorCount() { return totals().errors; }
void addParentLine(const std::string& line) { pendingParentLines().push_back(line); }

void finishLaunch(LaunchResult& res) {
  Totals& tot = totals();
  LaunchTrace lt;
  lt.soc = soc().name;
  lt.kernel = res.kernel;
  lt.blockDim = res.blockDim;
  std::vector<std::vector<nlohmann::json>> perBlock(res.blocks.size());
  std::vector<nlohmann::json> global;
  for (auto& l : pendingParentLines()) global.push_back(nlohmann::json::parse(l));
  pendingParentLines().clear();
  for (auto& l : res.parentLines) global.push_back(nlohmann::json::parse(l));
  bool untrusted = false;
  for (std::uint32_t b = 0; b < res.blocks.size(); ++b) {
    const std::string base = res.workDir + "/b" + std::to_string(b);
    perBlock[b] = readJsonLines(base + ".diag");
    BlockTrace bt;
    bt.block = static_cast<std::int32_t>(b);
    if (!readTrace(base + ".trace", lt, bt)) bt.complete = false;
    const BlockResult& br = res.blocks[b];
    const bool hasCrashLine = std::any_of(perBlock[b].begin(), perBlock[b].end(), [](const nlohmann::json& j) {
      return j.value("category", "") == "runtime-crash";
    });
    std::string what;
    if (br.status == BlockStatus::TimedOut) {
      what = "timeout";
      const bool any = !bt.instrs.empty();
      perBlock[b].push_back({{"category", "timeout"}, {"severity", "error"},
                             {"api", any ? lt.str(bt.instrs.back().api) : ""},
                             {"file", any ? lt.str(bt.instrs.back().file) : ""},
                             {"line", any ? bt.instrs.back().line : 0},
                             {"operand", -2}, {"block", b},
                             {"message", "block " + std::to_string(b) + " did not finish within " +
                                             std::to_string(br.timeoutMs) +
                                             " ms (KWB_SIM_BLOCK_TIMEOUT_MS) and was killed; on hardware it would "
                                             "hang or run far too long. " +
                                             (any ? "It was stuck after its last emulated API call, " +
                                                        lt.str(bt.instrs.back().api) + " at the line given "
                                                        "(e.g. a loop spinning on GM or scalar data)"
                                                  : std::string("It made no emulated API call before hanging"))}});
      bt.complete = false;
    } else if (br.status == BlockStatus::Crashed && !hasCrashLine) {
      what = "crash";
      perBlock[b].push_back({{"category", "runtime-crash"}, {"severity", "error"}, {"api", ""}, {"file", ""},
                             {"line", 0}, {"operand", -2}, {"block", b},
                             {"message", "block " + std::to_string(b) + " died with " + br.signalName + " (signal " +
                                             std::to_string(br.signal) + ")"}});
    } else if (br.status == BlockStatus::ExitedNonZero) {
      perBlock[b].push_back({{"category", "runtime-crash"}, {"severity", "error"}, {"api", ""}, {"file", ""},
                             {"line", 0}, {"operand", -2}, {"block", b},
                             {"message", "block " + std::to_string(b) + " called exit(" + std::to_string(br.exitCode) +
                                             ") inside the kernel"}});
    } else if (br.status == BlockStatus::ForkFailed) {
      perBlock[b].push_back({{"category", "runtime-crash"}, {"severity", "error"}, {"api", ""}, {"file", ""},
                             {"line", 0}, {"operand", -2}, {"block", b},
                             {"message", "could not start a process for block " + std::to_string(b)}});
    }
    if (br.status == BlockStatus::Crashed || br.status == BlockStatus::TimedOut ||
        br.status == BlockStatus::ExitedNonZero || br.status == BlockStatus::ForkFailed)
      untrusted = true;
    lt.blocks.push_back(std::move(bt));
  }
  checkOverlap(lt, global);

  // Merge: one diagnostic per (category, file, line, api), first block kept, the others listed.
  struct Merged {
    kwb::Diagnostic d;
    std::vector<int> blocks;
    std::uint64_t extra = 0;
  };
  std::vector<Merged> merged;
  std::map<std::string, std::size_t> index;
  auto add = [&](const nlohmann::json& j) {
    if (j.contains("repeat")) {
      const std::string key = j.value("category", "") + "|" + j.value("file", "") + "|" +
                              std::to_string(j.value("line", 0));
      for (auto& [k, i] : index)
        if (k.rfind(key + "|", 0) == 0) merged[i].extra += j.value("repeat", 0ull) - 1;
      return;
    }
    const std::string key = j.value("category", "") + "|" + j.value("file", "") + "|" +
                            std::to_string(j.value("line", 0)) + "|" + j.value("api", "");
    const int block = static_cast<int>(j.value("block", -1LL));
    auto it = index.find(key);
    if (it != index.end()) {
      if (block >= 0 && std::find(merged[it->second].blocks.begin(), merged[it->second].blocks.end(), block) ==
                            merged[it->second].blocks.end())
        merged[it->second].blocks.push_back(block);
      return;
    }
    index[key] = merged.size();
    merged.push_back(Merged{toDiag(j), block >= 0 ? std::vector<int>{block} : std::vector<int>{}, 0});
  };
  for (const auto& j : global) add(j);
  for (const auto& v : perBlock)
    for (const auto& j : v) add(j);
  int errors = 0;
  for (Merged& m : merged) {
    std::sort(m.blocks.begin(), m.blocks.end());
    if (m.blocks.size() > 1)
      m.d.notes.push_back("reported by " + std::to_string(m.blocks.size()) + " of " + std::to_string(res.blockDim) +
                          " blocks: " + blockList(m.blocks));
    if (m.extra > 0) m.d.notes.push_back("repeated " + std::to_string(m.extra) + " more time(s) at this line");
    if (untrusted && (m.d.category == "runtime-crash" || m.d.category == "timeout"))
      m.d.notes.push_back("the other blocks' output of this launch is not trustworthy: they share GM with the "
                          "failed block");
    if (m.d.isError()) ++errors;
  }

  // Cost model.
  std::string cmError;
  kwb::sim::Profile prof;
  // KWB_SIM_COST_MODEL=off skips the model (the benchmark measures its overhead this way).
  const char* cmSwitch = std::getenv("KWB_SIM_COST_MODEL");
  const bool costModelOn = !(cmSwitch && std::string(cmSwitch) == "off");
  nlohmann::json profile = costModelOn ? runCostModel(lt, res.autoSync, cmError, &prof) : nlohmann::json();
  if (!costModelOn) cmError = "switched off by KWB_SIM_COST_MODEL=off";
  const char* reportPath = std::getenv("KWB_SIM_REPORT");
  if (!profile.is_null()) {
    try {
      writeProfileFiles(prof, lt, reportPath ? reportPath : "");
    } catch (...) {
    }
  } else {
    profile = nlohmann::json{{"error", "cost model unavailable: " + cmError}};
  }

  // stderr, CANN style.
  for (const Merged& m : merged) {
    const char* level = m.d.isError() ? "ERROR" : "INFO";
    std::string blk = m.d.block ? "[Block_" + std::to_string(*m.d.block) + "]" : std::string("[kwb-sim]");
    std::fprintf(stderr, "[%s]%s %s:%d: [%s] %s%s%s\n", level, blk.c_str(), m.d.file.c_str(), m.d.line,
                 m.d.category.empty() ? "note" : m.d.category.c_str(), m.d.api ? (*m.d.api + ": ").c_str() : "",
                 m.d.message.c_str(), m.d.tensor ? (" [tensor " + *m.d.tensor + "]").c_str() : "");
    for (const std::string& n : m.d.notes) std::fprintf(stderr, "    note: %s\n", n.c_str());
  }
  std::fflush(stderr);

  for (Merged& m : merged) tot.diags.push_back(std::move(m.d));
  tot.errors += errors;
  tot.blocks = res.blockDim;
  tot.untrusted = tot.untrusted || untrusted;
  tot.profile = profile;
  nlohmann::json launch{{"kernel", res.kernel}, {"blockDim", res.blockDim}, {"soc", lt.soc},
                        {"autoSync", res.autoSync}, {"errors", errors}};
  nlohmann::json blocks = nlohmann::json::array();
  for (std::uint32_t b = 0; b < res.blocks.size(); ++b) {
    static const char* names[] = {"ok", "aborted", "crashed", "timeout", "exited", "fork-failed"};
    blocks.push_back({{"block", b}, {"status", names[static_cast<int>(res.blocks[b].status)]},
                      {"wall_ms", res.blocks[b].elapsedMs}, {"instructions", lt.blocks[b].instrs.size()}});
  }
  launch["block_status"] = blocks;
  tot.launches.push_back(launch);
  if (reportPath && *reportPath) writeReport(reportPath);
  removeDir(res.workDir);
}

}  // namespace kwb_sim::rt
