// SPDX-License-Identifier: MIT
#include "core/verify/OutputCheck.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/verify/NumberText.h"

namespace kwb::verify {
namespace {
// The emulator fills fresh UB/L1 with 0xCD (docs/emulator.md, "Uninitialised memory").
bool isLocalPoison(const std::uint8_t* element, std::size_t size) {
  for (std::size_t i = 0; i < size; ++i)
    if (element[i] != 0xCD) return false;
  return size > 0;
}
}  // namespace

std::string_view ruleName(FailedRule r) {
  switch (r) {
    case FailedRule::Size:
      return "size";
    case FailedRule::Unwritten:
      return "unwritten";
    case FailedRule::NonFinite:
      return "non-finite";
    case FailedRule::GrossError:
      return "gross-error";
    case FailedRule::MismatchRatio:
      return "mismatch-ratio";
    case FailedRule::ConstantOutput:
      return "constant-output";
  }
  return "gross-error";
}

namespace {

// One unit in the last place at zero: the spacing a correctly rounded tiny result can be off by.
double smallestSubnormal(DType t) {
  switch (t) {
    case DType::Float16:
      return std::ldexp(1.0, -24);
    case DType::BFloat16:
      return std::ldexp(1.0, -133);
    case DType::Float32:
      return std::ldexp(1.0, -149);
    case DType::Float64:
      return std::numeric_limits<double>::denorm_min();
    default:
      return 0.0;
  }
}

std::vector<std::int64_t> unravel(std::int64_t index, const Shape& shape) {
  std::vector<std::int64_t> c(shape.size(), 0);
  for (std::size_t d = shape.size(); d-- > 0;) {
    const std::int64_t dim = std::max<std::int64_t>(shape[d], 1);
    c[d] = index % dim;
    index /= dim;
  }
  return c;
}

std::string coordText(const std::vector<std::int64_t>& c) {
  std::string s = "[";
  for (std::size_t i = 0; i < c.size(); ++i) s += (i ? ", " : "") + std::to_string(c[i]);
  return s + "]";
}

}  // namespace

double effectiveAtol(const Tolerance& tol, double referenceMaxAbs, DType t) {
  // rtol == 0 means the task asked for a purely absolute rule: keep it as written.
  if (!(tol.rtol > 0.0) || !(referenceMaxAbs > 0.0) || !std::isfinite(referenceMaxAbs)) return tol.atol;
  return std::max(std::min(tol.atol, tol.rtol * referenceMaxAbs), std::min(tol.atol, smallestSubnormal(t)));
}

TensorCheck checkOutput(const TensorSpec& spec, const std::vector<double>& expected, const Bytes& actualBytes,
                        const Bytes& poison, const Tolerance& tol, const LaunchShape& launch) {
  TensorCheck r;
  r.tensor = spec.name;
  r.dtype = spec.dtype;
  r.shape = spec.shape;
  r.tolerance = tol;
  const std::size_t es = dtypeSize(spec.dtype);
  const auto n = static_cast<std::int64_t>(expected.size());
  r.elements = n;
  if (static_cast<std::int64_t>(actualBytes.size()) != n * static_cast<std::int64_t>(es)) {
    r.passed = false;
    r.summary = spec.name + ": output has " + std::to_string(actualBytes.size()) + " bytes, expected " +
                std::to_string(n * static_cast<std::int64_t>(es)) + " (" + std::to_string(n) + " x " +
                std::string(dtypeName(spec.dtype)) + ")";
    r.mismatches = n;
    r.mismatchRatio = 1.0;
    r.pattern.kind = PatternKind::AllWrong;
    r.failedRules = {FailedRule::Size};
    return r;
  }
  const std::vector<double> actual = decodeAll(spec.dtype, actualBytes);
  for (double e : expected)
    if (std::isfinite(e)) r.referenceMaxAbs = std::max(r.referenceMaxAbs, std::fabs(e));
  const double atol = effectiveAtol(tol, r.referenceMaxAbs, spec.dtype);
  r.effectiveAtol = atol;
  std::vector<bool> wrong(static_cast<std::size_t>(n), false);
  std::vector<bool> unwrittenMask(static_cast<std::size_t>(n), false);
  std::uint8_t encoded[8];
  for (std::int64_t i = 0; i < n; ++i) {
    const auto u = static_cast<std::size_t>(i);
    const double e = expected[u], a = actual[u];
    bool bad = false, unwritten = false;
    if (poison.size() == actualBytes.size() && std::memcmp(&actualBytes[u * es], &poison[u * es], es) == 0) {
      encodeElement(spec.dtype, e, encoded);
      if (std::memcmp(encoded, &poison[u * es], es) != 0) unwritten = true;
    }
    double absErr = 0.0, relErr = 0.0;
    if (unwritten) {
      bad = true;
      unwrittenMask[u] = true;
      ++r.unwritten;
    } else if (std::isnan(e)) {
      bad = !std::isnan(a);
      if (bad) ++r.grossErrors;  // no "nearly NaN": the value is categorically wrong
    } else if (std::isinf(e)) {
      bad = a != e;
      if (bad) ++r.grossErrors;
    } else if (!std::isfinite(a)) {
      bad = true;
      ++r.nonFinite;
    } else {
      absErr = std::fabs(a - e);
      relErr =
          e != 0.0 ? absErr / std::fabs(e) : (absErr > 0.0 ? std::numeric_limits<double>::infinity() : 0.0);
      bad = absErr > atol && relErr > tol.rtol;
      if (bad) {
        if (absErr > kGrossFactor * atol && relErr > kGrossFactor * tol.rtol)
          ++r.grossErrors;
        else
          ++r.nearMisses;
        if (!r.worst || absErr > r.worst->absError)
          r.worst = Mismatch{i, unravel(i, spec.shape), e, a, absErr, relErr, false};
      }
      if (absErr > r.maxAbsError) {
        r.maxAbsError = absErr;
        r.maxAbsErrorIndex = i;
      }
      if (std::isfinite(relErr)) r.maxRelError = std::max(r.maxRelError, relErr);
    }
    if (bad && !unwritten && isLocalPoison(&actualBytes[u * es], es)) ++r.staleLocal;
    if (bad) {
      wrong[u] = true;
      ++r.mismatches;
      if (r.firstMismatches.size() < kMaxReported)
        r.firstMismatches.push_back(Mismatch{i, unravel(i, spec.shape), e, a, absErr, relErr, unwritten});
    }
  }
  r.mismatchRatio = n ? static_cast<double>(r.mismatches) / static_cast<double>(n) : 0.0;
  r.nearMissRatio = n ? static_cast<double>(r.nearMisses) / static_cast<double>(n) : 0.0;
  if (n > 1) {
    r.constantOutput = std::all_of(actual.begin(), actual.end(), [&](double a) { return a == actual[0]; });
    // The reference is constant when its values are equal once stored in the output dtype.
    const double first = representable(spec.dtype, expected[0]);
    r.referenceConstant = std::all_of(expected.begin(), expected.end(), [&](double e) {
      const double v = representable(spec.dtype, e);
      return v == first || (std::isnan(v) && std::isnan(first));
    });
  }
  const bool constantHack = r.constantOutput && !r.referenceConstant && r.unwritten == 0;
  if (r.unwritten) r.failedRules.push_back(FailedRule::Unwritten);
  if (r.nonFinite) r.failedRules.push_back(FailedRule::NonFinite);
  if (r.grossErrors) r.failedRules.push_back(FailedRule::GrossError);
  if (r.nearMissRatio > tol.maxMismatchRatio) r.failedRules.push_back(FailedRule::MismatchRatio);
  if (constantHack) r.failedRules.push_back(FailedRule::ConstantOutput);
  r.passed = r.failedRules.empty();
  if (constantHack) {
    std::vector<bool> all(static_cast<std::size_t>(n), true);
    r.pattern = classifyMismatches(all, spec.shape, expected, actual, launch, unwrittenMask);
  } else {
    r.pattern = classifyMismatches(wrong, spec.shape, expected, actual, launch, unwrittenMask);
  }

  std::ostringstream s;
  s << spec.name << " " << shapeToString(spec.shape) << " " << dtypeName(spec.dtype) << ": ";
  const std::string rule =
      "wrong if abs err > " + numberText(atol) +
      (atol < tol.atol ? " (atol " + numberText(tol.atol) + " capped at rtol x max|reference| " +
                             numberText(r.referenceMaxAbs) + ")"
                       : std::string()) +
      " and rel err > " + numberText(tol.rtol) + "; grossly wrong beyond " + numberText(kGrossFactor) +
      "x both";
  if (r.passed) {
    s << "ok, max abs err " << numberText(r.maxAbsError) << ", max rel err " << numberText(r.maxRelError);
    if (r.nearMisses)
      s << ", " << r.nearMisses << " near misses outside tolerance (" << percentText(r.nearMissRatio)
        << " <= limit " << percentText(tol.maxMismatchRatio) << ")";
  } else {
    std::string failed;
    for (auto f : r.failedRules) failed += (failed.empty() ? "" : ", ") + std::string(ruleName(f));
    s << "rejected (" << failed << "): ";
    if (constantHack && r.mismatches == 0)
      s << "every element equals " << numberText(actual.empty() ? 0.0 : actual[0])
        << " although the reference is not constant (inside tolerance only because the values are tiny)";
    else
      s << r.mismatches << " of " << n << " elements wrong";
    if (r.grossErrors)
      s << "; " << r.grossErrors << " grossly wrong (more than " << numberText(kGrossFactor)
        << "x the tolerance: any one fails, the mismatch budget only excuses near misses)";
    if (r.nearMisses)
      s << "; " << r.nearMisses << " near misses (" << percentText(r.nearMissRatio) << ", limit "
        << percentText(tol.maxMismatchRatio) << ")";
    if (r.unwritten) s << "; " << r.unwritten << " never written (still hold the poison value)";
    if (r.nonFinite) s << "; " << r.nonFinite << " NaN/Inf where the reference is finite";
    if (r.staleLocal)
      s << "; " << r.staleLocal
        << " hold 0xCD in every byte, the emulator's fill of fresh UB/L1: the kernel copied out local memory "
           "nothing wrote (a tile copied out before its compute wrote it, or lanes its copy-in never "
           "filled); on hardware they would be stale data";
    // Errors are measured over the written elements only: with none written there is no error to show.
    if (r.unwritten == n)
      s << "; no element was written";
    else
      s << "; max abs err " << numberText(r.maxAbsError) << ", max rel err " << numberText(r.maxRelError)
        << (r.unwritten ? " over the " + std::to_string(n - r.unwritten) + " written elements"
                        : std::string());
    s << " (rule: " << rule << ")";
    if (r.worst)
      s << "; worst at index " << r.worst->index << " " << coordText(r.worst->coords) << ": expected "
        << numberText(r.worst->expected) << ", got " << numberText(r.worst->actual);
    if (!r.firstMismatches.empty()) {
      const auto& m = r.firstMismatches.front();
      s << "; first wrong at index " << m.index << " " << coordText(m.coords) << ": expected "
        << numberText(m.expected) << ", got "
        << (m.unwritten ? std::string("unwritten (poison)") : numberText(m.actual));
    }
    if (r.pattern.kind != PatternKind::None) s << "; pattern: " << r.pattern.detail;
  }
  r.summary = s.str();
  return r;
}

InputCheck checkInputUnchanged(const TensorSpec& spec, const Bytes& before, const Bytes& after) {
  if (before.size() != after.size()) {
    InputCheck c;
    c.tensor = spec.name;
    c.changed = spec.elements();
    c.summary = spec.name + ": input buffer size changed";
    return c;
  }
  InputChangeScan scan(spec, before);
  scan.compare(0, after.data(), after.size());
  return scan.result();
}

InputChangeScan::InputChangeScan(const TensorSpec& spec, const Bytes& before)
    : spec_(spec), before_(before), elementSize_(dtypeSize(spec.dtype)) {
  check_.tensor = spec.name;
}

void InputChangeScan::compare(std::uint64_t offset, const std::uint8_t* after, std::size_t length) {
  auto element = [&](std::uint64_t at, const std::uint8_t* bytes) {
    if (at + elementSize_ > before_.size() || std::memcmp(&before_[at], bytes, elementSize_) == 0) return;
    if (check_.firstChangedIndex < 0) {
      check_.firstChangedIndex = static_cast<std::int64_t>(at / elementSize_);
      check_.before = decodeElement(spec_.dtype, &before_[at]);
      check_.after = decodeElement(spec_.dtype, bytes);
    }
    ++check_.changed;
  };
  std::size_t i = 0;
  // Finish an element the previous piece began.
  while (!carry_.empty() && i < length) {
    carry_.push_back(after[i++]);
    if (carry_.size() == elementSize_) {
      element(carryOffset_, carry_.data());
      carry_.clear();
    }
  }
  for (; i + elementSize_ <= length; i += elementSize_) element(offset + i, after + i);
  if (i < length) {
    carryOffset_ = offset + i;
    carry_.assign(after + i, after + length);
  }
}

InputCheck InputChangeScan::result() const {
  InputCheck c = check_;
  if (c.changed)
    c.summary = "input " + spec_.name + " was modified by the kernel: " + std::to_string(c.changed) + " of " +
                std::to_string(spec_.elements()) + " elements changed, first at index " +
                std::to_string(c.firstChangedIndex) + " (" + numberText(c.before) + " -> " +
                numberText(c.after) +
                "); kernels must treat inputs as read-only (write results to the output tensors only)";
  return c;
}

void to_json(nlohmann::json& j, const Mismatch& m) {
  j = {{"index", m.index}, {"coords", m.coords}, {"expected", m.expected}};
  if (m.unwritten)
    j["actual"] = "unwritten";
  else if (std::isfinite(m.actual))
    j["actual"] = m.actual;
  else
    j["actual"] = std::isnan(m.actual) ? "nan" : (m.actual > 0 ? "inf" : "-inf");
  j["abs_error"] = std::isfinite(m.absError) ? nlohmann::json(m.absError) : nlohmann::json(nullptr);
  j["rel_error"] = std::isfinite(m.relError) ? nlohmann::json(m.relError) : nlohmann::json(nullptr);
}

void to_json(nlohmann::json& j, const TensorCheck& t) {
  j = {{"tensor", t.tensor},
       {"dtype", dtypeName(t.dtype)},
       {"shape", t.shape},
       {"passed", t.passed},
       {"elements", t.elements},
       {"mismatches", t.mismatches},
       {"mismatch_ratio", t.mismatchRatio},
       {"gross_errors", t.grossErrors},
       {"near_misses", t.nearMisses},
       {"near_miss_ratio", t.nearMissRatio},
       {"unwritten", t.unwritten},
       {"stale_local", t.staleLocal},
       {"non_finite", t.nonFinite},
       {"max_abs_error", t.maxAbsError},
       {"max_rel_error", t.maxRelError},
       {"max_abs_error_index", t.maxAbsErrorIndex},
       {"constant_output", t.constantOutput},
       {"tolerance",
        {{"atol", t.tolerance.atol},
         {"rtol", t.tolerance.rtol},
         {"max_mismatch_ratio", t.tolerance.maxMismatchRatio}}},
       {"reference_max_abs", t.referenceMaxAbs},
       {"effective_atol", t.effectiveAtol},
       {"gross_factor", kGrossFactor},
       {"first_mismatches", t.firstMismatches},
       {"pattern", t.pattern},
       {"summary", t.summary}};
  nlohmann::json rules = nlohmann::json::array();
  for (auto f : t.failedRules) rules.push_back(ruleName(f));
  j["failed_rules"] = std::move(rules);
  if (t.worst) j["worst"] = *t.worst;
}

void to_json(nlohmann::json& j, const InputCheck& c) {
  j = {{"tensor", c.tensor}, {"changed", c.changed}, {"first_changed_index", c.firstChangedIndex},
       {"before", c.before}, {"after", c.after},     {"summary", c.summary}};
}

}  // namespace kwb::verify
