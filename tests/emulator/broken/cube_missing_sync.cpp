// Deliberately broken: static L1/L0 buffers from TBuf; the MTE2->MTE1 flag is set after the copy of B but
// before the copy of A, so LoadData (MTE1) may read A from L1 before DataCopy (MTE2) has written it. The
// other hand-offs (MTE1->M, M->FIX) are synchronised with flag pairs.
// The emulator must report exactly one error of the category on the line marked EXPECT.
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t M = 32;
constexpr uint32_t N = 32;
constexpr uint32_t K = 64;

extern "C" __global__ __aicore__ void cube_missing_sync_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR c)
{
    TPipe pipe;
    TBuf<TPosition::A1> a1Buf;
    TBuf<TPosition::B1> b1Buf;
    TBuf<TPosition::A2> a2Buf;
    TBuf<TPosition::B2> b2Buf;
    TBuf<TPosition::CO1> cBuf;
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer((__gm__ half *)a, M * K);
    bGm.SetGlobalBuffer((__gm__ half *)b, N * K);
    cGm.SetGlobalBuffer((__gm__ float *)c, M * N);
    pipe.InitBuffer(a1Buf, M * K * sizeof(half));
    pipe.InitBuffer(b1Buf, N * K * sizeof(half));
    pipe.InitBuffer(a2Buf, M * K * sizeof(half));
    pipe.InitBuffer(b2Buf, N * K * sizeof(half));
    pipe.InitBuffer(cBuf, M * N * sizeof(float));
    LocalTensor<half> a1 = a1Buf.Get<half>();
    LocalTensor<half> b1 = b1Buf.Get<half>();
    LocalTensor<half> a2 = a2Buf.Get<half>();
    LocalTensor<half> b2 = b2Buf.Get<half>();
    LocalTensor<float> cl = cBuf.Get<float>();

    DataCopy(b1, bGm, Nd2NzParams(1, N, K, 0, K, N, 1, 0));  // B transposed in GM: Zn after Nd2Nz
    SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    DataCopy(a1, aGm, Nd2NzParams(1, M, K, 0, K, M, 1, 0));
    LoadData(a2, a1, LoadData2DParams(0, K / 16, M / 16, 0, 0, false, 0));  // EXPECT: missing-sync
    LoadData(a2[K * 16], a1, LoadData2DParams(1, K / 16, M / 16, 0, 0, false, 0));
    LoadData(b2, b1, LoadData2DParams(0, (K / 16) * (N / 16), 1, 0, 0, false, 0));
    SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
    WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);
    MmadParams mp;
    mp.m = M;
    mp.n = N;
    mp.k = K;
    Mmad(cl, a2, b2, mp);
    SetFlag<HardEvent::M_FIX>(EVENT_ID0);
    WaitFlag<HardEvent::M_FIX>(EVENT_ID0);
    Fixpipe(cGm, cl, FixpipeParamsV220(N, M, M, N, false));
}

int main()
{
    uint8_t *a = (uint8_t *)AscendC::GmAlloc(M * K * sizeof(half));
    uint8_t *b = (uint8_t *)AscendC::GmAlloc(N * K * sizeof(half));
    uint8_t *c = (uint8_t *)AscendC::GmAlloc(M * N * sizeof(float));
    AscendC::SetKernelMode(KernelMode::AIC_MODE);
    ICPU_RUN_KF(cube_missing_sync_kernel, 1, a, b, c);
    AscendC::GmFree((void *)a);
    AscendC::GmFree((void *)b);
    AscendC::GmFree((void *)c);
    return 0;
}
