// SPDX-License-Identifier: MIT
#include "core/model/TensorSpec.h"

#include <array>
#include <limits>

#include <nlohmann/json.hpp>

#include "core/model/JsonReader.h"

namespace kwb {

namespace {
// 2^40 elements is far beyond any device memory; the cap keeps products from overflowing int64 when
// multiplied by an element size.
constexpr std::int64_t kMaxElements = std::int64_t{1} << 40;
}  // namespace

std::int64_t elementCount(const Shape& shape) {
  std::int64_t n = 1;
  for (auto d : shape) n *= d;
  return n;
}

std::string shapeToString(const Shape& shape) {
  std::string out = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + std::to_string(shape[i]);
  return out + "]";
}

std::string validateShape(const Shape& shape) {
  if (shape.empty()) return "a shape needs at least one dimension (write [1] for a scalar)";
  std::int64_t n = 1;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] <= 0)
      return "dimension " + std::to_string(i) + " is " + std::to_string(shape[i]) +
             "; dimensions must be positive";
    if (n > kMaxElements / shape[i]) return "shape " + shapeToString(shape) + " has more than 2^40 elements";
    n *= shape[i];
  }
  return {};
}

bool isKnownFormat(std::string_view format) {
  static constexpr std::array<std::string_view, 5> known{"ND", "NCHW", "NHWC", "NC1HWC0", "FRACTAL_NZ"};
  for (auto k : known)
    if (k == format) return true;
  return false;
}

bool isCIdentifier(std::string_view s) {
  if (s.empty()) return false;
  auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (!alpha(s[0])) return false;
  for (char c : s)
    if (!alpha(c) && !(c >= '0' && c <= '9')) return false;
  return true;
}

void read(const JsonReader& r, Shape& shape) {
  shape.clear();
  for (const auto& d : r.items()) {
    const auto& v = d.value();
    // nlohmann parses non-negative literals as unsigned and negative ones as signed.
    const bool positive =
        v.is_number_unsigned()
            ? v.get<std::uint64_t>() >= 1 && v.get<std::uint64_t>() <= std::uint64_t{kMaxElements}
            : v.is_number_integer() && v.get<std::int64_t>() >= 1 && v.get<std::int64_t>() <= kMaxElements;
    if (!positive) d.expected("a positive integer dimension");
    shape.push_back(v.get<std::int64_t>());
  }
  if (auto why = validateShape(shape); !why.empty()) r.fail(why);
}

static std::string readFormat(const JsonReader& r) {
  auto f = r.find("format");
  if (!f) return "ND";
  std::string s = f->asString();
  if (!isKnownFormat(s)) f->expected("one of ND, NCHW, NHWC, NC1HWC0, FRACTAL_NZ");
  return s;
}

std::string readIdentifier(const JsonReader& r) {
  std::string s = r.asString();
  if (!isCIdentifier(s)) r.expected("a C identifier (letters, digits, _; not starting with a digit)");
  return s;
}

void read(const JsonReader& r, TensorDecl& t) {
  r.allowOnly({"name", "dtype", "format"});
  t = TensorDecl{};
  t.name = readIdentifier(r.at("name"));
  read(r.at("dtype"), t.dtype);
  t.format = readFormat(r);
}

void read(const JsonReader& r, TensorSpec& t) {
  r.allowOnly({"name", "dtype", "format", "shape"});
  t = TensorSpec{};
  t.name = readIdentifier(r.at("name"));
  read(r.at("dtype"), t.dtype);
  read(r.at("shape"), t.shape);
  t.format = readFormat(r);
}

void to_json(nlohmann::json& j, const TensorDecl& t) {
  j = {{"name", t.name}, {"dtype", t.dtype}};
  if (t.format != "ND") j["format"] = t.format;
}

void from_json(const nlohmann::json& j, TensorDecl& t) {
  read(JsonReader(j, ""), t);
}

void to_json(nlohmann::json& j, const TensorSpec& t) {
  j = {{"name", t.name}, {"dtype", t.dtype}, {"shape", t.shape}};
  if (t.format != "ND") j["format"] = t.format;
}

void from_json(const nlohmann::json& j, TensorSpec& t) {
  read(JsonReader(j, ""), t);
}

}  // namespace kwb
