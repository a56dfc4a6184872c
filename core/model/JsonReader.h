// SPDX-License-Identifier: MIT
#pragma once
// Reading JSON that people and older/newer versions of kwb wrote. Every failure becomes a LoadError
// whose message names the file, the JSON pointer of the offending value and what was expected versus
// what was found, because "type_error.302" tells nobody which of forty fields in task.json is wrong.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace kwb {

class LoadError : public std::runtime_error {
 public:
  // file may be empty (JSON that came from memory); pointer "" is the document root.
  LoadError(std::string file, std::string pointer, std::string detail);
  // With a message other than "FILE: POINTER: DETAIL".
  LoadError(std::string file, std::string pointer, std::string detail, std::string message);

  const std::string& file() const { return file_; }
  const std::string& pointer() const { return pointer_; }
  const std::string& detail() const { return detail_; }

 private:
  std::string file_;
  std::string pointer_;
  std::string detail_;
};

// A semantic problem found after parsing, located by JSON pointer ("/cases/2/shapes/x").
struct ValidationIssue {
  std::string pointer;
  std::string message;
};

// A document written by a newer kwb (higher schema_version). Never recoverable by skipping parts: the
// reader would misinterpret fields it does not know.
class SchemaVersionError : public LoadError {
 public:
  SchemaVersionError(std::string file, int found, int supported);
  int found() const { return found_; }

 private:
  int found_;
};

// Short, quoted rendering of a JSON value for "but found ..." (strings quoted, containers summarised).
std::string describeJson(const nlohmann::json& j);

// RFC 6901 escaping of one reference token ("a/b" -> "a~1b").
std::string escapePointerToken(std::string_view token);

// 1-based line and column of a byte offset in text.
std::pair<int, int> lineColumnAt(std::string_view text, std::size_t byteOffset);

// Parses text; a syntax error becomes a LoadError "FILE:LINE:COL: invalid JSON: ...".
nlohmann::json parseJsonText(std::string_view text, const std::string& file);
// The largest JSON file kwb reads (task files, sessions, transcripts).
inline constexpr std::size_t kMaxJsonFileBytes = std::size_t{64} << 20;  // 64 MiB
// Reads and parses a file; unreadable files, files that are not regular files and files over
// kMaxJsonFileBytes are LoadErrors too.
nlohmann::json readJsonFile(const std::filesystem::path& path);

// Doubles that may be NaN or infinite (verifier values) are stored as numbers when finite and as the
// strings "nan", "inf", "-inf" otherwise: JSON has no spelling for them and nlohmann writes null.
nlohmann::json numberToJson(double v);

// A cursor over a JSON value that remembers where it is (file + pointer) so that every error it raises
// is located. Cheap to copy: holds a pointer to the value, which must outlive the reader.
class JsonReader {
 public:
  JsonReader(const nlohmann::json& value, std::string file, std::string pointer = "");

  const nlohmann::json& value() const { return *value_; }
  const std::string& file() const { return file_; }
  const std::string& pointer() const { return pointer_; }

  [[noreturn]] void fail(std::string_view detail) const;
  // "expected EXPECTED but found <value>".
  [[noreturn]] void expected(std::string_view what) const;

  bool isNull() const { return value_->is_null(); }
  void requireObject() const;
  void requireArray() const;

  // Object access. has() is false for absent and for null members.
  bool has(std::string_view key) const;
  JsonReader at(std::string_view key) const;  // missing -> "missing required field"
  std::optional<JsonReader> find(std::string_view key) const;
  // Rejects members other than the listed ones, naming the first unknown key and the valid ones, so a
  // misspelt optional field ("tolerance" for "tolerances") is not silently ignored.
  void allowOnly(std::initializer_list<std::string_view> keys) const;
  std::vector<std::pair<std::string, JsonReader>> members() const;

  // Array access.
  std::size_t size() const;
  JsonReader at(std::size_t index) const;
  std::vector<JsonReader> items() const;

  // Scalars of this value.
  std::string asString() const;
  // A string, where a non-string is reported as "expected <what> but found ...".
  std::string asStringFor(std::string_view what) const;
  std::string asNonEmptyString() const;
  bool asBool() const;
  std::int64_t asInt() const;
  std::int64_t asInt(std::int64_t min, std::int64_t max) const;
  std::uint64_t asUInt64() const;
  double asNumber() const;           // finite JSON number
  double asNumberOrSpecial() const;  // also "nan", "inf", "-inf" (see numberToJson)

  // Convenience for members: required and defaulted forms.
  std::string getString(std::string_view key) const { return at(key).asString(); }
  std::string getString(std::string_view key, std::string dflt) const;
  bool getBool(std::string_view key, bool dflt) const;
  std::int64_t getInt(std::string_view key) const { return at(key).asInt(); }
  std::int64_t getInt(std::string_view key, std::int64_t dflt) const;
  double getNumber(std::string_view key) const { return at(key).asNumber(); }
  double getNumber(std::string_view key, double dflt) const;
  std::optional<std::string> optString(std::string_view key) const;
  std::optional<std::int64_t> optInt(std::string_view key) const;
  std::optional<double> optNumber(std::string_view key) const;
  std::vector<std::string> getStringList(std::string_view key) const;  // absent -> empty

  // Parses a keyword from a fixed set; on failure lists the valid words.
  template <typename Enum, std::size_t N>
  Enum asEnum(const std::pair<std::string_view, Enum> (&table)[N]) const {
    if (value_->is_string()) {
      const auto& s = value_->template get_ref<const std::string&>();
      for (const auto& [name, e] : table)
        if (name == s) return e;
    }
    std::string names;
    for (const auto& [name, e] : table) names += (names.empty() ? "" : ", ") + std::string(name);
    expected("one of " + names);
  }

 private:
  std::string childPointer(std::string_view key) const;

  const nlohmann::json* value_;
  std::string file_;
  std::string pointer_;
};

// Reads an array of T with the read(const JsonReader&, T&) overload for T.
template <typename T>
void readList(const JsonReader& r, std::vector<T>& out) {
  out.clear();
  for (const auto& item : r.items()) read(item, out.emplace_back());
}

// Looks up a keyword in the same kind of table asEnum uses (for to_json).
template <typename Enum, std::size_t N>
std::string_view enumName(const std::pair<std::string_view, Enum> (&table)[N], Enum e) {
  for (const auto& [name, value] : table)
    if (value == e) return name;
  return table[0].first;
}

}  // namespace kwb
