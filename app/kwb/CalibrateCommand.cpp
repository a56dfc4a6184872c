// SPDX-License-Identifier: MIT
// kwb calibrate: calibrate the emulator's cost model against a device (docs/calibration.md, "kwb calibrate").
//   emit     the calibration programs as CANN kernel-launch projects, one folder per point
//   fit      read the msprof op output of those folders, fit the SoC parameters, write a SoC file + report
//   predict  write the emulator's own msprof-style OpBasicInfo/PipeUtilization into each point's prof/
//            (what the fit compares against; a dry run without a device, and the round-trip test's data)

#include <algorithm>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>

#include "app/kwb/Cli.h"
#include "core/base/InstallLayout.h"
#include "core/base/TempWorkDir.h"
#include "core/base/TextFile.h"
#include "core/calibrate/CalibrationFit.h"
#include "core/calibrate/CalibrationProject.h"
#include "core/calibrate/PointEmulation.h"
#include "core/calibrate/PointFolder.h"
#include "core/diag/MsprofParser.h"
#include "core/emulator/SimBuilder.h"
#include "core/emulator/costmodel/CostModel.h"

namespace kwb::cli {

namespace {

using namespace kwb::calibrate;

std::filesystem::path baseSocFile(const std::string& soc, const std::string& socFile) {
  if (!socFile.empty()) return socFile;
  return socDirectory(currentInstallLayout()) / (soc + ".json");
}

// Emulates each point once; the traces are then costed with any parameters.
std::vector<kwb_sim::LaunchTrace> emulateAll(const std::vector<CalibrationPoint>& points,
                                             const std::string& soc) {
  std::string error;
  const auto dir = makeTempWorkDir("kwb-calibrate-", error);
  if (dir.empty()) throw std::runtime_error("cannot create a work folder: " + error);
  std::vector<kwb_sim::LaunchTrace> traces;
  try {
    for (const auto& p : points) {
      std::cerr << "kwb calibrate: emulating " << p.tag << "\n";
      traces.push_back(emulatePoint(p, soc, dir / p.tag));
    }
  } catch (...) {
    std::filesystem::remove_all(dir);
    throw;
  }
  std::filesystem::remove_all(dir);
  return traces;
}

// The emit folder itself stands for all its points; anything else is taken as given.
std::vector<std::string> expandPointDirs(const std::vector<std::string>& dirs) {
  std::vector<std::string> out;
  for (const auto& d : dirs) {
    std::error_code ec;
    std::vector<std::string> children;
    if (!std::filesystem::exists(std::filesystem::path(d) / kManifestFileName, ec))
      for (const auto& e : std::filesystem::directory_iterator(d, ec))
        if (std::filesystem::exists(e.path() / kManifestFileName, ec)) children.push_back(e.path().string());
    std::sort(children.begin(), children.end());
    if (children.empty())
      out.push_back(d);
    else
      out.insert(out.end(), children.begin(), children.end());
  }
  return out;
}

std::string fixed3(double v) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(3) << v;
  return s.str();
}

// The emulator's estimate in msprof op's column layout (docs/ascend-notes.md §4: OpBasicInfo.csv,
// PipeUtilization.csv A2/A3), so that `fit` reads it exactly as it reads a device's.
void writeMsprofStyle(const sim::Profile& p, const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir);
  std::ofstream op(dir / "OpBasicInfo.csv");
  op << "Op Name,Op Type,Task Duration(us),Block Dim,Mix Block Dim,Device ID,PID,Current Freq,Rated Freq\n"
     << p.kernel << ",vector," << fixed3(p.totalUs) << "," << p.blockDim << ",N/A,0,0," << fixed3(p.clockMhz)
     << "," << fixed3(p.clockMhz) << "\n";
  // The profile's own msprof-style writer: aiv_* columns for a vector kernel, aic_* (mac, mte1,
  // fixpipe, ...) for a cube kernel, as the device's PipeUtilization.csv has them.
  std::ofstream pipes(dir / "PipeUtilization.csv");
  sim::writePipeUtilizationCsv(p, pipes);
  if (!op || !pipes) throw std::runtime_error("cannot write " + dir.string());
}

