// SPDX-License-Identifier: MIT
#include "core/agent/ImportedTask.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <system_error>

#include "core/base/BoundedFileRead.h"
#include "core/model/Task.h"

namespace kwb {

namespace fs = std::filesystem;

namespace {

bool writeFile(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  return static_cast<bool>(out);
}

}  // namespace

std::string writeImportedTask(const OperatorProjectImport& imported, const fs::path& out) {
  if (!imported.ok()) return "the import has errors: " + imported.errors.front().format();
  std::error_code ec;
  if (fs::exists(out / "task.json", ec))
    return out.string() + ": already holds a task.json; choose an empty folder";
  fs::create_directories(out / "imported", ec);
  if (ec) return "cannot create " + (out / "imported").string() + ": " + ec.message();
  if (!writeFile(out / "task.json", nlohmann::json(imported.task).dump(2) + "\n"))
    return "cannot write " + (out / "task.json").string();
  if (!writeFile(out / imported.referenceFileName, imported.referenceSource))
    return "cannot write " + (out / imported.referenceFileName).string();
  for (const auto& [name, text] : imported.candidate.files)
    if (!writeFile(out / "imported" / name, text))
      return "cannot write " + (out / "imported" / name).string();
  return {};
}

std::optional<Candidate> loadImportedCandidate(const fs::path& taskDir) {
  const fs::path dir = taskDir / "imported";
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return std::nullopt;
  Candidate c;
  c.origin = Origin::Imported;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (!isValidCandidateFileName(name))
      throw std::runtime_error(entry.path().string() + ": not a candidate file name");
    if (c.files.size() >= kMaxCandidateFiles)
      throw std::runtime_error(dir.string() + ": more than " + std::to_string(kMaxCandidateFiles) + " files");
    std::string error;
    auto text = readBoundedRegularFile(entry.path(), kwb::kMaxCandidateBytes, error);
    if (!text) throw std::runtime_error(error);
    c.files[name] = std::move(*text);
  }
  if (ec) throw std::runtime_error("cannot list " + dir.string() + ": " + ec.message());
  if (c.files.empty()) return std::nullopt;
  const auto problems = candidateFileProblems(c.files);
  if (!problems.empty()) throw std::runtime_error(dir.string() + ": " + problems.front());
  return c;
}

}  // namespace kwb
