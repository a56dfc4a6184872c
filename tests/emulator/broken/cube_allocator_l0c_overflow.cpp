// Deliberately broken: the L0C allocator hands out a 4 KB tile and two 96 KB float tiles; the second
// 96 KB one does not fit in the 128 KB L0C of Ascend910B (LocalMemAllocator<Hardware::L0C>).
// The emulator must report exactly one error of the category on the line marked EXPECT.
#include <cstdint>
#include "kernel_operator.h"
#include "tikicpulib.h"

constexpr uint32_t M = 32;
constexpr uint32_t N = 32;
constexpr uint32_t K = 32;

extern "C" __global__ __aicore__ void cube_allocator_l0c_overflow_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR c)
{
    AscendC::GlobalTensor<half> aGm, bGm;
    AscendC::GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer((__gm__ half *)a, M * K);
    bGm.SetGlobalBuffer((__gm__ half *)b, K * N);
    cGm.SetGlobalBuffer((__gm__ float *)c, M * N);
    AscendC::LocalMemAllocator<AscendC::Hardware::L1> l1Allocator;
    AscendC::LocalMemAllocator<AscendC::Hardware::L0A> l0aAllocator;
    AscendC::LocalMemAllocator<AscendC::Hardware::L0C> l0cAllocator;
    AscendC::LocalTensor<half> a1 = l1Allocator.Alloc<half>(M * K);
    AscendC::LocalTensor<half> b1 = l1Allocator.Alloc<AscendC::TPosition::B1, half>(K * N);
    AscendC::LocalTensor<half> a2 = l0aAllocator.Alloc<half>(M * K);
    AscendC::LocalMemAllocator<AscendC::Hardware::L0B> l0bAllocator;
    AscendC::LocalTensor<half> b2 = l0bAllocator.Alloc<half>(K * N);
    AscendC::LocalTensor<float> c1 = l0cAllocator.Alloc<float>(M * N);
    AscendC::LocalTensor<float> staged = l0cAllocator.Alloc<float, 192 * 128>();
    AscendC::LocalTensor<float> spare = l0cAllocator.Alloc<float, 192 * 128>();  // EXPECT: ub-overflow
    AscendC::DataCopy(a1, aGm, AscendC::Nd2NzParams(1, M, K, 0, K, M, 1, 0));
    AscendC::DataCopy(b1, bGm, AscendC::Nd2NzParams(1, K, N, 0, N, K, 1, 0));
    AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
    for (uint32_t i = 0; i < M / 16; i++) {
        AscendC::LoadData(a2[i * K * 16], a1, AscendC::LoadData2DParams(i, K / 16, M / 16, 0, 0, false, 0));
    }
    for (uint32_t i = 0; i < K / 16; i++) {
        AscendC::LoadData(b2[i * N * 16], b1, AscendC::LoadData2DParams(i, N / 16, K / 16, 0, 0, true, 0));
    }
    AscendC::SetFlag<AscendC::HardEvent::MTE1_M>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE1_M>(EVENT_ID0);
    AscendC::Mmad(c1, a2, b2, AscendC::MmadParams(M, N, K, 0, false, true));
    AscendC::SetFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);
    AscendC::Fixpipe(cGm, c1, AscendC::FixpipeParamsV220(N, M, M, N, false));
}

int main()
{
    uint8_t *a = (uint8_t *)AscendC::GmAlloc(M * K * sizeof(half));
    uint8_t *b = (uint8_t *)AscendC::GmAlloc(K * N * sizeof(half));
    uint8_t *c = (uint8_t *)AscendC::GmAlloc(M * N * sizeof(float));
    AscendC::SetKernelMode(KernelMode::AIC_MODE);
    ICPU_RUN_KF(cube_allocator_l0c_overflow_kernel, 1, a, b, c);
    AscendC::GmFree((void *)a);
    AscendC::GmFree((void *)b);
    AscendC::GmFree((void *)c);
    return 0;
}
