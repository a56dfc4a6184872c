// SPDX-License-Identifier: MIT
// The generated host harness shared by the emulator and CANN's CPU mode, and its manifest format.
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "core/toolchain/HarnessTemplates.h"
#include "core/toolchain/ResultFile.h"

#include "core/toolchain/Backend.h"

namespace kwb {

namespace {
// KWB_TILING_CAPACITY of resources/tasks/include/kwb_tiling.h (the tiling struct's buffer).
constexpr std::uint32_t KwbTilingCapacity = 4096;
}  // namespace

int geDataType(DType t) {
  switch (t) {
    case DType::Float32:
      return 0;
    case DType::Float16:
      return 1;
    case DType::Int8:
      return 2;
    case DType::Int32:
      return 3;
    case DType::UInt8:
      return 4;
    case DType::Int16:
      return 6;
    case DType::UInt16:
      return 7;
    case DType::UInt32:
      return 8;
    case DType::Int64:
      return 9;
    case DType::UInt64:
      return 10;
    case DType::Float64:
      return 11;
    case DType::Bool:
      return 12;
    case DType::BFloat16:
      return 27;
  }
  return -1;
}

std::string generateCpuHarness(const Task& task, const std::string& entrySymbol) {
  const std::size_t n = task.inputs.size() + task.outputs.size();
  std::string params, args;
  for (std::size_t k = 0; k < n; ++k) {
    params += "GM_ADDR, ";
    args += "g_gm[" + std::to_string(k) + "], ";
  }
  return renderHarnessTemplate(
      "cpu_harness.cpp.in",
      {{"KERNEL", task.name},
       {"KERNEL_SYMBOL", entrySymbol.empty() ? task.name : entrySymbol},
       // A renamed entry still launches under the task's name: the launch records are checked against it.
       {"RUN_KF", entrySymbol.empty() ? "ICPU_RUN_KF(" + task.name
                                      : "KWB_SIM_RUN_KF_AS(\"" + task.name + "\", " + entrySymbol},
       {"GM_PARAMS", params},
       {"GM_ARGS", args},
       {"TENSOR_COUNT", std::to_string(n)}});
}

namespace {
std::string hexBytes(const std::string& text) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex = text.empty() ? "-" : "";
  for (const char c : text) {
    const auto b = static_cast<unsigned char>(c);
    hex += kDigits[b >> 4U];
    hex += kDigits[b & 15U];
  }
  return hex;
}

void manifestHeader(std::ostringstream& m, const Task& task, const verify::PreparedCase& p,
                    const SocInfo& soc) {
  m.precision(17);
  m << "soc " << soc.name << " " << soc.coreNumAiv << " " << soc.coreNumAic << " " << soc.ubSize << "\n";
  for (const auto& decl : task.attrs) {
    if (!p.attrs.contains(decl.name)) continue;
    const auto& v = p.attrs[decl.name];
    std::vector<double> vals;
    int type = 1;
    switch (decl.type) {
      case AttrType::Int:
        type = 0;
        break;
      case AttrType::Float:
        type = 1;
        break;
      case AttrType::Bool:
        type = 2;
        break;
      case AttrType::IntList:
        type = 3;
        break;
      case AttrType::FloatList:
        type = 4;
        break;
      case AttrType::String:
        // Hex, so that spaces survive the line format: "attr NAME 5 BYTES HEX" (manifest_reader.inc).
        if (v.is_string())
          m << "attr " << decl.name << " 5 " << v.get<std::string>().size() << " "
            << hexBytes(v.get<std::string>()) << "\n";
        continue;
    }
    if (v.is_array()) {
      for (const auto& e : v) vals.push_back(e.is_boolean() ? (e.get<bool>() ? 1.0 : 0.0) : e.get<double>());
    } else if (v.is_boolean()) {
      vals.push_back(v.get<bool>() ? 1.0 : 0.0);
    } else if (v.is_number()) {
      vals.push_back(v.get<double>());
    }
    m << "attr " << decl.name << " " << type << " " << vals.size();
    for (double x : vals) m << " " << x;
    m << "\n";
  }
}

void manifestTensor(std::ostringstream& m, const char* kind, const TensorSpec& s, const std::string& in,
                    const std::string& out) {
  m << kind << " " << s.name << " " << geDataType(s.dtype) << " " << s.shape.size();
  for (auto d : s.shape) m << " " << d;
  m << " " << in << " " << out << "\n";
}
}  // namespace

std::string tilingManifest(const Task& task, const verify::PreparedCase& p, const SocInfo& soc) {
  std::ostringstream m;
  manifestHeader(m, task, p, soc);
  // Shapes only: "-" where the kernel run names its files. No tensor data exists in the tiling run.
  for (const auto& t : p.inputs) manifestTensor(m, "input", t, "-", "-");
  for (const auto& t : p.outputs) manifestTensor(m, "output", t, "-", "-");
  return m.str();
}

std::string harnessManifest(const Task& task, const verify::PreparedCase& p, const CaseFiles& files,
                            const SocInfo& soc, const TilingResult& tiling) {
  std::ostringstream m;
  manifestHeader(m, task, p, soc);
  for (std::size_t k = 0; k < p.inputs.size(); ++k)
    manifestTensor(m, "input", p.inputs[k], files.inputs[k].string(), files.inputsAfter[k].string());
  for (std::size_t k = 0; k < p.outputs.size(); ++k)
    manifestTensor(m, "output", p.outputs[k], files.outputsInit[k].string(), files.outputs[k].string());
  static const char* hex = "0123456789abcdef";
  std::string data;
  for (std::uint8_t b : tiling.data) {
    data += hex[b >> 4];
    data += hex[b & 15];
  }
  m << "tiling " << tiling.blockDim << " " << tiling.workspaceSize << " " << tiling.data.size() << " "
    << (data.empty() ? "-" : data) << " " << tiling.tilingKey << "\n";
  return m.str();
}

