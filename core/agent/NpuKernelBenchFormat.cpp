// SPDX-License-Identifier: MIT
#include "core/agent/NpuKernelBenchFormat.h"
#include "core/model/SizeLimits.h"

#include <cctype>
#include <cmath>
#include <set>

#include <nlohmann/json.hpp>

#include "core/model/TensorSpec.h"

namespace kwb {

using nlohmann::json;

namespace {

constexpr std::size_t kMaxRank = 8;
constexpr std::size_t kMaxArgs = 16;
constexpr std::size_t kMaxTextBytes = 4096;
constexpr std::size_t kMaxDescriptionBytes = 4u << 20;

bool isColumnName(const std::string& s) {
  if (s.empty() || s.size() > 64) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

bool isCaseId(const std::string& s) {
  if (s.empty() || s.size() > 64) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') return false;
  return true;
}

std::string trim(const std::string& s) {
  const std::size_t a = s.find_first_not_of(" \t\r");
  if (a == std::string::npos) return {};
  const std::size_t b = s.find_last_not_of(" \t\r");
  return s.substr(a, b - a + 1);
}

// One line's cells. With ',' a cell may be double-quoted ("[1, 2]"), "" inside being one quote.
std::vector<std::string> splitCells(const std::string& line, char sep, bool& badQuote) {
  std::vector<std::string> cells;
  std::string cell;
  bool quoted = false;
  for (std::size_t k = 0; k < line.size(); ++k) {
    const char c = line[k];
    if (sep == ',' && c == '"') {
      if (quoted && k + 1 < line.size() && line[k + 1] == '"') {
        cell += '"';
        ++k;
      } else {
        quoted = !quoted;
      }
    } else if (c == sep && !quoted) {
      cells.push_back(trim(cell));
      cell.clear();
    } else {
      cell += c;
    }
  }
  badQuote = quoted;
  cells.push_back(trim(cell));
  return cells;
}

std::string clip(std::string s) {
  if (s.size() > kMaxTextBytes) s.resize(kMaxTextBytes);
  return s;
}

class Reader {
 public:
  explicit Reader(std::vector<std::string>& problems) : problems_(problems) {}
  void problem(const std::string& pointer, const std::string& what) {
    problems_.push_back(pointer + ": " + what);
  }

  std::string text(const json& j, const std::string& p) {
    if (!j.is_string()) {
      problem(p, "not a string");
      return {};
    }
    return clip(j.get<std::string>());
  }
  int line(const json& j, const std::string& p) {
    if (!j.is_number_integer() || j.get<std::int64_t>() < 0 || j.get<std::int64_t>() > 10'000'000) {
      problem(p, "not a line number");
      return 0;
    }
    return j.get<int>();
  }
  std::optional<double> number(const json& j, const std::string& p) {
    if (!j.is_number() || !std::isfinite(j.get<double>())) {
      problem(p, "not a finite number");
      return std::nullopt;
    }
    return j.get<double>();
  }
  Shape shape(const json& j, const std::string& p) {
    Shape s;
    if (!j.is_array() || j.size() > kMaxRank) {
      problem(p, "not an array of at most " + std::to_string(kMaxRank) + " dimensions");
      return s;
    }
    // A 0-dim tensor (a scalar) is a [1] tensor of the task.
    if (j.empty()) return Shape{1};
    std::int64_t elements = 1;
    for (std::size_t k = 0; k < j.size(); ++k) {
      if (!j[k].is_number_integer() || j[k].get<std::int64_t>() < 1 ||
          j[k].get<std::int64_t>() > kMaxTensorElements) {
        problem(p + "/" + std::to_string(k),
                "a dimension must be an integer from 1 to " + std::to_string(kMaxTensorElements));
        return {};
      }
      s.push_back(j[k].get<std::int64_t>());
      elements *= s.back();
      if (elements > kMaxTensorElements) {
        problem(p, "more than " + std::to_string(kMaxTensorElements) + " elements");
        return {};
      }
    }
    return s;
  }
  std::vector<NpuKernelBenchArg> args(const json& j, const std::string& p, bool outputs) {
    std::vector<NpuKernelBenchArg> out;
    if (!j.is_array() || j.size() > kMaxArgs || (outputs && j.empty())) {
      problem(p, std::string("not an array of ") + (outputs ? "1" : "0") + " to " + std::to_string(kMaxArgs) +
                     " entries");
      return out;
    }
    for (std::size_t k = 0; k < j.size(); ++k) {
      const std::string q = p + "/" + std::to_string(k);
      const json& a = j[k];
      if (!a.is_object() || !a.contains("kind") || !a.contains("name")) {
        problem(q, "not an object with kind and name");
        continue;
      }
      NpuKernelBenchArg arg;
      arg.name = text(a["name"], q + "/name");
      if (!isCIdentifier(arg.name)) problem(q + "/name", "\"" + arg.name + "\" is not a C identifier");
      const std::string kind = text(a["kind"], q + "/kind");
      if (kind == "tensor") {
        arg.tensor = true;
        if (!a.contains("dtype") || !a.contains("shape")) {
          problem(q, "a tensor without dtype and shape");
          continue;
        }
        arg.dtype = text(a["dtype"], q + "/dtype");
        if (arg.dtype.empty() || arg.dtype.size() > 32 ||
            arg.dtype.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") != std::string::npos)
          problem(q + "/dtype", "not a dtype name");
        arg.shape = shape(a["shape"], q + "/shape");
        if (a.contains("min")) arg.min = number(a["min"], q + "/min");
        if (a.contains("max")) arg.max = number(a["max"], q + "/max");
        if (arg.min.has_value() != arg.max.has_value() || (arg.min && *arg.min > *arg.max))
          problem(q, "min and max are not a range");
      } else if (kind == "value" && !outputs) {
        arg.repr = a.contains("repr") ? text(a["repr"], q + "/repr") : "";
      } else {
        problem(q + "/kind", "\"" + kind + "\" is not " + (outputs ? "tensor" : "tensor or value"));
      }
      out.push_back(std::move(arg));
    }
    return out;
  }

 private:
  std::vector<std::string>& problems_;
};

}  // namespace

NpuKernelBenchCsv parseNpuKernelBenchCases(const std::string& text) {
  NpuKernelBenchCsv csv;
  auto problem = [&](int line, const std::string& what) {
    csv.problems.push_back(std::to_string(line) + ": " + what);
  };
  std::size_t start = text.rfind("\xEF\xBB\xBF", 0) == 0 ? 3 : 0;
  int lineNo = 0;
  char sep = ';';
  std::set<std::string> ids;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    start = end + 1;
    ++lineNo;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (trim(line).empty()) continue;
    bool printable = true;
    for (char c : line)
      if (static_cast<unsigned char>(c) < 0x20 ? c != '\t' : static_cast<unsigned char>(c) > 0x7e)
        printable = false;
    if (!printable) {
      problem(lineNo, "not printable ASCII text");
      continue;
    }
    if (csv.columns.empty()) {
      sep = line.find(';') != std::string::npos ? ';' : ',';
      bool badQuote = false;
      csv.columns = splitCells(line, sep, badQuote);
      std::set<std::string> seen;
      for (const auto& c : csv.columns) {
        if (!isColumnName(c)) problem(lineNo, "column \"" + c + "\" is not a name of letters, digits and _");
        if (!seen.insert(c).second) problem(lineNo, "column \"" + c + "\" repeats");
      }
      if (csv.columns.size() > kMaxNpuKernelBenchColumns)
        problem(lineNo, std::to_string(csv.columns.size()) + " columns; at most " +
                            std::to_string(kMaxNpuKernelBenchColumns));
      if (!seen.count("case_id")) problem(lineNo, "no case_id column (the header must name it)");
      if (!csv.ok()) return csv;
      continue;
    }
    if (csv.rows.size() >= kMaxNpuKernelBenchRows) {
      problem(lineNo, "more than " + std::to_string(kMaxNpuKernelBenchRows) + " rows");
      return csv;
    }
    bool badQuote = false;
    const auto cells = splitCells(line, sep, badQuote);
    if (badQuote) {
      problem(lineNo, "a quote is not closed");
      continue;
    }
    if (cells.size() != csv.columns.size()) {
      problem(lineNo, std::to_string(cells.size()) + " cells for " + std::to_string(csv.columns.size()) +
                          " columns (cells are separated by '" + std::string(1, sep) + "')");
      continue;
    }
    NpuKernelBenchRow row;
    row.line = lineNo;
    for (std::size_t k = 0; k < cells.size(); ++k) {
      if (cells[k].size() > kMaxNpuKernelBenchCellBytes)
        problem(lineNo, "the " + csv.columns[k] + " cell is over " +
                            std::to_string(kMaxNpuKernelBenchCellBytes) + " bytes");
      row.cells[csv.columns[k]] = cells[k];
    }
    const std::string& id = row.cells["case_id"];
    if (!isCaseId(id)) problem(lineNo, "case_id \"" + id + "\" is not letters, digits, _ and -");
    if (!ids.insert(id).second) problem(lineNo, "case_id " + id + " repeats");
    csv.rows.push_back(std::move(row));
  }
  if (csv.columns.empty())
    problem(0, "empty: no header line");
  else if (csv.rows.empty() && csv.ok())
    problem(lineNo, "no rows after the header");
  return csv;
}

NpuKernelBenchDescriptionParse parseNpuKernelBenchDescription(const std::string& jsonText,
                                                              std::size_t rowsAsked) {
  NpuKernelBenchDescriptionParse r;
  Reader rd(r.problems);
  if (jsonText.size() > kMaxDescriptionBytes) {
    rd.problem("", "over " + std::to_string(kMaxDescriptionBytes) + " bytes");
    return r;
  }
  const json j = json::parse(jsonText, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("ok") || !j["ok"].is_boolean()) {
    rd.problem("", "not a JSON object with a boolean ok");
    return r;
  }
  NpuKernelBenchDescription& d = r.description;
  d.ok = j["ok"].get<bool>();
  if (!d.ok) {
    d.kind = j.contains("kind") ? rd.text(j["kind"], "/kind") : "unknown";
    d.error = j.contains("error") ? rd.text(j["error"], "/error") : "no reason given";
    d.file = j.contains("file") ? rd.text(j["file"], "/file") : "";
    d.line = j.contains("line") ? rd.line(j["line"], "/line") : 0;
    return r;
  }
  if (!j.contains("rows") || !j["rows"].is_array() || j["rows"].size() != rowsAsked) {
    rd.problem("/rows", "not an array of the " + std::to_string(rowsAsked) + " rows asked for");
    return r;
  }
  d.forwardLine = j.contains("forward_line") ? rd.line(j["forward_line"], "/forward_line") : 0;
  for (std::size_t k = 0; k < j["rows"].size(); ++k) {
    const std::string p = "/rows/" + std::to_string(k);
    const json& row = j["rows"][k];
    if (!row.is_object() || !row.contains("case_id") || !row.contains("ok") || !row["ok"].is_boolean()) {
      rd.problem(p, "not an object with case_id and ok");
      continue;
    }
    NpuKernelBenchRowDescription e;
    e.caseId = rd.text(row["case_id"], p + "/case_id");
    e.ok = row["ok"].get<bool>();
    if (!e.ok) {
      e.error = row.contains("error") ? rd.text(row["error"], p + "/error") : "no reason given";
      e.file = row.contains("file") ? rd.text(row["file"], p + "/file") : "";
      e.line = row.contains("line") ? rd.line(row["line"], p + "/line") : 0;
    } else {
      if (!row.contains("args") || !row.contains("outputs")) {
        rd.problem(p, "a described row without args and outputs");
        continue;
      }
      e.args = rd.args(row["args"], p + "/args", false);
      e.outputs = rd.args(row["outputs"], p + "/outputs", true);
      e.upcast = row.contains("upcast") && row["upcast"].is_boolean() && row["upcast"].get<bool>();
      if (row.contains("init") && row["init"].is_array() && row["init"].size() <= kMaxArgs)
        for (std::size_t i = 0; i < row["init"].size(); ++i)
          e.init.push_back(rd.text(row["init"][i], p + "/init/" + std::to_string(i)));
    }
    d.rows.push_back(std::move(e));
  }
  return r;
}

}  // namespace kwb
