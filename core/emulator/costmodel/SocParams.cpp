// SPDX-License-Identifier: MIT
#include "core/emulator/costmodel/SocParams.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

namespace kwb::sim {

using nlohmann::json;

SizeClass sizeClassOf(unsigned bytes) {
  switch (bytes) {
    case 1:
      return SizeClass::B8;
    case 2:
      return SizeClass::B16;
    case 8:
      return SizeClass::B64;
    default:
      return SizeClass::B32;
  }
}

std::string_view pathKey(Path p) {
  switch (p) {
    case Path::GmToUb:
      return "GM->UB";
    case Path::UbToGm:
      return "UB->GM";
    case Path::UbToUb:
      return "UB->UB";
    case Path::GmToL1:
      return "GM->L1";
    case Path::L1ToUb:
      return "L1->UB";
    case Path::UbToL1:
      return "UB->L1";
    case Path::L1ToGm:
      return "L1->GM";
    case Path::L1ToL0A:
      return "L1->L0A";
    case Path::L1ToL0B:
      return "L1->L0B";
    case Path::L0CToGm:
      return "L0C->GM";
    case Path::L0CToL1:
      return "L0C->L1";
    case Path::L0CToUb:
      return "L0C->UB";
    case Path::Count:
      break;
  }
  return "";
}

namespace {

constexpr std::string_view kSizeKeys[kSizeClassCount] = {"b8", "b16", "b32", "b64"};
constexpr unsigned kSizeBytes[kSizeClassCount] = {1, 2, 4, 8};

// Walks the document keeping the dotted path of the current field, so every error names the file and
// the exact field ("Ascend910B1.json: transfer.GM->UB.bytes_per_cycle: ...").
class Reader {
 public:
  Reader(std::string_view origin, SocParams& out) : origin_(origin), out_(out) {}

  [[noreturn]] void fail(const std::string& field, const std::string& what) const {
    throw SocParamsError(origin_ + ": " + (field.empty() ? std::string("(document)") : field) + ": " + what);
  }

  const json& child(const json& obj, const std::string& path, std::string_view key) const {
    const std::string field = join(path, key);
    if (!obj.is_object()) fail(path, "must be an object");
    auto it = obj.find(std::string(key));
    if (it == obj.end()) fail(field, "missing");
    return *it;
  }

  const json* optionalChild(const json& obj, std::string_view key) const {
    auto it = obj.find(std::string(key));
    return it == obj.end() ? nullptr : &*it;
  }

  static std::string join(const std::string& path, std::string_view key) {
    return path.empty() ? std::string(key) : path + "." + std::string(key);
  }

  // A parameter leaf: {"value": number, "unit", "source", "ref", "note"}.
  double param(const json& obj, const std::string& path, std::string_view key, double minValue,
               bool allowZero = true) {
    const std::string field = join(path, key);
    const json& leaf = child(obj, path, key);
    return leafValue(leaf, field, minValue, allowZero);
  }

  double leafValue(const json& leaf, const std::string& field, double minValue, bool allowZero) {
    if (!leaf.is_object())
      fail(field, "must be an object {\"value\", \"unit\", \"source\", \"ref\", \"note\"}, got " +
                      std::string(leaf.type_name()));
    ParamSource p;
    auto v = leaf.find("value");
    if (v == leaf.end() || !v->is_number()) fail(field + ".value", "missing or not a number");
    p.value = v->get<double>();
    if (!std::isfinite(p.value)) fail(field + ".value", "not finite");
    if (p.value < minValue || (!allowZero && p.value == 0))
      fail(field + ".value", "out of range (" + formatNumber(p.value) + ")");
    p.unit = stringField(leaf, field, "unit", true);
    p.source = stringField(leaf, field, "source", true);
    if (p.source != "official" && p.source != "measured" && p.source != "derived" && p.source != "fitted" &&
        p.source != "assumed")
      fail(field + ".source",
           "must be one of official|measured|derived|fitted|assumed, got \"" + p.source + "\"");
    p.ref = stringField(leaf, field, "ref", p.source != "assumed");
    p.note = stringField(leaf, field, "note", p.source == "assumed");
    out_.provenance[field] = std::move(p);
    return out_.provenance[field].value;
  }

