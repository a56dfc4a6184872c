// SPDX-License-Identifier: MIT
// The SoC parameter files and their loader: every shipped file loads, carries provenance on every
// number, matches the official figures of the facts sheet, and bad files fail naming file and field.

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/emulator/costmodel/SocParams.h"

using namespace kwb::sim;

namespace {

std::filesystem::path socDir() {
  return std::filesystem::path(KWB_SOURCE_DIR) / "resources" / "soc";
}

std::string readText(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string errorOf(const nlohmann::json& doc, const std::string& origin = "Broken.json") {
  try {
    parseSocParams(doc.dump(), origin);
  } catch (const SocParamsError& e) {
    return e.what();
  }
  return {};
}

nlohmann::json b1() {
  return nlohmann::json::parse(readText(socDir() / "Ascend910B1.json"));
}

}  // namespace

TEST(SocParams, EveryShippedSocLoadsWithProvenance) {
  const auto names = availableSocs(socDir());
  for (const char* want :
       {"Ascend910B1", "Ascend910B2", "Ascend910B3", "Ascend910B4", "Ascend310P1", "Ascend310P3"})
    EXPECT_NE(std::find(names.begin(), names.end(), want), names.end()) << want;
  for (const auto& n : names) {
    SCOPED_TRACE(n);
    const SocParams s = loadSocByName(n, socDir());
    EXPECT_EQ(s.name, n);
    EXPECT_GT(s.clockMhz, 0);
    EXPECT_GT(s.vectorKernelCores, 0);
    EXPECT_GT(s.gmAggregateBytesPerCycle, 0);
    EXPECT_TRUE(s.vectorOpClass.count("Add"));
    EXPECT_TRUE(s.vectorOpClass.count("Exp"));
    EXPECT_GT(s.provenance.size(), 60u);
    int assumed = 0;
    for (const auto& [field, p] : s.provenance) {
      EXPECT_TRUE(p.source == "official" || p.source == "measured" || p.source == "derived" ||
                  p.source == "fitted" || p.source == "assumed")
          << field;
      EXPECT_FALSE(p.unit.empty()) << field;
      if (p.source == "assumed") {
        ++assumed;
        EXPECT_FALSE(p.note.empty()) << field;
      } else {
        EXPECT_FALSE(p.ref.empty()) << field;
      }
    }
    EXPECT_GT(assumed, 0);  // honesty check: the unpublished costs are marked as assumptions
  }
}

// Every number in a shipped SoC file is the `value` of a parameter object that names its source; the only
// bare numbers allowed are the alignment tiers' thresholds, which are keys of the table, not parameters.
static void expectEveryNumberHasASource(const nlohmann::json& j, const std::string& path, int& numbers) {
  if (j.is_object()) {
    if (j.contains("value")) {
      ++numbers;
      EXPECT_TRUE(j["value"].is_number()) << path;
      EXPECT_TRUE(j.contains("source") && j["source"].is_string()) << path << " has no source";
      EXPECT_TRUE(j.contains("ref") || j.contains("note")) << path << " says nowhere where it comes from";
      return;
    }
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (it.key() == "min_align") continue;
      EXPECT_FALSE(it->is_number()) << path + "." + it.key() << " is a bare number without a source";
      expectEveryNumberHasASource(*it, path + "." + it.key(), numbers);
    }
  } else if (j.is_array()) {
    for (size_t i = 0; i < j.size(); ++i) {
      EXPECT_FALSE(j[i].is_number()) << path << "[" << i << "] is a bare number without a source";
      expectEveryNumberHasASource(j[i], path + "[" + std::to_string(i) + "]", numbers);
    }
  }
}

