// SPDX-License-Identifier: MIT
#include "core/toolchain/OpProjectTemplate.h"

#include <utility>

#include "core/model/Candidate.h"
#include "core/toolchain/OpProjectSource.h"
#include "core/toolchain/RegistrationLexer.h"

namespace kwb {

namespace {

using registration_lexer::lex;
using registration_lexer::namespacesOf;
using registration_lexer::Tok;

bool isEntryQualifier(const Tok& t) {
  return t.kind == Tok::Ident && (t.text == "void" || t.text == "__global__" || t.text == "__aicore__" ||
                                  t.text == "inline" || t.text == "static" || t.text == "__attribute__");
}

// The `<` opening the template parameter list whose `>` is at `close`; npos when unbalanced.
std::size_t openingAngle(const std::vector<Tok>& t, std::size_t close) {
  int depth = 0;
  for (std::size_t k = close + 1; k-- > 0;) {
    if (t[k].text == ">") ++depth;
    if (t[k].text == "<" && --depth == 0) return k;
  }
  return std::string::npos;
}

TemplateKernelParam readParam(const std::vector<Tok>& t, std::size_t from, std::size_t to) {
  TemplateKernelParam p;
  // A default (`= ...`) is not part of the parameter's type or name.
  for (std::size_t k = from; k < to; ++k)
    if (t[k].text == "=") {
      to = k;
      break;
    }
  if (from < to && (t[from].text == "typename" || t[from].text == "class")) p.isType = true;
  std::size_t nameAt = to;
  for (std::size_t k = to; k-- > from;)
    if (t[k].kind == Tok::Ident) {
      nameAt = k;
      break;
    }
  if (nameAt == to) return p;
  p.name = t[nameAt].text;
  for (std::size_t k = from; k < nameAt; ++k) {
    const bool glue = t[k].text == "::" || (k > from && t[k - 1].text == "::");
    p.type += (p.type.empty() || glue ? "" : " ") + t[k].text;
  }
  return p;
}

struct Site {
  std::string file;
  int line = 0;
  std::string ns;
};

// Where `macro(` is invoked in `text` (not in a comment or a directive).
std::optional<Site> findInvocation(const std::string& text, const std::string& file, const char* macro) {
  const std::vector<Tok> t = lex(text);
  const std::vector<std::string> ns = namespacesOf(t);
  for (std::size_t k = 0; k + 1 < t.size(); ++k)
    if (t[k].kind == Tok::Ident && t[k].text == macro && t[k + 1].text == "(")
      return Site{file, t[k].line, ns[k]};
  return std::nullopt;
}

}  // namespace

std::optional<TemplateKernel> parseTemplateKernel(const std::map<std::string, std::string>& files,
                                                  const std::string& kernelFile, const std::string& entryName,
                                                  std::vector<Diagnostic>& problems) {
  const auto kernelIt = files.find(kernelFile);
  if (kernelIt == files.end()) return std::nullopt;
  const std::vector<Tok> t = lex(kernelIt->second);
  TemplateKernel out;
  out.file = kernelFile;
  bool found = false;
  for (std::size_t k = 1; k + 1 < t.size() && !found; ++k) {
    if (t[k].kind != Tok::Ident || t[k].text != entryName || t[k + 1].text != "(") continue;
    std::size_t b = k;
    while (b > 0 && isEntryQualifier(t[b - 1])) --b;
    if (b == k || b == 0 || t[b - 1].text != ">") continue;
    const std::size_t open = openingAngle(t, b - 1);
    if (open == std::string::npos || open == 0 || t[open - 1].text != "template") continue;
    found = true;
    out.line = t[open - 1].line;
    int depth = 0;
    std::size_t from = open + 1;
    for (std::size_t j = open + 1; j < b; ++j) {
      const std::string& s = t[j].text;
      if (s == "<" || s == "(") ++depth;
      if ((s == ">" || s == ")") && depth > 0) --depth;
      if ((s == "," && depth == 0) || j == b - 1) {
        if (j > from) out.params.push_back(readParam(t, from, j));
        from = j + 1;
      }
    }
  }
  if (!found) return std::nullopt;
  for (const auto& p : out.params)
    if (p.name.empty() || (!p.isType && p.type.empty())) {
      problems.push_back(opProjectProblem(kernelFile, out.line,
                                          "the kernel entry " + entryName +
                                              " is a function template with a parameter that is not "
                                              "`typename NAME` or `TYPE NAME`"));
      return out;
    }
  std::optional<Site> decl;
  std::optional<Site> sel;
  for (const auto& [name, text] : files) {
    if (!decl) decl = findInvocation(text, name, "ASCENDC_TPL_ARGS_DECL");
    if (!sel) sel = findInvocation(text, name, "ASCENDC_TPL_SEL");
  }
  if (!decl || !sel) {
    problems.push_back(opProjectProblem(
        kernelFile, out.line,
        "the kernel entry " + entryName +
            " is a function template, so its arguments need ASCENDC_TPL_ARGS_DECL " +
            "and its combinations ASCENDC_TPL_SEL (ascendc/host_api/tiling/template_argument.h) in a header "
            "the " +
            "kernel includes; the project has no " + (decl ? "ASCENDC_TPL_SEL" : "ASCENDC_TPL_ARGS_DECL")));
    return out;
  }
  for (const Site* s : {&*decl, &*sel})
    if (s->file != kernelFile && isCandidateSourceFileName(s->file)) {
      problems.push_back(opProjectProblem(
          s->file, s->line,
          "the kernel's template arguments are declared in a source file the kernel does not see; the "
          "emulator compiles the kernel with its own headers only, so ASCENDC_TPL_ARGS_DECL and "
          "ASCENDC_TPL_SEL belong in an op_kernel header that the kernel and the TilingFunc include"));
      return out;
    }
  if (decl->ns != sel->ns) {
    problems.push_back(opProjectProblem(
        sel->file, sel->line,
        "ASCENDC_TPL_SEL is in namespace '" + sel->ns + "' but ASCENDC_TPL_ARGS_DECL in '" + decl->ns + "'"));
    return out;
  }
  out.tablesNamespace = decl->ns;
  return out;
}

std::string opProjectTemplateSymbol(const std::string& kernelName) {
  return "kwb_op_tpl_" + kernelName;
}

std::string templateKernelEntry(const TemplateKernel& kernel, const std::string& entrySymbol,
                                const std::string& templateSymbol, std::size_t gmParams) {
  const std::string ns = "::" + (kernel.tablesNamespace.empty() ? "" : kernel.tablesNamespace + "::");
  const std::string decl = ns + "kwb_tpl_declared";
  const std::string sel = ns + "kwb_tpl_selected";
  std::string params;
  std::string args;
  for (std::size_t i = 0; i < gmParams; ++i) {
    params += std::string(i ? ", " : "") + "GM_ADDR kwbArg" + std::to_string(i);
    args += std::string(i ? ", " : "") + "kwbArg" + std::to_string(i);
  }
  std::string haveTypes = "true";
  std::string templateArgs;
  for (std::size_t i = 0; i < kernel.params.size(); ++i) {
    const std::string v = "c.v[" + std::to_string(i) + "]";
    if (kernel.params[i].isType) {
      haveTypes += " && ::kwb_tpl::HasDataType<" + v + ">::value";
      templateArgs += std::string(i ? ", " : "") + "typename ::kwb_tpl::DataTypeOf<" + v + ">::type";
    } else {
      templateArgs += std::string(i ? ", " : "") + "static_cast<" + kernel.params[i].type + ">(" + v + ")";
    }
  }
  const std::string n = std::to_string(kernel.params.size());
  return "// Generated by Kernel Workbench: the launch of the kernel template's instance the tiling key\n"
         "// selects (docs/emulator.md, \"Template tiling keys\"). Do not edit.\n"
         "#include \"kwb_op/template_dispatch.h\"\n"
         "namespace kwb_tpl_entry {\n"
         "static_assert(sizeof(" +
         decl + ") / sizeof(" + decl + "[0]) == " + n + ", \"kwb-sim: the kernel template takes " + n +
         " arguments; ASCENDC_TPL_ARGS_DECL declares another number\");\n"
         "inline constexpr std::size_t kCount = ::kwb_tpl::comboCount(" +
         decl + ", " + sel +
         ");\n"
         "inline constexpr auto kCombos = ::kwb_tpl::combos<kCount>(" +
         decl + ", " + sel +
         ");\n"
         "}  // namespace kwb_tpl_entry\n"
         "extern \"C\" __global__ __aicore__ void " +
         entrySymbol + "(" + params +
         ") {\n"
         "  const uint64_t key = ::AscendC::KwbTilingKey();\n"
         "  const bool ran = ::kwb_tpl::anyIndex<kwb_tpl_entry::kCount>([&](auto index) -> bool {\n"
         "    constexpr const ::kwb_tpl::TplCombo& c = kwb_tpl_entry::kCombos[decltype(index)::value];\n"
         "    if constexpr (" +
         haveTypes +
         ") {\n"
         "      if (key != c.key) return false;\n"
         "      " +
         templateSymbol + "<" + templateArgs + ">(" + args +
         ");\n"
         "      return true;\n"
         "    } else {\n"
         "      return false;\n"
         "    }\n"
         "  });\n"
         "  if (!ran) ::kwb_tpl::noInstance(key, " +
         decl +
         ", kwb_tpl_entry::kCombos);\n"
         "}\n";
}

}  // namespace kwb
