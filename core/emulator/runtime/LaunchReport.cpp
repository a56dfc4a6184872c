// SPDX-License-Identifier: MIT
#include "LaunchReport.h"
#include "KernelType.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "BlockContext.h"
#include "core/emulator/analysis/LaunchAnalysis.h"
#include "core/emulator/analysis/SourceText.h"
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

// The whole file in one allocation and one read loop ("" when missing): a stream copied into a
// stringstream grew and copied each 100 KiB trace several times (docs/emulator.md, "Speed").
std::string readBytes(const std::string& path) {
  std::string out;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return out;
  struct stat st {};
  if (::fstat(fd, &st) == 0 && st.st_size > 0) out.resize(static_cast<std::size_t>(st.st_size));
  std::size_t done = 0;
  for (;;) {
    if (done < out.size()) {
      const ssize_t n = ::read(fd, out.data() + done, out.size() - done);
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
      continue;
    }
    char more[4096];  // past the size fstat gave (or not a regular file)
    const ssize_t n = ::read(fd, more, sizeof(more));
    if (n <= 0) break;
    out.append(more, static_cast<std::size_t>(n));
    done = out.size();
  }
  ::close(fd);
  out.resize(done);
  return out;
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
  std::string error;
  return kwb::sim::parseTrace(readBytes(path), lt, bt, error);
}

// The source line of an instruction of this program (a raw access's, offset from the executable's load
// address) from its debug information: addr2line, when the system has it. False when it cannot say.
bool sourceLineOfPc(const std::string& object, unsigned long long pc, std::string& file, int& line) {
  // The object's path goes to the shell quoted; one with a quote in it is not looked up.
  if (object.find('\'') != std::string::npos) return false;
  const std::string target = object.empty() ? "/proc/" + std::to_string(::getpid()) + "/exe" : object;
  char addr[32];
  std::snprintf(addr, sizeof(addr), "0x%llx", pc);
  const std::string cmd = "addr2line -e '" + target + "' " + addr + " 2>/dev/null";
  FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) return false;
  char buf[4096] = {};
  const bool got = std::fgets(buf, sizeof(buf), p) != nullptr;
  ::pclose(p);
  if (!got) return false;
  std::string text(buf);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  if (const std::size_t d = text.find(" (discriminator"); d != std::string::npos) text.resize(d);
  const std::size_t colon = text.rfind(':');
  if (colon == std::string::npos || text.compare(0, 2, "??") == 0) return false;
  const int n = std::atoi(text.c_str() + colon + 1);
  if (n <= 0) return false;
  file = text.substr(0, colon);
  line = n;
  return true;
}

