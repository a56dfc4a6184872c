// SPDX-License-Identifier: MIT
#pragma once
// One verification case of a task: concrete shapes for every tensor, attribute values, and hints for
// the input value distribution. The verifier draws fresh random inputs per evaluation; the hints only
// say which kind of values matter (a log needs positive inputs, a softmax wants large ones).

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/model/TensorSpec.h"

namespace kwb {

class JsonReader;

enum class Distribution { Uniform, Normal, Small, Large, NearZero, WithNegatives, Positive };

std::string_view distributionName(Distribution d);  // "uniform", "normal", "small", "large",
                                                    // "near-zero", "with-negatives", "positive"

struct ValueHint {
  Distribution distribution = Distribution::Uniform;
  std::optional<double> low;  // inclusive bounds, when the operator has a domain
  std::optional<double> high;
  bool operator==(const ValueHint&) const = default;
};

struct VerificationCase {
  std::string name;
  std::map<std::string, Shape> shapes;            // tensor name -> shape; every input and output
  std::map<std::string, nlohmann::json> attrs;    // attr name -> value; absent ones use the default
  std::optional<ValueHint> values;                // for all inputs; absent: the verifier rotates
  std::map<std::string, ValueHint> tensorValues;  // per-input overrides
  bool operator==(const VerificationCase&) const = default;
};

// Case names become folder and file names in reports: letters, digits, '_', '-', '.'.
bool isValidCaseName(std::string_view name);

void read(const JsonReader& r, ValueHint& v);
// Structural read only; cross-checks against the task's tensors and attrs happen in validateTask.
void read(const JsonReader& r, VerificationCase& c);

void to_json(nlohmann::json& j, const ValueHint& v);
void from_json(const nlohmann::json& j, ValueHint& v);
void to_json(nlohmann::json& j, const VerificationCase& c);
void from_json(const nlohmann::json& j, VerificationCase& c);

}  // namespace kwb
