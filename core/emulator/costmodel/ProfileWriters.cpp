// SPDX-License-Identifier: MIT
// The profile as JSON (the `profile` object of KWB_SIM_REPORT) and as msprof-style CSVs, so that people
// and scripts used to msprof op read the emulator's estimate without change.

#include <cmath>
#include <cstdio>
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "core/emulator/costmodel/CostModel.h"

namespace kwb::sim {

using kwb_sim::Pipe;
using nlohmann::json;

namespace {

double rounded(double v, int decimals) {
  const double f = std::pow(10.0, decimals);
  return std::round(v * f) / f;
}

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string csvField(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) {
    if (c == '"') q += '"';
    q += c;
  }
  return q + "\"";
}

size_t idx(Pipe p) {
  return static_cast<size_t>(p);
}

// S, V, MTE2 and MTE3 always appear (issue 4); the cube pipes only when the kernel used them.
bool reported(const Profile& p, int pipe) {
  const Pipe x = static_cast<Pipe>(pipe);
  return x == Pipe::S || x == Pipe::V || x == Pipe::MTE2 || x == Pipe::MTE3 ||
         p.pipes[static_cast<size_t>(pipe)].used;
}

std::string modelNote(const Profile& p) {
  return "Emulator estimate from the kwb cost model with the " + p.soc +
         " parameter tables (official/derived/assumed numbers, see docs/emulator.md); not a device "
         "measurement.";
}

}  // namespace

std::string estimateLabel(const Profile& p) {
  char buf[96];
  if (p.expectedErrorPct >= 0)
    std::snprintf(buf, sizeof buf, "\u2248 %.4g \u00b5s \u00b1 %.0f %%, emulator estimate", p.totalUs,
                  p.expectedErrorPct);
  else
    std::snprintf(buf, sizeof buf, "\u2248 %.4g \u00b5s, emulator estimate (error not calibrated)",
                  p.totalUs);
  return buf;
}

json profileToJson(const Profile& p) {
  json j;
  j["model"] = modelNote(p);
  j["soc"] = p.soc;
  j["soc_params"] = p.socOrigin;
  j["kernel"] = p.kernel;
  j["kernel_kind"] = p.kernelKind;
  j["clock_mhz"] = p.clockMhz;
  j["block_dim"] = p.blockDim;
  j["cores"] = p.cores;
  j["cores_used"] = p.coresUsed;
  j["waves"] = p.waves;
  j["total_cycles"] = static_cast<std::uint64_t>(std::llround(p.totalCycles));
  j["total_us"] = rounded(p.totalUs, 3);
  j["kernel_cycles"] = static_cast<std::uint64_t>(std::llround(p.kernelCycles));
  j["launch_overhead_cycles"] = static_cast<std::uint64_t>(std::llround(p.overheadCycles));

  json blocks = json::array();
  for (const auto& b : p.blocks) {
    json jb;
    jb["block"] = b.block;
    jb["core"] = b.core;
    if (!b.coreKind.empty()) {
      jb["core_kind"] = b.coreKind;
      jb["sub_block"] = b.subBlock;
    }
    jb["start_cycle"] = static_cast<std::uint64_t>(std::llround(b.startCycle));
    jb["cycles"] = static_cast<std::uint64_t>(std::llround(b.cycles));
    jb["us"] = rounded(b.cycles / p.clockMhz, 3);
    json ratios, waits;
    for (int i = 0; i < kPipes; ++i) {
      if (!reported(p, i)) continue;
      const char* name = kwb_sim::pipeName(static_cast<Pipe>(i));
      ratios[name] = rounded(b.cycles > 0 ? b.busy[static_cast<size_t>(i)] / b.cycles : 0, 6);
      waits[name] = static_cast<std::uint64_t>(std::llround(b.wait[static_cast<size_t>(i)]));
    }
    jb["pipe_ratio"] = ratios;
    jb["wait_cycles"] = waits;
    jb["gm_to_ub_bytes"] = b.gmToUbBytes;
    jb["ub_to_gm_bytes"] = b.ubToGmBytes;
    jb["records"] = b.records;
    if (!b.complete) jb["complete"] = false;
    if (b.dropped) jb["dropped_records"] = b.dropped;
    blocks.push_back(std::move(jb));
  }
  j["blocks"] = std::move(blocks);

  json pipes = json::object();
  for (int i = 0; i < kPipes; ++i) {
    if (!reported(p, i)) continue;
    const auto& ps = p.pipes[static_cast<size_t>(i)];
    pipes[kwb_sim::pipeName(static_cast<Pipe>(i))] = {
        {"busy_cycles", static_cast<std::uint64_t>(std::llround(ps.busyCycles))},
        {"ratio", rounded(ps.ratio, 6)}};
  }
  j["pipes"] = std::move(pipes);

  j["gm_to_ub_bytes"] = p.gmToUbBytes;
  j["ub_to_gm_bytes"] = p.ubToGmBytes;
  j["gm_read_bytes"] = p.gmReadBytes;
  j["gm_write_bytes"] = p.gmWriteBytes;
  j["achieved_gbps"] = rounded(p.achievedGbps, 3);
  if (p.l2HitShare > 0) j["l2_hit_share"] = rounded(p.l2HitShare, 4);
  if (p.expectedErrorPct >= 0) {
    j["expected_error_pct"] = rounded(p.expectedErrorPct, 1);
    j["estimate"] = estimateLabel(p);
  }
  j["gm_share_bytes_per_cycle"] = rounded(p.gmShareBytesPerCycle, 3);
  j["gm_concurrent_transfers"] = rounded(p.gmConcurrentStreams, 3);
  j["bound"] = p.bound;
  j["floor_us"] = rounded(p.floorUs, 3);
  j["floor"] = {{"memory_us", rounded(p.floorMemoryUs, 3)},
                {"vector_us", rounded(p.floorVectorUs, 3)},
                {"cube_us", rounded(p.floorCubeUs, 3)}};
  j["floor_ratio"] = rounded(p.totalUs > 0 ? p.floorUs / p.totalUs : 0, 4);

  json lines = json::array();
  for (const auto& l : p.lines) {
    lines.push_back({{"code", l.file + ":" + std::to_string(l.line)},
                     {"file", l.file},
                     {"line", l.line},
                     {"api", l.api},
                     {"calls", l.calls},
                     {"cycles", static_cast<std::uint64_t>(std::llround(l.cycles))},
                     {"wait_cycles", static_cast<std::uint64_t>(std::llround(l.waitCycles))},
                     {"us", rounded(l.cycles / p.clockMhz, 3)}});
  }
  j["lines"] = std::move(lines);
  j["notes"] = p.notes;
  j["ub_bank_conflict_cycles"] = static_cast<std::uint64_t>(std::llround(p.bankConflictCycles));
  json hints = json::array();
  for (const auto& h : p.hints)
    hints.push_back({{"kind", h.kind},
                     {"severity", "hint"},
                     {"code", h.file + ":" + std::to_string(h.line)},
                     {"file", h.file},
                     {"line", h.line},
                     {"api", h.api},
                     {"conflict", h.conflict},
                     {"calls", h.calls},
                     {"cycles", static_cast<std::uint64_t>(std::llround(h.cycles))},
                     {"share", rounded(h.share, 4)},
                     {"message", h.message}});
  j["hints"] = std::move(hints);
  return j;
}

