// SPDX-License-Identifier: MIT
#include "core/model/JsonReader.h"

#include "core/base/BoundedFileRead.h"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>

namespace kwb {

namespace {

std::string composeMessage(const std::string& file, const std::string& pointer, const std::string& detail) {
  std::string msg;
  if (!file.empty()) msg += file + ": ";
  if (!pointer.empty()) msg += pointer + ": ";
  msg += detail;
  return msg;
}

}  // namespace

LoadError::LoadError(std::string file, std::string pointer, std::string detail)
    : std::runtime_error(composeMessage(file, pointer, detail)),
      file_(std::move(file)),
      pointer_(std::move(pointer)),
      detail_(std::move(detail)) {}

LoadError::LoadError(std::string file, std::string pointer, std::string detail, std::string message)
    : std::runtime_error(std::move(message)),
      file_(std::move(file)),
      pointer_(std::move(pointer)),
      detail_(std::move(detail)) {}

namespace {
std::string schemaDetail(int found, int supported) {
  return "has schema version " + std::to_string(found) + "; this kwb understands up to " +
         std::to_string(supported) + "; upgrade Kernel Workbench";
}
}  // namespace

SchemaVersionError::SchemaVersionError(std::string file, int found, int supported)
    : LoadError(file, "/schema_version", schemaDetail(found, supported),
                (file.empty() ? std::string("document") : file) + " " + schemaDetail(found, supported)),
      found_(found) {}

std::string describeJson(const nlohmann::json& j) {
  constexpr std::size_t kMax = 60;
  if (j.is_object()) return j.empty() ? "an empty object" : "an object";
  if (j.is_array()) return j.empty() ? "an empty array" : "an array of " + std::to_string(j.size());
  std::string text = j.dump();
  if (text.size() > kMax) text = text.substr(0, kMax) + "...";
  return text;
}

std::string escapePointerToken(std::string_view token) {
  std::string out;
  for (char c : token) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

std::pair<int, int> lineColumnAt(std::string_view text, std::size_t byteOffset) {
  int line = 1;
  int column = 1;
  const std::size_t end = std::min(byteOffset, text.size());
  for (std::size_t i = 0; i < end; ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
      // Count UTF-8 code points, not continuation bytes, so the column matches what editors show.
      ++column;
    }
  }
  return {line, column};
}

nlohmann::json parseJsonText(std::string_view text, const std::string& file) {
  try {
    return nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::parse_error& e) {
    // nlohmann reports the byte *after* the offending token (1-based); point at the last byte read.
    const std::size_t offset = e.byte > 0 ? e.byte - 1 : 0;
    auto [line, column] = lineColumnAt(text, offset);
    std::string what = e.what();
    // Drop nlohmann's "[json.exception.parse_error.101] parse error at line 1, column 2: " prefix:
    // the location is given in the editor-friendly form instead.
    if (auto pos = what.find(": "); pos != std::string::npos && what.rfind("[json.exception", 0) == 0)
      what = what.substr(pos + 2);
    std::string where = file.empty() ? "<json>" : file;
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
      throw LoadError(where, "", "invalid JSON: the file is empty");
    throw LoadError(where + ":" + std::to_string(line) + ":" + std::to_string(column), "",
                    "invalid JSON: " + what);
  }
}

nlohmann::json readJsonFile(const std::filesystem::path& path) {
  // Regular files of a bounded size only: `task.json` may be a link to /dev/zero or a FIFO.
  std::string error;
  auto text = readBoundedRegularFile(path, kMaxJsonFileBytes, error);
  if (!text) {
    const std::string prefix = path.string() + " ";
    if (error.rfind(prefix, 0) == 0) error = error.substr(prefix.size());  // LoadError names the file
    if (error.rfind("cannot read " + path.string() + ": ", 0) == 0)
      error = "cannot open: " + error.substr(("cannot read " + path.string() + ": ").size());
    throw LoadError(path.string(), "", error);
  }
  return parseJsonText(*text, path.string());
}

nlohmann::json numberToJson(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return v;
}

JsonReader::JsonReader(const nlohmann::json& value, std::string file, std::string pointer)
    : value_(&value), file_(std::move(file)), pointer_(std::move(pointer)) {}

void JsonReader::fail(std::string_view detail) const {
  throw LoadError(file_, pointer_, std::string(detail));
}

void JsonReader::expected(std::string_view what) const {
  fail("expected " + std::string(what) + " but found " + describeJson(*value_));
}

void JsonReader::requireObject() const {
  if (!value_->is_object()) expected("an object");
}

void JsonReader::requireArray() const {
  if (!value_->is_array()) expected("an array");
}

std::string JsonReader::childPointer(std::string_view key) const {
  return pointer_ + "/" + escapePointerToken(key);
}

bool JsonReader::has(std::string_view key) const {
  requireObject();
  auto it = value_->find(key);
  return it != value_->end() && !it->is_null();
}

JsonReader JsonReader::at(std::string_view key) const {
  requireObject();
  auto it = value_->find(key);
  if (it == value_->end() || it->is_null())
    throw LoadError(file_, childPointer(key), "missing required field \"" + std::string(key) + "\"");
  return JsonReader(*it, file_, childPointer(key));
}

std::optional<JsonReader> JsonReader::find(std::string_view key) const {
  requireObject();
  auto it = value_->find(key);
  if (it == value_->end() || it->is_null()) return std::nullopt;
  return JsonReader(*it, file_, childPointer(key));
}

void JsonReader::allowOnly(std::initializer_list<std::string_view> keys) const {
  requireObject();
  for (auto it = value_->begin(); it != value_->end(); ++it) {
    bool known = false;
    for (auto k : keys) known = known || k == it.key();
    if (known) continue;
    std::string valid;
    for (auto k : keys) valid += (valid.empty() ? "" : ", ") + std::string(k);
    throw LoadError(file_, childPointer(it.key()),
                    "unknown field \"" + it.key() + "\"; valid fields here are: " + valid);
  }
}

std::vector<std::pair<std::string, JsonReader>> JsonReader::members() const {
  requireObject();
  std::vector<std::pair<std::string, JsonReader>> out;
  for (auto it = value_->begin(); it != value_->end(); ++it)
    out.emplace_back(it.key(), JsonReader(it.value(), file_, childPointer(it.key())));
  return out;
}

std::size_t JsonReader::size() const {
  requireArray();
  return value_->size();
}

JsonReader JsonReader::at(std::size_t index) const {
  requireArray();
  if (index >= value_->size())
    fail("expected at least " + std::to_string(index + 1) + " elements but found " +
         std::to_string(value_->size()));
  return JsonReader((*value_)[index], file_, pointer_ + "/" + std::to_string(index));
}

std::vector<JsonReader> JsonReader::items() const {
  requireArray();
  std::vector<JsonReader> out;
  out.reserve(value_->size());
  for (std::size_t i = 0; i < value_->size(); ++i)
    out.emplace_back((*value_)[i], file_, pointer_ + "/" + std::to_string(i));
  return out;
}

std::string JsonReader::asStringFor(std::string_view what) const {
  if (!value_->is_string()) expected(what);
  return value_->get<std::string>();
}

std::string JsonReader::asString() const {
  return asStringFor("a string");
}

std::string JsonReader::asNonEmptyString() const {
  std::string s = asStringFor("a non-empty string");
  if (s.empty()) expected("a non-empty string");
  return s;
}

bool JsonReader::asBool() const {
  if (!value_->is_boolean()) expected("true or false");
  return value_->get<bool>();
}

std::int64_t JsonReader::asInt() const {
  return asInt(std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max());
}

std::int64_t JsonReader::asInt(std::int64_t min, std::int64_t max) const {
  auto rangeText = [&] {
    if (min == std::numeric_limits<std::int64_t>::min() && max == std::numeric_limits<std::int64_t>::max())
      return std::string("an integer");
    if (max == std::numeric_limits<std::int64_t>::max()) return "an integer >= " + std::to_string(min);
    return "an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]";
  };
  std::int64_t v = 0;
  if (value_->is_number_unsigned()) {
    const auto u = value_->get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) expected(rangeText());
    v = static_cast<std::int64_t>(u);
  } else if (value_->is_number_integer()) {
    v = value_->get<std::int64_t>();
  } else if (value_->is_number_float()) {
    // 4.0 written by a hand or a script is an integer in intent; 4.5 is not.
    const double d = value_->get<double>();
    if (!(std::floor(d) == d && std::fabs(d) < 9.0e15)) expected(rangeText());
    v = static_cast<std::int64_t>(d);
  } else {
    expected(rangeText());
  }
  if (v < min || v > max) expected(rangeText());
  return v;
}

