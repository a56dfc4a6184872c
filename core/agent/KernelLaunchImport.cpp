// SPDX-License-Identifier: MIT
#include "core/agent/KernelLaunchImport.h"

#include <algorithm>
#include <regex>
#include <set>

#include <nlohmann/json.hpp>

#include "core/base/TextFile.h"
#include "core/model/DType.h"
#include "core/toolchain/OpProjectSource.h"

namespace kwb {

namespace fs = std::filesystem;

namespace {

constexpr const char* kHostProgram = "main.cpp";

// The text with its comments blanked (newlines kept), so the scans below see code only and offsets
// and line numbers stay those of the file.
std::string withoutComments(const std::string& text) {
  std::string out = text;
  for (std::size_t i = 0; i + 1 < out.size(); ++i) {
    if (out[i] == '"') {
      for (++i; i < out.size() && out[i] != '"' && out[i] != '\n'; ++i)
        if (out[i] == '\\') ++i;
      continue;
    }
    if (out[i] == '/' && out[i + 1] == '/') {
      while (i < out.size() && out[i] != '\n') out[i++] = ' ';
    } else if (out[i] == '/' && out[i + 1] == '*') {
      out[i] = out[i + 1] = ' ';
      for (i += 2; i + 1 < out.size() && !(out[i] == '*' && out[i + 1] == '/'); ++i)
        if (out[i] != '\n') out[i] = ' ';
      if (i + 1 < out.size()) out[i] = out[i + 1] = ' ';
      ++i;
    }
  }
  return out;
}

int lineAt(const std::string& text, std::size_t offset) {
  return static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(offset), '\n')) + 1;
}

