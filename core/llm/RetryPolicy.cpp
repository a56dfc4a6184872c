// SPDX-License-Identifier: MIT
#include "core/llm/RetryPolicy.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <ctime>
#include <random>
#include <string>
#include <thread>

namespace kwb {

namespace {

std::string trim(std::string_view v) {
  while (!v.empty() && std::isspace(static_cast<unsigned char>(v.front()))) v.remove_prefix(1);
  while (!v.empty() && std::isspace(static_cast<unsigned char>(v.back()))) v.remove_suffix(1);
  return std::string(v);
}

int monthIndex(std::string_view m) {
  static constexpr std::array<std::string_view, 12> kMonths{"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                            "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  for (std::size_t i = 0; i < kMonths.size(); ++i)
    if (kMonths[i] == m) return static_cast<int>(i);
  return -1;
}

// Days since 1970-01-01 for a proleptic Gregorian date (Howard Hinnant's algorithm; no timegm needed).
long long daysFromCivil(int y, unsigned m, unsigned d) {
  y -= m <= 2;
  const long long era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<long long>(doe) - 719468;
}

std::optional<std::chrono::system_clock::time_point> parseHttpDate(const std::string& s) {
  char wk[16] = {}, mon[4] = {}, tz[8] = {};
  int day = 0, year = 0, hh = 0, mm = 0, ss = 0;
  bool ok = false;
  // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
  if (std::sscanf(s.c_str(), "%15[A-Za-z], %d %3s %d %d:%d:%d %7s", wk, &day, mon, &year, &hh, &mm, &ss,
                  tz) == 8) {
    ok = true;
  } else if (std::sscanf(s.c_str(), "%15[A-Za-z], %d-%3s-%d %d:%d:%d %7s", wk, &day, mon, &year, &hh, &mm,
                         &ss, tz) == 8) {  // RFC 850: Sunday, 06-Nov-94 08:49:37 GMT
    if (year < 100) year += year < 70 ? 2000 : 1900;
    ok = true;
  } else if (std::sscanf(s.c_str(), "%15[A-Za-z] %3s %d %d:%d:%d %d", wk, mon, &day, &hh, &mm, &ss, &year) ==
             7) {
    ok = true;  // asctime: Sun Nov  6 08:49:37 1994
  }
  if (!ok) return std::nullopt;
  const int m = monthIndex(mon);
  if (m < 0 || day < 1 || day > 31 || hh > 23 || mm > 59 || ss > 60) return std::nullopt;
  const long long secs =
      daysFromCivil(year, static_cast<unsigned>(m + 1), static_cast<unsigned>(day)) * 86400LL + hh * 3600LL +
      mm * 60LL + ss;
  return std::chrono::system_clock::time_point(std::chrono::seconds(secs));
}

}  // namespace

RetryClock RetryClock::real() {
  RetryClock c;
  c.sleep = [](std::chrono::milliseconds d, const std::atomic<bool>* cancel) {
    const auto until = std::chrono::steady_clock::now() + d;
    while (std::chrono::steady_clock::now() < until) {
      if (cancel && cancel->load()) return;
      const auto left = until - std::chrono::steady_clock::now();
      std::this_thread::sleep_for(
          std::min<std::chrono::steady_clock::duration>(left, std::chrono::milliseconds(20)));
    }
  };
  c.now = [] { return std::chrono::system_clock::now(); };
  c.random01 = [] {
    thread_local std::mt19937 gen{std::random_device{}()};
    return std::uniform_real_distribution<double>(0.0, 1.0)(gen);
  };
  return c;
}

RetryClock RetryClock::withDefaults() const {
  RetryClock c = *this;
  const RetryClock r = real();
  if (!c.sleep) c.sleep = r.sleep;
  if (!c.now) c.now = r.now;
  if (!c.random01) c.random01 = r.random01;
  return c;
}

std::optional<std::chrono::milliseconds> parseRetryAfter(std::string_view value,
                                                         std::chrono::system_clock::time_point now) {
  const std::string v = trim(value);
  if (v.empty()) return std::nullopt;
  if (std::isdigit(static_cast<unsigned char>(v.front()))) {
    double secs = 0;
    auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), secs);
    if (ec != std::errc() || ptr != v.data() + v.size() || secs < 0) return std::nullopt;
    return std::chrono::milliseconds(static_cast<long long>(secs * 1000.0));
  }
  auto when = parseHttpDate(v);
  if (!when) return std::nullopt;
  if (*when <= now) return std::chrono::milliseconds(0);
  return std::chrono::duration_cast<std::chrono::milliseconds>(*when - now);
}

std::chrono::milliseconds backoffDelay(int retry, std::chrono::milliseconds base,
                                       std::chrono::milliseconds max, double random01) {
  const int shift = std::clamp(retry - 1, 0, 30);
  const double raw = std::min(static_cast<double>(base.count()) * static_cast<double>(1LL << shift),
                              static_cast<double>(max.count()));
  const double jitter = 0.75 + 0.5 * std::clamp(random01, 0.0, 1.0);
  return std::chrono::milliseconds(static_cast<long long>(raw * jitter));
}

}  // namespace kwb
