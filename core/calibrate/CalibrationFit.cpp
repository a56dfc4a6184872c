// SPDX-License-Identifier: MIT
#include "core/calibrate/CalibrationFit.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <numeric>
#include <sstream>
#include <stdexcept>

namespace kwb::calibrate {

namespace {

using sim::Path;
using sim::SocParams;

constexpr double kDeterminedScale = 1.25;    // probe of whether the points see a parameter
constexpr double kDeterminedChange = 0.002;  // relative change of some prediction that counts
constexpr double kRange = 10.0;
// A sensitivity column counts as new information when at least this share of its length lies outside
// the span of the columns kept before it.
constexpr double kIndependent = 0.15;  // a fitted value stays within [base / 10, base * 10]
constexpr double kMinRatio = 0.02;     // pipe ratios below this are too small to compare

std::string fixed(double v, int digits) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(digits) << v;
  return s.str();
}

}  // namespace

const std::vector<FitParameter>& fitParameters() {
  static const std::vector<FitParameter> params = {
      {"launch.task_overhead_cycles",
       {"launch", "task_overhead_cycles"},
       [](SocParams& s) -> double& { return s.taskOverheadCycles; }},
      {"gm.aggregate_bytes_per_cycle",
       {"gm", "aggregate_bytes_per_cycle"},
       [](SocParams& s) -> double& { return s.gmAggregateBytesPerCycle; }},
      {"gm.l2_read_bytes_per_cycle",
       {"gm", "l2_read_bytes_per_cycle"},
       [](SocParams& s) -> double& { return s.l2ReadBytesPerCycle; }},
      {"gm.l2_write_bytes_per_cycle",
       {"gm", "l2_write_bytes_per_cycle"},
       [](SocParams& s) -> double& { return s.l2WriteBytesPerCycle; }},
      {"transfer.GM->UB.start_cycles",
       {"transfer", "GM->UB", "start_cycles"},
       [](SocParams& s) -> double& { return s.paths[static_cast<int>(Path::GmToUb)].startCycles; }},
      {"gm.burst_cycles", {"gm", "burst_cycles"}, [](SocParams& s) -> double& { return s.gmBurstCycles; }},
      {"transfer.UB->GM.start_cycles",
       {"transfer", "UB->GM", "start_cycles"},
       [](SocParams& s) -> double& { return s.paths[static_cast<int>(Path::UbToGm)].startCycles; }},
      {"launch.block_start_cycles",
       {"launch", "block_start_cycles"},
       [](SocParams& s) -> double& { return s.blockStartCycles; }},
      // Seen mostly through the pipe ratios: the vector and scalar costs of kernels that are memory-bound.
      {"scalar.api_issue_cycles",
       {"scalar", "api_issue_cycles"},
       [](SocParams& s) -> double& { return s.apiIssueCycles; }},
      {"scalar.ub_get_value_cycles",
       {"scalar", "ub_get_value_cycles"},
       [](SocParams& s) -> double& { return s.ubGetValueCycles; }},
      {"vector.head_cycles",
       {"vector", "head_cycles"},
       [](SocParams& s) -> double& { return s.vectorHeadCycles; }},
      {"vector.ub_banks.read_write_conflict_cycles",
       {"vector", "ub_banks", "read_write_conflict_cycles"},
       [](SocParams& s) -> double& { return s.ubBanks.readWriteBeats; }},
  };
  return params;
}

