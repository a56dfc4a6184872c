// SPDX-License-Identifier: MIT
#include "core/model/Attr.h"

#include "core/model/JsonReader.h"
#include "core/model/TensorSpec.h"

namespace kwb {

namespace {
constexpr std::pair<std::string_view, AttrType> kAttrTypes[] = {
    {"int", AttrType::Int},       {"float", AttrType::Float},      {"bool", AttrType::Bool},
    {"string", AttrType::String}, {"int_list", AttrType::IntList}, {"float_list", AttrType::FloatList},
};
}  // namespace

std::string_view attrTypeName(AttrType t) {
  return enumName(kAttrTypes, t);
}

std::string checkAttrValue(AttrType t, const nlohmann::json& value) {
  auto isInt = [](const nlohmann::json& v) { return v.is_number_integer() || v.is_number_unsigned(); };
  auto listOf = [&](auto pred) {
    if (!value.is_array()) return false;
    for (const auto& e : value)
      if (!pred(e)) return false;
    return true;
  };
  switch (t) {
    case AttrType::Int:
      return isInt(value) ? "" : "an integer";
    case AttrType::Float:
      return value.is_number() ? "" : "a number";
    case AttrType::Bool:
      return value.is_boolean() ? "" : "true or false";
    case AttrType::String:
      return value.is_string() ? "" : "a string";
    case AttrType::IntList:
      return listOf(isInt) ? "" : "a list of integers";
    case AttrType::FloatList:
      return listOf([](const nlohmann::json& v) { return v.is_number(); }) ? "" : "a list of numbers";
  }
  return "a value";
}

void read(const JsonReader& r, AttrType& t) {
  t = r.asEnum(kAttrTypes);
}

void read(const JsonReader& r, AttrDecl& a) {
  r.allowOnly({"name", "type", "default"});
  a = AttrDecl{};
  a.name = readIdentifier(r.at("name"));
  read(r.at("type"), a.type);
  if (auto d = r.find("default")) {
    if (auto why = checkAttrValue(a.type, d->value()); !why.empty())
      d->expected(why + " (attribute \"" + a.name + "\" has type " + std::string(attrTypeName(a.type)) + ")");
    a.defaultValue = d->value();
  }
}

void to_json(nlohmann::json& j, AttrType t) {
  j = std::string(attrTypeName(t));
}
void from_json(const nlohmann::json& j, AttrType& t) {
  read(JsonReader(j, ""), t);
}

void to_json(nlohmann::json& j, const AttrDecl& a) {
  j = {{"name", a.name}, {"type", attrTypeName(a.type)}};
  if (a.defaultValue) j["default"] = *a.defaultValue;
}

void from_json(const nlohmann::json& j, AttrDecl& a) {
  read(JsonReader(j, ""), a);
}

}  // namespace kwb
