// SPDX-License-Identifier: MIT
#include "core/toolchain/OpProjectSource.h"

#include "core/toolchain/RegistrationLexer.h"

#include <cctype>
#include <cstdlib>

namespace kwb {

namespace {

using registration_lexer::lex;
using registration_lexer::matching;
using registration_lexer::namespacesOf;
using registration_lexer::Tok;

Diagnostic problem(const std::string& file, int line, std::string message) {
  return opProjectProblem(file, line, std::move(message));
}

std::string lastIdent(const std::vector<Tok>& t, std::size_t from, std::size_t to) {
  std::string name;
  for (std::size_t k = from; k < to && k < t.size(); ++k)
    if (t[k].kind == Tok::Ident) name = t[k].text;
  return name;
}

bool hasIdent(const std::string& text, const char* word) {
  for (const Tok& t : lex(text))
    if (t.kind == Tok::Ident && t.text == word) return true;
  return false;
}

const char* kKnownGe =
    "DT_FLOAT, DT_FLOAT16, DT_BF16, DT_DOUBLE, DT_INT8, DT_INT16, DT_INT32, DT_INT64, DT_UINT8, DT_UINT16, "
    "DT_UINT32, DT_UINT64, DT_BOOL";

}  // namespace

std::optional<DType> dtypeFromGeName(std::string_view name) {
  if (name.rfind("ge::", 0) == 0) name.remove_prefix(4);
  static const std::pair<std::string_view, DType> kMap[] = {
      {"DT_FLOAT", DType::Float32},  {"DT_FLOAT16", DType::Float16}, {"DT_BF16", DType::BFloat16},
      {"DT_DOUBLE", DType::Float64}, {"DT_INT8", DType::Int8},       {"DT_INT16", DType::Int16},
      {"DT_INT32", DType::Int32},    {"DT_INT64", DType::Int64},     {"DT_UINT8", DType::UInt8},
      {"DT_UINT16", DType::UInt16},  {"DT_UINT32", DType::UInt32},   {"DT_UINT64", DType::UInt64},
      {"DT_BOOL", DType::Bool}};
  for (const auto& [n, t] : kMap)
    if (n == name) return t;
  return std::nullopt;
}

std::vector<Diagnostic> opDefColumnProblems(const OpDefSignature& sig, std::size_t column) {
  std::vector<Diagnostic> out;
  auto check = [&](const std::vector<OpDefParam>& params, const char* kind) {
    for (const auto& p : params) {
      if (column >= p.dtypes.size()) {
        out.push_back(problem(sig.file, p.line,
                              std::string("\"") + p.name + "\" lists " + std::to_string(p.dtypes.size()) +
                                  " dtypes; dtype combination " + std::to_string(column) +
                                  " does not exist"));
        continue;
      }
      for (const auto& u : p.unknownDTypes)
        if (u.column == column)
          out.push_back(problem(sig.file, u.line,
                                "unknown dtype ge::" + p.geDTypes[column] + " for " + kind + " \"" + p.name +
                                    "\" (dtype combination " + std::to_string(column) +
                                    "); the workbench knows " + kKnownGe));
    }
  };
  check(sig.inputs, "input");
  check(sig.outputs, "output");
  return out;
}

std::string geNameOfDType(DType t) {
  switch (t) {
    case DType::Float32:
      return "DT_FLOAT";
    case DType::Float16:
      return "DT_FLOAT16";
    case DType::BFloat16:
      return "DT_BF16";
    case DType::Float64:
      return "DT_DOUBLE";
    case DType::Int8:
      return "DT_INT8";
    case DType::Int16:
      return "DT_INT16";
    case DType::Int32:
      return "DT_INT32";
    case DType::Int64:
      return "DT_INT64";
    case DType::UInt8:
      return "DT_UINT8";
    case DType::UInt16:
      return "DT_UINT16";
    case DType::UInt32:
      return "DT_UINT32";
    case DType::UInt64:
      return "DT_UINT64";
    case DType::Bool:
      return "DT_BOOL";
  }
  return "DT_UNDEFINED";
}

bool registersOperator(const std::string& text) {
  return hasIdent(text, "OP_ADD");
}

bool definesTilingData(const std::string& text) {
  return hasIdent(text, "BEGIN_TILING_DATA_DEF");
}

std::vector<TilingRegistration> parseTilingRegistrations(const std::string& text,
                                                         const std::string& fileName) {
  std::vector<TilingRegistration> out;
  const std::vector<Tok> t = lex(text);
  const std::vector<std::string> ns = namespacesOf(t);
  for (std::size_t k = 0; k + 5 < t.size(); ++k) {
    if (t[k].kind != Tok::Ident || t[k].text != "REGISTER_TILING_DATA_CLASS" || t[k + 1].text != "(")
      continue;
    if (t[k + 2].kind != Tok::Ident || t[k + 3].text != "," || t[k + 4].kind != Tok::Ident) continue;
    TilingRegistration r;
    r.opType = t[k + 2].text;
    r.className = (ns[k].empty() ? "" : ns[k] + "::") + t[k + 4].text;
    r.file = fileName;
    r.line = t[k].line;
    out.push_back(std::move(r));
  }
  return out;
}

namespace {

// One `Input("x").ParamType(...).DataType({...}).Format({...})` statement, from the name's "(".
void readParam(const std::vector<Tok>& t, std::size_t from, std::size_t end, OpDefParam& p) {
  for (std::size_t k = from; k + 1 < end; ++k) {
    if (t[k].text != "." || t[k + 1].kind != Tok::Ident || k + 2 >= end || t[k + 2].text != "(") continue;
    const std::string call = t[k + 1].text;
    const std::size_t close = matching(t, k + 2);
    if (call == "DataType" || call == "DataTypeList") {
      p.geDTypes.clear();
      p.dtypes.clear();
      for (std::size_t j = k + 3; j < close; ++j) {
        if (t[j].kind != Tok::Ident || t[j].text == "ge") continue;
        p.geDTypes.push_back(t[j].text);
        if (const auto d = dtypeFromGeName(t[j].text)) {
          p.dtypes.push_back(*d);
        } else {
          // Only the combination a task tests must be known (opDefColumnProblems): public OpDefs list
          // DT_COMPLEX64 or DT_INT64 columns beside the float ones.
          p.unknownDTypes.push_back({p.dtypes.size(), t[j].line});
          p.dtypes.push_back(DType::Float32);
        }
      }
    } else if (call == "Format" || call == "FormatList") {
      p.formats.clear();
      for (std::size_t j = k + 3; j < close; ++j)
        if (t[j].kind == Tok::Ident && t[j].text != "ge") p.formats.push_back(t[j].text);
    } else if (call == "ParamType") {
      p.paramType = lastIdent(t, k + 3, close);
    }
    k = close < end ? close - 1 : k;
  }
}

nlohmann::json numberValue(const std::vector<Tok>& t, std::size_t from, std::size_t to, bool integer) {
  std::string text;
  for (std::size_t k = from; k < to; ++k) text += t[k].text;
  while (!text.empty() &&
         (text.back() == 'f' || text.back() == 'F' || text.back() == 'L' || text.back() == 'l'))
    text.pop_back();
  if (text == "true") return true;
  if (text == "false") return false;
  char* endp = nullptr;
  if (integer) {
    const long long v = std::strtoll(text.c_str(), &endp, 0);
    return endp && *endp == 0 ? nlohmann::json(v) : nlohmann::json();
  }
  const double v = std::strtod(text.c_str(), &endp);
  return endp && *endp == 0 ? nlohmann::json(v) : nlohmann::json();
}

void readAttr(const std::vector<Tok>& t, std::size_t from, std::size_t end, OpDefAttr& a) {
  for (std::size_t k = from; k + 2 < end; ++k) {
    if (t[k].text != "." || t[k + 1].kind != Tok::Ident || t[k + 2].text != "(") continue;
    const std::string call = t[k + 1].text;
    const std::size_t close = matching(t, k + 2);
    if (call == "AttrType") {
      a.required = lastIdent(t, k + 3, close) == "REQUIRED";
    } else if (call == "Float" || call == "Int" || call == "Bool") {
      a.type = call == "Float" ? "float" : call == "Int" ? "int" : "bool";
      a.value = numberValue(t, k + 3, close, call != "Float");
      if (call == "Bool" && a.value.is_number()) a.value = a.value.get<long long>() != 0;
    } else if (call == "String") {
      a.type = "string";
      a.value =
          close > k + 3 && t[k + 3].kind == Tok::String ? nlohmann::json(t[k + 3].text) : nlohmann::json();
    } else if (call == "ListInt" || call == "ListFloat") {
      a.type = call == "ListInt" ? "int_list" : "float_list";
      a.value = nlohmann::json::array();
      std::size_t b = k + 3;
      for (std::size_t j = k + 3; j <= close; ++j)
        if (t[j].text == "," || t[j].text == "}" || j == close) {
          std::size_t s = b;
          while (s < j && (t[s].text == "{" || t[s].text == "}")) ++s;
          if (s < j) {
            nlohmann::json v = numberValue(t, s, j, call == "ListInt");
            if (!v.is_null()) a.value.push_back(v);
          }
          b = j + 1;
        }
    }
    k = close < end ? close - 1 : k;
  }
}

// The function IMPL_OP_OPTILING(<opType>).Tiling(f) registers in `t`; empty when none.
std::string implOpOptilingFunc(const std::vector<Tok>& t, const std::string& opType) {
  for (std::size_t k = 0; k + 4 < t.size(); ++k) {
    if (t[k].text != "IMPL_OP_OPTILING" || t[k + 1].text != "(" || t[k + 2].text != opType ||
        t[k + 3].text != ")")
      continue;
    for (std::size_t j = k + 4; j + 2 < t.size() && t[j].text != ";"; ++j)
      if (t[j].text == "." && t[j + 1].text == "Tiling" && t[j + 2].text == "(")
        return lastIdent(t, j + 3, matching(t, j + 2));
  }
  return {};
}

// The line where `func` is defined (`func(...) {`) outside the tokens [skipFrom, skipTo] (the OpDef's
// body, which names it in SetTiling); 0 when it is not defined in `t`.
int definitionLine(const std::vector<Tok>& t, const std::string& func, std::size_t skipFrom,
                   std::size_t skipTo) {
  for (std::size_t k = 0; k + 1 < t.size(); ++k)
    if (t[k].text == func && t[k + 1].text == "(" && (k < skipFrom || k > skipTo)) {
      const std::size_t pc = matching(t, k + 1);
      if (pc + 1 < t.size() && t[pc + 1].text == "{") return t[k].line;
    }
  return 0;
}

}  // namespace

std::optional<OpDefSignature> parseOpDef(const std::string& text, const std::string& fileName,
                                         std::vector<Diagnostic>& problems,
                                         const std::map<std::string, std::string>& otherHostSources) {
  const std::vector<Tok> t = lex(text);
  const std::vector<std::string> ns = namespacesOf(t);
  OpDefSignature sig;
  sig.file = fileName;
  int opAddLine = 0;
  for (std::size_t k = 0; k + 2 < t.size(); ++k)
    if (t[k].kind == Tok::Ident && t[k].text == "OP_ADD" && t[k + 1].text == "(" &&
        t[k + 2].kind == Tok::Ident) {
      sig.opType = t[k + 2].text;
      opAddLine = t[k].line;
      break;
    }
  if (sig.opType.empty()) {
    problems.push_back(problem(fileName, 1,
                               "missing OpDef: " + fileName +
                                   " registers no operator (a class deriving from OpDef, registered with "
                                   "OP_ADD(<OpType>))"));
    return std::nullopt;
  }
  // class <OpType> : public [ops::]OpDef { ... }
  std::size_t open = t.size();
  for (std::size_t k = 0; k + 3 < t.size(); ++k) {
    if (t[k].text != "class" && t[k].text != "struct") continue;
    if (t[k + 1].text != sig.opType || t[k + 2].text != ":") continue;
    std::size_t j = k + 3;
    bool derives = false;
    for (; j < t.size() && t[j].text != "{" && t[j].text != ";"; ++j)
      derives = derives || t[j].text == "OpDef";
    if (!derives || j >= t.size() || t[j].text != "{") continue;
    open = j;
    sig.line = t[k].line;
    sig.opClass = (ns[k].empty() ? "" : ns[k] + "::") + sig.opType;
    break;
  }
  if (open == t.size()) {
    problems.push_back(problem(fileName, opAddLine,
                               "missing OpDef: OP_ADD(" + sig.opType + ") names no class " + sig.opType +
                                   " : public OpDef defined in " + fileName));
    return std::nullopt;
  }
  const std::size_t close = matching(t, open);
  for (std::size_t k = open + 1; k + 3 < close; ++k) {
    const std::string& w = t[k].text;
    if (t[k].kind != Tok::Ident || (w != "Input" && w != "Output" && w != "Attr") || t[k + 1].text != "(" ||
        t[k + 2].kind != Tok::String)
      continue;
    // Only the OpDef's own (this->Input(...) or Input(...) at a statement's start), not an
    // OpAICoreConfig's (config.Input(...)).
    const std::string& prev = t[k - 1].text;
    const bool own =
        (prev == "->" && k >= 2 && t[k - 2].text == "this") || prev == "{" || prev == ";" || prev == "}";
    if (!own) continue;
    std::size_t end = k;
    int depth = 0;
    for (; end < close; ++end) {
      if (t[end].text == "(" || t[end].text == "{") ++depth;
      if (t[end].text == ")" || t[end].text == "}") --depth;
      if (t[end].text == ";" && depth == 0) break;
    }
    if (w == "Attr") {
      OpDefAttr a;
      a.name = t[k + 2].text;
      a.line = t[k].line;
      readAttr(t, k + 3, end, a);
      sig.attrs.push_back(std::move(a));
    } else {
      OpDefParam p;
      p.name = t[k + 2].text;
      p.line = t[k].line;
      readParam(t, k + 3, end, p);
      if (p.geDTypes.empty())
        problems.push_back(problem(fileName, p.line,
                                   (w == "Input" ? "input \"" : "output \"") + p.name +
                                       "\" has no DataType({...}); the workbench needs its dtype"));
      (w == "Input" ? sig.inputs : sig.outputs).push_back(std::move(p));
    }
    k = end;
  }
  for (std::size_t k = open; k + 2 < close; ++k) {
    if (t[k].text == "SetTiling" && t[k + 1].text == "(")
      sig.tilingFunc = lastIdent(t, k + 2, matching(t, k + 1));
    if (t[k].text == "AddConfig" && t[k + 1].text == "(" && t[k + 2].kind == Tok::String)
      sig.configs.push_back(t[k + 2].text);
  }
  if (sig.inputs.empty() || sig.outputs.empty())
    problems.push_back(problem(fileName, sig.line,
                               "the OpDef " + sig.opType + " declares " + std::to_string(sig.inputs.size()) +
                                   " inputs and " + std::to_string(sig.outputs.size()) +
                                   " outputs; the workbench needs at least one of each"));
  // The registration outside the OpDef: IMPL_OP_OPTILING(<OpType>).Tiling(TilingFunc)..., in this file
  // or another op_host source.
  sig.tilingFuncFile = fileName;
  if (sig.tilingFunc.empty()) {
    sig.tilingFunc = implOpOptilingFunc(t, sig.opType);
    for (const auto& [name, other] : otherHostSources) {
      if (!sig.tilingFunc.empty()) break;
      if (name == fileName) continue;
      sig.tilingFunc = implOpOptilingFunc(lex(other), sig.opType);
      if (!sig.tilingFunc.empty()) sig.tilingFuncFile = name;
    }
  }
  if (sig.tilingFunc.empty()) {
    problems.push_back(problem(fileName, sig.line,
                               "the OpDef " + sig.opType +
                                   " sets no tiling function: add this->AICore().SetTiling(TilingFunc) or "
                                   "IMPL_OP_OPTILING(" +
                                   sig.opType + ").Tiling(TilingFunc) in " + fileName +
                                   " or another op_host source"));
  } else {
    if (sig.tilingFuncFile == fileName)
      sig.tilingFuncLine = definitionLine(t, sig.tilingFunc, open, close);
    else  // nothing of the other file is the OpDef's body
      sig.tilingFuncLine = definitionLine(lex(otherHostSources.at(sig.tilingFuncFile)), sig.tilingFunc,
                                          std::string::npos, std::string::npos);
  }
  // Several dtype combinations: every tensor must list as many.
  std::size_t columns = 0;
  for (const auto* list : {&sig.inputs, &sig.outputs})
    for (const auto& p : *list) {
      if (columns == 0) columns = p.geDTypes.size();
      if (!p.geDTypes.empty() && p.geDTypes.size() != columns)
        problems.push_back(problem(fileName, p.line,
                                   "\"" + p.name + "\" lists " + std::to_string(p.geDTypes.size()) +
                                       " dtypes where the first tensor lists " + std::to_string(columns) +
                                       "; each DataType({...}) column is one supported combination"));
    }
  return sig;
}

Diagnostic opProjectProblem(const std::string& file, int line, std::string message) {
  Diagnostic d;
  d.source = "workbench";
  d.category = std::string(category::InvalidParam);
  d.file = file;
  d.line = line;
  d.message = std::move(message);
  return d;
}

}  // namespace kwb
