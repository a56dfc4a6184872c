// SPDX-License-Identifier: MIT
#include "core/store/IndexJournal.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/model/Iteration.h"
#include "core/model/JsonReader.h"
#include "core/store/CrashTestHook.h"
#include "core/store/StoreError.h"

namespace kwb {

namespace fs = std::filesystem;

namespace {

constexpr const char* kVersionKey = "kwb_index_journal";

std::string errnoText() {
  return std::strerror(errno);
}

// Why `line` is not an index entry, or empty when it is one (an object with an id in range).
std::string entryProblem(const nlohmann::json& line) {
  if (!line.is_object()) return "expected an index entry (a JSON object) but found " + describeJson(line);
  const auto id = line.find("id");
  if (id == line.end() || !id->is_number_integer()) return "expected an integer \"id\" in the index entry";
  const auto value = id->get<std::int64_t>();
  if (value < 1 || value > kMaxIterationId)
    return "iteration id " + std::to_string(value) + " is outside 1.." + std::to_string(kMaxIterationId);
  return {};
}

// Why `line` is not a header line ({"header": {field: value, ...}} with known fields), or empty.
std::string headerProblem(const nlohmann::json& line) {
  if (line.size() != 1) return "a header line holds only \"header\"";
  const auto& fields = line["header"];
  if (!fields.is_object() || fields.empty())
    return "expected the changed header fields (a JSON object) but found " + describeJson(fields);
  for (const auto& [name, value] : fields.items())
    if (std::find(std::begin(kJournalHeaderFields), std::end(kJournalHeaderFields), name) ==
        std::end(kJournalHeaderFields))
      return "\"" + name + "\" is not a header field a journal may change";
  return {};
}

class AppendFd {
 public:
  explicit AppendFd(const fs::path& file)
      : fd_(::open(file.c_str(), O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0644)) {
    if (fd_ < 0) throw StoreError(file, "cannot open to append: " + errnoText());
  }
  ~AppendFd() {
    if (fd_ >= 0) ::close(fd_);
  }
  AppendFd(const AppendFd&) = delete;
  AppendFd& operator=(const AppendFd&) = delete;
  int get() const { return fd_; }
  int release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }

 private:
  int fd_;
};

}  // namespace

IndexJournalRead readIndexJournal(const fs::path& file) {
  IndexJournalRead out;
  std::error_code ec;
  if (!fs::exists(file, ec)) return out;
  const std::string text = readWholeFile(file);
  std::size_t start = 0;
  int lineNo = 0;
  while (start < text.size()) {
    ++lineNo;
    const std::size_t end = text.find('\n', start);
    const std::string where = "line " + std::to_string(lineNo);
    if (end == std::string::npos) {
      out.tornTail = where + " has no end (a write was cut short, or a writer is appending now); ignored";
      break;
    }
    const std::string_view line(text.data() + start, end - start);
    start = end + 1;
    if (line.empty()) continue;  // the newline a writer adds after a torn tail leaves an empty line
    nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded()) {
      out.damage.push_back(where + ": not JSON; the lines after it are still read");
      continue;
    }
    const bool versionLine = j.is_object() && j.contains(kVersionKey);
    if (versionLine) {
      const auto& v = j[kVersionKey];
      if (!v.is_number_integer() || v.get<std::int64_t>() < 1)
        out.damage.push_back(where + ": the version must be a positive integer but is " + describeJson(v));
      else if (v.get<std::int64_t>() > kIndexJournalVersion)
        throw SchemaVersionError(file.string(),
                                 static_cast<int>(std::min<std::int64_t>(v.get<std::int64_t>(), 1'000'000)),
                                 kIndexJournalVersion);
      continue;
    }
    if (lineNo == 1)  // reported, and the line still read as an entry when it is one
      out.damage.push_back(where + ": expected the version line {\"" + std::string(kVersionKey) +
                           "\":" + std::to_string(kIndexJournalVersion) + "}");
    if (j.is_object() && j.contains("header")) {
      if (auto why = headerProblem(j); !why.empty()) {
        out.damage.push_back(where + ": " + std::move(why));
        continue;
      }
      for (auto& [name, value] : j["header"].items()) out.header[name] = std::move(value);
      continue;
    }
    if (auto why = entryProblem(j); !why.empty()) {
      out.damage.push_back(where + ": " + std::move(why));
      continue;
    }
    const int id = j["id"].get<int>();
    out.entries[id] = std::move(j);
  }
  return out;
}

void appendIndexJournal(const fs::path& file, const nlohmann::json& entry, Durability d) {
  std::error_code ec;
  const bool existed = fs::exists(file, ec);
  AppendFd fd(file);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) throw StoreError(file, "cannot stat: " + errnoText());
  std::string line;
  if (st.st_size == 0) {
    line = nlohmann::json{{kVersionKey, kIndexJournalVersion}}.dump() + "\n";
  } else {
    char last = '\n';
    if (::pread(fd.get(), &last, 1, st.st_size - 1) != 1)
      throw StoreError(file, "cannot read: " + errnoText());
    if (last != '\n') line = "\n";  // end a torn tail so that it does not swallow this entry
  }
  line += entry.dump() + "\n";
  // One write: a killed process leaves the line whole or absent, never a part of it.
  std::string_view rest = line;
  while (!rest.empty()) {
    const ssize_t n = ::write(fd.get(), rest.data(), rest.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      throw StoreError(file, "append failed: " + errnoText());
    }
    rest.remove_prefix(static_cast<std::size_t>(n));
  }
  if (d == Durability::Sync && ::fsync(fd.get()) != 0) throw StoreError(file, "fsync failed: " + errnoText());
  if (::close(fd.release()) != 0) throw StoreError(file, "close failed: " + errnoText());
  if (!existed && d == Durability::Sync) syncDirectory(file.parent_path().empty() ? "." : file.parent_path());
  storeCommitPoint();  // crash tests: the entry appended, session.json not yet rewritten
}

}  // namespace kwb
