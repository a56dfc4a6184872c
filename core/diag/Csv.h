// SPDX-License-Identifier: MIT
#pragma once
// A small, strict CSV reader for tool outputs (msprof CSVs and the like): RFC 4180 quoting (commas,
// quotes and newlines inside quoted fields), a UTF-8 byte-order mark, CRLF or LF line ends, blank lines
// skipped, unquoted fields trimmed. Every error names the source file and the line.

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace kwb {

class CsvError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct CsvTable {
  std::string source;  // file name used in messages
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;  // each padded to header.size() (short rows get "")
  std::vector<int> rowLines;                   // 1-based line where each row starts, for messages

  // Column index by name: exact match first, then ignoring case and spaces ("Task Duration (us)").
  std::optional<std::size_t> column(std::string_view name) const;
  // Like column(), but throws CsvError "<source>: missing required column '<name>' (found: a, b, ...)".
  std::size_t requireColumn(std::string_view name) const;
};

// Throws CsvError on an unterminated quote, an empty input (no header) or a row with more non-empty
// fields than the header has columns.
CsvTable parseCsv(std::string_view text, std::string source);

// "N/A", "NA", "-", "--" and "" mean "no value" in profiler CSVs.
bool isMissingCsvValue(std::string_view field);

}  // namespace kwb
