// Deterministic accumulation with InitDetermineComputeWorkspace / WaitPreBlock / NotifyNextBlock: four
// blocks add their value into the same GM floats under SetAtomicAdd, two rounds, strictly in the order
// 0, 1, 2, 3, 0, 1, 2, 3. The values (1e8, -1e8, 1, 1) make float addition order-dependent (1e8 + 1 rounds
// back to 1e8), so only that order gives the host's sequential sum.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t LEN = 8;
constexpr uint32_t ROUNDS = 2;

extern "C" __global__ __aicore__ void determine_order_custom(GM_ADDR values, GM_ADDR out, GM_ADDR workspace)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> wsQueue, inQueue;
    const uint32_t blocks = GetBlockNum();
    pipe.InitBuffer(wsQueue, 1, blocks * 32 + 32);
    pipe.InitBuffer(inQueue, 1, LEN * sizeof(float));
    GlobalTensor<float> valueGm, outGm;
    GlobalTensor<int32_t> wsGm;
    valueGm.SetGlobalBuffer((__gm__ float *)values + GetBlockIdx() * LEN, LEN);
    outGm.SetGlobalBuffer((__gm__ float *)out, LEN);
    wsGm.SetGlobalBuffer((__gm__ int32_t *)workspace, blocks * 8);
    LocalTensor<int32_t> ws = wsQueue.AllocTensor<int32_t>();
    InitDetermineComputeWorkspace(wsGm, ws);
    for (uint32_t r = 0; r < ROUNDS; r++) {
        LocalTensor<float> v = inQueue.AllocTensor<float>();
        DataCopy(v, valueGm, LEN);
        inQueue.EnQue(v);
        v = inQueue.DeQue<float>();
        WaitPreBlock(wsGm, ws);
        SetAtomicAdd<float>();
        DataCopy(outGm, v, LEN);
        SetAtomicNone();
        NotifyNextBlock(wsGm, ws);
        inQueue.FreeTensor(v);
    }
    wsQueue.FreeTensor(ws);
}
