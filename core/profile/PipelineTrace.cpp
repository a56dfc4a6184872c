// SPDX-License-Identifier: MIT
#include "core/profile/PipelineTrace.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/model/JsonReader.h"

namespace kwb {

std::size_t PipelineTrace::sliceCount() const {
  std::size_t n = 0;
  for (const auto& p : processes)
    for (const auto& l : p.lanes) n += l.slices.size();
  return n;
}

namespace {

std::string sourceOf(const nlohmann::json& args) {
  if (!args.is_object()) return {};
  if (auto it = args.find("code"); it != args.end() && it->is_string()) return it->get<std::string>();
  std::string file, line;
  if (auto it = args.find("file"); it != args.end() && it->is_string()) file = it->get<std::string>();
  if (auto it = args.find("line"); it != args.end()) {
    if (it->is_number_integer())
      line = std::to_string(it->get<long long>());
    else if (it->is_string())
      line = it->get<std::string>();
  }
  if (auto it = args.find("source"); it != args.end() && it->is_string()) return it->get<std::string>();
  if (file.empty() && line.empty()) return {};
  return file.empty() ? "line " + line : file + ":" + line;
}

std::string detailOf(const nlohmann::json& args) {
  if (!args.is_object()) return {};
  std::ostringstream out;
  bool first = true;
  for (auto it = args.begin(); it != args.end(); ++it) {
    if (it.key() == "code" || it.key() == "file" || it.key() == "line" || it.key() == "source") continue;
    if (!first) out << ", ";
    first = false;
    out << it.key() << "=" << (it->is_string() ? it->get<std::string>() : it->dump());
  }
  return out.str();
}

}  // namespace

PipelineTrace parseChromeTrace(std::string_view text, const std::string& label) {
  const nlohmann::json doc = parseJsonText(text, label);
  const nlohmann::json* events = &doc;
  std::string base;
  if (doc.is_object()) {
    auto it = doc.find("traceEvents");
    if (it == doc.end() || !it->is_array())
      throw LoadError(label, "",
                      "expected a Chrome trace: an array of events or an object with \"traceEvents\"");
    events = &*it;
    base = "/traceEvents";
  } else if (!doc.is_array()) {
    throw LoadError(label, "",
                    "expected a Chrome trace: an array of events or an object with \"traceEvents\"");
  }
  std::map<std::int64_t, TraceProcess> procs;
  std::map<std::pair<std::int64_t, std::int64_t>, TraceLane> lanes;
  std::map<std::string, TraceFlow> openFlows;  // by id (+cat)
  PipelineTrace out;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (size_t i = 0; i < events->size(); ++i) {
    const auto& e = (*events)[i];
    const std::string where = base + "/" + std::to_string(i);
    if (!e.is_object())
      throw LoadError(label, where, "expected an event object but found " + describeJson(e));
    const std::string ph = e.value("ph", "");
    const std::int64_t pid = e.contains("pid") && e["pid"].is_number() ? e["pid"].get<std::int64_t>() : 0;
    const std::int64_t tid = e.contains("tid") && e["tid"].is_number() ? e["tid"].get<std::int64_t>() : 0;
    if (ph == "M") {
      const std::string what = e.value("name", "");
      const std::string name = e.contains("args") && e["args"].is_object() ? e["args"].value("name", "") : "";
      if (what == "process_name") procs[pid].name = name;
      if (what == "thread_name") lanes[{pid, tid}].name = name;
      procs[pid].pid = pid;
      continue;
    }
    if (ph == "X") {
      if (!e.contains("ts") || !e["ts"].is_number())
        throw LoadError(label, where + "/ts",
                        "expected the start time in microseconds but found " +
                            describeJson(e.value("ts", nlohmann::json())));
      TraceSlice s;
      s.name = e.value("name", "");
      s.startUs = e["ts"].get<double>();
      s.durUs = e.contains("dur") && e["dur"].is_number() ? e["dur"].get<double>() : 0.0;
      if (s.durUs < 0) throw LoadError(label, where + "/dur", "negative duration");
      if (e.contains("args")) {
        s.source = sourceOf(e["args"]);
        s.detail = detailOf(e["args"]);
      }
      lo = std::min(lo, s.startUs);
      hi = std::max(hi, s.startUs + s.durUs);
      procs[pid].pid = pid;
      auto& lane = lanes[{pid, tid}];
      lane.tid = tid;
      lane.slices.push_back(std::move(s));
      continue;
    }
    if (ph == "s" || ph == "f" || ph == "t") {
      const std::string id = e.contains("id") ? e["id"].dump() : "";
      const double ts = e.contains("ts") && e["ts"].is_number() ? e["ts"].get<double>() : 0.0;
      if (ph == "s") {
        TraceFlow f;
        f.name = e.value("name", "");
        f.fromPid = pid;
        f.fromTid = tid;
        f.fromUs = ts;
        openFlows[id] = f;
      } else if (auto it = openFlows.find(id); it != openFlows.end()) {
        it->second.toPid = pid;
        it->second.toTid = tid;
        it->second.toUs = ts;
        out.flows.push_back(it->second);
        openFlows.erase(it);
      }
    }
  }
  for (auto& [key, lane] : lanes) {
    lane.tid = key.second;
    if (lane.name.empty()) lane.name = "lane " + std::to_string(key.second);
    std::stable_sort(lane.slices.begin(), lane.slices.end(),
                     [](const TraceSlice& a, const TraceSlice& b) { return a.startUs < b.startUs; });
    procs[key.first].pid = key.first;
    procs[key.first].lanes.push_back(std::move(lane));
  }
  for (auto& [pid, p] : procs) {
    if (p.lanes.empty()) continue;
    if (p.name.empty()) p.name = "process " + std::to_string(pid);
    std::sort(p.lanes.begin(), p.lanes.end(), [](auto& a, auto& b) { return a.tid < b.tid; });
    out.processes.push_back(std::move(p));
  }
  out.beginUs = std::isfinite(lo) ? lo : 0.0;
  out.endUs = std::isfinite(hi) ? hi : 0.0;
  return out;
}

PipelineTrace readChromeTraceFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw LoadError(path.string(), "", "cannot open the trace file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return parseChromeTrace(ss.str(), path.string());
}

}  // namespace kwb
