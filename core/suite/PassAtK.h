// SPDX-License-Identifier: MIT
#pragma once
// The unbiased pass@k estimator (docs/suites.md, "Metrics"): with n samples of which c succeeded, the
// probability that at least one of k samples drawn without replacement succeeds,
//   pass@k = 1 - C(n - c, k) / C(n, k),
// computed as a product so that large n does not overflow. compile@k and correct@k are this estimator
// over "compiled" and "correct" samples.

#include <optional>

namespace kwb::suite {

// nullopt when k < 1, n < 1, c outside [0, n] or k > n (the estimate needs at least k samples).
std::optional<double> passAtK(int n, int c, int k);

}  // namespace kwb::suite
