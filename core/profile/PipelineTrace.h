// SPDX-License-Identifier: MIT
#pragma once
// A Chrome trace (the emulator's cost-model trace, or msprof's simulator trace.json) read into lanes of
// slices for the pipeline view. Only complete ("X") events and name metadata matter here; flow and
// counter events are kept as flows or skipped.

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace kwb {

struct TraceSlice {
  std::string name;    // API name, e.g. "DataCopy"
  double startUs = 0;  // ts
  double durUs = 0;
  std::string source;  // "kernel.cpp:42" when the trace carries it (args.code / args.line / args.file)
  std::string detail;  // remaining args, compact, for tooltips
};

struct TraceLane {
  std::int64_t tid = 0;
  std::string name;                // "VECTOR", "MTE2", ...
  std::vector<TraceSlice> slices;  // sorted by start
};

struct TraceProcess {
  std::int64_t pid = 0;
  std::string name;              // "core 0 (block 0)"
  std::vector<TraceLane> lanes;  // sorted by tid
};

struct TraceFlow {
  std::string name;
  std::int64_t fromPid = 0, fromTid = 0, toPid = 0, toTid = 0;
  double fromUs = 0, toUs = 0;
};

struct PipelineTrace {
  std::vector<TraceProcess> processes;  // sorted by pid
  std::vector<TraceFlow> flows;
  double beginUs = 0;
  double endUs = 0;
  std::size_t sliceCount() const;
};

// Accepts the JSON array form and the {"traceEvents": [...]} object form. Throws kwb::LoadError naming
// `label` and the offending event on malformed input.
PipelineTrace parseChromeTrace(std::string_view json, const std::string& label);
PipelineTrace readChromeTraceFile(const std::filesystem::path& path);

}  // namespace kwb