TEST(SocParams, EveryNumericParameterOfEveryShippedFileHasASource) {
  for (const auto& n : availableSocs(socDir())) {
    SCOPED_TRACE(n);
    int numbers = 0;
    expectEveryNumberHasASource(nlohmann::json::parse(readText(socDir() / (n + ".json"))), n, numbers);
    EXPECT_GT(numbers, 60);
    // The loader keeps one provenance entry per parameter it reads: none is read without its source.
    EXPECT_EQ(loadSocByName(n, socDir()).provenance.size(), static_cast<size_t>(numbers));
  }
}

TEST(SocParams, CalibratedParametersNameTheirMeasurements) {
  for (const char* n : {"Ascend910B1", "Ascend910B3"}) {
    SCOPED_TRACE(n);
    const SocParams s = loadSocByName(n, socDir());
    for (const char* field : {"gm.aggregate_bytes_per_cycle", "gm.burst_cycles", "gm.l2_read_bytes_per_cycle",
                              "transfer.GM->UB.start_cycles", "launch.task_overhead_cycles",
                              "launch.block_start_cycles", "scalar.api_issue_cycles"}) {
      const ParamSource& p = s.provenance.at(field);
      EXPECT_EQ(p.source, "fitted") << field;
      EXPECT_NE(p.ref.find("calibration-data"), std::string::npos) << field << ": " << p.ref;
    }
    EXPECT_GT(s.l2AggregateBytesPerCycle, s.gmAggregateBytesPerCycle);
  }
  EXPECT_EQ(loadSocByName("Ascend910B3", socDir()).provenance.at("clock_mhz").source, "measured");
}

TEST(SocParams, OfficialNumbersMatchTheFactsSheet) {
  const SocParams b = loadSocByName("Ascend910B1", socDir());
  EXPECT_EQ(b.clockMhz, 1850);
  EXPECT_EQ(b.aivCores, 48);
  EXPECT_EQ(b.aicCores, 24);
  EXPECT_EQ(b.vectorKernelCores, 48);
  EXPECT_EQ(b.ubBytes, 192u * 1024);
  EXPECT_FALSE(b.coupled);
  EXPECT_EQ(b.paths[static_cast<size_t>(Path::GmToUb)].bytesPerCycle, 32);
  EXPECT_EQ(b.paths[static_cast<size_t>(Path::UbToGm)].bytesPerCycle, 64);
  EXPECT_EQ(b.paths[static_cast<size_t>(Path::L1ToL0A)].bytesPerCycle,
            256);  // docs over the ini (docs/ascend-notes.md §2.2)
  EXPECT_EQ(b.provenance.at("transfer.GM->UB.bytes_per_cycle").source, "official");
  EXPECT_EQ(b.provenance.at("gm.aggregate_bytes_per_cycle").source, "fitted");  // docs/calibration.md
  EXPECT_EQ(b.vectorElementsPerCycle(b.vectorOpClass.at("Add"), 2), 128);
  EXPECT_EQ(b.vectorElementsPerCycle(b.vectorOpClass.at("Add"), 4), 64);
  EXPECT_EQ(b.vectorElementsPerCycle(b.vectorOpClass.at("Exp"), 2), 32);
  EXPECT_EQ(b.alignTiers.front().minAlign, 512u);
  EXPECT_DOUBLE_EQ(b.alignTiers[1].factor, 0.7);

  const SocParams b4 = loadSocByName("Ascend910B4", socDir());
  EXPECT_EQ(b4.clockMhz, 1500);
  EXPECT_EQ(b4.aivCores, 40);

  const SocParams p3 = loadSocByName("Ascend310P3", socDir());
  EXPECT_TRUE(p3.coupled);
  EXPECT_EQ(p3.clockMhz, 1060);
  EXPECT_EQ(p3.aicCores, 8);
  EXPECT_EQ(p3.aivCores, 7);
  EXPECT_EQ(p3.ubBytes, 256u * 1024);
  EXPECT_EQ(p3.paths[static_cast<size_t>(Path::GmToUb)].bytesPerCycle, 17);
  EXPECT_TRUE(p3.paths[static_cast<size_t>(Path::L0CToUb)].present);
  EXPECT_FALSE(p3.paths[static_cast<size_t>(Path::L0CToGm)].present);
}

