// g++ output -> kwb::Diagnostic for `kwb sim build --json`.

#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "core/emulator/SimBuilder.h"

namespace kwb {

std::vector<Diagnostic> parseGccDiagnostics(const std::string& output, const std::string& emulatorIncludeDir) {
  std::vector<Diagnostic> out;
  static const std::regex located(R"(^(.+?):(\d+):(\d+):\s+(error|warning|note|fatal error):\s+(.*)$)");
  static const std::regex required(R"(^(.+?):(\d+):(\d+):\s+required from here)");
  static const std::regex undefinedRef(R"(undefined reference to [`'](.+)')");
  std::istringstream in(output);
  std::string line;
  std::string userFile;
  int userLine = 0, userCol = 0;
  auto isEmulatorFile = [&](const std::string& f) {
    return !emulatorIncludeDir.empty() && f.rfind(emulatorIncludeDir, 0) == 0;
  };
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_search(line, m, required)) {
      if (!isEmulatorFile(m[1].str())) {
        userFile = m[1].str();
        userLine = std::stoi(m[2].str());
        userCol = std::stoi(m[3].str());
      }
      continue;
    }
    if (std::regex_match(line, m, located)) {
      const std::string sev = m[4].str();
      if (sev == "note") continue;
      Diagnostic d;
      d.source = "compiler";
      d.severity = sev == "warning" ? Severity::Warning : Severity::Error;
      d.category = std::string(category::CompileError);
      d.file = m[1].str();
      d.line = std::stoi(m[2].str());
      d.column = std::stoi(m[3].str());
      d.message = m[5].str();
      static const std::regex simMsg(R"(kwb-sim: (unsupported-api|unsupported-dtype): ((\w+).*))");
      std::smatch s;
      if (std::regex_search(d.message, s, simMsg)) {
        d.source = "emulator";
        d.category = s[1].str();
        d.message = s[2].str();
        std::string api = s[3].str();
        if (api == "Cast" || d.category == "unsupported-api" || d.category == "unsupported-dtype") d.api = api;
        if (d.message.size() > 1 && d.message.back() == '"') d.message.pop_back();
      }
      if (isEmulatorFile(d.file) && !userFile.empty()) {
        d.notes.push_back("raised in emulator header " + d.file + ":" + std::to_string(d.line));
        d.file = userFile;
        d.line = userLine;
        d.column = userCol;
      }
      if (d.severity == Severity::Error) {
        userFile.clear();
        userLine = userCol = 0;
      }
      out.push_back(std::move(d));
      continue;
    }
    if (std::regex_search(line, m, undefinedRef)) {
      Diagnostic d;
      d.source = "compiler";
      d.category = std::string(category::LinkError);
      d.message = "undefined reference to " + m[1].str();
      out.push_back(std::move(d));
    }
  }
  return out;
}

}  // namespace kwb
