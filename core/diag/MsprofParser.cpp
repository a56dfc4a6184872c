// SPDX-License-Identifier: MIT
#include "core/diag/MsprofParser.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <tuple>

#include "core/diag/Csv.h"
#include "core/diag/TextLines.h"

namespace kwb {
namespace {

using textlines::toDouble;
using textlines::toInt;

CsvTable readTable(std::string_view csv, std::string_view fileName) {
  try {
    return parseCsv(csv, std::string(fileName));
  } catch (const CsvError& e) {
    throw MsprofParseError(e.what());
  }
}

std::size_t required(const CsvTable& t, std::string_view column) {
  try {
    return t.requireColumn(column);
  } catch (const CsvError& e) {
    throw MsprofParseError(e.what());
  }
}

[[noreturn]] void badValue(const CsvTable& t, std::size_t row, std::size_t col, std::string_view expected) {
  throw MsprofParseError(t.source + ":" + std::to_string(t.rowLines[row]) + ": column '" + t.header[col] +
                         "' holds '" + t.rows[row][col] + "', expected " + std::string(expected));
}

// Optional numeric cell: absent when the column is missing or the value is N/A; a malformed number throws.
std::optional<double> optNumber(const CsvTable& t, std::size_t row, std::optional<std::size_t> col) {
  if (!col || isMissingCsvValue(t.rows[row][*col])) return std::nullopt;
  if (auto v = toDouble(t.rows[row][*col]); v && std::isfinite(*v)) return v;
  badValue(t, row, *col, "a number");
}

double reqNumber(const CsvTable& t, std::size_t row, std::size_t col) {
  if (auto v = optNumber(t, row, col)) return *v;
  badValue(t, row, col, "a number");
}

std::optional<long long> optInteger(const CsvTable& t, std::size_t row, std::optional<std::size_t> col) {
  if (!col || isMissingCsvValue(t.rows[row][*col])) return std::nullopt;
  if (auto v = toInt(t.rows[row][*col])) return v;
  // Some versions print counts as "12.0".
  if (auto d = toDouble(t.rows[row][*col]);
      d && std::isfinite(*d) && *d == std::floor(*d) && std::fabs(*d) < 9e15)
    return static_cast<long long>(*d);
  badValue(t, row, *col, "an integer");
}

long long reqInteger(const CsvTable& t, std::size_t row, std::size_t col) {
  if (auto v = optInteger(t, row, col)) return *v;
  badValue(t, row, col, "an integer");
}

std::string cell(const CsvTable& t, std::size_t row, std::optional<std::size_t> col) {
  return col && !isMissingCsvValue(t.rows[row][*col]) ? t.rows[row][*col] : std::string();
}

// Fills the common block_id / sub_block_id / values / labels part of a per-block row.
void fillBlock(const CsvTable& t, std::size_t row, std::size_t blockCol, MsprofBlockRow& b) {
  b.blockId = static_cast<int>(reqInteger(t, row, blockCol));
  const auto sub = t.column("sub_block_id");
  b.subBlock = cell(t, row, sub);
  for (std::size_t c = 0; c < t.header.size(); ++c) {
    if (c == blockCol || (sub && c == *sub) || isMissingCsvValue(t.rows[row][c])) continue;
    if (auto v = toDouble(t.rows[row][c]); v && std::isfinite(*v))
      b.values[t.header[c]] = *v;
    else
      b.labels[t.header[c]] = t.rows[row][c];
  }
}

std::optional<double> lookup(const MsprofBlockRow& b, std::initializer_list<std::string_view> names) {
  for (auto n : names)
    if (auto v = b.value(n)) return v;
  return std::nullopt;
}

constexpr std::array<std::string_view, 8> kPipes{"vec",     "cube", "mac",  "scalar",
                                                 "fixpipe", "mte1", "mte2", "mte3"};

// "aiv_mte2_ratio" -> {"aiv", "mte2", ratio}; "vec_time(us)" -> {"", "vec", time}.
struct PipeColumn {
  std::string core;
  std::string pipe;
  bool isRatio = false;
};
std::optional<PipeColumn> pipeColumn(std::string_view name) {
  PipeColumn pc;
  if (name.ends_with("_ratio")) {
    pc.isRatio = true;
    name.remove_suffix(6);
  } else if (name.ends_with("_time(us)")) {
    name.remove_suffix(9);
  } else {
    return std::nullopt;
  }
  for (std::string_view core : {"aic_", "aiv_"}) {
    if (name.starts_with(core)) {
      pc.core = std::string(core.substr(0, 3));
      name.remove_prefix(4);
      break;
    }
  }
  if (std::find(kPipes.begin(), kPipes.end(), name) == kPipes.end()) return std::nullopt;
  pc.pipe = std::string(name);
  return pc;
}

}  // namespace

std::optional<double> MsprofBlockRow::value(std::string_view column) const {
  const auto it = values.find(std::string(column));
  if (it == values.end()) return std::nullopt;
  return it->second;
}

const MsprofPipeTime* MsprofPipeRow::pipe(std::string_view core, std::string_view name) const {
  for (const auto& p : pipes)
    if (p.core == core && p.pipe == name) return &p;
  return nullptr;
}

std::vector<MsprofOpBasicInfo> parseOpBasicInfo(std::string_view csv, std::string_view fileName) {
  const CsvTable t = readTable(csv, fileName);
  const auto name = required(t, "Op Name");
  const auto duration = required(t, "Task Duration(us)");
  const auto blockDim = required(t, "Block Dim");
  const auto type = t.column("Op Type");
  const auto mix = t.column("Mix Block Dim");
  const auto device = t.column("Device ID");
  const auto pid = t.column("PID");
  const auto cur = t.column("Current Freq");
  const auto rated = t.column("Rated Freq");
  std::vector<MsprofOpBasicInfo> out;
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    MsprofOpBasicInfo info;
    info.opName = t.rows[r][name];
    info.opType = cell(t, r, type);
    info.taskDurationUs = reqNumber(t, r, duration);
    info.blockDim = static_cast<int>(reqInteger(t, r, blockDim));
    if (auto v = optInteger(t, r, mix)) info.mixBlockDim = static_cast<int>(*v);
    if (auto v = optInteger(t, r, device)) info.deviceId = static_cast<int>(*v);
    info.pid = optInteger(t, r, pid);
    info.currentFreqMHz = optNumber(t, r, cur);
    info.ratedFreqMHz = optNumber(t, r, rated);
    out.push_back(std::move(info));
  }
  return out;
}

