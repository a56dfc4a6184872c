// SPDX-License-Identifier: MIT
#pragma once
// Element types of kernel tensors. Names follow numpy/torch ("float16"); parsing also accepts the
// spellings people type in task files and Ascend C sources ("half", "fp16", "bfloat16_t", "int32_t").

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace kwb {

class JsonReader;

enum class DType {
  Float16,
  BFloat16,
  Float32,
  Float64,
  Int8,
  Int16,
  Int32,
  Int64,
  UInt8,
  UInt16,
  UInt32,
  UInt64,
  Bool,
};

// Every dtype, in a fixed order (the order used in error messages and docs).
const std::vector<DType>& allDTypes();

// Canonical name: "float16", "bfloat16", "float32", ..., "bool".
std::string_view dtypeName(DType t);
// Ascend C / C++ spelling for generated code: "half", "bfloat16_t", "float", "int8_t", "bool".
std::string_view dtypeCppName(DType t);
// Bytes per element (bool is one byte, as in Ascend C and numpy).
std::size_t dtypeSize(DType t);
bool isFloating(DType t);
bool isSignedInteger(DType t);
bool isUnsignedInteger(DType t);

// Accepts canonical names and aliases, case-insensitively.
std::optional<DType> parseDType(std::string_view name);
// Throws std::invalid_argument "unknown dtype "flaot16"; expected one of float16, bfloat16, ...".
DType parseDTypeOrThrow(std::string_view name);
// "float16, bfloat16, float32, ..." for error messages.
std::string validDTypeNames();

// Reads a dtype name at r; errors list the valid names.
void read(const JsonReader& r, DType& t);

void to_json(nlohmann::json& j, DType t);
void from_json(const nlohmann::json& j, DType& t);

}  // namespace kwb
