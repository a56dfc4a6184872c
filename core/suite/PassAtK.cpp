// SPDX-License-Identifier: MIT
#include "core/suite/PassAtK.h"

namespace kwb::suite {

std::optional<double> passAtK(int n, int c, int k) {
  if (k < 1 || n < 1 || c < 0 || c > n || k > n) return std::nullopt;
  // Fewer failures than draws: every draw of k contains a success.
  if (n - c < k) return 1.0;
  // C(n-c, k) / C(n, k) = prod_{i = n-c+1}^{n} (1 - k / i).
  double allFail = 1.0;
  for (int i = n - c + 1; i <= n; ++i) allFail *= 1.0 - static_cast<double>(k) / static_cast<double>(i);
  return 1.0 - allFail;
}

}  // namespace kwb::suite