CaseFiles makeCaseFolders(const std::filesystem::path& dir, const verify::PreparedCase& p) {
  namespace fs = std::filesystem;
  CaseFiles f;
  f.dir = dir;
  f.inDir = dir / "in";
  f.tilingDir = dir / "tiling";
  f.outDir = dir / "out";
  f.scratch = dir / "work";
  f.refDir = dir / "ref";
  for (const auto& d : {f.inDir, f.tilingDir, f.outDir, f.scratch, f.refDir}) {
    fs::create_directories(d);
    // Searchable and readable by the sandbox user (kwb may run as root, the run as nobody), writable by
    // the workbench only.
    fs::permissions(d, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                           fs::perms::others_read | fs::perms::others_exec);
  }
  for (const auto& t : p.inputs) {
    f.inputs.push_back(f.inDir / ("input_" + t.name + ".bin"));
    f.inputsAfter.push_back(f.outDir / ("input_" + t.name + ".after.bin"));
  }
  for (const auto& t : p.outputs) {
    f.outputsInit.push_back(f.inDir / ("output_" + t.name + ".poison.bin"));
    f.outputs.push_back(f.outDir / ("output_" + t.name + ".bin"));
  }
  f.manifest = f.inDir / "harness.manifest";
  f.tilingManifest = f.tilingDir / "harness.manifest";
  f.tilingResult = f.outDir / "tiling.out";
  f.records = f.outDir / "records.bin";
  std::vector<fs::path> results = f.inputsAfter;
  results.insert(results.end(), f.outputs.begin(), f.outputs.end());
  results.push_back(f.tilingResult);
  results.push_back(f.records);
  for (const auto& r : results) {
    std::string error;
    if (!createEmptyFile(r, error)) throw std::runtime_error(error);
  }
  return f;
}

std::vector<Diagnostic> readCaseResults(const CaseFiles& files, const verify::PreparedCase& prepared,
                                        CaseRunResult& run, const std::string& source) {
  std::vector<Diagnostic> errors;
  auto unreadable = [&](const std::string& why) {
    Diagnostic d;
    d.source = source;
    d.category = std::string(category::RuntimeCrash);
    d.message = "a result of the run cannot be read back: " + why;
    errors.push_back(std::move(d));
  };
  for (std::size_t k = 0; k < files.outputs.size(); ++k) {
    const std::uint64_t size = prepared.outputPoison[k].size();
    ResultFileRead rr = readResultFile(files.outputs[k], size, size);
    if (!rr.bytes) unreadable(rr.error);
    run.outputs.push_back(rr.bytes ? std::move(*rr.bytes) : verify::Bytes{});
  }
  // The inputs' copies after the run are only compared, never kept: a large case's inputs are gigabytes.
  for (std::size_t k = 0; k < files.inputsAfter.size() && k < prepared.inputs.size(); ++k) {
    verify::InputChangeScan scan(prepared.inputs[k], prepared.inputData[k]);
    const std::string error = scanResultFile(
        files.inputsAfter[k], prepared.inputData[k].size(),
        [&](std::uint64_t at, const std::uint8_t* bytes, std::size_t n) { scan.compare(at, bytes, n); });
    if (!error.empty())
      unreadable(error);
    else if (verify::InputCheck changed = scan.result(); changed.changed)
      run.inputsChanged.push_back(std::move(changed));
  }
  return errors;
}

TilingResult readTilingResult(const std::filesystem::path& file, std::string& error) {
  TilingResult t;
  // Six uint32 (magic "KTIL", version, rc, block dim, tiling bytes, 0) and the workspace size; version 2
  // (resources/harness/cpu_harness.cpp.in) adds the tiling key, version 1 (older programs, the CANN
  // stand-in) has none.
  constexpr std::uint64_t kHeaderV1 = 6 * 4 + 8;
  constexpr std::uint64_t kHeaderV2 = kHeaderV1 + 8;
  const ResultFileRead read = readResultFile(file, std::nullopt, kHeaderV2 + KwbTilingCapacity);
  if (!read.bytes) {
    error = read.error;
    return t;
  }
  const auto& b = *read.bytes;
  if (b.empty()) {
    error = "the tiling run wrote no result (kwb_tiling did not return, or the program ended before it)";
    return t;
  }
  std::uint32_t h[6];
  std::uint64_t workspace = 0, tilingKey = 0;
  if (b.size() < kHeaderV1) {
    error = "the tiling result is " + std::to_string(b.size()) + " bytes, shorter than its header";
    return t;
  }
  std::memcpy(h, b.data(), sizeof h);
  std::memcpy(&workspace, b.data() + sizeof h, sizeof workspace);
  const std::uint64_t header = h[1] == 2u ? kHeaderV2 : kHeaderV1;
  if (h[0] != 0x4c49544bu || (h[1] != 1u && h[1] != 2u) || h[4] > KwbTilingCapacity ||
      b.size() != header + h[4]) {
    error = "the tiling result is malformed (" + std::to_string(b.size()) + " bytes)";
    return t;
  }
  if (h[1] == 2u) std::memcpy(&tilingKey, b.data() + kHeaderV1, sizeof tilingKey);
  t.called = true;
  t.rc = static_cast<int>(h[2]);
  t.blockDim = static_cast<int>(std::min<std::uint32_t>(h[3], 1u << 30));
  t.tilingSize = h[4];
  t.workspaceSize = workspace;
  t.tilingKey = tilingKey;
  t.data.assign(b.begin() + static_cast<std::ptrdiff_t>(header), b.end());
  return t;
}

}  // namespace kwb
