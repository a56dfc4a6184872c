// SPDX-License-Identifier: MIT
#include "core/verify/ProfileSummary.h"

#include <algorithm>
#include <cmath>

#include "core/emulator/costmodel/SocParams.h"
#include "core/model/DType.h"
#include "core/verify/Verification.h"

namespace kwb::verify {

namespace {

using nlohmann::json;

double rounded(double v) {
  return std::round(v * 1000.0) / 1000.0;
}

std::optional<double> number(const json& j, const char* key) {
  if (!j.is_object()) return std::nullopt;
  auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

// total_us from the cost model, task_duration_us from msprof op.
std::optional<double> totalUsOf(const json& p) {
  if (auto t = number(p, "total_us")) return t;
  return number(p, "task_duration_us");
}

std::optional<double> floorOf(const CaseProfile& c) {
  auto f = number(c.profile, "floor_us");
  if (c.tensorFloorUs) f = std::max(f.value_or(0.0), *c.tensorFloorUs);
  return f;
}

}  // namespace

GmBandwidth gmBandwidthOf(const sim::SocParams& soc) {
  return {soc.gmAggregateBytesPerCycle, soc.clockMhz};
}

double floorUsFromTensorBytes(std::uint64_t bytesRead, std::uint64_t bytesWritten, const GmBandwidth& bw) {
  const double bytesPerUs = bw.bytesPerCycle * bw.clockMhz;  // B/cycle * cycles/us
  if (!(bytesPerUs > 0.0)) return 0.0;
  return (static_cast<double>(bytesRead) + static_cast<double>(bytesWritten)) / bytesPerUs;
}

TensorBytes tensorBytesOf(const PreparedCase& c) {
  TensorBytes b;
  for (const auto& t : c.inputs) b.read += static_cast<std::uint64_t>(t.elements()) * dtypeSize(t.dtype);
  for (const auto& t : c.outputs) b.written += static_cast<std::uint64_t>(t.elements()) * dtypeSize(t.dtype);
  return b;
}

json summarizeProfiles(const std::vector<CaseProfile>& cases) {
  const CaseProfile* slowest = nullptr;
  double slowestUs = -1.0, totalUs = 0.0;
  std::size_t profiled = 0;
  for (const auto& c : cases) {
    if (!c.profile.is_object()) continue;
    ++profiled;
    const double t = totalUsOf(c.profile).value_or(0.0);
    totalUs += t;
    if (t > slowestUs) {  // first of equals: stable for identical cases
      slowestUs = t;
      slowest = &c;
    }
  }
  if (!slowest) return nullptr;

  json out = slowest->profile;
  out["total_us"] = rounded(totalUs);

  // Additive counters: summed when every profiled case reports them, else dropped rather than shown
  // as a partial sum that looks like a total.
  for (const char* key : {"total_cycles", "kernel_cycles", "launch_overhead_cycles", "gm_read_bytes",
                          "gm_write_bytes", "gm_to_ub_bytes", "ub_to_gm_bytes"}) {
    double sum = 0.0;
    bool all = true;
    for (const auto& c : cases) {
      if (!c.profile.is_object()) continue;
      if (auto v = number(c.profile, key))
        sum += *v;
      else
        all = false;
    }
    if (all)
      out[key] = static_cast<std::uint64_t>(std::llround(sum));
    else
      out.erase(key);
  }
  if (auto r = number(out, "gm_read_bytes"), w = number(out, "gm_write_bytes"); r && w && totalUs > 0.0)
    out["achieved_gbps"] = rounded((*r + *w) / totalUs / 1e3);
  else
    out.erase("achieved_gbps");

  // Floors of cases run one after another add up; the tensor-byte floor keeps a kernel that skips
  // reading (or writing) from lowering its own floor.
  double floorSum = 0.0, memSum = 0.0, vecSum = 0.0, cubeSum = 0.0;
  bool floorAll = true;
  for (const auto& c : cases) {
    if (!c.profile.is_object()) continue;
    if (auto f = floorOf(c))
      floorSum += *f;
    else
      floorAll = false;
    const json fl =
        c.profile.is_object() && c.profile.contains("floor") ? c.profile["floor"] : json::object();
    memSum += std::max(number(fl, "memory_us").value_or(0.0), c.tensorFloorUs.value_or(0.0));
    vecSum += number(fl, "vector_us").value_or(0.0);
    cubeSum += number(fl, "cube_us").value_or(0.0);
  }
  if (floorAll) {
    out["floor_us"] = rounded(floorSum);
    out["floor"] = {
        {"memory_us", rounded(memSum)}, {"vector_us", rounded(vecSum)}, {"cube_us", rounded(cubeSum)}};
    out["floor_ratio"] = totalUs > 0.0 ? std::round(floorSum / totalUs * 1e4) / 1e4 : 0.0;
  } else {
    out.erase("floor_us");
    out.erase("floor");
    out.erase("floor_ratio");
  }

  json list = json::array();
  for (const auto& c : cases) {
    json e = {{"name", c.name}, {"total_us", nullptr}, {"floor_us", nullptr}};
    if (c.profile.is_object()) {
      e["total_us"] = rounded(totalUsOf(c.profile).value_or(0.0));
      if (auto f = floorOf(c)) e["floor_us"] = rounded(*f);
    }
    list.push_back(std::move(e));
  }
  out["cases"] = std::move(list);
  out["slowest_case"] = {{"name", slowest->name}, {"total_us", rounded(slowestUs)}};
  out["details_case"] = slowest->name;
  out["complete"] = profiled == cases.size();

  json notes = out.contains("notes") && out["notes"].is_array() ? out["notes"] : json::array();
  notes.push_back("total_us, floor_us and byte counts are sums over " + std::to_string(profiled) + " of " +
                  std::to_string(cases.size()) +
                  " cases; pipes, blocks, lines and bound are those of the slowest case " + slowest->name);
  out["notes"] = std::move(notes);
  return out;
}

}  // namespace kwb::verify
