// SPDX-License-Identifier: MIT
#pragma once
// The outcome of evaluating one candidate, as `kwb eval` prints it and the agent reads it.

#include <optional>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

namespace kwb {

class JsonReader;

enum class Verdict { Pass, CompileError, RuntimeError, WrongAnswer, Timeout, Rejected };

// "pass", "compile_error", "runtime_error", "wrong_answer", "timeout", "rejected".
std::string_view verdictName(Verdict v);
std::optional<Verdict> parseVerdict(std::string_view name);

void read(const JsonReader& r, Verdict& v);
void to_json(nlohmann::json& j, Verdict v);
void from_json(const nlohmann::json& j, Verdict& v);

}  // namespace kwb