std::string trimmed(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

struct SourceFile {
  std::string name;  // relative to the sample folder
  std::string text;
  std::string code;  // text without comments
};

// One `__global__ __aicore__ void NAME(...) {` definition (declarations, as in main.cpp, are not).
struct KernelEntry {
  const SourceFile* file = nullptr;
  std::string name;
  int line = 0;
  std::size_t paramsBegin = 0;  // just after '('
  std::size_t paramsEnd = 0;    // at ')'
};

std::vector<KernelEntry> kernelEntries(const SourceFile& f) {
  static const std::regex entry(
      R"((?:__global__\s+__aicore__|__aicore__\s+__global__)\s+void\s+([A-Za-z_]\w*)\s*\()");
  std::vector<KernelEntry> out;
  for (auto it = std::sregex_iterator(f.code.begin(), f.code.end(), entry); it != std::sregex_iterator();
       ++it) {
    const std::size_t open = static_cast<std::size_t>(it->position(0) + it->length(0));
    int depth = 1;
    std::size_t close = open;
    for (; close < f.code.size() && depth > 0; ++close) {
      if (f.code[close] == '(') ++depth;
      if (f.code[close] == ')') --depth;
    }
    if (depth != 0) continue;
    --close;
    const std::size_t next = f.code.find_first_not_of(" \t\r\n", close + 1);
    if (next == std::string::npos || f.code[next] != '{') continue;
    out.push_back(
        {&f, (*it)[1].str(), lineAt(f.code, static_cast<std::size_t>(it->position(0))), open, close});
  }
  return out;
}

std::string escapedForRegex(const std::string& name) {
  return std::regex_replace(name, std::regex(R"([.^$|()\[\]{}*+?\\])"), R"(\$&)");
}

// The products of integer literals and sizeof(T) that main.cpp assigns to its *Size variables
// (`size_t inputByteSize = 8 * 2048 * sizeof(uint16_t);`): the buffer sizes it launches the kernel on.
std::set<std::int64_t> hostBufferBytes(const std::string& code) {
  static const std::regex assignment(
      R"(\b\w*[Ss]ize\w*\s*=\s*([0-9\s\*]*(?:sizeof\s*\(\s*[\w:]+\s*\)[0-9\s\*]*)?)\s*;)");
  static const std::regex factor(R"(sizeof\s*\(\s*([\w:]+)\s*\)|(\d+))");
  std::set<std::int64_t> out;
  for (auto it = std::sregex_iterator(code.begin(), code.end(), assignment); it != std::sregex_iterator();
       ++it) {
    const std::string expr = (*it)[1].str();
    std::int64_t product = 1;
    bool known = !trimmed(expr).empty();
    for (auto f = std::sregex_iterator(expr.begin(), expr.end(), factor);
         f != std::sregex_iterator() && known; ++f) {
      if ((*f)[2].matched) {
        product *= std::stoll((*f)[2].str());
      } else if (const auto t = parseDType((*f)[1].str())) {
        product *= static_cast<std::int64_t>(dtypeSize(*t));
      } else {
        known = false;
      }
    }
    if (known) out.insert(product);
  }
  return out;
}

// The sample's device-build launcher (`#ifndef ASCENDC_CPU_DEBUG` or `#ifndef __CCE_KT_TEST__` around
// `<op>_do`, with <<<>>> and often ACL calls) is host code that main.cpp's ACL branch calls; the
// workbench launches the kernel itself and its policy refuses host harness code
// (docs/candidate-contract.md, "Kernel-launch samples"), so the block is blanked. Its lines stay, so the
// kernel's line numbers remain the sample's; an #else/#elif branch (the CPU-debug side) is kept.
std::string withoutDeviceLaunchers(const std::string& text) {
  static const std::regex opening(
      R"(^\s*#\s*(?:ifndef\s+|if\s+!\s*defined\s*\(?\s*)(?:ASCENDC_CPU_DEBUG|__CCE_KT_TEST__)\b.*)");
  static const std::regex conditional(R"(^\s*#\s*if.*)");
  static const std::regex elseBranch(R"(^\s*#\s*else\b.*)");
  static const std::regex elifBranch(R"(^\s*#\s*elif\b(.*))");
  static const std::regex endif(R"(^\s*#\s*endif\b.*)");
  std::string out;
  int depth = 0;  // > 0 while blanking, the #if nesting inside the launcher block
  std::size_t begin = 0;
  while (begin < text.size()) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(begin, end - begin);
    const bool crlf = !line.empty() && line.back() == '\r';  // a file written on Windows
    if (crlf) line.pop_back();
    std::smatch m;
    if (depth == 0 && std::regex_match(line, opening)) {
      depth = 1;
      line = "// (the sample's device-build launcher is left out: the workbench launches the kernel)";
    } else if (depth > 0) {
      if (std::regex_match(line, conditional)) {
        ++depth;
      } else if (std::regex_match(line, endif)) {
        --depth;
      } else if (depth == 1 && std::regex_match(line, elseBranch)) {
        depth = 0;
        line = "#if 1  // the sample's #else";
      } else if (depth == 1 && std::regex_match(line, m, elifBranch)) {
        depth = 0;
        line = "#if" + m[1].str();
      }
      if (depth > 0 || std::regex_match(line, endif)) {
        line.clear();
      }
    }
    out += line;
    if (crlf) out += '\r';
    if (end < text.size()) out += '\n';
    begin = end + 1;
  }
  return out;
}

}  // namespace

bool looksLikeKernelLaunchSample(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_regular_file(dir / kHostProgram, ec)) return false;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".cpp" && e.path().filename() != kHostProgram) return true;
  return false;
}