void writeProfileJson(const Profile& p, std::ostream& out) {
  out << profileToJson(p).dump(2) << '\n';
}

void writePipeUtilizationCsv(const Profile& p, std::ostream& out) {
  // Column prefixes as msprof: aiv_ for vector cores and aic_ for cube cores on the split 910B; the
  // coupled 310P uses prefix-free names (docs/ascend-notes.md §4.1).
  const bool vectorOnly = p.kernelKind == "vector";
  const std::string pre = p.coupled ? "" : (vectorOnly ? "aiv_" : "aic_");
  struct Col {
    Pipe pipe;
    const char* name;
  };
  std::vector<Col> cols;
  // The cube pipe is "mac" in msprof's columns (aic_mac_time(us), aic_mac_ratio; calibration-data §2).
  if (p.pipes[idx(Pipe::M)].used || !vectorOnly) cols.push_back({Pipe::M, "mac"});
  cols.push_back({Pipe::V, "vec"});
  cols.push_back({Pipe::S, "scalar"});
  if (!vectorOnly) {
    cols.push_back({Pipe::FIX, "fixpipe"});
    cols.push_back({Pipe::MTE1, "mte1"});
  }
  cols.push_back({Pipe::MTE2, "mte2"});
  cols.push_back({Pipe::MTE3, "mte3"});

  out << "block_id,sub_block_id," << pre << "time(us)," << pre << "total_cycles";
  for (const auto& c : cols) out << ',' << pre << c.name << "_time(us)," << pre << c.name << "_ratio";
  out << ',' << pre << "mte2_active_bw(GB/s)," << pre << "mte3_active_bw(GB/s)\n";
  for (const auto& b : p.blocks) {
    out << b.block << ',' << b.subBlock << ',' << fixed(b.cycles / p.clockMhz, 3) << ','
        << fixed(b.cycles, 0);
    for (const auto& c : cols) {
      const double busy = b.busy[idx(c.pipe)];
      out << ',' << fixed(busy / p.clockMhz, 3) << ',' << fixed(b.cycles > 0 ? busy / b.cycles : 0, 6);
    }
    const auto bw = [&](std::uint64_t bytes, double busy) {
      return busy > 0 ? static_cast<double>(bytes) * p.clockMhz / busy / 1e3 : 0.0;
    };
    out << ',' << fixed(bw(b.mte2Bytes, b.busy[idx(Pipe::MTE2)]), 3) << ','
        << fixed(bw(b.mte3Bytes, b.busy[idx(Pipe::MTE3)]), 3) << '\n';
  }
}

void writeOpBasicInfoCsv(const Profile& p, std::ostream& out) {
  out << "Op Name,Op Type,Task Duration(us),Block Dim,Mix Block Dim,Device ID,PID,Current Freq,Rated "
         "Freq,Source\n";
  // Mix Block Dim: the AIV processes of a mix kernel (blocks times its AIVs per block).
  out << csvField(p.kernel) << ',' << p.kernelKind << ',' << fixed(p.totalUs, 3) << ',' << p.blockDim << ','
      << (p.coresPerBlock > 1 ? p.blockDim * (p.coresPerBlock - 1) : 0) << ",emulator,,"
      << fixed(p.clockMhz, 0) << ',' << fixed(p.clockMhz, 0) << ','
      << csvField("kwb emulator estimate (" + p.soc + " tables), not a device measurement") << '\n';
}

void writeHotspotCsv(const Profile& p, std::ostream& out) {
  out << "code,call_count,cycles,running_time(us),wait_cycles,api\n";
  for (const auto& l : p.lines)
    out << csvField(l.file + ":" + std::to_string(l.line)) << ',' << l.calls << ',' << fixed(l.cycles, 0)
        << ',' << fixed(l.cycles / p.clockMhz, 3) << ',' << fixed(l.waitCycles, 0) << ',' << csvField(l.api)
        << '\n';
}

}  // namespace kwb::sim
