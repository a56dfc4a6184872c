// SPDX-License-Identifier: MIT
#include "core/model/Tolerance.h"

#include <nlohmann/json.hpp>

#include "core/model/JsonReader.h"

namespace kwb {

Tolerance defaultTolerance(DType t) {
  switch (t) {
    case DType::Float16:
      return {1e-5, 1e-3, 1e-3};
    case DType::BFloat16:
      return {1e-5, 4e-3, 1e-3};
    case DType::Float32:
      return {1e-5, 1e-4, 1e-4};
    case DType::Float64:
      return {1e-9, 1e-7, 1e-4};
    default:
      return {0.0, 0.0, 0.0};
  }
}

void read(const JsonReader& r, Tolerance& t, const Tolerance& defaults) {
  r.allowOnly({"atol", "rtol", "max_mismatch_ratio"});
  auto nonNegative = [&](std::string_view key, double dflt, double max) {
    auto v = r.find(key);
    if (!v) return dflt;
    const double d = v->asNumber();
    if (d < 0.0 || d > max)
      v->expected(max > 1e300 ? "a number >= 0" : "a number in [0, " + nlohmann::json(max).dump() + "]");
    return d;
  };
  t.atol = nonNegative("atol", defaults.atol, 1e308);
  t.rtol = nonNegative("rtol", defaults.rtol, 1e308);
  t.maxMismatchRatio = nonNegative("max_mismatch_ratio", defaults.maxMismatchRatio, 1.0);
}

void to_json(nlohmann::json& j, const Tolerance& t) {
  j = {{"atol", t.atol}, {"rtol", t.rtol}, {"max_mismatch_ratio", t.maxMismatchRatio}};
}

void from_json(const nlohmann::json& j, Tolerance& t) {
  read(JsonReader(j, ""), t, Tolerance{});
}

}  // namespace kwb
