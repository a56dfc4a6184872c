// SPDX-License-Identifier: MIT
#include "core/calibrate/PointEmulation.h"

#include <chrono>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "core/emulator/SimBuilder.h"
#include "core/process/ProcessRunner.h"
#include "core/toolchain/TrustedLaunch.h"

namespace kwb::calibrate {

kwb_sim::LaunchTrace emulatePoint(const CalibrationPoint& point, const std::string& soc,
                                  const std::filesystem::path& workDir) {
  std::filesystem::create_directories(workDir);
  const auto source = workDir / point.program;
  {
    std::ofstream out(source, std::ios::binary);
    out << calibrationProgramText(point.program);
    if (!out) throw std::runtime_error("cannot write " + source.string());
  }
  SimBuildOptions options;
  options.output = (workDir / (point.tag + ".emu")).string();
  options.sources = {source.string()};
  options.soc = soc;
  for (const auto& [name, value] : point.defines)
    options.defines.push_back(name + "=" + std::to_string(value));
  const SimBuildResult built = SimBuilder().build(options);
  if (!built.ok())
    throw std::runtime_error(point.tag + ": the emulator build failed: " + built.message + "\n" +
                             built.compilerOutput);

  const auto records = workDir / (point.tag + ".records");
  { std::ofstream(records, std::ios::binary | std::ios::trunc); }
  ProcessSpec spec;
  spec.argv = {options.output};
  spec.workingDirectory = workDir.string();
  spec.environment["KWB_SIM_RECORDS"] = records.string();
  spec.timeout = std::chrono::minutes(10);
  const ProcessResult ran = ProcessRunner().run(spec);
  if (!ran.ok())
    throw std::runtime_error(point.tag + ": the emulated run failed (" + ran.describeOutcome() + "):\n" +
                             ran.stderrText.substr(0, 4000));
  std::ifstream in(records, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  kwb_sim::LaunchTrace trace;
  std::string error;
  if (!launchTraceFromRecords(bytes.str(), trace, error))
    throw std::runtime_error(point.tag + ": the emulated run left no usable trace: " + error);
  return trace;
}

}  // namespace kwb::calibrate
