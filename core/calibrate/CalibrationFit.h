// SPDX-License-Identifier: MIT
#pragma once
// `kwb calibrate fit`: chooses the SoC parameters the measurements determine so that the emulator's
// predictions of the same calibration programs match the device's Task Duration (docs/calibration.md,
// "kwb calibrate"). The fit minimises the sum of squared log ratios predicted/measured by a coordinate
// search in log space. Only parameters the points determine are fitted: one that moves no prediction by
// more than 0.2 % when scaled by 1.25, or whose effect the points cannot tell from that of a parameter
// earlier in fitParameters() (its sensitivity column nearly in their span), keeps its value. Pure over the
// predictor: the caller costs each point's trace (kwb_sim::LaunchTrace) with the candidate parameters.

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/emulator/costmodel/SocParams.h"

namespace kwb::calibrate {

// A fitted parameter: its place in the SoC file and in SocParams. The order is the priority when two
// parameters act alike on the points: chip-level costs first, then per-core rates, then per-copy costs.
struct FitParameter {
  std::string key;                    // "gm.aggregate_bytes_per_cycle", "transfer.GM->UB.start_cycles"
  std::vector<std::string> jsonPath;  // {"gm", "aggregate_bytes_per_cycle"}
  std::function<double&(sim::SocParams&)> field;
};
const std::vector<FitParameter>& fitParameters();

struct FitPoint {
  std::string tag;
  std::string measuredIn;  // the folder the measurement came from (for the report and the sources)
  double measuredUs = 0;
  std::function<double(const sim::SocParams&)> predictUs;
};

struct FitResult {
  sim::SocParams fitted;
  struct Parameter {
    std::string key;
    double before = 0, after = 0;
    bool determined = false;
    std::string why;  // why it was not fitted
  };
  std::vector<Parameter> parameters;
  struct Residual {
    std::string tag, measuredIn;
    double measuredUs = 0, beforeUs = 0, afterUs = 0;
  };
  std::vector<Residual> residuals;
  double rmsLogBefore = 0, rmsLogAfter = 0;  // sqrt(mean(ln(pred/meas)^2))
  int evaluations = 0;
};

// Throws std::invalid_argument when there are no points or a measurement is not positive.
FitResult fitSocParams(const sim::SocParams& start, const std::vector<FitPoint>& points);

// The SoC file text with the fitted values: each determined parameter gets source "fitted" and a ref
// naming the fit and its folders, clockMhz (when measured) source "measured". Key order is kept.
std::string fittedSocJson(std::string_view baseSocJson, const FitResult& fit, double measuredClockMhz,
                          const std::string& clockSource);

// Markdown: parameters before/after, residuals per point before/after, the RMS error.
std::string fitReportMarkdown(const FitResult& fit, const std::string& soc);

}  // namespace kwb::calibrate
