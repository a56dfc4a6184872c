// SPDX-License-Identifier: MIT
#include "core/verify/InputGenerator.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>

#include "core/verify/ElementCodec.h"

namespace kwb::verify {

namespace {
std::uint64_t splitmix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
std::uint64_t fnv(std::string_view s, std::uint64_t h) {
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
  return h;
}
}  // namespace

std::uint64_t deriveSeed(std::uint64_t seed, std::string_view a, std::string_view b) {
  std::uint64_t h = fnv(a, 0xcbf29ce484222325ull);
  h = fnv("\x1f", h);
  h = fnv(b, h);
  return splitmix(seed ^ splitmix(h));
}

std::uint64_t freshSeed() {
  std::random_device rd;
  const auto now = static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  return splitmix((static_cast<std::uint64_t>(rd()) << 32) ^ rd() ^ now) & 0x7fffffffffffffffull;
}

ValueHint chooseHint(const VerificationCase& c, const std::string& tensor, std::uint64_t seed) {
  if (auto it = c.tensorValues.find(tensor); it != c.tensorValues.end()) return it->second;
  if (c.values) return *c.values;
  static constexpr Distribution kRotation[] = {Distribution::Uniform,       Distribution::Normal,
                                               Distribution::WithNegatives, Distribution::Small,
                                               Distribution::Large,         Distribution::NearZero};
  ValueHint h;
  h.distribution = kRotation[deriveSeed(seed, c.name, "distribution") % std::size(kRotation)];
  return h;
}

std::pair<double, double> distributionRange(Distribution d, DType t) {
  const bool narrow = t == DType::Float16;
  switch (d) {
    case Distribution::Uniform:
      return {-1.0, 1.0};
    case Distribution::Normal:
      return {0.0, 1.0};
    case Distribution::WithNegatives:
      return {-10.0, 10.0};
    case Distribution::Small:
      return {-1e-2, 1e-2};
    case Distribution::Large:
      return narrow ? std::pair{-1000.0, 1000.0} : std::pair{-1e5, 1e5};
    case Distribution::NearZero:
      return narrow ? std::pair{-1e-3, 1e-3} : std::pair{-1e-5, 1e-5};
    case Distribution::Positive:
      return {0.01, 10.0};
  }
  return {-1.0, 1.0};
}

namespace {
// One tensor's values, drawn in order from one generator: generateValues and generateEncoded take the
// same draws, so a tensor encoded straight to bytes holds exactly the values the double form would.
class ValueDraws {
 public:
  ValueDraws(const ValueHint& hint, DType t, std::uint64_t seed)
      : t_(t), normal_(hint.distribution == Distribution::Normal), rng_(seed) {
    auto [a, b] = distributionRange(hint.distribution, t);
    lo_ = hint.low.value_or(-std::numeric_limits<double>::infinity());
    hi_ = hint.high.value_or(std::numeric_limits<double>::infinity());
    const double maxAbs = std::min(dtypeMaxFinite(t), 1e30);
    lo_ = std::max(lo_, isUnsignedInteger(t) || t == DType::Bool ? 0.0 : -maxAbs);
    hi_ = std::min(hi_, maxAbs);
    if (!isFloating(t)) {  // integer tensors: whole numbers in a range that keeps sums exact
      if (hint.distribution == Distribution::Large) {
        a = -1000;
        b = 1000;
      } else {
        a = -100;
        b = 100;
      }
      if (t == DType::Bool) {
        a = 0;
        b = 1;
      }
    }
    if (!normal_) {
      // A declared domain narrows the nominal range; a range entirely outside it is replaced by it.
      if (hint.low || hint.high) {
        double na = std::max(a, lo_), nb = std::min(b, hi_);
        if (!(na < nb)) {
          na = std::isfinite(lo_) ? lo_ : hi_ - 1.0;
          nb = std::isfinite(hi_) ? hi_ : lo_ + 1.0;
        }
        a = na;
        b = nb;
      }
    }
    uniform_ = std::uniform_real_distribution<double>(a, b);
    gaussian_ = std::normal_distribution<double>(a, b);
  }

  double next() {
    double x = normal_ ? gaussian_(rng_) : uniform_(rng_);
    if (!isFloating(t_)) x = std::round(x);
    x = std::clamp(x, lo_, hi_);
    const double v = representable(t_, x);
    return std::isfinite(v) ? v : 0.0;
  }

 private:
  DType t_;
  bool normal_;
  std::mt19937_64 rng_;
  double lo_ = 0.0, hi_ = 0.0;
  std::uniform_real_distribution<double> uniform_;
  std::normal_distribution<double> gaussian_;
};
}  // namespace

std::vector<double> generateValues(const ValueHint& hint, DType t, std::int64_t n, std::uint64_t seed) {
  ValueDraws draws(hint, t, seed);
  std::vector<double> out(static_cast<std::size_t>(std::max<std::int64_t>(n, 0)));
  for (auto& v : out) v = draws.next();
  return out;
}

Bytes generateEncoded(const ValueHint& hint, DType t, std::int64_t n, std::uint64_t seed,
                      const std::function<void(std::int64_t done)>& onProgress) {
  ValueDraws draws(hint, t, seed);
  const std::size_t es = dtypeSize(t);
  const auto count = static_cast<std::size_t>(std::max<std::int64_t>(n, 0));
  Bytes out(count * es);
  constexpr std::size_t kProgressEvery = std::size_t{1} << 22;
  for (std::size_t i = 0; i < count; ++i) {
    encodeElement(t, draws.next(), &out[i * es]);
    if (onProgress && (i + 1) % kProgressEvery == 0) onProgress(static_cast<std::int64_t>(i + 1));
  }
  return out;
}

}  // namespace kwb::verify
