// SPDX-License-Identifier: MIT
#pragma once
// kwb emulator: `gert::TilingContext`, what an operator project's TilingFunc is given, and the shape
// inference contexts its OpDef names. The tiling context is filled from the workbench's tiling input
// (kwb_tiling.h: the case's shapes, dtypes, attributes and the SoC; never tensor data) by
// kwb_op/tiling_bridge.h, and what the TilingFunc sets (block dim, tiling key, workspace sizes, the
// raw tiling bytes) goes back to the workbench, which validates it (docs/emulator.md, "Operator
// projects").
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <type_traits>

#include "kwb_op/ge_types.h"
#include "kwb_tiling.h"

namespace fe {
// The platform description GetPlatformInfo() hands to platform_ascendc::PlatformAscendC.
class PlatFormInfos {
 public:
  uint32_t coreNumAiv = 0;
  uint32_t coreNumAic = 0;
  uint64_t ubSize = 0;
  // The cube's buffers; 0 where the description does not say (a TilingFunc's context carries the UB only).
  uint64_t l1Size = 0;
  uint64_t l0aSize = 0;
  uint64_t l0bSize = 0;
  uint64_t l0cSize = 0;
  char socVersion[32] = {0};
};
}  // namespace fe

namespace gert {

class Shape {
 public:
  Shape() = default;
  Shape(std::initializer_list<int64_t> dims) {
    for (int64_t d : dims) AppendDim(d);
  }
  size_t GetDimNum() const { return dimNum_; }
  int64_t GetDim(size_t i) const { return i < dimNum_ ? dims_[i] : 0; }
  void SetDimNum(size_t n) { dimNum_ = n <= kMaxDims ? n : kMaxDims; }
  void SetDim(size_t i, int64_t v) {
    if (i < kMaxDims) dims_[i] = v;
  }
  Shape& AppendDim(int64_t v) {
    if (dimNum_ < kMaxDims) dims_[dimNum_++] = v;
    return *this;
  }
  int64_t GetShapeSize() const {
    int64_t n = 1;
    for (size_t i = 0; i < dimNum_; ++i) n *= dims_[i];
    return n;
  }
  bool IsScalar() const { return dimNum_ == 0; }
  bool operator==(const Shape& o) const {
    if (dimNum_ != o.dimNum_) return false;
    for (size_t i = 0; i < dimNum_; ++i)
      if (dims_[i] != o.dims_[i]) return false;
    return true;
  }
  bool operator!=(const Shape& o) const { return !(*this == o); }
  int64_t operator[](size_t i) const { return GetDim(i); }