OperatorProjectImport importKernelLaunchSample(const fs::path& dir,
                                               const OperatorProjectImportOptions& options) {
  OperatorProjectImport r;
  auto& errors = r.errors;
  auto problem = [&](const std::string& file, int line, std::string message) {
    errors.push_back(opProjectProblem(file, line, std::move(message)));
  };
  // The sample's own sources at its top level: plain files only, each bounded.
  std::vector<SourceFile> sources;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string ext = e.path().extension().string();
    if (!e.is_regular_file(ec) || e.is_symlink(ec) || (ext != ".cpp" && ext != ".h" && ext != ".hpp"))
      continue;
    if (sources.size() >= kMaxCandidateFiles * 2) {
      problem(dir.string(), 0, "more than " + std::to_string(kMaxCandidateFiles * 2) + " source files");
      return r;
    }
    try {
      SourceFile f{e.path().filename().string(), readTextFileOrThrow(e.path(), kMaxCandidateFileBytes), {}};
      f.code = withoutComments(f.text);
      sources.push_back(std::move(f));
    } catch (const std::exception& ex) {
      problem(e.path().filename().string(), 0, ex.what());
    }
  }
  if (!errors.empty()) return r;
  std::sort(sources.begin(), sources.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  const SourceFile* host = nullptr;
  std::vector<KernelEntry> entries;
  for (const auto& f : sources) {
    if (f.name == kHostProgram) host = &f;
    if (f.name == kHostProgram || fs::path(f.name).extension() != ".cpp") continue;
    for (auto& e : kernelEntries(f)) entries.push_back(std::move(e));
  }
  if (entries.empty()) {
    problem(dir.string(), 0,
            "no kernel entry: no *.cpp beside main.cpp defines extern \"C\" __global__ __aicore__ void "
            "<op>(GM_ADDR ...) { ... }");
    return r;
  }
  if (entries.size() > 1) {
    for (std::size_t i = 1; i < entries.size(); ++i)
      problem(entries[i].file->name, entries[i].line,
              "a second kernel entry \"" + entries[i].name + "\" (the first is \"" + entries[0].name +
                  "\" at " + entries[0].file->name + ":" + std::to_string(entries[0].line) +
                  "); a task has one kernel: import a folder with one entry");
    return r;
  }
  const KernelEntry& entry = entries.front();
  const SourceFile& kernel = *entry.file;

  // The tensors: every parameter a GM_ADDR (or __gm__ uint8_t*), its dtype from the kernel's cast.
  static const std::regex gmParam(R"(^(?:GM_ADDR\s+|__gm__\s+uint8_t\s*\*\s*)([A-Za-z_]\w*)$)");
  nlohmann::json inputs = nlohmann::json::array(), outputs = nlohmann::json::array();
  const std::string params = kernel.code.substr(entry.paramsBegin, entry.paramsEnd - entry.paramsBegin);
  std::size_t start = 0;
  while (start <= params.size()) {
    std::size_t comma = params.find(',', start);
    if (comma == std::string::npos) comma = params.size();
    const std::string raw = params.substr(start, comma - start);
    const std::size_t lead = raw.find_first_not_of(" \t\r\n");
    const int line = lineAt(kernel.code, entry.paramsBegin + start + (lead == std::string::npos ? 0 : lead));
    const std::string param = std::regex_replace(trimmed(raw), std::regex(R"(\s+)"), " ");
    start = comma + 1;
    std::smatch m;
    if (param.empty() || param == "void") {
      if (comma == params.size() && inputs.empty() && outputs.empty())
        problem(kernel.name, entry.line, "the kernel entry \"" + entry.name + "\" takes no tensors");
      continue;
    }
    if (!std::regex_match(param, m, gmParam)) {
      problem(kernel.name, line,
              "parameter \"" + param + "\" of the kernel entry \"" + entry.name +
                  "\": a kernel-launch entry is imported when every parameter is a GM_ADDR tensor (a tiling "
                  "struct or scalar passed by value is not supported; write such an operator as a msopgen "
                  "project)");
      continue;
    }
    const std::string name = m[1].str();
    if (name == "workspace" || name == "tiling") {
      problem(kernel.name, line,
              // An error message, built once when the input is refused
              // NOLINTNEXTLINE(performance-inefficient-string-concatenation)
              "parameter \"" + name + "\": the entry reads a " + name +
                  " its host program computes, which is not imported (write such an operator as a msopgen "
                  "project with a TilingFunc)");
      continue;
    }
    const std::string quoted = escapedForRegex(name);
    std::smatch cast;
    if (!std::regex_search(
            kernel.code, cast,
            std::regex(R"(\(\s*__gm__\s+([A-Za-z_][\w:]*)\s*\*\s*\)\s*)" + quoted + R"(\b)"))) {
      problem(kernel.name, line,
              // An error message, built once when the input is refused
              // NOLINTNEXTLINE(performance-inefficient-string-concatenation)
              "cannot tell the dtype of \"" + name + "\": the kernel never casts it as (__gm__ T*)" + name +
                  // An error message, built once when the input is refused
                  // NOLINTNEXTLINE(performance-inefficient-string-concatenation)
                  " (SetGlobalBuffer((__gm__ half*)" + name + ", ...))");
      continue;
    }
    const int castLine = lineAt(kernel.code, static_cast<std::size_t>(cast.position(0)));
    const auto dtype = parseDType(cast[1].str());
    if (!dtype) {
      problem(kernel.name, castLine,
              "\"" + name + "\" is cast to __gm__ " + cast[1].str() +
                  "*, which is no dtype the workbench knows (" + validDTypeNames() + ")");
      continue;
    }
    // An output is a tensor the kernel copies into: its GlobalTensor is DataCopy's destination.
    std::smatch member;
    const bool bound = std::regex_search(
        kernel.code, member,
        std::regex(R"(([A-Za-z_]\w*)\s*\.\s*SetGlobalBuffer\s*\(\s*\(\s*__gm__\s+[\w:]+\s*\*\s*\)\s*)" +
                   quoted + R"(\b)"));
    if (!bound) {
      problem(kernel.name, castLine,
              "cannot tell whether \"" + name +
                  "\" is an input or an output: no GlobalTensor is bound to it with " +
                  // An error message, built once when the input is refused
                  // NOLINTNEXTLINE(performance-inefficient-string-concatenation)
                  "SetGlobalBuffer((__gm__ T*)" + name + ", ...)");
      continue;
    }
    const std::string gm = escapedForRegex(member[1].str());
    const bool written = std::regex_search(
        kernel.code, std::regex(R"(\b(?:DataCopy|DataCopyPad)\s*\(\s*)" + gm +
                                // A regex built once per output tensor
                                // NOLINTNEXTLINE(performance-inefficient-string-concatenation)
                                R"(\s*[\[,)])" + "|\\b" + gm + R"(\s*\.\s*SetValue\s*\()"));
    const nlohmann::json decl = {{"name", name}, {"dtype", std::string(dtypeName(*dtype))}};
    if (written) {
      outputs.push_back(decl);
    } else if (!outputs.empty()) {
      problem(kernel.name, line,
              "input \"" + name +
                  "\" comes after an output; the candidate contract passes the inputs first, "
                  "then the outputs (docs/candidate-contract.md)");
    } else {
      inputs.push_back(decl);
    }
  }
  if (errors.empty() && outputs.empty())
    problem(kernel.name, entry.line,
            "the kernel entry \"" + entry.name +
                "\" writes none of its tensors (no DataCopy into a GlobalTensor bound to a parameter), so it "
                "has no output");

  // The block count the host program launches with: ICPU_RUN_KF(<op>, <blocks>, ...).
  std::uint32_t blocks = 0;
  std::string blocksSpelled;
  if (!host) {
    problem(kHostProgram, 0, "missing: the sample's host program gives the block count the kernel runs on");
  } else {
    std::smatch run;
    if (!std::regex_search(
            host->code, run,
            std::regex(R"(ICPU_RUN_KF\s*\(\s*)" + escapedForRegex(entry.name) + R"(\s*,\s*([^,]+),)"))) {
      problem(
          kHostProgram, 0,
          "no ICPU_RUN_KF(" + entry.name + ", <blocks>, ...): the block count the kernel runs on is unknown");
    } else {
      blocksSpelled = trimmed(run[1].str());
      std::smatch value;
      const int runLine = lineAt(host->code, static_cast<std::size_t>(run.position(0)));
      // The spelled and the named block count are separate rules that happen to read alike
      // NOLINTNEXTLINE(bugprone-branch-clone)
      if (std::regex_match(blocksSpelled, value, std::regex(R"((\d{1,5})[uU]?)"))) {
        blocks = static_cast<std::uint32_t>(std::stoul(value[1].str()));
      } else if (std::regex_match(blocksSpelled, std::regex(R"([A-Za-z_]\w*)")) &&
                 std::regex_search(
                     host->code, value,
                     std::regex("\\b" + blocksSpelled + R"(\s*(?:=|\{)\s*(\d{1,5})[uU]?\s*[;}])"))) {
        blocks = static_cast<std::uint32_t>(std::stoul(value[1].str()));
      }
      if (blocks == 0 || blocks > 65535)
        problem(kHostProgram, runLine,
                "ICPU_RUN_KF(" + entry.name + ", " + blocksSpelled +
                    ", ...): the block count is not a number from 1 to 65535 nor a variable set to one");
    }
  }
  if (options.casesFile.empty())
    problem("--cases", 0,
            "the verification cases are required: --cases FILE (a JSON array of task.json \"cases\" entries, "
            "docs/task-format.md)");
  if (options.referenceFile.empty())
    problem("--reference", 0, "the reference is required: --reference reference.cpp");
  if (!errors.empty()) return r;

  nlohmann::json j;
  j["name"] = entry.name;
  j["description"] = "Imported from a kernel-launch sample: kernel entry " + entry.name + " in " +
                     kernel.name + ", launched on " + std::to_string(blocks) + " blocks by main.cpp.";
  j["inputs"] = inputs;
  j["outputs"] = outputs;
  completeImportedTask(std::move(j), dir, options, r);
  if (!errors.empty()) return r;

  // The candidate, in the kwb_tiling form: the kernel file with its entry extended by the contract's
  // workspace and tiling (the kernel reads neither) and a kwb_tiling that launches main.cpp's blocks.
  std::string adapted = "// Imported from the kernel-launch sample " + kernel.name +
                        " (docs/candidate-contract.md, \"Kernel-launch samples\").\n"
                        "#include \"kwb_tiling.h\"\n#if KWB_COMPILE_KERNEL\n";
  adapted +=
      withoutDeviceLaunchers(kernel.text.substr(0, entry.paramsEnd) + ", GM_ADDR workspace, GM_ADDR tiling" +
                             kernel.text.substr(entry.paramsEnd));
  if (adapted.back() != '\n') adapted += '\n';
  const std::string n = std::to_string(blocks);
  adapted += "#endif  // KWB_COMPILE_KERNEL\n\n#if KWB_COMPILE_TILING\n";
  adapted += "// main.cpp launches ICPU_RUN_KF(" + entry.name + ", " + blocksSpelled + ", ...): " + n +
             " blocks, whatever the shapes; the kernel's lengths are its own constants.\n";
  adapted += "extern \"C\" int kwb_tiling(const KwbTilingInput* in, KwbTilingOutput* out) {\n  (void)in;\n";
  adapted += "  const uint32_t blocks = " + n + ";\n  kwb_set_block_dim(out, blocks);\n";
  adapted += "  return kwb_set_tiling(out, &blocks, sizeof blocks);\n}\n#endif  // KWB_COMPILE_TILING\n";
  r.candidate.origin = Origin::Imported;
  r.candidate.files[entry.name + ".cpp"] = adapted;
  r.projectFiles[kernel.name] = kernel.text;
  // The sample's own headers the kernel includes come along (data_utils.h is main.cpp's).
  for (const auto& f : sources)
    if (fs::path(f.name).extension() != ".cpp" &&
        kernel.code.find("#include \"" + f.name + "\"") != std::string::npos) {
      r.candidate.files[f.name] = f.text;
      r.projectFiles[f.name] = f.text;
    }
  for (const auto& p : candidateFileProblems(r.candidate.files)) problem(dir.string(), 0, p);

  // A sample's kernel is usually written for main.cpp's buffers only: say so when a case differs.
  const std::set<std::int64_t> bytes = hostBufferBytes(host->code);
  if (!bytes.empty())
    for (const auto& c : r.task.cases)
      for (const auto& t : r.task.caseTensors(c))
        if (!bytes.count(t.bytes())) {
          std::string held;
          for (const auto b : bytes) held += (held.empty() ? "" : ", ") + std::to_string(b);
          Diagnostic w =
              opProjectProblem(kHostProgram, 0,
                               "case \"" + c.name + "\" gives " + t.name + " " + std::to_string(t.bytes()) +
                                   " bytes; main.cpp's buffers hold " + held +
                                   ": the sample's kernel may be written for those sizes only");
          w.severity = Severity::Warning;
          r.warnings.push_back(std::move(w));
        }
  return r;
}

}  // namespace kwb
