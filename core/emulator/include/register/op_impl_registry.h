// SPDX-License-Identifier: MIT
#pragma once
// kwb emulator: the CANN registration of an operator's tiling outside its OpDef,
// `IMPL_OP_OPTILING(Op).Tiling(TilingFunc).TilingParse<CompileInfo>(TilingParseFunc)`, and the
// inference registration `IMPL_OP(Op).InferShape(...)` (also spelled IMPL_OP_INFERSHAPE) (docs/emulator.md,
// "Operator projects"). As in CANN the macro defines a namespace-scope object whose initialiser records the
// functions; the record lives in the tiling process only (one process per tiling run,
// kwb_op/tiling_bridge.h), and the workbench reads nothing back from it but the tiling output it validates.
#include <cstdint>
#include <cstring>
#include <deque>
#include <initializer_list>

#include "kwb_op/ge_types.h"
#include "kwb_op/op_def.h"
#include "kwb_op/tiling_context.h"

namespace kwb_op {

using TilingParseFunc = ge::graphStatus (*)(gert::TilingParseContext*);

// What IMPL_OP_OPTILING recorded for one operator type. The compile info is the CompileInfo struct
// TilingParse names, value-initialised by the tiling run before the parse function fills it.
struct OpImplRecord {
  const char* opType = "";
  ops::TilingKwbFunc tiling = nullptr;
  TilingParseFunc parse = nullptr;
  void* (*newCompileInfo)() = nullptr;
  void (*deleteCompileInfo)(void*) = nullptr;
};

// Function-local so that registrations from any translation unit of the tiling program land in one
// list whatever the order of static initialisation (the CANN registry has the same property).
inline std::deque<OpImplRecord>& opImplRecords() {
  static std::deque<OpImplRecord> records;
  return records;
}

// The operator's tiling registration: an inference-only registration of the same type (IMPL_OP,
// IMPL_OP_INFERSHAPE, often in another op_host source) never hides it.
inline const OpImplRecord* findOpImpl(const char* opType) {
  const OpImplRecord* any = nullptr;
  for (const OpImplRecord& r : opImplRecords())
    if (std::strcmp(r.opType, opType) == 0) {
      if (r.tiling != nullptr) return &r;
      if (any == nullptr) any = &r;
    }
  return any;
}

}  // namespace kwb_op

namespace gert {

// The builder IMPL_OP_OPTILING / IMPL_OP return (in gert, where CANN declares it). Copies refer to the same
// record, so the chained calls and the namespace-scope copy the macro makes all update it.
class OpImplRegisterV2 {
 public:
  explicit OpImplRegisterV2(const char* opType) : record_(&::kwb_op::opImplRecords().emplace_back()) {
    record_->opType = opType;
  }
  OpImplRegisterV2& Tiling(ops::TilingKwbFunc f) {
    record_->tiling = f;
    return *this;
  }
  template <typename CompileInfo>
  OpImplRegisterV2& TilingParse(::kwb_op::TilingParseFunc f) {
    record_->parse = f;
    record_->newCompileInfo = [] { return static_cast<void*>(new CompileInfo()); };
    record_->deleteCompileInfo = [](void* p) { delete static_cast<CompileInfo*>(p); };
    return *this;
  }
  OpImplRegisterV2& InputsDataDependency(std::initializer_list<int32_t>) { return *this; }
  OpImplRegisterV2& TilingInputsDataDependency(std::initializer_list<int32_t>) { return *this; }
  // Shape and dtype inference: the workbench takes shapes from the task, so these are only compiled.
  template <typename F>
  OpImplRegisterV2& InferShape(F) {
    return *this;
  }
  template <typename F>
  OpImplRegisterV2& InferShapeRange(F) {
    return *this;
  }
  template <typename F>
  OpImplRegisterV2& InferDataType(F) {
    return *this;
  }

 private:
  ::kwb_op::OpImplRecord* record_;
};

}  // namespace gert

#define KWB_OP_IMPL_JOIN2(a, b) a##b
#define KWB_OP_IMPL_JOIN(a, b) KWB_OP_IMPL_JOIN2(a, b)
#define IMPL_OP_OPTILING(op_type)                                    \
  [[maybe_unused]] static ::gert::OpImplRegisterV2 KWB_OP_IMPL_JOIN( \
      op_impl_register_##op_type##_, __LINE__) = ::gert::OpImplRegisterV2(#op_type)
#define IMPL_OP(op_type) IMPL_OP_OPTILING(op_type)
#define IMPL_OP_INFERSHAPE(op_type) IMPL_OP_OPTILING(op_type)
