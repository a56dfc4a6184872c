// SPDX-License-Identifier: MIT
#pragma once
// Pure parser for the Chrome-trace trace.json that `msprof op simulator` writes per core and merged at
// the simulator root (events {name, cname, ph, ts, dur, pid, tid, args{pc_addr, code, detail}}; lanes
// SCALAR, SCALARLDST, VECTOR, CUBE, MTE1, MTE2, MTE3, FIXP, FLOWCTRL, CACHEMISS named by thread_name
// metadata; SET_FLAG/WAIT_FLAG as flow events ph "s"/"f" with ids). Times are the trace's microseconds.

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kwb {

struct SimTraceEvent {
  std::string name;
  std::string phase;  // "X" complete, "B"/"E", "i", "s"/"t"/"f" flow, ...
  std::string pid;    // numbers are kept as their decimal text
  std::string tid;
  double tsUs = 0;
  double durUs = 0;                   // 0 unless the event has a duration
  std::optional<std::string> id;      // flow events
  std::optional<std::string> pcAddr;  // args.pc_addr
  std::optional<std::string> code;    // args.code: "file:line"
  std::optional<std::string> detail;  // args.detail
};

struct SimulatorTrace {
  std::vector<SimTraceEvent> events;  // every non-metadata event, in file order
  std::map<std::pair<std::string, std::string>, std::string> threadNames;  // (pid, tid) -> lane name
  std::map<std::string, std::string> processNames;                         // pid -> "core0.veccore0"

  // Lane of an event: its thread_name, else its tid.
  std::string laneOf(const SimTraceEvent& e) const;
  // Process of an event: its process_name, else its pid.
  std::string processOf(const SimTraceEvent& e) const;
};

// Accepts a JSON array of events or an object with "traceEvents". Throws MsprofParseError (MsprofParser.h)
// naming fileName for invalid JSON or events without a name/phase.
SimulatorTrace parseSimulatorTrace(std::string_view json, std::string_view fileName = "trace.json");

// Busy time per (process, lane): the union of the "X" event intervals, so overlapping events count once.
struct SimLaneBusy {
  std::string process;
  std::string lane;
  double busyUs = 0;
  std::size_t events = 0;
  double firstUs = 0;  // start of the first event
  double lastUs = 0;   // end of the last event
};
std::vector<SimLaneBusy> simulatorLaneBusy(const SimulatorTrace& trace);  // sorted by process, then lane

// Flow events paired by (name-independent) id: start ("s") and finish ("f") event indexes into
// trace.events. A SET_FLAG without its WAIT_FLAG (or the reverse) has only one side: the sign of an
// unpaired flag in the kernel.
struct SimTraceFlow {
  std::string id;
  std::optional<std::size_t> start;
  std::optional<std::size_t> finish;
  bool paired() const { return start && finish; }
};
std::vector<SimTraceFlow> simulatorFlows(const SimulatorTrace& trace);  // in order of first appearance

}  // namespace kwb
