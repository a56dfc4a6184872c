// SPDX-License-Identifier: MIT
#include "core/diag/Csv.h"

#include <cctype>

#include "core/diag/TextLines.h"

namespace kwb {
namespace {

std::string normalized(std::string_view s) {
  std::string out;
  for (char c : s)
    if (c != ' ' && c != '\t') out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

struct Record {
  std::vector<std::string> fields;
  int line = 0;
};

}  // namespace

std::optional<std::size_t> CsvTable::column(std::string_view name) const {
  for (std::size_t i = 0; i < header.size(); ++i)
    if (header[i] == name) return i;
  const std::string want = normalized(name);
  for (std::size_t i = 0; i < header.size(); ++i)
    if (normalized(header[i]) == want) return i;
  return std::nullopt;
}

std::size_t CsvTable::requireColumn(std::string_view name) const {
  if (auto c = column(name)) return *c;
  std::string found;
  for (const auto& h : header) found += (found.empty() ? "" : ", ") + h;
  throw CsvError(source + ": missing required column '" + std::string(name) + "' (found: " + found + ")");
}

bool isMissingCsvValue(std::string_view field) {
  const auto t = textlines::trim(field);
  return t.empty() || t == "N/A" || t == "n/a" || t == "NA" || t == "-" || t == "--";
}

CsvTable parseCsv(std::string_view text, std::string source) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  std::vector<Record> records;
  Record current;
  std::string field;
  bool quoted = false;     // inside a quoted section
  bool wasQuoted = false;  // the current field had quotes (do not trim it)
  bool fieldStarted = false;
  int line = 1;
  int quoteLine = 0;
  current.line = 1;

  auto endField = [&] {
    current.fields.push_back(wasQuoted ? field : std::string(textlines::trim(field)));
    field.clear();
    wasQuoted = false;
    fieldStarted = false;
  };
  auto endRecord = [&] {
    endField();
    const bool blank = current.fields.size() == 1 && current.fields[0].empty();
    if (!blank) records.push_back(std::move(current));
    current = Record{};
    current.line = line + 1;
  };

  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') {
          field += '"';
          ++i;
        } else {
          quoted = false;
        }
      } else {
        if (c == '\n') ++line;
        field += c;
      }
      continue;
    }
    if (c == '"' && !fieldStarted) {
      quoted = wasQuoted = fieldStarted = true;
      quoteLine = line;
      field.clear();  // drop spaces before the opening quote
    } else if (c == ',') {
      endField();
    } else if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
      continue;  // the '\n' ends the record
    } else if (c == '\n' || c == '\r') {
      endRecord();
      ++line;
    } else {
      if (!wasQuoted) {
        if (!textlines::isSpace(c)) fieldStarted = true;
        field += c;
      } else if (!textlines::isSpace(c)) {
        throw CsvError(source + ":" + std::to_string(line) + ": text after a closing quote");
      }
    }
  }
  if (quoted) throw CsvError(source + ":" + std::to_string(quoteLine) + ": unterminated quoted field");
  if (!field.empty() || wasQuoted || !current.fields.empty()) endRecord();

  if (records.empty()) throw CsvError(source + ": empty file (no header row)");
  CsvTable table;
  table.source = std::move(source);
  table.header = std::move(records.front().fields);
  while (!table.header.empty() && table.header.back().empty()) table.header.pop_back();  // trailing comma
  for (std::size_t r = 1; r < records.size(); ++r) {
    auto& f = records[r].fields;
    while (f.size() > table.header.size() && f.back().empty()) f.pop_back();
    if (f.size() > table.header.size())
      throw CsvError(table.source + ":" + std::to_string(records[r].line) + ": row has " +
                     std::to_string(f.size()) + " fields but the header has " +
                     std::to_string(table.header.size()));
    f.resize(table.header.size());
    table.rows.push_back(std::move(f));
    table.rowLines.push_back(records[r].line);
  }
  return table;
}

}  // namespace kwb
