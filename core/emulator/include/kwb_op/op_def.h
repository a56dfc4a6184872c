// SPDX-License-Identifier: MIT
#pragma once
// kwb emulator: enough of `ops::OpDef` (register/op_def_registry.h) to compile an operator project's
// registration and read its signature at run time: inputs, outputs and attributes in declaration
// order with their dtypes and formats, the tiling function (AICore().SetTiling) and the configs.
// Nothing is registered globally: the workbench's generated glue constructs the OP_ADD class itself
// (core/toolchain/OpProjectForm.h), so OP_ADD only checks its argument.
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "kwb_op/ge_types.h"
#include "kwb_op/tiling_context.h"

namespace ops {

enum Option { IGNORE = 0, OPTIONAL = 1, REQUIRED = 2, DYNAMIC = 3, VIRTUAL = 4 };

using TilingKwbFunc = ge::graphStatus (*)(gert::TilingContext*);
using InferShapeKwbFunc = ge::graphStatus (*)(gert::InferShapeContext*);
using InferDataTypeKwbFunc = ge::graphStatus (*)(gert::InferDataTypeContext*);

class OpParamDef {
 public:
  explicit OpParamDef(const char* name) : name_(name) {}
  OpParamDef& ParamType(Option o) {
    paramType_ = o;
    return *this;
  }
  OpParamDef& DataType(std::vector<ge::DataType> types) {
    dataTypes_ = types;
    return *this;
  }
  OpParamDef& DataTypeList(std::vector<ge::DataType> types) { return DataType(types); }
  OpParamDef& Format(std::vector<ge::Format> formats) {
    formats_ = formats;
    return *this;
  }
  OpParamDef& FormatList(std::vector<ge::Format> formats) { return Format(formats); }
  OpParamDef& UnknownShapeFormat(std::vector<ge::Format> formats) { return Format(formats); }
  OpParamDef& ValueDepend(Option) { return *this; }
  OpParamDef& AutoContiguous() { return *this; }
  OpParamDef& IgnoreContiguous() { return *this; }
  OpParamDef& Scalar() { return *this; }
  OpParamDef& ScalarList() { return *this; }
  OpParamDef& InitValue(uint64_t) { return *this; }
  const char* name_;
  Option paramType_ = REQUIRED;
  std::vector<ge::DataType> dataTypes_;
  std::vector<ge::Format> formats_;
};

class OpAttrDef {
 public:
  explicit OpAttrDef(const char* name) : name_(name) {}
  OpAttrDef& AttrType(Option o) {
    attrType_ = o;
    return *this;
  }
  OpAttrDef& Float(float v) {
    kind_ = KWB_ATTR_FLOAT;
    f_ = v;
    return *this;
  }
  OpAttrDef& Int(int64_t v) {
    kind_ = KWB_ATTR_INT;
    i_ = v;
    return *this;
  }
  OpAttrDef& Bool(bool v) {
    kind_ = KWB_ATTR_BOOL;
    i_ = v ? 1 : 0;
    return *this;
  }
  OpAttrDef& String(const char* v) {
    kind_ = KWB_ATTR_STRING;
    str_ = v != nullptr ? v : "";
    return *this;
  }
  // Without a default, as CANN declares a required attribute: the kind only.
  OpAttrDef& Float() { return Float(0.0f); }
  OpAttrDef& Int() { return Int(0); }
  OpAttrDef& Bool() { return Bool(false); }
  OpAttrDef& String() { return String(""); }
  OpAttrDef& ListInt() { return ListInt(std::vector<int64_t>{}); }
  OpAttrDef& ListFloat() { return ListFloat(std::vector<float>{}); }
  OpAttrDef& ListInt(std::vector<int64_t> v) {
    kind_ = KWB_ATTR_INT_LIST;
    ilist_ = v;
    return *this;
  }
  OpAttrDef& ListFloat(std::vector<float> v) {
    kind_ = KWB_ATTR_FLOAT_LIST;
    flist_ = v;
    return *this;
  }
  const char* name_;
  Option attrType_ = OPTIONAL;
  int kind_ = KWB_ATTR_FLOAT;
  float f_ = 0.0f;
  int64_t i_ = 0;
  std::vector<int64_t> ilist_;
  std::vector<float> flist_;
  const char* str_ = "";
};

class OpAICoreConfig {
 public:
  OpAICoreConfig() = default;
  explicit OpAICoreConfig(const char*) {}
  OpParamDef& Input(const char* name) { return inputs_.emplace_back(name); }
  OpParamDef& Output(const char* name) { return outputs_.emplace_back(name); }
  OpAICoreConfig& DynamicCompileStaticFlag(bool) { return *this; }
  OpAICoreConfig& DynamicFormatFlag(bool) { return *this; }
  OpAICoreConfig& DynamicRankSupportFlag(bool) { return *this; }
  OpAICoreConfig& DynamicShapeSupportFlag(bool) { return *this; }
  OpAICoreConfig& NeedCheckSupportFlag(bool) { return *this; }
  OpAICoreConfig& PrecisionReduceFlag(bool) { return *this; }
  OpAICoreConfig& ExtendCfgInfo(const char*, const char*) { return *this; }
  std::vector<OpParamDef> inputs_;
  std::vector<OpParamDef> outputs_;
};

class OpAICoreDef {
 public:
  OpAICoreDef& SetTiling(TilingKwbFunc f) {
    tiling_ = f;
    return *this;
  }
  template <typename F>
  OpAICoreDef& SetCheckSupport(F) {
    return *this;
  }
  template <typename F>
  OpAICoreDef& SetOpSelectFormat(F) {
    return *this;
  }
  OpAICoreDef& AddConfig(const char* soc) {
    configs_.push_back(soc);
    return *this;
  }
  OpAICoreDef& AddConfig(const char* soc, OpAICoreConfig&) { return AddConfig(soc); }
  TilingKwbFunc GetTiling() const { return tiling_; }
  TilingKwbFunc tiling_ = nullptr;
  std::vector<const char*> configs_;
};

class OpDef {
 public:
  explicit OpDef(const char* type) : type_(type) {}
  OpParamDef& Input(const char* name) { return inputs_.emplace_back(name); }
  OpParamDef& Output(const char* name) { return outputs_.emplace_back(name); }
  OpAttrDef& Attr(const char* name) { return attrs_.emplace_back(name); }
  OpDef& SetInferShape(InferShapeKwbFunc f) {
    inferShape_ = f;
    return *this;
  }
  template <typename F>
  OpDef& SetInferShapeRange(F) {
    return *this;
  }
  OpDef& SetInferDataType(InferDataTypeKwbFunc f) {
    inferDataType_ = f;
    return *this;
  }
  OpAICoreDef& AICore() { return aicore_; }
  const char* type_;
  std::vector<OpParamDef> inputs_;
  std::vector<OpParamDef> outputs_;
  std::vector<OpAttrDef> attrs_;
  InferShapeKwbFunc inferShape_ = nullptr;
  InferDataTypeKwbFunc inferDataType_ = nullptr;
  OpAICoreDef aicore_;
};

}  // namespace ops

// The glue the workbench generates constructs the class; a namespace block ends with or without `;`.
#define OP_ADD(op_class, ...)                                                          \
  namespace kwb_registered_op_##op_class {                                             \
    static_assert(sizeof(op_class) >= sizeof(::ops::OpDef),                            \
                  "kwb-sim: OP_ADD(" #op_class "): the class must derive from OpDef"); \
  }