 private:
  static constexpr size_t kMaxDims = KWB_MAX_DIMS;
  size_t dimNum_ = 0;
  int64_t dims_[kMaxDims] = {0};
};

// ND tensors only: the origin and the storage shape are the same.
class StorageShape {
 public:
  const Shape& GetOriginShape() const { return shape_; }
  const Shape& GetStorageShape() const { return shape_; }
  Shape& MutableOriginShape() { return shape_; }
  Shape& MutableStorageShape() { return shape_; }
  Shape shape_;
};

class CompileTimeTensorDesc {
 public:
  ge::DataType GetDataType() const { return dtype_; }
  ge::Format GetOriginFormat() const { return ge::FORMAT_ND; }
  ge::Format GetStorageFormat() const { return ge::FORMAT_ND; }
  ge::DataType dtype_ = ge::DT_UNDEFINED;
};

// Shapes and dtype only: a tiling never sees tensor data (GetData is not offered).
class Tensor {
 public:
  const StorageShape& GetShape() const { return shape_; }
  const Shape& GetOriginShape() const { return shape_.GetOriginShape(); }
  const Shape& GetStorageShape() const { return shape_.GetStorageShape(); }
  int64_t GetShapeSize() const { return shape_.GetOriginShape().GetShapeSize(); }
  ge::DataType GetDataType() const { return dtype_; }
  StorageShape shape_;
  ge::DataType dtype_ = ge::DT_UNDEFINED;
};

// A list attribute: GetData() points at GetSize() int64_t (GetListInt) or float (GetListFloat).
class ContinuousVector {
 public:
  size_t GetSize() const { return size_; }
  const void* GetData() const {
    return isFloat_ ? static_cast<const void*>(f_) : static_cast<const void*>(i_);
  }
  size_t size_ = 0;
  bool isFloat_ = false;
  int64_t i_[KWB_MAX_ATTR_LIST] = {};
  float f_[KWB_MAX_ATTR_LIST] = {};
};
// What GetListInt / GetListFloat return, as in CANN: GetData() typed, so `*(list->GetData() + i)` reads
// element i.
template <typename T>
class TypedContinuousVector : public ContinuousVector {
 public:
  const T* GetData() const { return static_cast<const T*>(ContinuousVector::GetData()); }
};

// Attributes by their index in the OpDef's Attr(...) order.
class RuntimeAttrs {
 public:
  size_t GetAttrNum() const { return num_; }
  template <typename T>
  const T* GetAttrPointer(size_t i) const {
    if (i >= num_ || !set_[i]) return nullptr;
    if constexpr (std::is_same_v<T, float>) return &f_[i];
    if constexpr (std::is_same_v<T, int64_t>) return &i_[i];
    if constexpr (std::is_same_v<T, bool>) return &b_[i];
    if constexpr (std::is_same_v<T, ContinuousVector>) return &ilist_[i];
    if constexpr (std::is_same_v<T, char>) return isStr_[i] ? s_[i] : nullptr;
    return nullptr;
  }
  const float* GetFloat(size_t i) const { return GetAttrPointer<float>(i); }
  const int64_t* GetInt(size_t i) const { return GetAttrPointer<int64_t>(i); }
  const bool* GetBool(size_t i) const { return GetAttrPointer<bool>(i); }
  const TypedContinuousVector<int64_t>* GetListInt(size_t i) const {
    return i < num_ && set_[i] ? &ilist_[i] : nullptr;
  }
  const TypedContinuousVector<float>* GetListFloat(size_t i) const {
    return i < num_ && set_[i] ? &flist_[i] : nullptr;
  }
  // A string attribute's value (0-terminated, at most KWB_MAX_ATTR_STRING - 1 bytes); nullptr for an
  // attribute of another type, as CANN's typed getters.
  const char* GetStr(size_t i) const { return GetAttrPointer<char>(i); }

  static constexpr size_t kMax = KWB_MAX_ATTRS;
  size_t num_ = 0;
  bool set_[kMax] = {};
  float f_[kMax] = {};
  int64_t i_[kMax] = {};
  bool b_[kMax] = {};
  bool isStr_[kMax] = {};
  char s_[kMax][KWB_MAX_ATTR_STRING] = {};
  TypedContinuousVector<int64_t> ilist_[kMax];
  TypedContinuousVector<float> flist_[kMax];
};

// The raw tiling buffer: TilingData::SaveToBuffer writes here, SetDataSize says how much counts.
class TilingData {
 public:
  void* GetData() { return data_; }
  const void* GetData() const { return data_; }
  size_t GetCapacity() const { return capacity_; }
  size_t GetDataSize() const { return size_; }
  void SetDataSize(size_t size) { size_ = size; }
  uint8_t* data_ = nullptr;
  size_t capacity_ = 0;
  size_t size_ = 0;
};

class TilingContext {
 public:
  const StorageShape* GetInputShape(size_t i) const { return i < inputNum_ ? &inputs_[i].shape_ : nullptr; }
  const StorageShape* GetOptionalInputShape(size_t i) const { return GetInputShape(i); }
  const StorageShape* GetOutputShape(size_t i) const {
    return i < outputNum_ ? &outputs_[i].shape_ : nullptr;
  }
  const Tensor* GetInputTensor(size_t i) const { return i < inputNum_ ? &inputs_[i] : nullptr; }
  const Tensor* GetOptionalInputTensor(size_t i) const { return GetInputTensor(i); }
  const CompileTimeTensorDesc* GetInputDesc(size_t i) const {
    return i < inputNum_ ? &inputDescs_[i] : nullptr;
  }
  const CompileTimeTensorDesc* GetOptionalInputDesc(size_t i) const { return GetInputDesc(i); }
  const CompileTimeTensorDesc* GetOutputDesc(size_t i) const {
    return i < outputNum_ ? &outputDescs_[i] : nullptr;
  }
  size_t GetComputeNodeInputNum() const { return inputNum_; }
  size_t GetComputeNodeOutputNum() const { return outputNum_; }
  const RuntimeAttrs* GetAttrs() const { return &attrs_; }
  const char* GetNodeName() const { return opType_; }
  const char* GetNodeType() const { return opType_; }

