// SPDX-License-Identifier: MIT
#pragma once
// What compiling a candidate produced: success, parsed diagnostics, the raw log (for people), the exact
// command line (re-runnable), and whether the build came from the content-hash cache.

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/model/Diagnostic.h"

namespace kwb {

class JsonReader;

struct CompileResult {
  bool ok = false;
  std::vector<Diagnostic> diagnostics;
  std::string log;
  double durationMs = 0.0;
  std::string commandLine;
  bool cached = false;
  bool operator==(const CompileResult&) const = default;
};

void read(const JsonReader& r, CompileResult& c);
void to_json(nlohmann::json& j, const CompileResult& c);
void from_json(const nlohmann::json& j, CompileResult& c);

}  // namespace kwb