std::vector<MsprofPipeRow> parsePipeUtilization(std::string_view csv, std::string_view fileName) {
  const CsvTable t = readTable(csv, fileName);
  const auto blockCol = required(t, "block_id");
  // Column index -> pipe column, in header order; pipes keyed by core/pipe keep first-seen order.
  std::vector<std::pair<std::size_t, PipeColumn>> pipeCols;
  for (std::size_t c = 0; c < t.header.size(); ++c)
    if (auto pc = pipeColumn(t.header[c])) pipeCols.emplace_back(c, *pc);
  std::vector<MsprofPipeRow> out;
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    MsprofPipeRow row;
    fillBlock(t, r, blockCol, row);
    row.aicTimeUs = lookup(row, {"aic_time(us)", "aicore_time(us)"});
    row.aicTotalCycles = lookup(row, {"aic_total_cycles", "total_cycles"});
    row.aivTimeUs = lookup(row, {"aiv_time(us)"});
    row.aivTotalCycles = lookup(row, {"aiv_total_cycles"});
    for (const auto& [c, pcBinding] : pipeCols) {
      const auto& pc = pcBinding;  // clang 14 (the fuzz preset) cannot capture a structured binding
      const auto v = optNumber(t, r, c);
      if (!v) continue;
      auto it = std::find_if(row.pipes.begin(), row.pipes.end(),
                             [&](const MsprofPipeTime& p) { return p.core == pc.core && p.pipe == pc.pipe; });
      if (it == row.pipes.end()) {
        row.pipes.push_back(MsprofPipeTime{pc.core, pc.pipe, std::nullopt, std::nullopt});
        it = row.pipes.end() - 1;
      }
      (pc.isRatio ? it->ratio : it->timeUs) = v;
    }
    out.push_back(std::move(row));
  }
  return out;
}

std::optional<MsprofBusiestPipe> busiestPipe(const std::vector<MsprofPipeRow>& rows) {
  struct Acc {
    std::string core, pipe;
    double sum = 0;
    int n = 0;
  };
  std::vector<Acc> acc;
  for (const auto& row : rows) {
    for (const auto& p : row.pipes) {
      if (!p.ratio) continue;
      auto it = std::find_if(acc.begin(), acc.end(),
                             [&](const Acc& a) { return a.core == p.core && a.pipe == p.pipe; });
      if (it == acc.end()) {
        acc.push_back({p.core, p.pipe});
        it = acc.end() - 1;
      }
      it->sum += *p.ratio;
      ++it->n;
    }
  }
  if (acc.empty()) return std::nullopt;
  const auto best = std::max_element(acc.begin(), acc.end(),
                                     [](const Acc& a, const Acc& b) { return a.sum / a.n < b.sum / b.n; });
  return MsprofBusiestPipe{best->core, best->pipe, best->sum / best->n};
}