int emitAction(const std::string& soc, const std::string& out, bool quick) {
  try {
    const auto points = calibrationPoints(quick);
    emitCalibrationProject(points, soc, out);
    std::cout << "kwb calibrate emit: " << points.size() << " point(s) for " << soc << " in " << out
              << "\nnext: on the device, bash " << (std::filesystem::path(out) / "run_all.sh").string()
              << "; then kwb calibrate fit " << out << " --soc " << soc << " --out FILE (see "
              << (std::filesystem::path(out) / "README.md").string() << ")\n";
    return Success;
  } catch (const std::invalid_argument& e) {
    std::cerr << "kwb calibrate emit: " << e.what() << "\n";
    return BadInput;
  }
}

std::vector<MeasuredPoint> loadAll(const std::vector<std::string>& dirs, const char* command) {
  std::vector<MeasuredPoint> measured;
  std::map<std::string, std::string> seen;
  for (const auto& d : expandPointDirs(dirs)) {
    measured.push_back(loadMeasuredPoint(d));
    const auto& tag = measured.back().point.tag;
    if (seen.count(tag))
      // An error message, built once when the input is refused
      // NOLINTNEXTLINE(performance-inefficient-string-concatenation)
      throw CalibrationInputError(d + ": point " + tag + " is measured twice (also in " + seen[tag] + ")");
    seen[tag] = d;
  }
  (void)command;
  return measured;
}

int fitAction(const std::vector<std::string>& dirs, const std::string& soc, const std::string& socFile,
              const std::string& out, const std::string& report) {
  std::vector<MeasuredPoint> measured;
  std::string baseText;
  const auto base = baseSocFile(soc, socFile);
  try {
    measured = loadAll(dirs, "fit");
    baseText = readTextFileOrThrow(base);
  } catch (const std::runtime_error& e) {  // CalibrationInputError, MsprofParseError, unreadable file
    std::cerr << "kwb calibrate fit: " << e.what() << "\n";
    return BadInput;
  }
  sim::SocParams start;
  try {
    start = sim::parseSocParams(baseText, base.string());
  } catch (const std::exception& e) {
    std::cerr << "kwb calibrate fit: " << base.string() << ": " << e.what() << "\n";
    return BadInput;
  }
  // The device's clock, when every point reports the same: cycle counts are only comparable at it.
  double clock = 0;
  std::string clockSource;
  for (const auto& m : measured) {
    if (!m.measurement.currentFreqMHz) {
      clock = -1;
      break;
    }
    if (clock > 0 && *m.measurement.currentFreqMHz != clock) {
      clock = -1;
      break;
    }
    clock = *m.measurement.currentFreqMHz;
    clockSource = m.opBasicInfoFile.string();
  }
  if (clock > 0) start.clockMhz = clock;

  std::vector<CalibrationPoint> points;
  points.reserve(measured.size());
  for (const auto& m : measured) points.push_back(m.point);
  const auto traces = std::make_shared<std::vector<kwb_sim::LaunchTrace>>(emulateAll(points, start.name));
  std::vector<FitPoint> fitPoints;
  for (std::size_t i = 0; i < measured.size(); ++i) {
    const auto* trace = &(*traces)[i];
    auto predict = [trace](const sim::SocParams& s) {
      const sim::Profile p = sim::simulate(s, *trace);
      FitPrediction out{p.totalUs, {}};
      const auto ratio = [&](kwb_sim::Pipe pipe) { return p.pipes[static_cast<std::size_t>(pipe)].ratio; };
      out.ratios = {{"vec", ratio(kwb_sim::Pipe::V)},      {"scalar", ratio(kwb_sim::Pipe::S)},
                    {"mte2", ratio(kwb_sim::Pipe::MTE2)},  {"mte3", ratio(kwb_sim::Pipe::MTE3)},
                    {"mac", ratio(kwb_sim::Pipe::M)},      {"mte1", ratio(kwb_sim::Pipe::MTE1)},
                    {"fixpipe", ratio(kwb_sim::Pipe::FIX)}};
      return out;
    };
    fitPoints.push_back({measured[i].point.tag, measured[i].opBasicInfoFile.parent_path().string(),
                         measured[i].measurement.taskDurationUs,
                         [predict](const sim::SocParams& s) { return predict(s).us; },
                         sim::simulate(start, *trace).bound, measured[i].measurement.pipeRatios, predict});
  }
  const FitResult fit = fitSocParams(start, fitPoints);
  const std::string text = fittedSocJson(baseText, fit, clock > 0 ? clock : 0, clockSource);
  sim::parseSocParams(text, out);  // the written file must load as a SoC file
  const std::string md = fitReportMarkdown(fit, start.name);
  for (const auto& [file, content] : {std::pair{out, text}, std::pair{report, md}}) {
    if (file.empty()) continue;
    std::ofstream f(file);
    f << content;
    if (!f.flush()) {
      std::cerr << "kwb calibrate fit: cannot write " << file << "\n";
      return BadInput;
    }
  }
  std::cout << md;
  return Success;
}

