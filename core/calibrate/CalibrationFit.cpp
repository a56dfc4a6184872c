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
  };
  return params;
}

FitResult fitSocParams(const SocParams& start, const std::vector<FitPoint>& points) {
  if (points.empty()) throw std::invalid_argument("no measured points to fit");
  for (const auto& p : points)
    if (!(p.measuredUs > 0)) throw std::invalid_argument(p.measuredIn + ": measured time is not positive");
  FitResult r;
  r.fitted = start;
  std::vector<double> base;
  base.reserve(points.size());
  for (const auto& p : points) base.push_back(p.predictUs(start));

  // Which parameters the points can tell apart: the log-sensitivity of every prediction to each
  // parameter (a column), in the order of fitParameters(); a column that (nearly) lies in the span of the
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
      std::vector<double> column(points.size());
      double largest = 0;
      for (std::size_t i = 0; i < points.size(); ++i) {
        column[i] = std::log(points[i].predictUs(probe) / base[i]) / std::log(kDeterminedScale);
        largest = std::max(largest, std::abs(column[i]));
      }
      const double norm = std::sqrt(std::inner_product(column.begin(), column.end(), column.begin(), 0.0));
      if (largest * std::log(kDeterminedScale) <= kDeterminedChange) {
        out.why = "no point's time depends on it";
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
  auto residuals = [&](const SocParams& soc) {
    ++r.evaluations;
    std::vector<double> res;
    for (const auto& p : points) {
      const double pred = p.predictUs(soc);
      res.push_back(pred > 0 ? std::log(pred / p.measuredUs) : 50.0);
    }
    return res;
  };
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
  const std::size_t n = points.size(), m = free.size();
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
    FitResult::Residual res{points[i].tag, points[i].measuredIn, points[i].measuredUs, base[i],
                            points[i].predictUs(r.fitted)};
    before += std::pow(std::log(res.beforeUs / res.measuredUs), 2);
    after += std::pow(std::log(res.afterUs / res.measuredUs), 2);
    r.residuals.push_back(res);
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
  s << "\n| Point | Measured µs | Before µs | Error before | After µs | Error after | Folder |\n"
    << "|---|---|---|---|---|---|---|\n";
  for (const auto& r : fit.residuals)
    s << "| " << r.tag << " | " << fixed(r.measuredUs, 2) << " | " << fixed(r.beforeUs, 2) << " | "
      << fixed(100 * (r.beforeUs / r.measuredUs - 1), 1) << " % | " << fixed(r.afterUs, 2) << " | "
      << fixed(100 * (r.afterUs / r.measuredUs - 1), 1) << " % | " << r.measuredIn << " |\n";
  return s.str();
}

}  // namespace kwb::calibrate
