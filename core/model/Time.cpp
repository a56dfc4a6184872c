// SPDX-License-Identifier: MIT
#include "core/model/Time.h"

#include <cstdio>
#include <ctime>

#include "core/model/JsonReader.h"

namespace kwb {

std::string formatIso8601(std::chrono::system_clock::time_point t) {
  using namespace std::chrono;
  const auto ms = duration_cast<milliseconds>(t.time_since_epoch()).count();
  std::time_t secs = static_cast<std::time_t>(ms / 1000);
  int frac = static_cast<int>(ms % 1000);
  if (frac < 0) {
    frac += 1000;
    --secs;
  }
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, frac);
  return buf;
}

std::string nowIso8601() {
  return formatIso8601(std::chrono::system_clock::now());
}

std::optional<std::chrono::system_clock::time_point> parseIso8601(std::string_view s) {
  auto digits = [&](std::size_t pos, std::size_t n, int& out) {
    if (pos + n > s.size()) return false;
    out = 0;
    for (std::size_t i = pos; i < pos + n; ++i) {
      if (s[i] < '0' || s[i] > '9') return false;
      out = out * 10 + (s[i] - '0');
    }
    return true;
  };
  int year, month, day, hour, minute, second;
  if (!digits(0, 4, year) || s.size() < 20 || s[4] != '-' || !digits(5, 2, month) || s[7] != '-' ||
      !digits(8, 2, day) || s[10] != 'T' || !digits(11, 2, hour) || s[13] != ':' || !digits(14, 2, minute) ||
      s[16] != ':' || !digits(17, 2, second))
    return std::nullopt;
  std::size_t pos = 19;
  int millis = 0;
  if (s[pos] == '.') {
    ++pos;
    int scale = 100;
    const std::size_t start = pos;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
      millis += (s[pos] - '0') * scale;
      scale /= 10;
      ++pos;
    }
    if (pos == start) return std::nullopt;
  }
  if (pos + 1 != s.size() || s[pos] != 'Z') return std::nullopt;
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60)
    return std::nullopt;
  using namespace std::chrono;
  const year_month_day ymd{std::chrono::year{year}, std::chrono::month{static_cast<unsigned>(month)},
                           std::chrono::day{static_cast<unsigned>(day)}};
  if (!ymd.ok()) return std::nullopt;
  return sys_days{ymd} + hours{hour} + minutes{minute} + seconds{second} + milliseconds{millis};
}

std::string readTimestamp(const JsonReader& r) {
  std::string s = r.asStringFor("an ISO-8601 UTC timestamp like \"2025-03-01T12:34:56.789Z\"");
  if (!parseIso8601(s)) r.expected("an ISO-8601 UTC timestamp like \"2025-03-01T12:34:56.789Z\"");
  return s;
}

}  // namespace kwb
