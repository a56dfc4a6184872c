// SPDX-License-Identifier: MIT
#include "core/model/CompileResult.h"

#include <nlohmann/json.hpp>

#include "core/model/JsonReader.h"
#include "core/model/Utf8Text.h"

namespace kwb {

void read(const JsonReader& r, CompileResult& c) {
  c = CompileResult{};
  c.ok = r.at("ok").asBool();
  if (auto d = r.find("diagnostics")) readList(*d, c.diagnostics);
  c.log = r.getString("log", "");
  c.durationMs = r.getNumber("duration_ms", 0.0);
  c.commandLine = r.getString("command_line", "");
  c.cached = r.getBool("cached", false);
}

void to_json(nlohmann::json& j, const CompileResult& c) {
  j = {{"ok", c.ok},
       {"diagnostics", c.diagnostics},
       {"log", toValidUtf8(c.log)},
       {"duration_ms", c.durationMs},
       {"command_line", toValidUtf8(c.commandLine)},
       {"cached", c.cached}};
}

void from_json(const nlohmann::json& j, CompileResult& c) {
  read(JsonReader(j, ""), c);
}

}  // namespace kwb
