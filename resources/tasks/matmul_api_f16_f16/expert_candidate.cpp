// Expert candidate for matmul_api_f16_f16: c [M, N] (float16) = a [M, K] x b [K, N] (float16) with the
// Matmul high-level API. The tiling function asks matmul_tiling::MultiCoreMatmulTiling for a TCubeTiling
// that splits M x N over the cube cores; each block reads it, places its single-core tile with the
// tiling's singleCoreM/N, shortens the tile at the matrix's edges with SetTail and runs IterateAll.
#include "kwb_tiling.h"

#if KWB_COMPILE_KERNEL
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;
using namespace matmul;

extern "C" __global__ __aicore__ void matmul_api_f16_f16(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace,
                                                         GM_ADDR tilingGm) {
  TCubeTiling tiling = *reinterpret_cast<__gm__ TCubeTiling*>(tilingGm);
  if (GetBlockIdx() >= static_cast<uint32_t>(tiling.usedCoreNum)) return;
  GlobalTensor<half> aGm, bGm, cGm;
  aGm.SetGlobalBuffer((__gm__ half*)a, static_cast<uint64_t>(tiling.M) * tiling.Ka);
  bGm.SetGlobalBuffer((__gm__ half*)b, static_cast<uint64_t>(tiling.Kb) * tiling.N);
  cGm.SetGlobalBuffer((__gm__ half*)c, static_cast<uint64_t>(tiling.M) * tiling.N);
  const int32_t mBlocks = (tiling.M + tiling.singleCoreM - 1) / tiling.singleCoreM;
  const int32_t mIdx = GetBlockIdx() % mBlocks, nIdx = GetBlockIdx() / mBlocks;
  const int32_t m0 = mIdx * tiling.singleCoreM, n0 = nIdx * tiling.singleCoreN;
  const int32_t tailM = tiling.M - m0 < tiling.singleCoreM ? tiling.M - m0 : tiling.singleCoreM;
  const int32_t tailN = tiling.N - n0 < tiling.singleCoreN ? tiling.N - n0 : tiling.singleCoreN;
  TPipe pipe;
  Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
         MatmulType<TPosition::GM, CubeFormat::ND, half>>
      mm;
  REGIST_MATMUL_OBJ(&pipe, workspace, mm, &tiling);
  mm.SetTensorA(aGm[static_cast<uint64_t>(m0) * tiling.Ka]);
  mm.SetTensorB(bGm[n0]);
  mm.SetTail(tailM, tailN);
  mm.IterateAll(cGm[static_cast<uint64_t>(m0) * tiling.N + n0]);
  mm.End();
}
#endif  // KWB_COMPILE_KERNEL

#if KWB_COMPILE_TILING
#include "tiling/tiling_api.h"

extern "C" int kwb_tiling(const KwbTilingInput* in, KwbTilingOutput* out) {
  const KwbTensorDesc& a = in->inputs[0];
  const KwbTensorDesc& b = in->inputs[1];
  if (a.dimNum != 2 || b.dimNum != 2 || a.dims[1] != b.dims[0]) return KWB_TILING_FAILED;
  const int32_t m = static_cast<int32_t>(a.dims[0]), k = static_cast<int32_t>(a.dims[1]);
  const int32_t n = static_cast<int32_t>(b.dims[1]);
  const int32_t cores = in->coreNumAic ? static_cast<int32_t>(in->coreNumAic) : 1;
  matmul_tiling::MultiCoreMatmulTiling tiler;
  tiler.SetDim(cores);
  tiler.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                 matmul_tiling::DataType::DT_FLOAT16);
  tiler.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                 matmul_tiling::DataType::DT_FLOAT16);
  tiler.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                 matmul_tiling::DataType::DT_FLOAT16);
  tiler.SetShape(m, n, k);
  tiler.SetOrgShape(m, n, k);
  tiler.SetBias(false);
  tiler.SetBufferSpace(-1, -1, -1);
  optiling::TCubeTiling tiling;
  if (tiler.GetTiling(tiling) != 0) return KWB_TILING_FAILED;
  kwb_set_block_dim(out, static_cast<uint32_t>(tiling.usedCoreNum));
  kwb_set_workspace(out, 0);
  return kwb_set_tiling(out, &tiling, sizeof tiling);
}
#endif  // KWB_COMPILE_TILING
