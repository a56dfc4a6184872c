// SPDX-License-Identifier: MIT
// kwb calibrate (docs/calibration.md, "kwb calibrate"): reading msprof op output of a calibration point
// (SYNTHESIZED fixtures, tests/fixtures/calibration/README.md), the manifest, the fit, the SoC file it
// writes and the emitted projects. The emulator round trip is tests/cli/calibrate.sh.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "core/base/TextFile.h"
#include "core/calibrate/CalibrationFit.h"
#include "core/calibrate/CalibrationMeasurement.h"
#include "core/calibrate/CalibrationProject.h"
#include "core/calibrate/PointFolder.h"
#include "core/diag/MsprofParser.h"
#include "core/emulator/costmodel/SocParams.h"
#include "core/toolchain/TrustedLaunch.h"

using namespace kwb;
using namespace kwb::calibrate;

namespace {

const std::filesystem::path kFixtures = std::filesystem::path(KWB_FIXTURES_DIR) / "calibration";

std::string fixture(const std::string& name) {
  return readTextFileOrThrow(kFixtures / name);
}

template <typename F>
std::string errorOf(F&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

sim::SocParams shippedSoc(const std::string& name) {
  return sim::loadSocParams(std::filesystem::path(KWB_SOURCE_DIR) / "resources" / "soc" / (name + ".json"));
}

}  // namespace

TEST(CalibrationMeasurement, ReadsTaskDurationAndMeanPipeRatiosOfTheNewestRun) {
  const MeasuredPoint m = loadMeasuredPoint(kFixtures / "a2_elementwise_add_b1");
  EXPECT_EQ(m.point.tag, "elementwise_add_b1");
  EXPECT_EQ(m.point.program, "elementwise.cpp");
  ASSERT_EQ(m.point.defines.size(), 2u);
  // JSON objects have no order: the defines come back sorted by name.
  EXPECT_EQ(m.point.defines[0], (std::pair<std::string, long long>{"CAL_BATCH", 1}));
  EXPECT_EQ(m.point.defines[1], (std::pair<std::string, long long>{"CAL_OP", 1}));
  // The newest OPPROF folder (2.58 us), not the older run (9.99 us).
  EXPECT_DOUBLE_EQ(m.measurement.taskDurationUs, 2.58);
  EXPECT_NE(m.opBasicInfoFile.string().find("OPPROF_20261201093000_ABCDEF"), std::string::npos);
  EXPECT_EQ(m.measurement.blockDim, 12);
  ASSERT_TRUE(m.measurement.currentFreqMHz);
  EXPECT_DOUBLE_EQ(*m.measurement.currentFreqMHz, 1650);
  // Blocks 0..11: vec 0.17 + 0.002 b, mean 0.181.
  EXPECT_NEAR(m.measurement.pipeRatios.at("vec"), 0.181, 1e-6);
  EXPECT_NEAR(m.measurement.pipeRatios.at("mte2"), 0.2755, 1e-6);
  EXPECT_EQ(m.measurement.pipeRatios.count("mte3"), 1u);
}

TEST(CalibrationMeasurement, ACubeKernelsRatiosComeFromTheAicColumns) {
  // The matmul point: one AIC block; the aiv_* cells are N/A, the cube pipes are aic_mac/mte1/fixpipe.
  const MeasuredPoint m = loadMeasuredPoint(kFixtures / "a2_matmul_m1");
  EXPECT_EQ(m.point.program, "matmul.cpp");
  EXPECT_EQ(m.point.kernel, "calibration_matmul");
  EXPECT_DOUBLE_EQ(m.measurement.taskDurationUs, 3.54);
  EXPECT_NEAR(m.measurement.pipeRatios.at("mac"), 0.153, 1e-9);
  EXPECT_NEAR(m.measurement.pipeRatios.at("mte2"), 0.411, 1e-9);
  EXPECT_NEAR(m.measurement.pipeRatios.at("mte1"), 0.12, 1e-9);
  EXPECT_NEAR(m.measurement.pipeRatios.at("fixpipe"), 0.05, 1e-9);
  EXPECT_EQ(m.measurement.pipeRatios.count("vec"), 0u);
  // The GM->L1 copy on 24 AIC blocks: the mean of the blocks' aic_mte2_ratio.
  const MeasuredPoint l1 = loadMeasuredPoint(kFixtures / "a2_data_copy_l1_s2");
  EXPECT_EQ(l1.measurement.blockDim, 24);
  EXPECT_DOUBLE_EQ(l1.measurement.taskDurationUs, 230.24);
  EXPECT_NEAR(l1.measurement.pipeRatios.at("mte2"), 0.972, 1e-6);
}

TEST(CalibrationMeasurement, TheProfFolderItselfFindsTheManifestAbove) {
  const MeasuredPoint m = loadMeasuredPoint(kFixtures / "a2_elementwise_add_b1" / "prof");
  EXPECT_EQ(m.point.tag, "elementwise_add_b1");
  EXPECT_DOUBLE_EQ(m.measurement.taskDurationUs, 2.58);
}

TEST(CalibrationMeasurement, MissingTaskDurationColumnNamesFileAndColumn) {
  const std::string e = errorOf([] {
    parsePointMeasurement(fixture("bad/OpBasicInfo_no_duration.csv"), "bad/OpBasicInfo_no_duration.csv", "",
                          "", "calibration_elementwise");
  });
  EXPECT_NE(e.find("bad/OpBasicInfo_no_duration.csv"), std::string::npos) << e;
  EXPECT_NE(e.find("Task Duration(us)"), std::string::npos) << e;
}

TEST(CalibrationMeasurement, NonNumericDurationNamesFileAndLine) {
  const std::string e = errorOf([] {
    parsePointMeasurement(fixture("bad/OpBasicInfo_non_numeric.csv"), "OpBasicInfo_non_numeric.csv", "", "",
                          "calibration_elementwise");
  });
  EXPECT_NE(e.find("OpBasicInfo_non_numeric.csv:2"), std::string::npos) << e;
  EXPECT_NE(e.find("2.5x"), std::string::npos) << e;
}

TEST(CalibrationMeasurement, AnotherKernelsProfileIsRejected) {
  const std::string e = errorOf([] {
    parsePointMeasurement(fixture("bad/OpBasicInfo_other_kernel.csv"), "OpBasicInfo_other_kernel.csv", "", "",
                          "calibration_elementwise");
  });
  EXPECT_NE(e.find("OpBasicInfo_other_kernel.csv"), std::string::npos) << e;
  EXPECT_NE(e.find("no row for kernel calibration_elementwise"), std::string::npos) << e;
}

TEST(CalibrationManifest, UnknownProgramNamesFileAndProgram) {
  const std::string e = errorOf([] {
    parsePointManifest(fixture("bad/manifest_unknown_program.json"), "manifest_unknown_program.json");
  });
  EXPECT_NE(e.find("manifest_unknown_program.json"), std::string::npos) << e;
  EXPECT_NE(e.find("unknown calibration program \"softmax.cpp\""), std::string::npos) << e;
}

TEST(CalibrationManifest, BrokenJsonNamesTheLine) {
  const std::string e =
      errorOf([] { parsePointManifest(fixture("bad/manifest_broken.json"), "manifest_broken.json"); });
  EXPECT_NE(e.find("manifest_broken.json: line 5"), std::string::npos) << e;
}

TEST(CalibrationManifest, FolderWithoutManifestSaysWhatToPass) {
  const std::string e = errorOf([] { loadMeasuredPoint(kFixtures / "bad"); });
  EXPECT_NE(e.find("no kwb-calibration.json"), std::string::npos) << e;
}

// A predictor whose physics is known: launch overhead + per-block start + bytes at the L2 read rate +
// copies at a start cost, per point. Points differ in bytes and copies, so launch, L2 rate and copy start
// are determined; block start acts exactly like launch overhead on one-wave points and must be kept.
TEST(CalibrationFit, RecoversTheParametersThePointsDetermineAndKeepsTheRest) {
  const sim::SocParams truth = [] {
    sim::SocParams s = shippedSoc("Ascend910B1");
    s.taskOverheadCycles *= 1.4;
    s.l2ReadBytesPerCycle *= 0.8;
    s.paths[static_cast<int>(sim::Path::GmToUb)].startCycles *= 1.3;
    return s;
  }();
  const sim::SocParams start = shippedSoc("Ascend910B1");
  struct Shape {
    double bytes, copies;
  };
  const std::vector<Shape> shapes = {{1e5, 10}, {4e6, 50}, {1e6, 4000}, {2e7, 100}, {3e5, 20000}};
  std::vector<FitPoint> points;
  for (const auto& sh : shapes) {
    auto predict = [sh](const sim::SocParams& s) {
      const double cycles = s.taskOverheadCycles + s.blockStartCycles + sh.bytes / s.l2ReadBytesPerCycle +
                            sh.copies * s.paths[static_cast<int>(sim::Path::GmToUb)].startCycles;
      return cycles / s.clockMhz;
    };
    points.push_back({"p" + std::to_string(points.size()), "dir", predict(truth), predict});
  }
  const FitResult fit = fitSocParams(start, points);
  EXPECT_LT(fit.rmsLogAfter, 1e-3);
  EXPECT_GT(fit.rmsLogBefore, 0.05);
  EXPECT_NEAR(fit.fitted.taskOverheadCycles / truth.taskOverheadCycles, 1, 0.01);
  EXPECT_NEAR(fit.fitted.l2ReadBytesPerCycle / truth.l2ReadBytesPerCycle, 1, 0.01);
  EXPECT_NEAR(fit.fitted.paths[static_cast<int>(sim::Path::GmToUb)].startCycles /
                  truth.paths[static_cast<int>(sim::Path::GmToUb)].startCycles,
              1, 0.01);
  for (const auto& p : fit.parameters) {
    if (p.key == "launch.block_start_cycles" || p.key == "gm.aggregate_bytes_per_cycle") {
      EXPECT_FALSE(p.determined) << p.key;
      EXPECT_DOUBLE_EQ(p.after, p.before) << p.key;
      EXPECT_FALSE(p.why.empty()) << p.key;
    }
  }
  ASSERT_EQ(fit.residuals.size(), shapes.size());
  const std::string report = fitReportMarkdown(fit, "Ascend910B1");
  EXPECT_NE(report.find("| launch.block_start_cycles | 700.000 | 700.000 | no (kept: not separable"),
            std::string::npos)
      << report;
}

TEST(CalibrationFit, TheWrittenSocFileMarksFittedAndMeasuredValuesAndLoads) {
  const auto file = std::filesystem::path(KWB_SOURCE_DIR) / "resources" / "soc" / "Ascend910B3.json";
  const std::string base = readTextFileOrThrow(file);
  const sim::SocParams start = sim::parseSocParams(base, "base");
  std::vector<FitPoint> points = {{"a", "runs/a/prof/OPPROF_1", 3.0, [](const sim::SocParams& s) {
                                     return s.taskOverheadCycles / s.clockMhz;
                                   }}};
  const FitResult fit = fitSocParams(start, points);
  const std::string text = fittedSocJson(base, fit, 1650, "runs/a/prof/OPPROF_1/OpBasicInfo.csv");
  const sim::SocParams written = sim::parseSocParams(text, "written");
  EXPECT_NEAR(written.taskOverheadCycles / start.clockMhz, 3.0, 0.01);
  EXPECT_DOUBLE_EQ(written.clockMhz, 1650);
  const auto j = nlohmann::json::parse(text);
  EXPECT_EQ(j["launch"]["task_overhead_cycles"]["source"], "fitted");
  EXPECT_NE(j["launch"]["task_overhead_cycles"]["ref"].get<std::string>().find("runs/a/prof/OPPROF_1"),
            std::string::npos);
  EXPECT_EQ(j["clock_mhz"]["source"], "measured");
  // Not determined by the one point: as in the base file.
  const auto b = nlohmann::json::parse(base);
  EXPECT_EQ(j["gm"]["aggregate_bytes_per_cycle"], b["gm"]["aggregate_bytes_per_cycle"]);
  EXPECT_EQ(j["launch"]["block_start_cycles"], b["launch"]["block_start_cycles"]);
}

// The vector head cost does not move a memory-bound point's time, only its vector ratio: with the
// measured ratios in the fit it is recovered, without them it is kept.
TEST(CalibrationFit, PipeRatiosDetermineCostsTheTimesDoNotSee) {
  const sim::SocParams start = shippedSoc("Ascend910B3");
  sim::SocParams truth = start;
  truth.vectorHeadCycles *= 2.2;
  truth.taskOverheadCycles *= 1.3;
  struct Shape {
    double us, vectorInstrs;
  };
  const std::vector<Shape> shapes = {{10, 1000}, {20, 1500}, {5, 800}};
  auto predictOf = [](Shape sh) {
    return [sh](const sim::SocParams& s) {
      const double us = s.taskOverheadCycles / s.clockMhz + sh.us;
      const double blockCycles = sh.us * s.clockMhz;
      return FitPrediction{us, {{"vec", sh.vectorInstrs * s.vectorHeadCycles / blockCycles}, {"mte2", 0.9}}};
    };
  };
  std::vector<FitPoint> withRatios, timesOnly;
  for (const auto& sh : shapes) {
    const auto predict = predictOf(sh);
    const FitPrediction measured = predict(truth);
    const auto us = [predict](const sim::SocParams& s) { return predict(s).us; };
    withRatios.push_back({"p", "dir", measured.us, us, "memory", measured.ratios, predict});
    timesOnly.push_back({"p", "dir", measured.us, us, "memory"});
  }
  const FitResult fit = fitSocParams(start, withRatios);
  EXPECT_NEAR(fit.fitted.vectorHeadCycles / truth.vectorHeadCycles, 1, 0.01);
  EXPECT_NEAR(fit.fitted.taskOverheadCycles / truth.taskOverheadCycles, 1, 0.01);
  ASSERT_EQ(fit.residuals.front().ratios.count("vec"), 1u);
  EXPECT_NEAR(fit.residuals.front().ratios.at("vec")[2], fit.residuals.front().ratios.at("vec")[0], 1e-3);
  EXPECT_NE(fitReportMarkdown(fit, "Ascend910B3").find("| p | vec |"), std::string::npos);

  const FitResult blind = fitSocParams(start, timesOnly);
  for (const auto& p : blind.parameters)
    if (p.key == "vector.head_cycles") {
      EXPECT_FALSE(p.determined);
      EXPECT_DOUBLE_EQ(p.after, p.before);
    }
  EXPECT_DOUBLE_EQ(blind.fitted.vectorHeadCycles, start.vectorHeadCycles);
}

// The expected error of each bound the points cover comes from the residuals after the fit; a bound
// without points keeps the base file's figure.
TEST(CalibrationFit, ExpectedErrorPerBoundComesFromTheResidualsAfterTheFit) {
  const auto file = std::filesystem::path(KWB_SOURCE_DIR) / "resources" / "soc" / "Ascend910B3.json";
  const std::string base = readTextFileOrThrow(file);
  const sim::SocParams start = sim::parseSocParams(base, "base");
  // Launch overhead is the only parameter these points see; the scalar-bound point carries a 12 % error
  // no overhead can remove together with the exact memory-bound ones.
  const double overheadUs = start.taskOverheadCycles / start.clockMhz;
  auto predict = [](double fixedUs) {
    return [fixedUs](const sim::SocParams& s) { return s.taskOverheadCycles / s.clockMhz + fixedUs; };
  };
  std::vector<FitPoint> points = {
      {"m1", "runs/m1", overheadUs + 10, predict(10), "memory"},
      {"m2", "runs/m2", overheadUs + 20, predict(20), "memory"},
      {"s1", "runs/s1", (overheadUs + 30) / 1.12, predict(30), "scalar"},
  };
  const FitResult fit = fitSocParams(start, points);
  ASSERT_EQ(fit.expectedErrorPct.size(), 2u);
  EXPECT_EQ(fit.expectedErrorPoints.at("memory"), 2);
  EXPECT_GE(fit.expectedErrorPct.at("scalar"), 5);
  EXPECT_LE(fit.expectedErrorPct.at("scalar"), 13);
  for (const auto& r : fit.residuals) {
    if (r.tag == "s1") continue;
    EXPECT_LE(100 * std::abs(r.afterUs / r.measuredUs - 1), fit.expectedErrorPct.at("memory")) << r.tag;
  }
  const std::string text = fittedSocJson(base, fit, 0, "");
  const sim::SocParams written = sim::parseSocParams(text, "written");
  EXPECT_DOUBLE_EQ(written.expectedErrorPct.at("memory"), fit.expectedErrorPct.at("memory"));
  EXPECT_DOUBLE_EQ(written.expectedErrorPct.at("scalar"), fit.expectedErrorPct.at("scalar"));
  EXPECT_DOUBLE_EQ(written.expectedErrorPct.at("vector"), start.expectedErrorPct.at("vector"));
  EXPECT_EQ(written.provenance.at("calibration.expected_error_pct.scalar").source, "fitted");
  EXPECT_NE(
      written.provenance.at("calibration.expected_error_pct.memory").ref.find("2 memory-bound point(s)"),
      std::string::npos);
  EXPECT_NE(fitReportMarkdown(fit, "Ascend910B3").find("calibration.expected_error_pct"), std::string::npos);
}

TEST(CalibrationFit, RejectsNoPointsAndNonPositiveMeasurements) {
  const sim::SocParams start = shippedSoc("Ascend910B1");
  EXPECT_THROW(fitSocParams(start, {}), std::invalid_argument);
  std::vector<FitPoint> points = {{"a", "dir/a", 0.0, [](const sim::SocParams&) { return 1.0; }}};
  EXPECT_NE(errorOf([&] { fitSocParams(start, points); }).find("dir/a"), std::string::npos);
}

TEST(CalibrationProject, EmitsTheBenchSourceByteForByteWithAManifestThatReadsBack) {
  const auto dir = std::filesystem::path(KWB_TEST_BIN_DIR) / "calibration_emit_test";
  std::filesystem::remove_all(dir);
  const auto points = calibrationPoints(true);
  emitCalibrationProject(points, "Ascend910B1", dir);
  for (const auto& p : points) {
    const std::string emitted = readTextFileOrThrow(dir / p.tag / p.program);
    const std::string bench =
        readTextFileOrThrow(std::filesystem::path(KWB_SOURCE_DIR) / "bench" / "calibration" / p.program);
    EXPECT_EQ(emitted, bench) << p.tag;
    const CalibrationPoint back =
        parsePointManifest(readTextFileOrThrow(dir / p.tag / kManifestFileName), p.tag + "/manifest");
    EXPECT_EQ(back.tag, p.tag);
    auto defines = p.defines;
    std::sort(defines.begin(), defines.end());
    EXPECT_EQ(back.defines, defines);
    const std::string cmake = readTextFileOrThrow(dir / p.tag / "CMakeLists.txt");
    EXPECT_NE(cmake.find("ascendc_library(ascendc_kernels_${RUN_MODE} SHARED ${KERNEL_FILES})"),
              std::string::npos);
    EXPECT_NE(cmake.find("CAL_KERNEL_ONLY=1"), std::string::npos);
    EXPECT_NE(readTextFileOrThrow(dir / p.tag / "run.sh").find("msprof op --output="), std::string::npos);
    EXPECT_TRUE(std::filesystem::exists(dir / p.tag / "cmake" / "cpu_lib.cmake"));
  }
  const std::string host = readTextFileOrThrow(dir / "data_copy_s1_rows96" / "main.cpp");
  EXPECT_NE(host.find("#define CAL_HOST_SHAPES 1\n#include \"data_copy.cpp\""), std::string::npos);
  EXPECT_NE(host.find("ACLRT_LAUNCH_KERNEL(calibration_data_copy)(kCalLaunchBlocks, stream, gm[0]);"),
            std::string::npos)
      << host;
  const std::string cubeHost = readTextFileOrThrow(dir / "matmul_m1" / "main.cpp");
  EXPECT_NE(cubeHost.find(
                "ACLRT_LAUNCH_KERNEL(calibration_matmul)(kCalLaunchBlocks, stream, gm[0], gm[1], gm[2]);"),
            std::string::npos)
      << cubeHost;
  EXPECT_NE(readTextFileOrThrow(dir / "data_copy_l1_s1_rows1536" / "main.cpp")
                .find("ACLRT_LAUNCH_KERNEL(calibration_data_copy_l1)(kCalLaunchBlocks, stream, gm[0]);"),
            std::string::npos);
  EXPECT_NE(readTextFileOrThrow(dir / "README.md").find("kwb calibrate fit"), std::string::npos);
  // A second emit into the same, now non-empty folder is refused.
  EXPECT_THROW(emitCalibrationProject(points, "Ascend910B1", dir), std::invalid_argument);
  std::filesystem::remove_all(dir);
}

TEST(CalibrationProject, PublishedSetupsCoverEveryProgram) {
  const auto points = calibrationPoints(false);
  // add/mul/relu B=1..64, div B=1..32, data_copy S1..S8, data_copy_l1 S1..S7, the matmul
  EXPECT_EQ(points.size(), 7u * 3 + 6 + 8 + 7 + 1);
  for (const auto& p : points) EXPECT_FALSE(calibrationProgramText(p.program).empty()) << p.program;
}

TEST(CalibrationTrace, RecordsWithoutALaunchOrWithGarbageGiveNoTrace) {
  kwb_sim::LaunchTrace trace;
  std::string error;
  EXPECT_FALSE(launchTraceFromRecords("", trace, error));
  EXPECT_NE(error.find("no launch outcome"), std::string::npos) << error;
  error.clear();
  EXPECT_FALSE(launchTraceFromRecords(std::string(64, 'x'), trace, error));
  EXPECT_NE(error.find("malformed frame"), std::string::npos) << error;
}