kwb::Diagnostic toDiag(const nlohmann::json& j) {
  kwb::Diagnostic d;
  d.source = "emulator";
  const std::string sev = j.value("severity", "error");
  d.severity = sev == "note" ? kwb::Severity::Note
                             : (sev == "warning" ? kwb::Severity::Warning : kwb::Severity::Error);
  d.category = j.value("category", "");
  if (d.category == "note") d.category.clear();
  d.file = j.value("file", "");
  d.line = j.value("line", 0);
  d.message = j.value("message", "");
  // A raw access before any emulated API call has no line of its own: the instruction's, from the
  // program's debug information.
  if (d.file.empty() && j.value("pc", 0ULL) != 0) {
    std::string file;
    int line = 0;
    if (sourceLineOfPc(j.value("object", std::string()), j.value("pc", 0ULL), file, line)) {
      d.file = file;
      d.line = line;
    }
  }
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
  // The symptom's lines when the finding sits at its cause (docs/emulator.md, "Cause lines").
  if (const auto it = j.find("related"); it != j.end() && it->is_array())
    for (const auto& r : *it)
      if (r.is_object() && r.value("line", 0) > 0)
        d.related.push_back(
            {r.value("role", std::string()), r.value("file", std::string()), r.value("line", 0)});
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

nlohmann::json runCostModel(const LaunchTrace& lt, bool autoSync, std::string& error,
                            kwb::sim::Profile* keep) {
  try {
    kwb::sim::SocParams params;
    if (&kwb_sim_soc_json != nullptr && kwb_sim_soc_json[0]) {
      params = kwb::sim::parseSocParams(kwb_sim_soc_json, "embedded:" + lt.soc);
    } else {
      const char* dir = std::getenv("KWB_SIM_SOC_DIR");
      params = kwb::sim::loadSocParams(std::string(dir && *dir ? dir : KWB_SIM_DEFAULT_SOC_DIR) + "/" +
                                       lt.soc + ".json");
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
  if (const char* d = std::getenv("KWB_SIM_PROFILE_DIR"); d && *d)
    dir = d;
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
// programs do not link kwb_core; tests/core/SimBuilderTest.cpp reads it back with kwb::from_json.
nlohmann::json diagToJson(const kwb::Diagnostic& d) {
  nlohmann::json j{{"source", d.source},
                   {"severity", d.severity == kwb::Severity::Note      ? "note"
                                : d.severity == kwb::Severity::Warning ? "warning"
                                : d.severity == kwb::Severity::Fatal   ? "fatal"
                                                                       : "error"},
                   {"category", d.category},
                   {"file", d.file},
                   {"line", d.line},
                   {"column", d.column},
                   {"message", d.message}};
  if (d.api) j["api"] = *d.api;
  if (d.tensor) j["tensor"] = *d.tensor;
  if (d.block) j["block"] = *d.block;
  if (d.pipe) j["pipe"] = *d.pipe;
  if (!d.notes.empty()) j["notes"] = d.notes;
  if (!d.excerpt.empty()) j["excerpt"] = d.excerpt;
  if (!d.related.empty()) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& r : d.related) list.push_back({{"role", r.role}, {"file", r.file}, {"line", r.line}});
    j["related"] = list;
  }
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
      if (n == "." || n == "..") continue;
      std::string path = dir;
      path += '/';
      path += n;
      ::unlink(path.c_str());
    }
    ::closedir(d);
  }
  ::rmdir(dir.c_str());
}
}  // namespace

int launchErrorCount() {
  return totals().errors;
}
void addParentLine(const std::string& line) {
  pendingParentLines().push_back(line);
}

