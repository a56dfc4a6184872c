// SPDX-License-Identifier: MIT
#include "core/diag/MsprofTrace.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/diag/MsprofParser.h"

namespace kwb {
namespace {

using nlohmann::json;

// Scalars as text: strings as they are, integers in decimal, other numbers via json's own dump.
std::optional<std::string> scalarText(const json& j) {
  if (j.is_string()) return j.get<std::string>();
  if (j.is_number_integer()) return std::to_string(j.get<long long>());
  if (j.is_number_unsigned()) return std::to_string(j.get<unsigned long long>());
  if (j.is_number() || j.is_boolean()) return j.dump();
  return std::nullopt;
}

double number(const json& e, const char* key, std::string_view fileName, std::size_t index) {
  const auto it = e.find(key);
  if (it == e.end() || it->is_null()) return 0;
  if (it->is_number()) return it->get<double>();
  if (it->is_string()) {  // some writers quote numbers
    try {
      std::size_t used = 0;
      const double v = std::stod(it->get<std::string>(), &used);
      if (used == it->get<std::string>().size() && std::isfinite(v)) return v;
    } catch (const std::exception&) {
    }
  }
  throw MsprofParseError(std::string(fileName) + ": event " + std::to_string(index) + ": '" + key +
                         "' is not a number");
}

}  // namespace

std::string SimulatorTrace::laneOf(const SimTraceEvent& e) const {
  const auto it = threadNames.find({e.pid, e.tid});
  return it != threadNames.end() ? it->second : e.tid;
}

std::string SimulatorTrace::processOf(const SimTraceEvent& e) const {
  const auto it = processNames.find(e.pid);
  return it != processNames.end() ? it->second : e.pid;
}

SimulatorTrace parseSimulatorTrace(std::string_view text, std::string_view fileName) {
  json doc;
  try {
    doc = json::parse(text.begin(), text.end());
  } catch (const json::parse_error& e) {
    throw MsprofParseError(std::string(fileName) + ": invalid JSON: " + e.what());
  }
  const json* events = &doc;
  if (doc.is_object()) {
    const auto it = doc.find("traceEvents");
    if (it == doc.end()) throw MsprofParseError(std::string(fileName) + ": object without \"traceEvents\"");
    events = &*it;
  }
  if (!events->is_array())
    throw MsprofParseError(std::string(fileName) + ": expected an array of trace events");

  SimulatorTrace trace;
  for (std::size_t i = 0; i < events->size(); ++i) {
    const json& e = (*events)[i];
    if (!e.is_object())
      throw MsprofParseError(std::string(fileName) + ": event " + std::to_string(i) + " is not an object");
    const auto ph = e.find("ph");
    if (ph == e.end() || !ph->is_string())
      throw MsprofParseError(std::string(fileName) + ": event " + std::to_string(i) + " has no \"ph\"");
    SimTraceEvent ev;
    ev.phase = ph->get<std::string>();
    if (auto n = e.find("name"); n != e.end()) ev.name = scalarText(*n).value_or("");
    if (auto p = e.find("pid"); p != e.end()) ev.pid = scalarText(*p).value_or("");
    if (auto t = e.find("tid"); t != e.end()) ev.tid = scalarText(*t).value_or("");
    const auto args = e.find("args");
    const bool hasArgs = args != e.end() && args->is_object();
    if (ev.phase == "M") {  // metadata: lane and process names
      if (!hasArgs || !args->contains("name")) continue;
      const auto label = scalarText((*args)["name"]).value_or("");
      if (ev.name == "thread_name")
        trace.threadNames[{ev.pid, ev.tid}] = label;
      else if (ev.name == "process_name")
        trace.processNames[ev.pid] = label;
      continue;
    }
    if (ev.name.empty() && ev.phase != "f" && ev.phase != "s" && ev.phase != "t")
      throw MsprofParseError(std::string(fileName) + ": event " + std::to_string(i) + " has no \"name\"");
    ev.tsUs = number(e, "ts", fileName, i);
    ev.durUs = number(e, "dur", fileName, i);
    if (auto id = e.find("id"); id != e.end()) ev.id = scalarText(*id);
    if (hasArgs) {
      if (auto a = args->find("pc_addr"); a != args->end()) ev.pcAddr = scalarText(*a);
      if (auto a = args->find("code"); a != args->end()) ev.code = scalarText(*a);
      if (auto a = args->find("detail"); a != args->end()) ev.detail = scalarText(*a);
    }
    trace.events.push_back(std::move(ev));
  }
  return trace;
}

std::vector<SimLaneBusy> simulatorLaneBusy(const SimulatorTrace& trace) {
  std::map<std::pair<std::string, std::string>, std::vector<std::pair<double, double>>> spans;
  for (const auto& e : trace.events)
    if (e.phase == "X")
      spans[{trace.processOf(e), trace.laneOf(e)}].emplace_back(e.tsUs, e.tsUs + std::max(0.0, e.durUs));
  std::vector<SimLaneBusy> out;
  for (auto& [key, list] : spans) {
    std::sort(list.begin(), list.end());
    SimLaneBusy lane{key.first, key.second, 0, list.size(), list.front().first, list.front().second};
    double curStart = list.front().first, curEnd = list.front().second;
    for (std::size_t k = 1; k < list.size(); ++k) {
      if (list[k].first > curEnd) {
        lane.busyUs += curEnd - curStart;
        curStart = list[k].first;
      }
      curEnd = std::max(curEnd, list[k].second);
    }
    lane.busyUs += curEnd - curStart;
    lane.lastUs = curEnd;
    out.push_back(std::move(lane));
  }
  return out;
}

std::vector<SimTraceFlow> simulatorFlows(const SimulatorTrace& trace) {
  std::vector<SimTraceFlow> flows;
  std::map<std::string, std::vector<std::size_t>> open;  // id -> flows still waiting for their finish
  for (std::size_t i = 0; i < trace.events.size(); ++i) {
    const auto& e = trace.events[i];
    if (!e.id || (e.phase != "s" && e.phase != "f")) continue;
    if (e.phase == "s") {
      open[*e.id].push_back(flows.size());
      flows.push_back(SimTraceFlow{*e.id, i, std::nullopt});
      continue;
    }
    auto& waiting = open[*e.id];
    if (!waiting.empty()) {
      flows[waiting.front()].finish = i;
      waiting.erase(waiting.begin());
    } else {
      flows.push_back(SimTraceFlow{*e.id, std::nullopt, i});
    }
  }
  return flows;
}

}  // namespace kwb
