// Deliberately broken: SetTail asks for a tile 16 rows taller than the matrix (M = 64), which would read
// rows of A that are not the matrix's. The emulator must report exactly one error of the category on the
// line marked EXPECT.
#include <cstdint>
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "tiling/tiling_api.h"
#include "tikicpulib.h"

using namespace AscendC;
using namespace matmul;

constexpr int32_t M = 64;
constexpr int32_t N = 64;
constexpr int32_t K = 64;

extern "C" __global__ __aicore__ void matmul_set_tail_too_large(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                                       GM_ADDR tilingGm)
{
    TCubeTiling tiling;
    GlobalTensor<int32_t> words;
    words.SetGlobalBuffer((__gm__ int32_t *)tilingGm, sizeof(TCubeTiling) / sizeof(int32_t));
    int32_t *dst = reinterpret_cast<int32_t *>(&tiling);
    for (uint32_t i = 0; i < sizeof(TCubeTiling) / sizeof(int32_t); i++) dst[i] = words.GetValue(i);
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer((__gm__ half *)a, M * K);
    bGm.SetGlobalBuffer((__gm__ half *)b, K * N);
    cGm.SetGlobalBuffer((__gm__ float *)c, M * N);
    TPipe pipe;
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
           MatmulType<TPosition::GM, CubeFormat::ND, float>>
        mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    mm.SetTail(M + 16, N);  // EXPECT: invalid-param
    mm.IterateAll(cGm);
    mm.End();
}

int main()
{
    matmul_tiling::MatmulApiTiling tiler;
    tiler.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    tiler.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    tiler.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    tiler.SetShape(M, N, K);
    tiler.SetOrgShape(M, N, K);
    optiling::TCubeTiling tiling;
    if (tiler.GetTiling(tiling) != 0) return 1;
    uint8_t *a = (uint8_t *)AscendC::GmAlloc(M * K * sizeof(half));
    uint8_t *b = (uint8_t *)AscendC::GmAlloc(K * N * sizeof(half));
    uint8_t *c = (uint8_t *)AscendC::GmAlloc(M * N * sizeof(float));
    uint8_t *t = (uint8_t *)AscendC::GmAlloc(sizeof(TCubeTiling));
    tiling.SaveToBuffer(t, sizeof(TCubeTiling));
    AscendC::SetKernelMode(KernelMode::AIC_MODE);
    ICPU_RUN_KF(matmul_set_tail_too_large, 1, a, b, c, t);
    AscendC::GmFree((void *)a);
    AscendC::GmFree((void *)b);
    AscendC::GmFree((void *)c);
    AscendC::GmFree((void *)t);
    return 0;
}
