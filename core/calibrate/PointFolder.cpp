// SPDX-License-Identifier: MIT
#include "core/calibrate/PointFolder.h"

#include <system_error>

#include "core/base/TextFile.h"
#include "core/calibrate/CalibrationProject.h"

namespace kwb::calibrate {

namespace {

constexpr std::uintmax_t kCsvLimit = 16ull << 20;

std::string readOrFail(const std::filesystem::path& file) {
  const TextFileRead r = readTextFile(file, kCsvLimit);
  if (!r.text) throw CalibrationInputError(r.error);
  return *r.text;
}

}  // namespace

MeasuredPoint loadMeasuredPoint(const std::filesystem::path& dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) throw CalibrationInputError(dir.string() + ": not a folder");
  MeasuredPoint m;
  std::filesystem::path at = std::filesystem::absolute(dir, ec).lexically_normal();
  for (int up = 0; up <= 3 && !at.empty(); ++up, at = at.parent_path()) {
    if (std::filesystem::is_regular_file(at / kManifestFileName, ec)) {
      m.manifestFile = at / kManifestFileName;
      m.pointDir = at;
      break;
    }
    if (at == at.parent_path()) break;
  }
  if (m.manifestFile.empty())
    throw CalibrationInputError(dir.string() + ": no " + std::string(kManifestFileName) +
                                " in it or up to three folders above: pass the point folders kwb calibrate "
                                "emit wrote (or their prof/ folders)");
  m.point = parsePointManifest(readOrFail(m.manifestFile), m.manifestFile.string());

  for (std::filesystem::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it.depth() > 4) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->path().filename() == "OpBasicInfo.csv" && it->is_regular_file(ec) &&
        (m.opBasicInfoFile.empty() || it->path() > m.opBasicInfoFile))
      m.opBasicInfoFile = it->path();
  }
  if (m.opBasicInfoFile.empty())
    throw CalibrationInputError(dir.string() + ": no OpBasicInfo.csv at or below it: run the point under " +
                                "msprof op (bash run.sh in " + m.pointDir.string() + ") first");
  const auto pipes = m.opBasicInfoFile.parent_path() / "PipeUtilization.csv";
  std::string pipeText;
  if (std::filesystem::is_regular_file(pipes, ec)) {
    m.pipeUtilizationFile = pipes;
    pipeText = readOrFail(pipes);
  }
  m.measurement = parsePointMeasurement(readOrFail(m.opBasicInfoFile), m.opBasicInfoFile.string(), pipeText,
                                        m.pipeUtilizationFile.string(), m.point.kernel);
  return m;
}

}  // namespace kwb::calibrate