std::vector<MsprofMemoryRow> parseMemory(std::string_view csv, std::string_view fileName) {
  const CsvTable t = readTable(csv, fileName);
  const auto blockCol = required(t, "block_id");
  std::vector<MsprofMemoryRow> out;
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    MsprofMemoryRow row;
    fillBlock(t, r, blockCol, row);
    row.gmToUbBandwidthGBs = lookup(row, {"aiv_gm_to_ub_bw(GB/s)", "aic_gm_to_ub_bw(GB/s)"});
    row.ubToGmBandwidthGBs = lookup(row, {"aiv_ub_to_gm_bw(GB/s)", "aic_ub_to_gm_bw(GB/s)"});
    row.gmToUbKB = lookup(row, {"GM_to_UB_datas(KB)"});
    row.ubToGmKB = lookup(row, {"UB_to_GM_datas(KB)"});
    row.mainMemReadKB = lookup(row, {"read_main_memory_datas(KB)"});
    row.mainMemWriteKB = lookup(row, {"write_main_memory_datas(KB)"});
    out.push_back(std::move(row));
  }
  return out;
}

std::vector<SimLineCost> parseSimulatorCodeExe(std::string_view csv, std::string_view fileName) {
  const CsvTable t = readTable(csv, fileName);
  const auto code = required(t, "code");
  const auto cycles = required(t, "cycles");
  const auto calls = t.column("call_count");
  const auto time = t.column("running_time(us)");
  std::vector<SimLineCost> out;
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    SimLineCost c;
    c.code = t.rows[r][code];
    c.file = c.code;
    const auto colon = c.code.rfind(':');
    if (colon != std::string::npos && colon > 0) {
      if (auto l = toInt(std::string_view(c.code).substr(colon + 1)); l && *l > 0) {
        c.file = c.code.substr(0, colon);
        c.line = static_cast<int>(*l);
      }
    }
    c.cycles = reqInteger(t, r, cycles);
    c.callCount = optInteger(t, r, calls).value_or(0);
    c.runningTimeUs = optNumber(t, r, time);
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<SimInstrCost> parseSimulatorInstrExe(std::string_view csv, std::string_view fileName) {
  const CsvTable t = readTable(csv, fileName);
  const auto instr = required(t, "instr");
  const auto cycles = required(t, "cycles");
  const auto addr = t.column("addr");
  const auto pipe = t.column("pipe");
  const auto calls = t.column("call_count");
  const auto time = t.column("running_time(us)");
  const auto detail = t.column("detail");
  std::vector<SimInstrCost> out;
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    SimInstrCost c;
    c.instr = t.rows[r][instr];
    c.addr = cell(t, r, addr);
    c.pipe = cell(t, r, pipe);
    c.callCount = optInteger(t, r, calls).value_or(0);
    c.cycles = reqInteger(t, r, cycles);
    c.runningTimeUs = optNumber(t, r, time);
    c.detail = cell(t, r, detail);
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<SimLineCost> mergeSourceLineCosts(const std::vector<std::vector<SimLineCost>>& perCore) {
  std::vector<SimLineCost> merged;
  std::map<std::pair<std::string, int>, std::size_t> index;
  std::vector<bool> allTimed;
  for (const auto& core : perCore) {
    for (const auto& c : core) {
      const auto key = std::make_pair(c.file, c.line);
      auto [it, fresh] = index.emplace(key, merged.size());
      if (fresh) {
        merged.push_back(c);
        allTimed.push_back(c.runningTimeUs.has_value());
        continue;
      }
      auto& m = merged[it->second];
      m.callCount += c.callCount;
      m.cycles += c.cycles;
      if (c.runningTimeUs && allTimed[it->second])
        *m.runningTimeUs += *c.runningTimeUs;
      else
        allTimed[it->second] = false;
    }
  }
  for (std::size_t i = 0; i < merged.size(); ++i)
    if (!allTimed[i]) merged[i].runningTimeUs.reset();
  std::sort(merged.begin(), merged.end(), [](const SimLineCost& a, const SimLineCost& b) {
    return std::tie(b.cycles, a.file, a.line) < std::tie(a.cycles, b.file, b.line);
  });
  return merged;
}

std::optional<SimulatorCoreDir> parseSimulatorCoreDir(std::string_view name) {
  if (!name.starts_with("core")) return std::nullopt;
  name.remove_prefix(4);
  const auto dot = name.find('.');
  if (dot == std::string_view::npos) return std::nullopt;
  auto smallNumber = [](std::string_view s) -> std::optional<int> {
    if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string_view::npos)
      return std::nullopt;
    return static_cast<int>(*toInt(s));
  };
  const auto core = smallNumber(name.substr(0, dot));
  std::string_view unit = name.substr(dot + 1);
  std::size_t k = unit.size();
  while (k > 0 && textlines::isDigit(unit[k - 1])) --k;
  const auto index = smallNumber(unit.substr(k));
  if (!core || !index || k == 0) return std::nullopt;
  return SimulatorCoreDir{*core, std::string(unit.substr(0, k)), *index};
}

}  // namespace kwb
