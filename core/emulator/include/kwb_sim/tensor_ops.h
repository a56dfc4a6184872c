// SPDX-License-Identifier: MIT
#pragma once
// LocalTensor operator forms: `dst = a + b` (also - * / & |) runs Add/Sub/Mul/Div/And/Or over
// dst.GetSize() elements, `dst = a < b` (also > <= >= == !=) runs Compare over a.GetSize() elements into
// a bit mask. Each goes through the same checked, traced and costed call as the named API, at the line
// of the assignment.

#include <type_traits>

#include "kwb_sim/tensor.h"
#include "kwb_sim/vec_misc.h"
#include "kwb_sim/vec_ops.h"

namespace kwb_sim {

enum class TensorExprOp : std::uint8_t { Add, Sub, Mul, Div, And, Or, Compare };

template <typename T>
struct TensorExpr {
  using KwbTensorExprTag = void;
  AscendC::LocalTensor<T> a;
  AscendC::LocalTensor<T> b;
  TensorExprOp op = TensorExprOp::Add;
  AscendC::CMPMODE mode = AscendC::CMPMODE::EQ;

  template <typename D>
  void assignTo(const AscendC::LocalTensor<D>& dst, SrcLoc loc) const {
    if (op == TensorExprOp::Compare) {
      AscendC::Compare(dst, a, b, mode, a.GetSize(), loc);
      return;
    }
    if constexpr (std::is_same_v<D, T>) {
      const auto n = static_cast<std::int32_t>(dst.GetSize());
      switch (op) {
        case TensorExprOp::Add:
          AscendC::Add(dst, a, b, n, loc);
          break;
        case TensorExprOp::Sub:
          AscendC::Sub(dst, a, b, n, loc);
          break;
        case TensorExprOp::Mul:
          AscendC::Mul(dst, a, b, n, loc);
          break;
        case TensorExprOp::Div:
          if constexpr (kIsOneOf<T, KWB_SIM_TYPES_FLOAT>) AscendC::Div(dst, a, b, n, loc);
          break;
        case TensorExprOp::And:
          if constexpr (kIsOneOf<T, KWB_SIM_TYPES_BITWISE>) AscendC::And(dst, a, b, n, loc);
          break;
        case TensorExprOp::Or:
          if constexpr (kIsOneOf<T, KWB_SIM_TYPES_BITWISE>) AscendC::Or(dst, a, b, n, loc);
          break;
        case TensorExprOp::Compare:
          break;
      }
    }
  }
};

template <typename T>
TensorExpr<T> tensorExpr(const AscendC::LocalTensor<T>& a, const AscendC::LocalTensor<T>& b, TensorExprOp op,
                         AscendC::CMPMODE mode = AscendC::CMPMODE::EQ) {
  TensorExpr<T> e;
  e.a = a;
  e.b = b;
  e.op = op;
  e.mode = mode;
  return e;
}

}  // namespace kwb_sim

// The dtype rules of the named APIs hold for the operator forms too (checked where the operator is used).
#define KWB_SIM_TENSOR_ARITH_OP(SYM, OP, TYPES)                                           \
  template <typename T>                                                                   \
  kwb_sim::TensorExpr<T> operator SYM(const LocalTensor<T>& a, const LocalTensor<T>& b) { \
    KWB_SIM_REQUIRE_DTYPE("operator" #SYM, T, TYPES);                                     \
    return kwb_sim::tensorExpr(a, b, kwb_sim::TensorExprOp::OP);                          \
  }
#define KWB_SIM_TENSOR_CMP_OP(SYM, MODE)                                                  \
  template <typename T>                                                                   \
  kwb_sim::TensorExpr<T> operator SYM(const LocalTensor<T>& a, const LocalTensor<T>& b) { \
    KWB_SIM_REQUIRE_DTYPE("operator" #SYM, T, half, float, int32_t);                      \
    return kwb_sim::tensorExpr(a, b, kwb_sim::TensorExprOp::Compare, CMPMODE::MODE);      \
  }

namespace AscendC {
KWB_SIM_TENSOR_ARITH_OP(+, Add, KWB_SIM_TYPES_ARITH)
KWB_SIM_TENSOR_ARITH_OP(-, Sub, KWB_SIM_TYPES_ARITH)
KWB_SIM_TENSOR_ARITH_OP(*, Mul, KWB_SIM_TYPES_ARITH)
KWB_SIM_TENSOR_ARITH_OP(/, Div, KWB_SIM_TYPES_FLOAT)
KWB_SIM_TENSOR_ARITH_OP(&, And, KWB_SIM_TYPES_BITWISE)
KWB_SIM_TENSOR_ARITH_OP(|, Or, KWB_SIM_TYPES_BITWISE)
KWB_SIM_TENSOR_CMP_OP(<, LT)
KWB_SIM_TENSOR_CMP_OP(>, GT)
KWB_SIM_TENSOR_CMP_OP(<=, LE)
KWB_SIM_TENSOR_CMP_OP(>=, GE)
KWB_SIM_TENSOR_CMP_OP(==, EQ)
KWB_SIM_TENSOR_CMP_OP(!=, NE)
}  // namespace AscendC

#undef KWB_SIM_TENSOR_ARITH_OP
#undef KWB_SIM_TENSOR_CMP_OP