  std::string stringField(const json& obj, const std::string& field, std::string_view key, bool required) {
    auto it = obj.find(std::string(key));
    if (it == obj.end()) {
      if (required)
        fail(field + "." + std::string(key),
             key == "note" ? "missing (an assumed number must say how to calibrate it)" : "missing");
      return {};
    }
    if (!it->is_string()) fail(field + "." + std::string(key), "must be a string");
    std::string s = it->get<std::string>();
    if (required && s.empty()) fail(field + "." + std::string(key), "must not be empty");
    return s;
  }

  std::string plainString(const json& obj, const std::string& path, std::string_view key) {
    const json& v = child(obj, path, key);
    if (!v.is_string()) fail(join(path, key), "must be a string");
    return v.get<std::string>();
  }

  static std::string formatNumber(double v) {
    std::ostringstream os;
    os << v;
    return os.str();
  }

 private:
  std::string origin_;
  SocParams& out_;
};

int intParam(Reader& r, const json& obj, const std::string& path, std::string_view key, double minValue) {
  double v = r.param(obj, path, key, minValue);
  if (v != std::floor(v)) r.fail(Reader::join(path, key) + ".value", "must be an integer");
  return static_cast<int>(v);
}

void readVector(Reader& r, const json& root, SocParams& s) {
  const json& vec = r.child(root, "", "vector");
  s.vectorHeadCycles = r.param(vec, "vector", "head_cycles", 0);
  const json& classes = r.child(vec, "vector", "classes");
  if (!classes.is_object() || classes.empty()) r.fail("vector.classes", "must be a non-empty object");
  std::unordered_map<std::string, int> byName;
  for (auto it = classes.begin(); it != classes.end(); ++it) {
    const std::string path = "vector.classes." + it.key();
    if (!it->is_object()) r.fail(path, "must be an object keyed by b8/b16/b32/b64");
    VectorClass c;
    c.name = it.key();
    bool any = false;
    for (auto sit = it->begin(); sit != it->end(); ++sit) {
      auto k = std::find(std::begin(kSizeKeys), std::end(kSizeKeys), sit.key());
      if (k == std::end(kSizeKeys))
        r.fail(path + "." + sit.key(), "unknown element size (use b8, b16, b32, b64)");
      c.elementsPerCycle[static_cast<size_t>(k - std::begin(kSizeKeys))] =
          r.leafValue(*sit, path + "." + sit.key(), 0, false);
      any = true;
    }
    if (!any) r.fail(path, "lists no element size");
    byName.emplace(c.name, static_cast<int>(s.vectorClasses.size()));
    s.vectorClasses.push_back(std::move(c));
  }
  if (const json* banks = r.optionalChild(vec, "ub_banks")) {
    const std::string path = "vector.ub_banks";
    if (!banks->is_object()) r.fail(path, "must be an object");
    const auto count = [&](std::string_view k) {
      return static_cast<std::uint32_t>(intParam(r, *banks, path, k, 1));
    };
    s.ubBanks.rowBytes = count("row_bytes");
    s.ubBanks.groups = count("groups");
    s.ubBanks.banksPerGroup = count("banks_per_group");
    s.ubBanks.rowsPerBank = count("rows_per_bank");
    s.ubBanks.readWriteBeats = r.param(*banks, path, "read_write_conflict_cycles", 0);
    if (s.ubBanks.groups > 64 || s.ubBanks.groups * s.ubBanks.banksPerGroup > 256)
      r.fail(path, "at most 64 groups and 256 banks are supported");
  }
  const json& ops = r.child(vec, "vector", "ops");
  if (!ops.is_object()) r.fail("vector.ops", "must be an object {API name: class name}");
  for (auto it = ops.begin(); it != ops.end(); ++it) {
    if (!it->is_string()) r.fail("vector.ops." + it.key(), "must be a class name string");
    auto c = byName.find(it->get<std::string>());
    if (c == byName.end())
      r.fail("vector.ops." + it.key(), "names unknown class \"" + it->get<std::string>() + "\"");
    s.vectorOpClass[it.key()] = c->second;
  }
  const std::string def = r.plainString(vec, "vector", "default_class");
  auto d = byName.find(def);
  if (d == byName.end()) r.fail("vector.default_class", "names unknown class \"" + def + "\"");
  s.defaultVectorClass = d->second;
}

void readTransfer(Reader& r, const json& root, SocParams& s) {
  const json& tr = r.child(root, "", "transfer");
  if (!tr.is_object()) r.fail("transfer", "must be an object keyed by path (\"GM->UB\", ...)");
  for (auto it = tr.begin(); it != tr.end(); ++it) {
    int idx = -1;
    for (int p = 0; p < kPathCount; ++p)
      if (pathKey(static_cast<Path>(p)) == it.key()) idx = p;
    const std::string path = "transfer." + it.key();
    if (idx < 0) r.fail(path, "unknown transfer path");
    TransferPath& t = s.paths[static_cast<size_t>(idx)];
    t.present = true;
    t.bytesPerCycle = r.param(*it, path, "bytes_per_cycle", 0, false);
    t.startCycles = r.param(*it, path, "start_cycles", 0);
    t.latencyCycles = r.param(*it, path, "latency_cycles", 0);
    if (it->contains("l2_bytes_per_cycle"))
      t.l2BytesPerCycle = r.param(*it, path, "l2_bytes_per_cycle", 0, false);
    const json& sh = r.child(*it, path, "shares_gm");
    if (!sh.is_boolean()) r.fail(path + ".shares_gm", "must be true or false");
    t.sharesGm = sh.get<bool>();
  }
  for (Path required : {Path::GmToUb, Path::UbToGm, Path::UbToUb})
    if (!s.paths[static_cast<size_t>(required)].present)
      r.fail("transfer." + std::string(pathKey(required)), "missing (every SoC needs the vector paths)");
}

void readGm(Reader& r, const json& root, SocParams& s) {
  const json& gm = r.child(root, "", "gm");
  s.gmAggregateBytesPerCycle = r.param(gm, "gm", "aggregate_bytes_per_cycle", 0, false);
  s.burstGranuleBytes = r.param(gm, "gm", "burst_granule_bytes", 1);
  // The L2 and per-burst figures came with the calibration (docs/calibration.md); older files lack them.
  if (gm.contains("l2_aggregate_bytes_per_cycle")) {
    s.l2AggregateBytesPerCycle = r.param(gm, "gm", "l2_aggregate_bytes_per_cycle", 0, false);
    s.l2ReadBytesPerCycle = r.param(gm, "gm", "l2_read_bytes_per_cycle", 0, false);
    s.l2WriteBytesPerCycle = r.param(gm, "gm", "l2_write_bytes_per_cycle", 0, false);
  }
  if (gm.contains("burst_cycles")) s.gmBurstCycles = r.param(gm, "gm", "burst_cycles", 0);
  if (gm.contains("same_line_read_bytes_per_cycle"))
    s.sameLineReadBytesPerCycle = r.param(gm, "gm", "same_line_read_bytes_per_cycle", 0, false);
  if (gm.contains("same_address_granule_bytes"))
    s.sameAddressGranuleBytes =
        static_cast<std::uint64_t>(r.param(gm, "gm", "same_address_granule_bytes", 1, false));
  const json& al = r.child(gm, "gm", "alignment");
  if (!al.is_array() || al.empty())
    r.fail("gm.alignment", "must be a non-empty array of {min_align, factor}");
  for (size_t i = 0; i < al.size(); ++i) {
    const std::string path = "gm.alignment[" + std::to_string(i) + "]";
    const json& m = r.child(al[i], path, "min_align");
    if (!m.is_number_unsigned() || m.get<std::uint64_t>() == 0)
      r.fail(path + ".min_align", "must be a positive integer (bytes)");
    AlignTier t;
    t.minAlign = m.get<std::uint64_t>();
    t.factor = r.param(al[i], path, "factor", 0, false);
    if (t.factor > 1) r.fail(path + ".factor.value", "must be at most 1");
    s.alignTiers.push_back(t);
  }
  std::sort(s.alignTiers.begin(), s.alignTiers.end(),
            [](const AlignTier& a, const AlignTier& b) { return a.minAlign > b.minAlign; });
  if (s.alignTiers.back().minAlign != 1)
    r.fail("gm.alignment", "needs a tier with min_align 1 (any address)");
}

void readScalar(Reader& r, const json& root, SocParams& s) {
  const json& sc = r.child(root, "", "scalar");
  const std::string p = "scalar";
  s.apiIssueCycles = r.param(sc, p, "api_issue_cycles", 0);
  s.queueOpCycles = r.param(sc, p, "queue_op_cycles", 0);
  s.syncIssueCycles = r.param(sc, p, "sync_issue_cycles", 0);
  s.loopIterationCycles = r.param(sc, p, "loop_iteration_cycles", 0);
  s.ubGetValueCycles = r.param(sc, p, "ub_get_value_cycles", 0);
  s.ubSetValueCycles = r.param(sc, p, "ub_set_value_cycles", 0);
  s.gmGetValueHitCycles = r.param(sc, p, "gm_get_value_hit_cycles", 0);
  s.gmGetValueMissCycles = r.param(sc, p, "gm_get_value_miss_cycles", 0);
  s.gmSetValueCycles = r.param(sc, p, "gm_set_value_cycles", 0);
  s.maskSetCycles = r.param(sc, p, "mask_set_cycles", 0);
  s.scalarDefaultCycles = r.param(sc, p, "default_cycles", 0);
  s.dcacheBytes = static_cast<std::uint64_t>(intParam(r, sc, p, "dcache_bytes", 64));
  s.dcacheLineBytes = static_cast<std::uint64_t>(intParam(r, sc, p, "dcache_line_bytes", 1));
  if (s.dcacheBytes % s.dcacheLineBytes != 0)
    r.fail("scalar.dcache_bytes", "must be a multiple of dcache_line_bytes");
}

}  // namespace

double SocParams::vectorElementsPerCycle(int cls, unsigned bytes, bool* derived) const {
  if (derived) *derived = false;
  if (cls < 0 || cls >= static_cast<int>(vectorClasses.size())) cls = defaultVectorClass;
  const auto& tput = vectorClasses[static_cast<size_t>(cls)].elementsPerCycle;
  const int want = static_cast<int>(sizeClassOf(bytes == 0 ? 4 : bytes));
  if (tput[static_cast<size_t>(want)] > 0) return tput[static_cast<size_t>(want)];
  // Nearest listed size, scaled to the same bytes per cycle: the unit's datapath width does not change
  // with the element type, so halving the element size doubles the element rate.
  for (int d = 1; d < kSizeClassCount; ++d) {
    for (int cand : {want - d, want + d}) {
      if (cand < 0 || cand >= kSizeClassCount || tput[static_cast<size_t>(cand)] <= 0) continue;
      if (derived) *derived = true;
      return tput[static_cast<size_t>(cand)] * kSizeBytes[cand] / kSizeBytes[want];
    }
  }
  return 1;  // unreachable: the loader rejects classes without any size
}

double SocParams::cubeMacsPerCycleFor(unsigned bytes) const {
  const auto want = static_cast<size_t>(sizeClassOf(bytes == 0 ? 2 : bytes));
  if (cubeMacsPerCycle[want] > 0) return cubeMacsPerCycle[want];
  return cubeMacsPerCycle[static_cast<size_t>(SizeClass::B16)];
}

SocParams parseSocParams(std::string_view jsonText, std::string_view origin) {
  SocParams s;
  s.origin = std::string(origin);
  Reader r(origin, s);
  json root;
  try {
    root = json::parse(jsonText.begin(), jsonText.end());
  } catch (const json::parse_error& e) {
    throw SocParamsError(std::string(origin) + ": not valid JSON: " + e.what());
  }
  if (!root.is_object()) r.fail("", "must be a JSON object");
  const std::string schema = r.plainString(root, "", "schema");
  if (schema != "kwb-soc/1") r.fail("schema", "unsupported \"" + schema + "\" (this build reads kwb-soc/1)");
  s.name = r.plainString(root, "", "soc");
  s.arch = r.plainString(root, "", "arch");
  const std::string mode = r.plainString(root, "", "mode");
  if (mode != "split" && mode != "coupled") r.fail("mode", "must be \"split\" or \"coupled\"");
  s.coupled = mode == "coupled";

  s.clockMhz = r.param(root, "", "clock_mhz", 1);
  const json& cores = r.child(root, "", "cores");
  s.aivCores = intParam(r, cores, "cores", "aiv", 0);
  s.aicCores = intParam(r, cores, "cores", "aic", 0);
  s.vectorKernelCores = intParam(r, cores, "cores", "vector_kernel", 1);
  s.cubeKernelCores = intParam(r, cores, "cores", "cube_kernel", 1);

  const json& mem = r.child(root, "", "memory");
  auto bytes = [&](std::string_view k) { return static_cast<std::uint64_t>(r.param(mem, "memory", k, 0)); };
  s.ubBytes = bytes("ub_bytes");
  s.l1Bytes = bytes("l1_bytes");
  s.l0aBytes = bytes("l0a_bytes");
  s.l0bBytes = bytes("l0b_bytes");
  s.l0cBytes = bytes("l0c_bytes");
  s.l2Bytes = bytes("l2_bytes");

  readGm(r, root, s);
  s.pipeQueueDepth = intParam(r, root, "", "pipe_queue_depth", 1);
  readVector(r, root, s);
  readTransfer(r, root, s);
  readScalar(r, root, s);

  const json& sync = r.child(root, "", "sync");
  s.flagLatencyCycles = r.param(sync, "sync", "flag_latency_cycles", 0);
  s.barrierCycles = r.param(sync, "sync", "barrier_cycles", 0);

  const json& cube = r.child(root, "", "cube");
  s.cubeHeadCycles = r.param(cube, "cube", "head_cycles", 0);
  const json& macs = r.child(cube, "cube", "macs_per_cycle");
  for (int i = 0; i < kSizeClassCount; ++i)
    if (r.optionalChild(macs, kSizeKeys[i]))
      s.cubeMacsPerCycle[static_cast<size_t>(i)] =
          r.param(macs, "cube.macs_per_cycle", kSizeKeys[i], 0, false);
  if (s.cubeMacsPerCycle[static_cast<size_t>(SizeClass::B16)] <= 0)
    r.fail("cube.macs_per_cycle.b16", "missing (the fallback for unlisted sizes)");

  if (root.contains("calibration")) {
    const json& cal = r.child(root, "", "calibration");
    const json& err = r.child(cal, "calibration", "expected_error_pct");
    for (const char* bound : {"memory", "vector", "scalar", "latency", "cube"})
      s.expectedErrorPct[bound] = r.param(err, "calibration.expected_error_pct", bound, 0, false);
    // Optional (docs/calibration.md, "Expected error"): memory-bound kernels whose blocks read the same GM
    // lines, where the model misses the staggered-order convoys.
    if (err.contains("shared_read"))
      s.expectedErrorPct["shared_read"] =
          r.param(err, "calibration.expected_error_pct", "shared_read", 0, false);
  }
  const json& launch = r.child(root, "", "launch");
  s.taskOverheadCycles = r.param(launch, "launch", "task_overhead_cycles", 0);
  s.blockStartCycles = r.param(launch, "launch", "block_start_cycles", 0);
  return s;
}

SocParams loadSocParams(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw SocParamsError(file.string() + ": cannot open SoC parameter file");
  std::ostringstream text;
  text << in.rdbuf();
  return parseSocParams(text.str(), file.string());
}

std::vector<std::string> availableSocs(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  if (dir.empty() || !std::filesystem::is_directory(dir, ec)) return names;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec))
    if (e.path().extension() == ".json") names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

SocParams loadSocByName(std::string_view soc, const std::filesystem::path& dir) {
  if (dir.empty()) throw SocParamsError("SoC \"" + std::string(soc) + "\": no SoC parameter directory given");
  const auto file = dir / (std::string(soc) + ".json");
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) {
    std::string known;
    for (const auto& n : availableSocs(dir)) known += (known.empty() ? "" : ", ") + n;
    throw SocParamsError("SoC \"" + std::string(soc) + "\": no parameter file " + file.string() +
                         " (known: " + (known.empty() ? "none" : known) + ")");
  }
  SocParams params = loadSocParams(file);
  if (params.name != soc)
    throw SocParamsError(file.string() + ": soc: names \"" + params.name + "\" but the file is for \"" +
                         std::string(soc) + "\"");
  return params;
}

}  // namespace kwb::sim
