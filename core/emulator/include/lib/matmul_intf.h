// SPDX-License-Identifier: MIT
#pragma once
// The Matmul high-level API is not emulated: declaring a Matmul object fails at compile time with
// "kwb-sim: unsupported-api: Matmul ...".

#include "kernel_operator.h"

namespace matmul {
enum class CubeFormat { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR };
template <AscendC::TPosition POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false>
struct MatmulType {
  using T = TYPE;
};
template <typename... A>
class Matmul {
  static_assert(::kwb_sim::kAlwaysFalsePack<A...>, KWB_SIM_UNSUPPORTED_API_MSG("Matmul"));
};
}  // namespace matmul

namespace AscendC {
using matmul::CubeFormat;
using matmul::Matmul;
using matmul::MatmulType;
}  // namespace AscendC

#define REGIST_MATMUL_OBJ(...) \
  static_assert(::kwb_sim::kAlwaysFalsePack<>, KWB_SIM_UNSUPPORTED_API_MSG("REGIST_MATMUL_OBJ"))
