// SPDX-License-Identifier: MIT
#include "core/model/DType.h"

#include <array>
#include <cctype>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "core/model/JsonReader.h"

namespace kwb {

namespace {

struct DTypeInfo {
  DType type;
  std::string_view name;
  std::string_view cppName;
  std::size_t size;
};

constexpr std::array<DTypeInfo, 13> kInfo{{
    {DType::Float16, "float16", "half", 2},
    {DType::BFloat16, "bfloat16", "bfloat16_t", 2},
    {DType::Float32, "float32", "float", 4},
    {DType::Float64, "float64", "double", 8},
    {DType::Int8, "int8", "int8_t", 1},
    {DType::Int16, "int16", "int16_t", 2},
    {DType::Int32, "int32", "int32_t", 4},
    {DType::Int64, "int64", "int64_t", 8},
    {DType::UInt8, "uint8", "uint8_t", 1},
    {DType::UInt16, "uint16", "uint16_t", 2},
    {DType::UInt32, "uint32", "uint32_t", 4},
    {DType::UInt64, "uint64", "uint64_t", 8},
    {DType::Bool, "bool", "bool", 1},
}};

// Aliases beyond the canonical and C++ names. "int"/"float" are deliberately narrow: "float" means
// float32 everywhere in Ascend C, but "int" is int64 in numpy and int32 in C, so it is not accepted.
struct Alias {
  std::string_view alias;
  DType type;
};
constexpr std::array<Alias, 16> kAliases{{
    {"fp16", DType::Float16},
    {"f16", DType::Float16},
    {"bf16", DType::BFloat16},
    {"fp32", DType::Float32},
    {"f32", DType::Float32},
    {"fp64", DType::Float64},
    {"f64", DType::Float64},
    {"i8", DType::Int8},
    {"i16", DType::Int16},
    {"i32", DType::Int32},
    {"i64", DType::Int64},
    {"u8", DType::UInt8},
    {"u16", DType::UInt16},
    {"u32", DType::UInt32},
    {"u64", DType::UInt64},
    {"boolean", DType::Bool},
}};

const DTypeInfo& info(DType t) {
  for (const auto& i : kInfo)
    if (i.type == t) return i;
  return kInfo[0];
}

}  // namespace

const std::vector<DType>& allDTypes() {
  static const std::vector<DType> all = [] {
    std::vector<DType> v;
    for (const auto& i : kInfo) v.push_back(i.type);
    return v;
  }();
  return all;
}

std::string_view dtypeName(DType t) {
  return info(t).name;
}
std::string_view dtypeCppName(DType t) {
  return info(t).cppName;
}
std::size_t dtypeSize(DType t) {
  return info(t).size;
}

bool isFloating(DType t) {
  return t == DType::Float16 || t == DType::BFloat16 || t == DType::Float32 || t == DType::Float64;
}

bool isSignedInteger(DType t) {
  return t == DType::Int8 || t == DType::Int16 || t == DType::Int32 || t == DType::Int64;
}

bool isUnsignedInteger(DType t) {
  return t == DType::UInt8 || t == DType::UInt16 || t == DType::UInt32 || t == DType::UInt64;
}

std::optional<DType> parseDType(std::string_view name) {
  std::string lower;
  for (char c : name) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const auto& i : kInfo)
    if (lower == i.name || lower == i.cppName) return i.type;
  for (const auto& a : kAliases)
    if (lower == a.alias) return a.type;
  return std::nullopt;
}

std::string validDTypeNames() {
  std::string out;
  for (const auto& i : kInfo) out += (out.empty() ? "" : ", ") + std::string(i.name);
  return out;
}

DType parseDTypeOrThrow(std::string_view name) {
  if (auto t = parseDType(name)) return *t;
  throw std::invalid_argument("unknown dtype \"" + std::string(name) + "\"; expected one of " +
                              validDTypeNames());
}

void to_json(nlohmann::json& j, DType t) {
  j = std::string(dtypeName(t));
}

void read(const JsonReader& r, DType& t) {
  auto parsed = r.value().is_string() ? parseDType(r.asString()) : std::nullopt;
  if (!parsed) r.expected("one of " + validDTypeNames());
  t = *parsed;
}

void from_json(const nlohmann::json& j, DType& t) {
  read(JsonReader(j, ""), t);
}

}  // namespace kwb