int predictAction(const std::vector<std::string>& dirs, const std::string& soc, const std::string& socFile) {
  std::vector<CalibrationPoint> points;
  std::vector<std::filesystem::path> pointDirs;
  sim::SocParams params;
  try {
    for (const auto& d : expandPointDirs(dirs)) {
      std::filesystem::path manifest = std::filesystem::path(d) / kManifestFileName;
      points.push_back(parsePointManifest(readTextFileOrThrow(manifest), manifest.string()));
      pointDirs.push_back(d);
    }
    const auto base = baseSocFile(soc, socFile);
    params = sim::parseSocParams(readTextFileOrThrow(base), base.string());
  } catch (const std::exception& e) {
    std::cerr << "kwb calibrate predict: " << e.what() << "\n";
    return BadInput;
  }
  const auto traces = emulateAll(points, params.name);
  for (std::size_t i = 0; i < points.size(); ++i) {
    const sim::Profile p = sim::simulate(params, traces[i]);
    writeMsprofStyle(p, pointDirs[i] / kProfFolderName / "KWB_EMULATED");
    std::cout << points[i].tag << ": " << fixed3(p.totalUs) << " us\n";
  }
  return Success;
}

}  // namespace

void addCalibrateCommand(CLI::App& app, Context& ctx) {
  auto* cal = app.add_subcommand(
      "calibrate",
      "Calibrate the emulator's cost model on a device: emit the programs, fit msprof op output");
  cal->require_subcommand(1);

  struct Opts {
    std::string soc = "Ascend910B1", socFile, out, report;
    bool quick = false;
    std::vector<std::string> dirs;
  };
  auto opts = std::make_shared<Opts>();

  auto* emit = cal->add_subcommand("emit", "Write the calibration programs as CANN kernel-launch projects");
  emit->add_option("--soc", opts->soc, "SoC the projects build for")->check(CLI::IsMember(simSocNames()));
  emit->add_option("--out", opts->out, "Folder to create (must not exist or be empty)")->required();
  emit->add_flag("--quick", opts->quick, "A few small shapes instead of the published setups");
  emit->callback(
      [&ctx, opts] { ctx.action = [opts] { return emitAction(opts->soc, opts->out, opts->quick); }; });

  auto* fit = cal->add_subcommand(
      "fit",
      "Fit SoC parameters to the msprof op output of emitted point folders; write a SoC file and a report");
  fit->add_option("dirs", opts->dirs, "Point folders of kwb calibrate emit (or their prof/ folders)")
      ->required();
  fit->add_option("--soc", opts->soc, "SoC whose shipped file is the starting point")
      ->check(CLI::IsMember(simSocNames()));
  fit->add_option("--soc-file", opts->socFile, "Start from this SoC file instead of the shipped one");
  fit->add_option("--out", opts->out, "SoC file to write")->required();
  fit->add_option("--report", opts->report, "Also write the fit report (Markdown) here");
  fit->callback([&ctx, opts] {
    ctx.action = [opts] { return fitAction(opts->dirs, opts->soc, opts->socFile, opts->out, opts->report); };
  });

  auto* predict = cal->add_subcommand(
      "predict",
      "Write the emulator's estimate of each point as msprof-style CSVs into <point>/prof/KWB_EMULATED");
  predict->add_option("dirs", opts->dirs, "Point folders of kwb calibrate emit")->required();
  predict->add_option("--soc", opts->soc, "SoC")->check(CLI::IsMember(simSocNames()));
  predict->add_option("--soc-file", opts->socFile, "Cost with this SoC file instead of the shipped one");
  predict->callback(
      [&ctx, opts] { ctx.action = [opts] { return predictAction(opts->dirs, opts->soc, opts->socFile); }; });
}

}  // namespace kwb::cli