std::uint64_t JsonReader::asUInt64() const {
  if (value_->is_number_unsigned()) return value_->get<std::uint64_t>();
  if (value_->is_number_integer() && value_->get<std::int64_t>() >= 0)
    return static_cast<std::uint64_t>(value_->get<std::int64_t>());
  expected("a non-negative integer");
}

double JsonReader::asNumber() const {
  if (!value_->is_number()) expected("a number");
  return value_->get<double>();
}

double JsonReader::asNumberOrSpecial() const {
  if (value_->is_number()) return value_->get<double>();
  if (value_->is_string()) {
    const auto& s = value_->get_ref<const std::string&>();
    if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
    if (s == "inf") return std::numeric_limits<double>::infinity();
    if (s == "-inf") return -std::numeric_limits<double>::infinity();
  }
  expected("a number or one of \"nan\", \"inf\", \"-inf\"");
}

std::string JsonReader::getString(std::string_view key, std::string dflt) const {
  auto r = find(key);
  return r ? r->asString() : std::move(dflt);
}

bool JsonReader::getBool(std::string_view key, bool dflt) const {
  auto r = find(key);
  return r ? r->asBool() : dflt;
}

std::int64_t JsonReader::getInt(std::string_view key, std::int64_t dflt) const {
  auto r = find(key);
  return r ? r->asInt() : dflt;
}

double JsonReader::getNumber(std::string_view key, double dflt) const {
  auto r = find(key);
  return r ? r->asNumber() : dflt;
}

std::optional<std::string> JsonReader::optString(std::string_view key) const {
  auto r = find(key);
  if (!r) return std::nullopt;
  return r->asString();
}

std::optional<std::int64_t> JsonReader::optInt(std::string_view key) const {
  auto r = find(key);
  if (!r) return std::nullopt;
  return r->asInt();
}

std::optional<double> JsonReader::optNumber(std::string_view key) const {
  auto r = find(key);
  if (!r) return std::nullopt;
  return r->asNumber();
}

std::vector<std::string> JsonReader::getStringList(std::string_view key) const {
  std::vector<std::string> out;
  if (auto r = find(key))
    for (const auto& item : r->items()) out.push_back(item.asString());
  return out;
}

}  // namespace kwb
