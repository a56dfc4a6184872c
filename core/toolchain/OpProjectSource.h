// SPDX-License-Identifier: MIT
#pragma once
// What the workbench reads from an operator project's sources without compiling them: the OpDef
// registration of op_host/<op>.cpp (the operator's type, inputs, outputs and attributes with their
// dtypes and formats, the tiling function, the configs) and the TilingData classes an
// op_host/<op>_tiling.h registers (docs/candidate-contract.md, "The operator-project form";
// docs/task-format.md, "Importing an operator project"). Pure functions on text; the sources are
// untrusted, so every problem is a Diagnostic naming the file and line.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/model/DType.h"
#include "core/model/Diagnostic.h"

namespace kwb {

struct OpDefParam {
  std::string name;
  std::vector<std::string> geDTypes;  // as written, e.g. "DT_FLOAT16"
  // The same, as the workbench's dtypes, column for column; a column the workbench does not know
  // (ge::DT_COMPLEX64, ...) holds a placeholder and is listed in unknownDTypes.
  std::vector<DType> dtypes;
  struct UnknownDType {
    std::size_t column = 0;
    int line = 0;
  };
  std::vector<UnknownDType> unknownDTypes;
  std::vector<std::string> formats;  // "FORMAT_ND", ...
  std::string paramType = "REQUIRED";
  int line = 0;
};

// clang-tidy flags the implicit noexcept move constructor: it cannot prove nlohmann::json's noexcept
// move (its invariant checks) non-throwing.
// NOLINTNEXTLINE(bugprone-exception-escape)
struct OpDefAttr {
  std::string name;
  std::string type;       // task.json attr types: "float", "int", "bool", "string", "int_list", "float_list"
  nlohmann::json value;   // the default, when the OpDef gives one
  bool required = false;  // AttrType(REQUIRED)
  int line = 0;
};

struct OpDefSignature {
  std::string opType;   // OP_ADD's class, e.g. "AddCustom"
  std::string opClass;  // qualified for C++, e.g. "ops::AddCustom"
  std::string file;
  int line = 0;  // of the class
  std::vector<OpDefParam> inputs;
  std::vector<OpDefParam> outputs;
  std::vector<OpDefAttr> attrs;
  std::string tilingFunc;            // the name given to AICore().SetTiling, unqualified
  std::string tilingFuncFile;        // where it is registered and defined: `file`, or the op_host
                                     // source holding its IMPL_OP_OPTILING
  int tilingFuncLine = 0;            // its definition in tilingFuncFile; 0 when not found there
  std::vector<std::string> configs;  // AddConfig("ascend910b", ...)
};

struct TilingRegistration {
  std::string opType;     // REGISTER_TILING_DATA_CLASS's first argument
  std::string className;  // qualified, e.g. "optiling::TilingData"
  std::string file;
  int line = 0;
};

// True when `text` (comments ignored) registers an operator with OP_ADD.
bool registersOperator(const std::string& text);
// True when `text` (comments ignored) defines a TilingData class (BEGIN_TILING_DATA_DEF).
bool definesTilingData(const std::string& text);

// The OpDef registered in `text` (file `fileName`). Problems (no OP_ADD, OP_ADD of a class that is not
// an OpDef defined here, no input or output, a dtype the workbench does not know, no SetTiling) are
// appended to `problems`; the result is nullopt when there is no usable signature. A tiling function
// the OpDef does not set may be registered with IMPL_OP_OPTILING in one of `otherHostSources` (file
// name -> text: the project's other op_host sources, as CANN's op repositories split the OpDef and
// the tiling).
std::optional<OpDefSignature> parseOpDef(const std::string& text, const std::string& fileName,
                                         std::vector<Diagnostic>& problems,
                                         const std::map<std::string, std::string>& otherHostSources = {});

// Every REGISTER_TILING_DATA_CLASS in `text`, with the class qualified by its enclosing namespaces.
std::vector<TilingRegistration> parseTilingRegistrations(const std::string& text,
                                                         const std::string& fileName);

// What stops dtype combination `column` of the OpDef from being a task's signature: a parameter that
// lists fewer combinations, or a dtype the workbench does not know in that column (at its line).
std::vector<Diagnostic> opDefColumnProblems(const OpDefSignature& sig, std::size_t column);

// ge::DataType enumerator name ("DT_FLOAT16", with or without "ge::") -> the workbench's dtype.
std::optional<DType> dtypeFromGeName(std::string_view name);
// The reverse, for generated projects: DType::Float16 -> "DT_FLOAT16".
std::string geNameOfDType(DType t);

// A problem in an operator project's input (a source file, the cases, the reference) at file:line,
// as the parser and `kwb task import` report it.
Diagnostic opProjectProblem(const std::string& file, int line, std::string message);

}  // namespace kwb