void finishLaunch(LaunchResult& res) {
  Totals& tot = totals();
  LaunchTrace lt;
  lt.soc = soc().name;
  lt.kernel = res.kernel;
  lt.blockDim = res.blockDim;
  lt.coresPerBlock = res.coresPerBlock;
  std::vector<std::vector<nlohmann::json>> perBlock(res.blocks.size());
  std::vector<nlohmann::json> global;
  const bool keepRecords = recordsEnabled();
  std::string hostLines;
  for (auto& l : pendingParentLines()) {
    global.push_back(nlohmann::json::parse(l));
    hostLines += l + "\n";
  }
  pendingParentLines().clear();
  for (auto& l : res.parentLines) {
    global.push_back(nlohmann::json::parse(l));
    hostLines += l + "\n";
  }
  if (keepRecords) {
    appendRecordFrame(records::FrameKind::HostDiagnostics, -1, hostLines);
    appendTensorFrame();
  }
  bool untrusted = false;
  for (std::uint32_t b = 0; b < res.blocks.size(); ++b) {
    const std::string base = res.workDir + "/b" + std::to_string(b);
    perBlock[b] = readJsonLines(base + ".diag");
    if (keepRecords) {
      appendRecordFrame(records::FrameKind::BlockDiagnostics, static_cast<std::int32_t>(b),
                        readBytes(base + ".diag"));
      appendRecordFrame(records::FrameKind::BlockTrace, static_cast<std::int32_t>(b),
                        readBytes(base + ".trace"));
    }
    BlockTrace bt;
    // A mix kernel's processes: block b / coresPerBlock, slot 0 its AIC (docs/emulator.md).
    const std::uint32_t per = std::max<std::uint32_t>(1, res.coresPerBlock);
    bt.block = static_cast<std::int32_t>(b / per);
    bt.core = per == 1 ? 0 : (b % per == 0 ? 1 : 2);
    bt.subBlock = static_cast<std::uint8_t>(per == 1 || b % per == 0 ? 0 : b % per - 1);
    const std::string who = per == 1 ? "block " + std::to_string(b)
                                     : "block " + std::to_string(b / per) +
                                           (b % per == 0 ? " AIC" : " AIV " + std::to_string(b % per - 1));
    if (!readTrace(base + ".trace", lt, bt)) bt.complete = false;
    const BlockResult& br = res.blocks[b];
    const bool hasCrashLine =
        std::any_of(perBlock[b].begin(), perBlock[b].end(),
                    [](const nlohmann::json& j) { return j.value("category", "") == "runtime-crash"; });
    std::string what;
    if (br.status == BlockStatus::TimedOut) {
      what = "timeout";
      const bool any = !bt.instrs.empty();
      perBlock[b].push_back(
          {{"category", "timeout"},
           {"severity", "error"},
           {"api", any ? lt.str(bt.instrs.back().api) : ""},
           {"file", any ? lt.str(bt.instrs.back().file) : ""},
           {"line", any ? bt.instrs.back().line : 0},
           {"operand", -2},
           {"block", bt.block},
           {"message",
            who + " did not finish within " + std::to_string(br.timeoutMs) +
                " ms (KWB_SIM_BLOCK_TIMEOUT_MS) and was killed; on hardware it would "
                "hang or run far too long. " +
                (any ? "It was stuck after its last emulated API call, " + lt.str(bt.instrs.back().api) +
                           " at the line given "
                           "(e.g. a loop spinning on GM or scalar data)"
                     : std::string("It made no emulated API call before hanging"))}});
      bt.complete = false;
    } else if (br.status == BlockStatus::Crashed && !hasCrashLine) {
      what = "crash";
      perBlock[b].push_back(
          {{"category", "runtime-crash"},
           {"severity", "error"},
           {"api", ""},
           {"file", ""},
           {"line", 0},
           {"operand", -2},
           {"block", bt.block},
           {"message", who + " died with " + br.signalName + " (signal " + std::to_string(br.signal) + ")"}});
    } else if (br.status == BlockStatus::ExitedNonZero) {
      perBlock[b].push_back(
          {{"category", "runtime-crash"},
           {"severity", "error"},
           {"api", ""},
           {"file", ""},
           {"line", 0},
           {"operand", -2},
           {"block", bt.block},
           {"message", who + " called exit(" + std::to_string(br.exitCode) + ") inside the kernel"}});
    } else if (br.status == BlockStatus::ForkFailed) {
      perBlock[b].push_back({{"category", "runtime-crash"},
                             {"severity", "error"},
                             {"api", ""},
                             {"file", ""},
                             {"line", 0},
                             {"operand", -2},
                             {"block", bt.block},
                             {"message", "could not start a process for " + who}});
    }
    if (br.status == BlockStatus::Crashed || br.status == BlockStatus::TimedOut ||
        br.status == BlockStatus::ExitedNonZero || br.status == BlockStatus::ForkFailed)
      untrusted = true;
    lt.blocks.push_back(std::move(bt));
  }
  kwb::sim::checkOverlap(lt, global);

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
      const std::string key =
          j.value("category", "") + "|" + j.value("file", "") + "|" + std::to_string(j.value("line", 0));
      for (auto& [k, i] : index)
        if (k.rfind(key + "|", 0) == 0) merged[i].extra += j.value("repeat", 0ull) - 1;
      return;
    }
    const std::string key = j.value("category", "") + "|" + j.value("file", "") + "|" +
                            std::to_string(j.value("line", 0)) + "|" + j.value("api", "");
    const int block = static_cast<int>(j.value("block", -1LL));
    auto it = index.find(key);
    if (it != index.end()) {
      if (block >= 0 && std::find(merged[it->second].blocks.begin(), merged[it->second].blocks.end(),
                                  block) == merged[it->second].blocks.end())
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
      m.d.notes.push_back("reported by " + std::to_string(m.blocks.size()) + " of " +
                          std::to_string(res.blockDim) + " blocks: " + blockList(m.blocks));
    if (m.extra > 0)
      m.d.notes.push_back("repeated " + std::to_string(m.extra) + " more time(s) at this line");
    if (untrusted && (m.d.category == "runtime-crash" || m.d.category == "timeout"))
      m.d.notes.push_back(
          "the other blocks' output of this launch is not trustworthy: they share GM with the "
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
                 m.d.category.empty() ? "note" : m.d.category.c_str(),
                 m.d.api ? (*m.d.api + ": ").c_str() : "", m.d.message.c_str(),
                 m.d.tensor ? (" [tensor " + *m.d.tensor + "]").c_str() : "");
    for (const auto& r : m.d.related)
      std::fprintf(stderr, "    related: %s:%d: %s\n", r.file.c_str(), r.line, r.role.c_str());
    for (const std::string& n : m.d.notes) std::fprintf(stderr, "    note: %s\n", n.c_str());
  }
  // The estimate with the model's expected error for this kind of kernel (docs/calibration.md).
  if (const auto est = profile.find("estimate"); est != profile.end() && est->is_string())
    std::fprintf(stderr, "[INFO][kwb-sim] %s: %s\n", res.kernel.c_str(), est->get<std::string>().c_str());
  std::fflush(stderr);

  for (Merged& m : merged) tot.diags.push_back(std::move(m.d));
  tot.errors += errors;
  tot.blocks = res.blockDim;
  tot.untrusted = tot.untrusted || untrusted;
  tot.profile = profile;
  nlohmann::json launch{{"kernel", res.kernel},
                        {"blockDim", res.blockDim},
                        {"coresPerBlock", res.coresPerBlock},
                        {"kernelType", kernelTypeName(res.kernelType)},
                        {"soc", lt.soc},
                        {"autoSync", res.autoSync},
                        {"errors", errors}};
  nlohmann::json blocks = nlohmann::json::array();
  for (std::uint32_t b = 0; b < res.blocks.size(); ++b) {
    static const char* names[] = {"ok", "aborted", "crashed", "timeout", "exited", "fork-failed"};
    const std::uint32_t per = std::max<std::uint32_t>(1, res.coresPerBlock);
    blocks.push_back({{"block", b / per},
                      {"core", per == 1 ? "" : (b % per == 0 ? "AIC" : "AIV" + std::to_string(b % per - 1))},
                      {"status", names[static_cast<int>(res.blocks[b].status)]},
                      {"wall_ms", res.blocks[b].elapsedMs},
                      {"instructions", lt.blocks[b].instrs.size()}});
  }
  launch["block_status"] = blocks;
  if (keepRecords) {
    nlohmann::json outcome{
        {"kernel", res.kernel}, {"blockDim", res.blockDim}, {"coresPerBlock", res.coresPerBlock},
        {"soc", lt.soc},        {"autoSync", res.autoSync}, {"blocks", nlohmann::json::array()}};
    for (std::uint32_t b = 0; b < res.blocks.size(); ++b) {
      static const char* names[] = {"ok", "aborted", "crashed", "timeout", "exited", "fork-failed"};
      const BlockResult& br = res.blocks[b];
      outcome["blocks"].push_back({{"status", names[static_cast<int>(br.status)]},
                                   {"exit_code", br.exitCode},
                                   {"signal", br.signal},
                                   {"wall_ms", br.elapsedMs},
                                   {"timeout_ms", br.timeoutMs}});
    }
    appendRecordFrame(records::FrameKind::Launch, -1, outcome.dump());
  }
  tot.launches.push_back(launch);
  if (reportPath && *reportPath) writeReport(reportPath);
  removeDir(res.workDir);
}

}  // namespace kwb_sim::rt
