// SPDX-License-Identifier: MIT
#pragma once
// kwb emulator: runs an operator project's TilingFunc as the candidate's kwb_tiling. The workbench's
// generated glue (core/toolchain/OpProjectForm.cpp) includes the project's op_host source and calls
// kwbRunOpTiling<ops::TheOp>: the OpDef is constructed, a gert::TilingContext is filled from the
// tiling input (attributes by the OpDef's Attr order and names), the TilingFunc runs, and what it set
// is copied into the tiling output. The workbench validates that output outside this process.
#include <cstdio>
#include <cstring>

#include "kwb_op/op_def.h"
#include "kwb_op/tiling_context.h"
#include "kwb_tiling.h"
#include "register/op_impl_registry.h"

namespace kwb_op {

inline void fillTensor(const KwbTensorDesc& d, gert::Tensor& t, gert::CompileTimeTensorDesc& desc) {
  gert::Shape& s = t.shape_.MutableOriginShape();
  s.SetDimNum(0);
  for (int32_t k = 0; k < d.dimNum && k < KWB_MAX_DIMS; ++k) s.AppendDim(d.dims[k]);
  t.dtype_ = static_cast<ge::DataType>(d.dtype);
  desc.dtype_ = t.dtype_;
}

inline void fillAttr(const ops::OpAttrDef& def, const KwbAttr* given, gert::RuntimeAttrs& a, size_t k) {
  a.set_[k] = true;
  int kind = def.kind_;
  float f = def.f_;
  int64_t i = def.i_;
  size_t n = 0;
  if (given) {
    kind = given->type;
    f = static_cast<float>(given->f);
    i = given->i;
  }
  a.f_[k] = kind == KWB_ATTR_FLOAT ? f : static_cast<float>(i);
  a.i_[k] = kind == KWB_ATTR_FLOAT ? static_cast<int64_t>(f) : i;
  a.b_[k] = a.i_[k] != 0;
  a.isStr_[k] = kind == KWB_ATTR_STRING;
  if (a.isStr_[k]) std::snprintf(a.s_[k], sizeof a.s_[k], "%s", given != nullptr ? given->str : def.str_);
  if (kind == KWB_ATTR_INT_LIST || kind == KWB_ATTR_FLOAT_LIST) {
    if (given) {
      n = static_cast<size_t>(given->listLen > 0 ? given->listLen : 0);
      if (n > KWB_MAX_ATTR_LIST) n = KWB_MAX_ATTR_LIST;
      for (size_t j = 0; j < n; ++j) {
        a.ilist_[k].i_[j] =
            kind == KWB_ATTR_INT_LIST ? given->ilist[j] : static_cast<int64_t>(given->flist[j]);
        a.flist_[k].f_[j] = kind == KWB_ATTR_FLOAT_LIST ? static_cast<float>(given->flist[j])
                                                        : static_cast<float>(given->ilist[j]);
      }
    } else {
      n = kind == KWB_ATTR_INT_LIST ? def.ilist_.size() : def.flist_.size();
      if (n > KWB_MAX_ATTR_LIST) n = KWB_MAX_ATTR_LIST;
      for (size_t j = 0; j < n; ++j) {
        a.ilist_[k].i_[j] = kind == KWB_ATTR_INT_LIST ? def.ilist_[j] : static_cast<int64_t>(def.flist_[j]);
        a.flist_[k].f_[j] = kind == KWB_ATTR_FLOAT_LIST ? def.flist_[j] : static_cast<float>(def.ilist_[j]);
      }
    }
    a.ilist_[k].size_ = n;
    a.flist_[k].size_ = n;
    a.flist_[k].isFloat_ = true;
  }
}

// 0: the tiling ran and set a tiling; otherwise the reason was written to stderr (the workbench quotes
// it in the case's diagnostic).
template <typename Op>
int kwbRunOpTiling(const char* opType, const KwbTilingInput* in, KwbTilingOutput* out) {
  static gert::TilingContext ctx;  // large; one per process, which runs one tiling
  std::memset(static_cast<void*>(&ctx.workspaces_), 0, sizeof ctx.workspaces_);
  Op def(opType);
  // AICore().SetTiling wins; otherwise IMPL_OP_OPTILING(<opType>).Tiling(...) (register/op_impl_registry.h).
  const OpImplRecord* impl = findOpImpl(opType);
  ops::TilingKwbFunc fn = def.AICore().GetTiling();
  if (fn == nullptr && impl != nullptr) fn = impl->tiling;
  if (fn == nullptr) {
    std::fprintf(stderr,
                 "kwb: %s sets no tiling function: call this->AICore().SetTiling(TilingFunc) or register "
                 "it with IMPL_OP_OPTILING(%s).Tiling(TilingFunc)\n",
                 opType, opType);
    return KWB_TILING_FAILED;
  }
  if (def.inputs_.size() != in->inputNum || def.outputs_.size() != in->outputNum) {
    std::fprintf(stderr, "kwb: %s's OpDef declares %zu inputs and %zu outputs; the task has %u and %u\n",
                 opType, def.inputs_.size(), def.outputs_.size(), in->inputNum, in->outputNum);
    return KWB_TILING_FAILED;
  }
  ctx.opType_ = opType;
  ctx.inputNum_ = in->inputNum;
  ctx.outputNum_ = in->outputNum;
  for (uint32_t k = 0; k < in->inputNum && k < KWB_MAX_TENSORS; ++k)
    fillTensor(in->inputs[k], ctx.inputs_[k], ctx.inputDescs_[k]);
  for (uint32_t k = 0; k < in->outputNum && k < KWB_MAX_TENSORS; ++k)
    fillTensor(in->outputs[k], ctx.outputs_[k], ctx.outputDescs_[k]);
  ctx.attrs_.num_ =
      def.attrs_.size() < gert::RuntimeAttrs::kMax ? def.attrs_.size() : gert::RuntimeAttrs::kMax;
  for (size_t k = 0; k < ctx.attrs_.num_; ++k)
    fillAttr(def.attrs_[k], kwb_find_attr(in, def.attrs_[k].name_), ctx.attrs_, k);
  ctx.platform_.coreNumAiv = in->coreNumAiv;
  ctx.platform_.coreNumAic = in->coreNumAic;
  ctx.platform_.ubSize = in->ubSize;
  std::memcpy(ctx.platform_.socVersion, in->socVersion, sizeof ctx.platform_.socVersion);
  ctx.platform_.socVersion[sizeof ctx.platform_.socVersion - 1] = 0;
  // IMPL_OP_OPTILING's TilingParse runs first, as at graph compile time, and fills the CompileInfo the
  // TilingFunc then reads with GetCompileInfo.
  void* compileInfo = nullptr;
  if (impl != nullptr && impl->tiling == fn && impl->newCompileInfo != nullptr) {
    compileInfo = impl->newCompileInfo();
    gert::TilingParseContext parse;
    parse.platform_ = &ctx.platform_;
    parse.compileInfo_ = compileInfo;
    parse.opType_ = opType;
    if (impl->parse != nullptr) {
      const ge::graphStatus parsed = impl->parse(&parse);
      if (parsed != ge::GRAPH_SUCCESS) {
        std::fprintf(stderr, "kwb: the TilingParse function of %s returned %u, not ge::GRAPH_SUCCESS\n",
                     opType, static_cast<unsigned>(parsed));
        impl->deleteCompileInfo(compileInfo);
        return KWB_TILING_FAILED;
      }
    }
  }
  ctx.compileInfo_ = compileInfo;
  ctx.raw_.data_ = out->tilingData;
  ctx.raw_.capacity_ = KWB_TILING_CAPACITY;
  ctx.raw_.size_ = 0;
  const ge::graphStatus status = fn(&ctx);
  ctx.compileInfo_ = nullptr;
  if (compileInfo != nullptr) impl->deleteCompileInfo(compileInfo);
  if (status != ge::GRAPH_SUCCESS) {
    std::fprintf(stderr, "kwb: the TilingFunc of %s returned %u, not ge::GRAPH_SUCCESS\n", opType,
                 static_cast<unsigned>(status));
    return KWB_TILING_FAILED;
  }
  if (ctx.raw_.size_ > KWB_TILING_CAPACITY) {
    std::fprintf(stderr,
                 "kwb: the TilingFunc of %s set a tiling data size of %zu bytes; the capacity is %d\n",
                 opType, ctx.raw_.size_, KWB_TILING_CAPACITY);
    return KWB_TILING_FAILED;
  }
  uint64_t workspace = 0;
  for (size_t k = 0; k < ctx.workspaceNum_; ++k) workspace += ctx.workspaces_[k];
  out->blockDim = ctx.blockDim_;
  out->tilingDataSize = static_cast<uint32_t>(ctx.raw_.size_);
  out->workspaceSize = workspace;
  out->tilingKey = ctx.tilingKey_;
  return KWB_TILING_OK;
}

}  // namespace kwb_op