TEST(SocParams, EmbeddedTextParsesLikeTheFile) {
  const std::string text = readText(socDir() / "Ascend910B2.json");
  const SocParams a = parseSocParams(text, "embedded:Ascend910B2");
  const SocParams b = loadSocByName("Ascend910B2", socDir());
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.origin, "embedded:Ascend910B2");
  EXPECT_EQ(a.clockMhz, b.clockMhz);
  EXPECT_EQ(a.provenance.size(), b.provenance.size());
}

TEST(SocParams, UnlistedElementSizeIsDerivedAtEqualBytesPerCycle) {
  const SocParams b = loadSocByName("Ascend910B1", socDir());
  bool derived = false;
  EXPECT_EQ(b.vectorElementsPerCycle(b.vectorOpClass.at("Add"), 1, &derived), 256);
  EXPECT_TRUE(derived);
  EXPECT_EQ(b.vectorElementsPerCycle(b.vectorOpClass.at("Add"), 2, &derived), 128);
  EXPECT_FALSE(derived);
}

TEST(SocParams, ErrorsNameTheFileAndTheField) {
  auto doc = b1();
  doc.erase("clock_mhz");
  std::string e = errorOf(doc);
  EXPECT_NE(e.find("Broken.json"), std::string::npos) << e;
  EXPECT_NE(e.find("clock_mhz"), std::string::npos) << e;
  EXPECT_NE(e.find("missing"), std::string::npos) << e;

  doc = b1();
  doc["transfer"]["GM->UB"]["bytes_per_cycle"]["source"] = "guess";
  e = errorOf(doc);
  EXPECT_NE(e.find("transfer.GM->UB.bytes_per_cycle.source"), std::string::npos) << e;
  EXPECT_NE(e.find("official|measured|derived|fitted|assumed"), std::string::npos) << e;

  doc = b1();
  doc["vector"]["head_cycles"].erase("note");
  e = errorOf(doc);
  EXPECT_NE(e.find("vector.head_cycles.note"), std::string::npos) << e;
  EXPECT_NE(e.find("calibrate"), std::string::npos) << e;

  doc = b1();
  doc["cores"]["aiv"] = 48;  // a bare number without provenance
  e = errorOf(doc);
  EXPECT_NE(e.find("cores.aiv"), std::string::npos) << e;

  doc = b1();
  doc["vector"]["ops"]["Add"] = "nonsense";
  e = errorOf(doc);
  EXPECT_NE(e.find("vector.ops.Add"), std::string::npos) << e;

  doc = b1();
  doc["gm"]["alignment"][1]["factor"]["value"] = 1.5;
  e = errorOf(doc);
  EXPECT_NE(e.find("gm.alignment[1].factor.value"), std::string::npos) << e;

  doc = b1();
  doc["transfer"]["GM->UB"]["bytes_per_cycle"]["value"] = 0;
  e = errorOf(doc);
  EXPECT_NE(e.find("out of range"), std::string::npos) << e;

  EXPECT_NE(errorOf(nlohmann::json::array()).find("must be a JSON object"), std::string::npos);
  try {
    parseSocParams("{ not json", "Bad.json");
    FAIL();
  } catch (const SocParamsError& ex) {
    EXPECT_NE(std::string(ex.what()).find("Bad.json: not valid JSON"), std::string::npos);
  }
}

TEST(SocParams, UnknownSocListsTheKnownOnes) {
  try {
    loadSocByName("Ascend999", socDir());
    FAIL();
  } catch (const SocParamsError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("Ascend999"), std::string::npos);
    EXPECT_NE(m.find("Ascend910B1"), std::string::npos);
  }
  EXPECT_THROW(loadSocParams(socDir() / "missing.json"), SocParamsError);
}
