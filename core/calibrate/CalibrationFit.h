// SPDX-License-Identifier: MIT
#pragma once
// `kwb calibrate fit`: chooses the SoC parameters the measurements determine so that the emulator's
// predictions of the same calibration programs match the device's Task Duration (docs/calibration.md,
// "kwb calibrate"). The fit minimises the sum of squared log ratios predicted/measured by a coordinate
// search in log space. Only parameters the points determine are fitted: one that moves no prediction by
// more than 0.2 % when scaled by 1.25, or whose effect the points cannot tell from that of a parameter
// earlier in fitParameters() (its sensitivity column nearly in their span), keeps its value. Pure over the
// predictor: the caller costs each point's trace (kwb_sim::LaunchTrace) with the candidate parameters.

#include <array>
#include <functional>
#include <map>
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

// What the model predicts for one point: the Task Duration and the per-pipe ratios msprof reports
// ("vec", "scalar", "mte2", "mte3": busy / block time).
struct FitPrediction {
  double us = 0;
  std::map<std::string, double> ratios;
};

struct FitPoint {
  std::string tag;
  std::string measuredIn;  // the folder the measurement came from (for the report and the sources)
  double measuredUs = 0;
  std::function<double(const sim::SocParams&)> predictUs;
  // The profile bound the model gives the point ("memory", "scalar", ...; empty: unknown): the fit's
  // residuals per bound become the SoC file's calibration.expected_error_pct.
  std::string bound = {};
  // The device's per-pipe ratios (PipeUtilization.csv); with `predict` set they join the fit as residuals
  // ln(predicted / measured) weighted by kRatioWeight, for every ratio of at least 2 % on both sides.
  std::map<std::string, double> measuredRatios = {};
  // The model's time and ratios in one evaluation; when empty, predictUs alone is used.
  std::function<FitPrediction(const sim::SocParams&)> predict = {};
};

// Weight of a pipe-ratio residual against a time residual (1): the time is what the targets judge; the
// ratios tell the fit which pipe a time belongs to (e.g. the vector costs of a memory-bound kernel).
inline constexpr double kRatioWeight = 0.5;

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
    // Ratios that took part in the fit: pipe -> {measured, before, after}.
    std::map<std::string, std::array<double, 3>> ratios;
  };
  std::vector<Residual> residuals;
  double rmsLogBefore = 0, rmsLogAfter = 0;  // sqrt(mean(ln(pred/meas)^2))
  // Per bound of the points that give one: the worst |after / measured - 1| in percent, rounded up
  // (in-sample: the fitted points' own residuals), and how many points it rests on.
  std::map<std::string, double> expectedErrorPct;
  std::map<std::string, int> expectedErrorPoints;
  int evaluations = 0;
};

// Throws std::invalid_argument when there are no points or a measurement is not positive.
FitResult fitSocParams(const sim::SocParams& start, const std::vector<FitPoint>& points);

// The SoC file text with the fitted values: each determined parameter gets source "fitted" and a ref
// naming the fit and its folders, clockMhz (when measured) source "measured", and each bound with points
// its calibration.expected_error_pct from the residuals (source "fitted"). Key order is kept.
std::string fittedSocJson(std::string_view baseSocJson, const FitResult& fit, double measuredClockMhz,
                          const std::string& clockSource);

// Markdown: parameters before/after, residuals per point before/after, the RMS error.
std::string fitReportMarkdown(const FitResult& fit, const std::string& soc);

}  // namespace kwb::calibrate