FitResult fitSocParams(const SocParams& start, const std::vector<FitPoint>& points) {
  if (points.empty()) throw std::invalid_argument("no measured points to fit");
  for (const auto& p : points)
    if (!(p.measuredUs > 0)) throw std::invalid_argument(p.measuredIn + ": measured time is not positive");
  FitResult r;
  r.fitted = start;
  const auto evaluate = [](const FitPoint& p, const SocParams& soc) {
    return p.predict ? p.predict(soc) : FitPrediction{p.predictUs(soc), {}};
  };
  std::vector<FitPrediction> basePred;
  basePred.reserve(points.size());
  for (const auto& p : points) basePred.push_back(evaluate(p, start));
  std::vector<double> base;
  base.reserve(points.size());
  for (const auto& b : basePred) base.push_back(b.us);
  // The ratio residuals: every (point, pipe) both sides give at least kMinRatio of the block time.
  struct RatioTerm {
    std::size_t point;
    std::string pipe;
    double measured;
  };
  std::vector<RatioTerm> ratioTerms;
  for (std::size_t i = 0; i < points.size(); ++i)
    for (const auto& [pipe, measured] : points[i].measuredRatios) {
      const auto it = basePred[i].ratios.find(pipe);
      if (measured >= kMinRatio && it != basePred[i].ratios.end() && it->second >= kMinRatio)
        ratioTerms.push_back({i, pipe, measured});
    }
  // Residual vector: ln(predicted / measured) of every time, then kRatioWeight * ln of every ratio term.
  auto residuals = [&](const SocParams& soc) {
    ++r.evaluations;
    std::vector<FitPrediction> pred;
    pred.reserve(points.size());
    for (const auto& p : points) pred.push_back(evaluate(p, soc));
    std::vector<double> res;
    res.reserve(points.size() + ratioTerms.size());
    for (std::size_t i = 0; i < points.size(); ++i)
      res.push_back(pred[i].us > 0 ? std::log(pred[i].us / points[i].measuredUs) : 50.0);
    for (const auto& t : ratioTerms) {
      const auto it = pred[t.point].ratios.find(t.pipe);
      const double v = it == pred[t.point].ratios.end() ? 0 : it->second;
      res.push_back(kRatioWeight * std::log(std::max(v, 1e-6) / t.measured));
    }
    return res;
  };
  const std::vector<double> baseRes = residuals(start);

  // Which parameters the points can tell apart: the sensitivity of every residual to each parameter's
  // logarithm (a column), in the order of fitParameters(); a column that (nearly) lies in the span of the
  // columns kept before it is a direction these points cannot resolve (e.g. launch overhead and block
  // start when every point runs one wave), so that parameter keeps its value.
  std::vector<std::size_t> free;
  std::vector<std::vector<double>> basis;  // orthonormalised kept columns
  const auto& params = fitParameters();
  for (std::size_t k = 0; k < params.size(); ++k) {
    SocParams probe = start;
    double& v = params[k].field(probe);
    FitResult::Parameter out{params[k].key, v, v, false, ""};
    if (v > 0) {
      v *= kDeterminedScale;
      const std::vector<double> shifted = residuals(probe);
      std::vector<double> column(shifted.size());
      double largest = 0;
      for (std::size_t i = 0; i < column.size(); ++i) {
        column[i] = (shifted[i] - baseRes[i]) / std::log(kDeterminedScale);
        largest = std::max(largest, std::abs(column[i]));
      }
      const double norm = std::sqrt(std::inner_product(column.begin(), column.end(), column.begin(), 0.0));
      if (largest * std::log(kDeterminedScale) <= kDeterminedChange) {
        out.why = "no point's time or pipe ratio depends on it";
      } else {
        for (const auto& b : basis) {
          const double dot = std::inner_product(column.begin(), column.end(), b.begin(), 0.0);
          for (std::size_t i = 0; i < column.size(); ++i) column[i] -= dot * b[i];
        }
        const double rest = std::sqrt(std::inner_product(column.begin(), column.end(), column.begin(), 0.0));
        if (rest < kIndependent * norm) {
          out.why = "not separable from the parameters above by these points";
        } else {
          for (double& c : column) c /= rest;
          basis.push_back(column);
          out.determined = true;
        }
      }
    } else {
      out.why = "0 in the base file";
    }
    if (out.determined) free.push_back(k);
    r.parameters.push_back(out);
  }

  // Levenberg-Marquardt on x = ln(value) of the free parameters, residuals ln(predicted / measured),
  // Jacobian by forward differences; then a coordinate search polishes what the piecewise-linear cost
  // model (maxima of pipe times) leaves to a gradient method.
  auto sumSquares = [](const std::vector<double>& v) {
    return std::inner_product(v.begin(), v.end(), v.begin(), 0.0);
  };
  auto moved = [&](const SocParams& from, const std::vector<double>& dx) {
    SocParams to = from;
    for (std::size_t c = 0; c < free.size(); ++c) {
      const std::size_t k = free[c];
      double& v = params[k].field(to);
      v = std::clamp(v * std::exp(dx[c]), r.parameters[k].before / kRange, r.parameters[k].before * kRange);
    }
    return to;
  };
  std::vector<double> res = residuals(r.fitted);
  double best = sumSquares(res);
  double lambda = 1e-3;
  const std::size_t n = res.size(), m = free.size();
  for (int iteration = 0; iteration < 40 && m > 0 && best > 1e-12; ++iteration) {
    constexpr double h = 0.02;
    std::vector<std::vector<double>> jac(n, std::vector<double>(m));
    for (std::size_t c = 0; c < m; ++c) {
      std::vector<double> dx(m, 0.0);
      dx[c] = h;
      const auto shifted = residuals(moved(r.fitted, dx));
      for (std::size_t i = 0; i < n; ++i) jac[i][c] = (shifted[i] - res[i]) / h;
    }
    bool accepted = false;
    for (int attempt = 0; attempt < 8 && !accepted; ++attempt) {
      // (J^T J + lambda diag(J^T J)) dx = -J^T r, by Gaussian elimination with partial pivoting.
      std::vector<std::vector<double>> a(m, std::vector<double>(m + 1, 0.0));
      for (std::size_t p = 0; p < m; ++p) {
        for (std::size_t q = 0; q < m; ++q)
          for (std::size_t i = 0; i < n; ++i) a[p][q] += jac[i][p] * jac[i][q];
        for (std::size_t i = 0; i < n; ++i) a[p][m] -= jac[i][p] * res[i];
      }
      for (std::size_t p = 0; p < m; ++p) a[p][p] += lambda * std::max(a[p][p], 1e-9);
      for (std::size_t p = 0; p < m; ++p) {
        std::size_t pivot = p;
        for (std::size_t q = p + 1; q < m; ++q)
          if (std::abs(a[q][p]) > std::abs(a[pivot][p])) pivot = q;
        std::swap(a[p], a[pivot]);
        if (std::abs(a[p][p]) < 1e-300) continue;
        for (std::size_t q = 0; q < m; ++q) {
          if (q == p) continue;
          const double f = a[q][p] / a[p][p];
          for (std::size_t c = p; c <= m; ++c) a[q][c] -= f * a[p][c];
        }
      }
      std::vector<double> dx(m, 0.0);
      for (std::size_t p = 0; p < m; ++p)
        dx[p] = std::abs(a[p][p]) < 1e-300 ? 0.0 : std::clamp(a[p][m] / a[p][p], -1.0, 1.0);
      const SocParams trial = moved(r.fitted, dx);
      const auto trialRes = residuals(trial);
      const double value = sumSquares(trialRes);
      if (value < best) {
        r.fitted = trial;
        res = trialRes;
        accepted = best - value > 1e-10 * best;
        best = value;
        lambda = std::max(lambda / 10, 1e-9);
        if (!accepted) iteration = 1000;  // converged
        accepted = true;
      } else {
        lambda *= 10;
      }
    }
    if (!accepted) break;
  }
  for (double step = std::log(1.1); step > std::log(1.001) && r.evaluations < 4000;) {
    bool improved = false;
    for (std::size_t c = 0; c < m; ++c) {
      for (double dir : {1.0, -1.0}) {
        std::vector<double> dx(m, 0.0);
        dx[c] = dir * step;
        const SocParams trial = moved(r.fitted, dx);
        const double value = sumSquares(residuals(trial));
        if (value < best * (1 - 1e-9)) {
          best = value;
          r.fitted = trial;
          improved = true;
          break;
        }
      }
    }
    if (!improved) step /= 2;
  }
  for (std::size_t k = 0; k < params.size(); ++k) r.parameters[k].after = params[k].field(r.fitted);

  double before = 0, after = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const FitPrediction fitted = evaluate(points[i], r.fitted);
    FitResult::Residual row{
        points[i].tag, points[i].measuredIn, points[i].measuredUs, base[i], fitted.us, {}};
    for (const auto& t : ratioTerms)
      if (t.point == i) {
        const auto found = fitted.ratios.find(t.pipe);
        row.ratios[t.pipe] = {t.measured, basePred[i].ratios.at(t.pipe),
                              found == fitted.ratios.end() ? 0.0 : found->second};
      }
    before += std::pow(std::log(row.beforeUs / row.measuredUs), 2);
    after += std::pow(std::log(row.afterUs / row.measuredUs), 2);
    if (!points[i].bound.empty()) {
      const double pct = std::ceil(100 * std::abs(row.afterUs / row.measuredUs - 1));
      double& worst = r.expectedErrorPct[points[i].bound];
      worst = std::max({worst, pct, 1.0});
      ++r.expectedErrorPoints[points[i].bound];
    }
    r.residuals.push_back(row);
  }
  r.rmsLogBefore = std::sqrt(before / static_cast<double>(points.size()));
  r.rmsLogAfter = std::sqrt(after / static_cast<double>(points.size()));
  return r;
}

