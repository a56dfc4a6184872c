// SPDX-License-Identifier: MIT
// Fuzzes the task parser: task.json text -> JSON -> Task (structural read + validateTask) -> JSON.
// A LoadError is the documented answer to bad input; anything else escaping is a bug.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/model/Task.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const nlohmann::json j = kwb::parseJsonText(text, "task.json");
    const kwb::Task task = kwb::parseTask(j, "task.json");
    const nlohmann::json back = task;
    (void)back.dump();
    (void)task.caseAttrs(task.cases.front());
    (void)task.caseTensors(task.cases.front());
  } catch (const kwb::LoadError&) {
  }
  return 0;
}
