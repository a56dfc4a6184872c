// SPDX-License-Identifier: MIT
#pragma once
// The matrix formats the Matmul API names (kernel side: matmul::MatmulType; host side:
// matmul_tiling::SetAType ...). One enum for both sides, so that code with `using namespace matmul` and
// `using namespace matmul_tiling` sees one CubeFormat.

namespace matmul {
enum class CubeFormat { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR };
}  // namespace matmul
// CANN declares CubeFormat at global scope; samples write `CubeFormat::ND` without a namespace.
using CubeFormat = matmul::CubeFormat;