std::string fittedSocJson(std::string_view baseSocJson, const FitResult& fit, double measuredClockMhz,
                          const std::string& clockSource) {
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(baseSocJson);
  std::string folders;
  for (const auto& res : fit.residuals) folders += (folders.empty() ? "" : ", ") + res.measuredIn;
  const std::string ref = "kwb calibrate fit over " + std::to_string(fit.residuals.size()) +
                          " calibration point(s) measured with msprof op: " + folders;
  const auto& params = fitParameters();
  for (std::size_t k = 0; k < params.size(); ++k) {
    if (!fit.parameters[k].determined) continue;
    nlohmann::ordered_json* node = &j;
    for (const auto& part : params[k].jsonPath) node = &(*node)[part];
    if (!node->is_object()) *node = nlohmann::ordered_json::object();
    (*node)["value"] = std::round(fit.parameters[k].after * 1000) / 1000;
    (*node)["source"] = "fitted";
    (*node)["ref"] = ref + " (before the fit: " + fixed(fit.parameters[k].before, 3) + ")";
  }
  for (const auto& [bound, pct] : fit.expectedErrorPct) {
    auto& node = j["calibration"]["expected_error_pct"][bound];
    node = nlohmann::ordered_json::object();
    node["value"] = pct;
    node["unit"] = "%";
    node["source"] = "fitted";
    std::string source = "kwb calibrate fit: worst |error| after the fit over the ";
    source += std::to_string(fit.expectedErrorPoints.at(bound));
    source += " " + bound;
    source += "-bound point(s) of " + folders;
    source += " (in-sample)";
    node["ref"] = source;
  }
  if (measuredClockMhz > 0) {
    auto& clock = j["clock_mhz"];
    if (!clock.is_object()) clock = nlohmann::ordered_json::object();
    clock["value"] = measuredClockMhz;
    clock["source"] = "measured";
    clock["ref"] = "\"Current Freq\" of " + clockSource;
  }
  return j.dump(1) + "\n";
}

