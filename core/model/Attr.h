// SPDX-License-Identifier: MIT
#pragma once
// Scalar or list parameters of an operator (a LeakyRelu slope, a reduction axis, an epsilon). Values
// are kept as JSON so that prompts, tiling code and reports print them exactly as the task wrote them.

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace kwb {

class JsonReader;

enum class AttrType { Int, Float, Bool, String, IntList, FloatList };

std::string_view attrTypeName(AttrType t);  // "int", "float", "bool", "string", "int_list", "float_list"

// Empty when `value` is a valid value of type t, else a description of what was expected
// ("an integer", "a list of numbers", ...). Integers are accepted where floats are expected.
std::string checkAttrValue(AttrType t, const nlohmann::json& value);

struct AttrDecl {
  std::string name;
  AttrType type = AttrType::Float;
  std::optional<nlohmann::json> defaultValue;  // absent: every case must give a value
  bool operator==(const AttrDecl&) const = default;
};

void read(const JsonReader& r, AttrType& t);
void read(const JsonReader& r, AttrDecl& a);
void to_json(nlohmann::json& j, AttrType t);
void from_json(const nlohmann::json& j, AttrType& t);
void to_json(nlohmann::json& j, const AttrDecl& a);
void from_json(const nlohmann::json& j, AttrDecl& a);

}  // namespace kwb
