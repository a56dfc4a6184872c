#pragma once
// A candidate kernel: the source files one evaluation compiles (the device kernel, and the host tiling
// code when it is a separate file), plus who wrote it. Immutable once evaluated: a human edit makes a
// new candidate (origin Human) in a new iteration.

#include <map>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

namespace kwb {

class JsonReader;

enum class Origin { Agent, Human, Replay };

std::string_view originName(Origin o);  // "agent", "human", "replay"

// File names become files in iteration folders and exported projects: a plain name of letters,
// digits, '_', '-', '.', not starting with '.', at most 128 characters (no directories).
bool isValidCandidateFileName(std::string_view name);

struct Candidate {
  std::map<std::string, std::string> files;  // file name -> source text
  Origin origin = Origin::Agent;

  bool empty() const { return files.empty(); }
  const std::string* file(std::string_view name) const;
  // Identity of the sources (names and contents; origin excluded): equal hashes mean an unchanged
  // candidate, which backends use to skip recompiling.
  std::string contentHash() const;
  bool operator==(const Candidate&) const = default;
};

void read(const JsonReader& r, Origin& o);
void read(const JsonReader& r, Candidate& c);
void to_json(nlohmann::json& j, Origin o);
void to_json(nlohmann::json& j, const Candidate& c);
void from_json(const nlohmann::json& j, Origin& o);
void from_json(const nlohmann::json& j, Candidate& c);

}  // namespace kwb
