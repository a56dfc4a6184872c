// SPDX-License-Identifier: MIT
#pragma once
// The trusted side of an emulated run (docs/sandbox.md, "Trusted evaluation"). The candidate's program
// runs the emulator in its own process, so its report, its exit status and its outputs prove nothing by
// themselves: candidate code could have rewritten any of them. The workbench therefore keeps only the
// raw records the runtime appended to a file it pre-created (core/emulator/analysis/RecordFormat.h),
// and decides here, in a process that never runs candidate code:
//  - every block must have left a complete trace (its end-of-kernel record); a short, missing or
//    malformed trace is a runtime error, not a faster profile;
//  - diagnostics are merged from the blocks' own lines; file names in records are never opened: source
//    excerpts and tensor names come from the workbench's own copy of the candidate;
//  - the cross-block checks and the cost model run here, on the SoC file the workbench chose;
//  - the tensor table must match the task's tensors (names, sizes, no overlap), so that output
//    provenance (checkProvenance) can map recorded writes onto the output files.

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/emulator/analysis/LaunchAnalysis.h"
#include "core/model/Diagnostic.h"

namespace kwb {

struct LaunchExpectation {
  std::string kernel;          // the task's entry name
  std::uint32_t blockDim = 0;  // what the validated tiling chose
  std::string soc;
  std::filesystem::path socFile;  // resources/soc/<soc>.json, read by the workbench
  struct Tensor {
    std::string name;
    std::uint64_t bytes = 0;
  };
  std::vector<Tensor> tensors;               // task order: inputs, then outputs
  std::vector<std::string> candidateLines;   // the workbench's copy of the candidate, for excerpts
  std::string candidateFile = "kernel.cpp";  // the name diagnostics use
  std::filesystem::path profileDir;          // non-empty: trace.json and msprof-style CSVs go here
};

// clang-tidy flags the implicit noexcept move constructor: it cannot prove nlohmann::json's noexcept
// move (its invariant checks) non-throwing.
// NOLINTNEXTLINE(bugprone-exception-escape)
struct TrustedLaunch {
  std::vector<Diagnostic> diagnostics;  // errors mean the run failed, whatever the program said
  nlohmann::json profile;               // the trusted cost model's profile; null when none
  bool complete = false;                // every block ended with its end-of-kernel record
  std::vector<sim::GmRange> writes;     // every GM byte range the blocks wrote
  std::map<std::string, std::uint64_t> tensorAddress;  // task tensor name -> GM address in the run
  kwb_sim::LaunchTrace trace;                          // for exports (Chrome trace, CSVs)
  bool hasErrors() const;
};

// Analyses the records file's bytes (hostile). Never throws for bad input: every defect is a
// diagnostic.
TrustedLaunch analyzeLaunchRecords(std::string_view records, const LaunchExpectation& expect);

// The launch trace alone, from a records file of a program the workbench built itself (the calibration
// points of `kwb calibrate`, docs/calibration.md): no task, so no tensor table to check. Every block must
// have left a complete trace; otherwise returns false with `error` saying which block and why.
bool launchTraceFromRecords(std::string_view records, kwb_sim::LaunchTrace& trace, std::string& error);

// Output provenance: every byte of `after` that differs from `before` (the poison the workbench wrote)
// must lie inside a recorded GM write of the launch. Returns the runtime-error diagnostic when not
// (what changed without a recorded write, where), or nothing.
std::vector<Diagnostic> checkProvenance(const std::string& tensor, std::uint64_t address,
                                        const std::vector<std::uint8_t>& before,
                                        const std::vector<std::uint8_t>& after,
                                        const std::vector<sim::GmRange>& writes, const std::string& file);

// Inputs must not be written: any recorded GM write into an input's bytes.
std::vector<Diagnostic> checkInputsUnwritten(const std::string& tensor, std::uint64_t address,
                                             std::uint64_t bytes, const std::vector<sim::GmRange>& writes,
                                             const std::string& file);

// Per block (index = GetBlockIdx()), the byte ranges of the tensor at `address` (`bytes` long) that
// block wrote, relative to the tensor's start, sorted and merged: the slices the kernel really wrote, for
// the verifier's block attribution.
std::vector<std::vector<sim::GmRange>> tensorWritesByBlock(const kwb_sim::LaunchTrace& trace,
                                                           std::uint64_t address, std::uint64_t bytes);

// The line in `file` of the one SetGlobalBuffer every recorded GM write into the tensor at `address`
// (`bytes` long) went through: where the blocks' ranges of that output were set (docs/emulator.md, "Cause
// lines"). 0 when no write recorded it, when writes came through several, or from another file.
int tensorRangeSetLine(const kwb_sim::LaunchTrace& trace, std::uint64_t address, std::uint64_t bytes,
                       const std::string& file);

}  // namespace kwb
