// SPDX-License-Identifier: MIT
#pragma once
// Fresh random inputs for every evaluation. Everything is derived from one recorded 64-bit seed, so a
// failing evaluation can be replayed exactly (`kwb eval --seed N`), while a new evaluation gets values
// no candidate has seen. Each case uses a value distribution: the one the task declares for the case
// or tensor (which also carries the operator's domain, e.g. positive for ln/sqrt), or else one picked
// from a rotation of uniform / normal / with-negatives / small / large / near-zero by seed and case.

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/DType.h"
#include "core/model/VerificationCase.h"
#include "core/verify/ElementCodec.h"

namespace kwb::verify {

// Mixes a seed with names (splitmix64 over an FNV-1a hash): stable across platforms and runs.
std::uint64_t deriveSeed(std::uint64_t seed, std::string_view a, std::string_view b = {});

// A seed for a new evaluation (random_device + clock).
std::uint64_t freshSeed();

// The distribution used for one input tensor of one case.
ValueHint chooseHint(const VerificationCase& c, const std::string& tensor, std::uint64_t seed);

// Nominal value range of a distribution before domain clamping, e.g. small: [-1e-2, 1e-2].
// For Normal the pair is (mean, stddev).
std::pair<double, double> distributionRange(Distribution d, DType t);

// n values drawn from `hint` for dtype t: clamped to [low, high] when given, to the dtype's range, and
// rounded to representable values (integers are whole numbers; bool is 0/1). Never NaN or Inf.
std::vector<double> generateValues(const ValueHint& hint, DType t, std::int64_t n, std::uint64_t seed);

// The same n values, encoded in t as they are drawn: a large tensor never exists as doubles (8 bytes
// per element). onProgress, when set, hears how many elements are done every few million.
Bytes generateEncoded(const ValueHint& hint, DType t, std::int64_t n, std::uint64_t seed,
                      const std::function<void(std::int64_t done)>& onProgress = {});

}  // namespace kwb::verify