  ge::graphStatus SetBlockDim(uint32_t n) {
    blockDim_ = n;
    return ge::GRAPH_SUCCESS;
  }
  uint32_t GetBlockDim() const { return blockDim_; }
  ge::graphStatus SetTilingKey(uint64_t key) {
    tilingKey_ = key;
    return ge::GRAPH_SUCCESS;
  }
  uint64_t GetTilingKey() const { return tilingKey_; }
  ge::graphStatus SetScheduleMode(uint32_t) { return ge::GRAPH_SUCCESS; }
  // Up to kMaxWorkspaces entries; the kernel's workspace is their sum.
  size_t* GetWorkspaceSizes(size_t num) {
    if (num > kMaxWorkspaces) return nullptr;
    if (num > workspaceNum_) workspaceNum_ = num;
    return workspaces_;
  }
  size_t GetWorkspaceNum() const { return workspaceNum_; }
  TilingData* GetRawTilingData() { return &raw_; }
  // The CANN 9 form: the tiling struct constructed in place in the raw buffer.
  template <typename T>
  T* GetTilingData() {
    static_assert(std::is_trivially_copyable_v<T>, "GetTilingData<T>: T must be trivially copyable");
    if (sizeof(T) > raw_.capacity_) return nullptr;
    raw_.size_ = sizeof(T);
    return reinterpret_cast<T*>(raw_.data_);
  }
  fe::PlatFormInfos* GetPlatformInfo() { return &platform_; }
  // What the TilingParse function of IMPL_OP_OPTILING filled (register/op_impl_registry.h); null when
  // the tiling is registered with AICore().SetTiling.
  const void* GetCompileInfo() const { return compileInfo_; }
  template <typename T>
  const T* GetCompileInfo() const {
    return static_cast<const T*>(compileInfo_);
  }

  static constexpr size_t kMaxWorkspaces = 16;
  const char* opType_ = "";
  size_t inputNum_ = 0;
  size_t outputNum_ = 0;
  Tensor inputs_[KWB_MAX_TENSORS];
  Tensor outputs_[KWB_MAX_TENSORS];
  CompileTimeTensorDesc inputDescs_[KWB_MAX_TENSORS];
  CompileTimeTensorDesc outputDescs_[KWB_MAX_TENSORS];
  RuntimeAttrs attrs_;
  uint32_t blockDim_ = 0;
  uint64_t tilingKey_ = 0;
  size_t workspaces_[kMaxWorkspaces] = {0};
  size_t workspaceNum_ = 0;
  TilingData raw_;
  fe::PlatFormInfos platform_;
  const void* compileInfo_ = nullptr;
};

// The shape and dtype inference contexts an OpDef registers; the workbench takes shapes from the
// task, so these are only compiled, never called.
class InferShapeContext {
 public:
  const Shape* GetInputShape(size_t i) const { return i < KWB_MAX_TENSORS ? &in_[i] : nullptr; }
  const Shape* GetOptionalInputShape(size_t i) const { return GetInputShape(i); }
  Shape* GetOutputShape(size_t i) { return i < KWB_MAX_TENSORS ? &out_[i] : nullptr; }
  const RuntimeAttrs* GetAttrs() const { return &attrs_; }
  Shape in_[KWB_MAX_TENSORS];
  Shape out_[KWB_MAX_TENSORS];
  RuntimeAttrs attrs_;
};

class InferDataTypeContext {
 public:
  ge::DataType GetInputDataType(size_t i) const { return i < KWB_MAX_TENSORS ? in_[i] : ge::DT_UNDEFINED; }
  ge::graphStatus SetOutputDataType(size_t i, ge::DataType t) {
    if (i >= KWB_MAX_TENSORS) return ge::GRAPH_FAILED;
    out_[i] = t;
    return ge::GRAPH_SUCCESS;
  }
  const RuntimeAttrs* GetAttrs() const { return &attrs_; }
  ge::DataType in_[KWB_MAX_TENSORS] = {};
  ge::DataType out_[KWB_MAX_TENSORS] = {};
  RuntimeAttrs attrs_;
};

// What IMPL_OP_OPTILING's TilingParse function is given: the platform, and the CompileInfo to fill.
class TilingParseContext {
 public:
  fe::PlatFormInfos* GetPlatformInfo() { return platform_; }
  template <typename T>
  T* GetCompiledInfo() {
    return static_cast<T*>(compileInfo_);
  }
  const char* GetNodeName() const { return opType_; }
  const char* GetNodeType() const { return opType_; }
  fe::PlatFormInfos* platform_ = nullptr;
  void* compileInfo_ = nullptr;
  const char* opType_ = "";
};

}  // namespace gert
