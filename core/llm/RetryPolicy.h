// SPDX-License-Identifier: MIT
#pragma once
// When and how long to wait before retrying an LLM request: Retry-After (delta-seconds or HTTP date)
// when the server sends one, otherwise exponential backoff with jitter. Time and randomness are
// injectable so tests run instantly and deterministically.

#include <atomic>
#include <chrono>
#include <functional>
#include <optional>
#include <string_view>

namespace kwb {

struct RetryClock {
  // Waits `d` or until *cancel becomes true (cancel may be null). Default: real, interruptible sleep.
  std::function<void(std::chrono::milliseconds d, const std::atomic<bool>* cancel)> sleep;
  // Wall clock, for Retry-After given as an HTTP date. Default: system_clock::now.
  std::function<std::chrono::system_clock::time_point()> now;
  // Uniform in [0, 1), for jitter. Default: a thread-local std::mt19937 seeded from random_device.
  std::function<double()> random01;

  static RetryClock real();
  // Any member left empty is filled from real().
  RetryClock withDefaults() const;
};

// Parses a Retry-After header value: "120" (seconds, fractions allowed) or an IMF-fixdate / RFC 850 /
// asctime HTTP date, relative to `now`. A date in the past means 0. nullopt when unparseable.
std::optional<std::chrono::milliseconds> parseRetryAfter(std::string_view value,
                                                         std::chrono::system_clock::time_point now);

// Backoff before retry number `retry` (1 = first retry): base * 2^(retry-1), capped at `max`, then
// scaled by a jitter factor in [0.75, 1.25).
std::chrono::milliseconds backoffDelay(int retry, std::chrono::milliseconds base,
                                       std::chrono::milliseconds max, double random01);

}  // namespace kwb
