// Deliberately broken: Fixpipe's srcStride is M (40), not M rounded up to 16 (48): the second column group
// of L0C would be read from the middle of the first.
// The emulator must report exactly one error of the category on the line marked EXPECT.
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t M = 40;
constexpr uint32_t N = 32;
constexpr uint32_t K = 64;
constexpr uint32_t MA = (M + 15) / 16 * 16;
constexpr uint32_t NA = (N + 15) / 16 * 16;

extern "C" __global__ __aicore__ void cube_fixpipe_src_stride_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR c)
{
    TPipe pipe;
    TQue<TPosition::A1, 1> qA1;
    TQue<TPosition::B1, 1> qB1;
    TQue<TPosition::A2, 1> qA2;
    TQue<TPosition::B2, 1> qB2;
    TQue<TPosition::CO1, 1> qC;
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer((__gm__ half *)a, M * K);
    bGm.SetGlobalBuffer((__gm__ half *)b, N * K);
    cGm.SetGlobalBuffer((__gm__ float *)c, M * N);
    pipe.InitBuffer(qA1, 1, MA * K * sizeof(half));
    pipe.InitBuffer(qB1, 1, NA * K * sizeof(half));
    pipe.InitBuffer(qA2, 1, MA * K * sizeof(half));
    pipe.InitBuffer(qB2, 1, NA * K * sizeof(half));
    pipe.InitBuffer(qC, 1, MA * NA * sizeof(float));

    LocalTensor<half> a1 = qA1.AllocTensor<half>();
    LocalTensor<half> b1 = qB1.AllocTensor<half>();
    DataCopy(a1, aGm, Nd2NzParams(1, M, K, 0, K, MA, 1, 0));
    DataCopy(b1, bGm, Nd2NzParams(1, N, K, 0, K, NA, 1, 0));  // B transposed in GM: Zn after Nd2Nz
    qA1.EnQue(a1);
    qB1.EnQue(b1);
    a1 = qA1.DeQue<half>();
    LocalTensor<half> a2 = qA2.AllocTensor<half>();
    for (uint32_t i = 0; i < MA / 16; i++) {
        LoadData(a2[i * K * 16], a1, LoadData2DParams(i, K / 16, MA / 16, 0, 0, false, 0));
    }
    qA2.EnQue(a2);
    qA1.FreeTensor(a1);
    b1 = qB1.DeQue<half>();
    LocalTensor<half> b2 = qB2.AllocTensor<half>();
    LoadData(b2, b1, LoadData2DParams(0, (K / 16) * (NA / 16), 1, 0, 0, false, 0));
    qB2.EnQue(b2);
    qB1.FreeTensor(b1);
    a2 = qA2.DeQue<half>();
    b2 = qB2.DeQue<half>();
    LocalTensor<float> cl = qC.AllocTensor<float>();
    MmadParams mp;
    mp.m = M;
    mp.n = N;
    mp.k = K;
    Mmad(cl, a2, b2, mp);
    qA2.FreeTensor(a2);
    qB2.FreeTensor(b2);
    qC.EnQue(cl);
    cl = qC.DeQue<float>();
    Fixpipe(cGm, cl, FixpipeParamsV220(N, M, M, N, false));  // EXPECT: invalid-param
    qC.FreeTensor(cl);
}

int main()
{
    uint8_t *a = (uint8_t *)AscendC::GmAlloc(M * K * sizeof(half));
    uint8_t *b = (uint8_t *)AscendC::GmAlloc(N * K * sizeof(half));
    uint8_t *c = (uint8_t *)AscendC::GmAlloc(M * N * sizeof(float));
    AscendC::SetKernelMode(KernelMode::AIC_MODE);
    ICPU_RUN_KF(cube_fixpipe_src_stride_kernel, 1, a, b, c);
    AscendC::GmFree((void *)a);
    AscendC::GmFree((void *)b);
    AscendC::GmFree((void *)c);
    return 0;
}