std::string fitReportMarkdown(const FitResult& fit, const std::string& soc) {
  std::ostringstream s;
  s << "# kwb calibrate fit: " << soc << "\n\n"
    << "RMS of ln(predicted / measured): before " << fixed(fit.rmsLogBefore, 4) << ", after "
    << fixed(fit.rmsLogAfter, 4) << " (" << fit.evaluations << " evaluations)\n\n"
    << "| Parameter | Before | After | Determined by these points |\n|---|---|---|---|\n";
  for (const auto& p : fit.parameters)
    s << "| " << p.key << " | " << fixed(p.before, 3) << " | " << fixed(p.after, 3) << " | "
      << (p.determined ? std::string("yes (fitted)") : "no (kept: " + p.why + ")") << " |\n";
  if (!fit.expectedErrorPct.empty()) {
    s << "\nExpected error written to calibration.expected_error_pct (worst |error| after the fit, "
         "in-sample):";
    for (const auto& [bound, pct] : fit.expectedErrorPct)
      s << " " << bound << " " << fixed(pct, 0) << " % (" << fit.expectedErrorPoints.at(bound) << " points);";
    s << "\n";
  }
  s << "\n| Point | Measured µs | Before µs | Error before | After µs | Error after | Folder |\n"
    << "|---|---|---|---|---|---|---|\n";
  for (const auto& r : fit.residuals)
    s << "| " << r.tag << " | " << fixed(r.measuredUs, 2) << " | " << fixed(r.beforeUs, 2) << " | "
      << fixed(100 * (r.beforeUs / r.measuredUs - 1), 1) << " % | " << fixed(r.afterUs, 2) << " | "
      << fixed(100 * (r.afterUs / r.measuredUs - 1), 1) << " % | " << r.measuredIn << " |\n";
  bool anyRatio = false;
  for (const auto& r : fit.residuals) anyRatio = anyRatio || !r.ratios.empty();
  if (anyRatio) {
    s << "\nPipe ratios in the fit (weight " << fixed(kRatioWeight, 2) << " against a time):\n\n"
      << "| Point | Pipe | Measured | Before | After |\n|---|---|---|---|---|\n";
    for (const auto& r : fit.residuals)
      for (const auto& [pipe, v] : r.ratios)
        s << "| " << r.tag << " | " << pipe << " | " << fixed(v[0], 3) << " | " << fixed(v[1], 3) << " | "
          << fixed(v[2], 3) << " |\n";
  }
  return s.str();
}

}  // namespace kwb::calibrate
