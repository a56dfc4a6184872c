// SPDX-License-Identifier: MIT
#pragma once
// Tensors of a kernel signature. A task declares each argument once (TensorDecl: name, dtype, format);
// shapes are concrete per verification case, and TensorSpec is the resolved (decl + shape) pair that
// harnesses and prompts use for one case.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/model/DType.h"

namespace kwb {

class JsonReader;

using Shape = std::vector<std::int64_t>;

// Product of the dims; 1 for an empty shape. Callers validate dims first (see validateShape).
std::int64_t elementCount(const Shape& shape);
// "[8, 2048]".
std::string shapeToString(const Shape& shape);
// Empty string when fine, else why not: dims must exist, be positive and not overflow.
std::string validateShape(const Shape& shape);

// Memory layouts we name; kernels here are written for ND, the others are recognised so that a task
// using them gets "unsupported" from a backend rather than a parse error.
bool isKnownFormat(std::string_view format);

struct TensorDecl {
  std::string name;
  DType dtype = DType::Float16;
  std::string format = "ND";
  bool operator==(const TensorDecl&) const = default;
};

struct TensorSpec {
  std::string name;
  DType dtype = DType::Float16;
  Shape shape;
  std::string format = "ND";

  std::int64_t elements() const { return elementCount(shape); }
  std::int64_t bytes() const { return elements() * static_cast<std::int64_t>(dtypeSize(dtype)); }
  bool operator==(const TensorSpec&) const = default;
};

// A C identifier (kernel entry names, tensor and attribute names become C++ identifiers).
bool isCIdentifier(std::string_view s);
// Reads a string at r that must be a C identifier.
std::string readIdentifier(const JsonReader& r);

void read(const JsonReader& r, Shape& shape);
void read(const JsonReader& r, TensorDecl& t);
void read(const JsonReader& r, TensorSpec& t);

void to_json(nlohmann::json& j, const TensorDecl& t);
void from_json(const nlohmann::json& j, TensorDecl& t);
void to_json(nlohmann::json& j, const TensorSpec& t);
void from_json(const nlohmann::json& j, TensorSpec& t);

}  // namespace kwb
