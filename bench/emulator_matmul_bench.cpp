// SPDX-License-Identifier: MIT
// Emulator wall time of a 1024 x 1024 x 1024 fp16 -> fp32 matmul written with the basic cube API (issue 14:
// "evaluates in seconds, not minutes"): 64 tiles of 128 x 128, K in steps of 64, on 8 blocks. The cube's
// products run on Eigen (runtime/CubeGemm.cpp); real time is measured because blocks run in forked
// children. docs/benchmarks.md has the numbers and the command.
#include <benchmark/benchmark.h>

#include <cstdlib>

#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

namespace {

constexpr uint32_t BASE_M = 128;
constexpr uint32_t BASE_N = 128;
constexpr uint32_t BASE_K = 64;

__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b) {
  return (a + b - 1) / b;
}
__aicore__ inline uint32_t Align16(uint32_t a) {
  return CeilDiv(a, 16) * 16;
}

class KernelMatmul {
 public:
  __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t m, uint32_t n, uint32_t k) {
    M = m;
    N = n;
    K = k;
    aGm.SetGlobalBuffer((__gm__ half*)a, M * K);
    bGm.SetGlobalBuffer((__gm__ half*)b, K * N);
    cGm.SetGlobalBuffer((__gm__ float*)c, M * N);
    pipe.InitBuffer(inQueueA1, 1, BASE_M * BASE_K * sizeof(half));
    pipe.InitBuffer(inQueueB1, 1, BASE_K * BASE_N * sizeof(half));
    pipe.InitBuffer(inQueueA2, 1, BASE_M * BASE_K * sizeof(half));
    pipe.InitBuffer(inQueueB2, 1, BASE_K * BASE_N * sizeof(half));
    pipe.InitBuffer(outQueueCO1, 1, BASE_M * BASE_N * sizeof(float));
  }
  __aicore__ inline void Process() {
    const uint32_t tilesM = CeilDiv(M, BASE_M), tilesN = CeilDiv(N, BASE_N);
    for (uint32_t t = GetBlockIdx(); t < tilesM * tilesN; t += GetBlockNum()) {
      const uint32_t m0 = (t / tilesN) * BASE_M, n0 = (t % tilesN) * BASE_N;
      const uint32_t mLen = M - m0 < BASE_M ? M - m0 : BASE_M;
      const uint32_t nLen = N - n0 < BASE_N ? N - n0 : BASE_N;
      LocalTensor<float> c1 = outQueueCO1.AllocTensor<float>();
      for (uint32_t k0 = 0; k0 < K; k0 += BASE_K) {
        const uint32_t kLen = K - k0 < BASE_K ? K - k0 : BASE_K;
        CopyIn(m0, n0, k0, mLen, nLen, kLen);
        SplitA(mLen, kLen);
        SplitB(nLen, kLen);
        Compute(c1, mLen, nLen, kLen, k0 == 0);
      }
      outQueueCO1.EnQue(c1);
      CopyOut(m0, n0, mLen, nLen);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint32_t m0, uint32_t n0, uint32_t k0, uint32_t mLen, uint32_t nLen,
                                uint32_t kLen) {
    LocalTensor<half> a1 = inQueueA1.AllocTensor<half>();
    LocalTensor<half> b1 = inQueueB1.AllocTensor<half>();
    DataCopy(a1, aGm[m0 * K + k0], Nd2NzParams(1, mLen, kLen, 0, K, Align16(mLen), 1, 0));
    DataCopy(b1, bGm[k0 * N + n0], Nd2NzParams(1, kLen, nLen, 0, N, Align16(kLen), 1, 0));
    inQueueA1.EnQue(a1);
    inQueueB1.EnQue(b1);
  }
  __aicore__ inline void SplitA(uint32_t mLen, uint32_t kLen) {
    const uint32_t mBlocks = CeilDiv(mLen, 16), kBlocks = CeilDiv(kLen, 16);
    LocalTensor<half> a1 = inQueueA1.DeQue<half>();
    LocalTensor<half> a2 = inQueueA2.AllocTensor<half>();
    for (uint32_t i = 0; i < mBlocks; i++) {
      LoadData(a2[i * kBlocks * 256], a1, LoadData2DParams(i, kBlocks, mBlocks, 0, 0, false, 0));
    }
    inQueueA2.EnQue(a2);
    inQueueA1.FreeTensor(a1);
  }
  __aicore__ inline void SplitB(uint32_t nLen, uint32_t kLen) {
    const uint32_t nBlocks = CeilDiv(nLen, 16), kBlocks = CeilDiv(kLen, 16);
    LocalTensor<half> b1 = inQueueB1.DeQue<half>();
    LocalTensor<half> b2 = inQueueB2.AllocTensor<half>();
    for (uint32_t i = 0; i < kBlocks; i++) {
      LoadData(b2[i * nBlocks * 256], b1, LoadData2DParams(i, nBlocks, kBlocks, 0, 0, true, 0));
    }
    inQueueB2.EnQue(b2);
    inQueueB1.FreeTensor(b1);
  }
  __aicore__ inline void Compute(LocalTensor<float>& c1, uint32_t mLen, uint32_t nLen, uint32_t kLen,
                                 bool first) {
    LocalTensor<half> a2 = inQueueA2.DeQue<half>();
    LocalTensor<half> b2 = inQueueB2.DeQue<half>();
    MmadParams params;
    params.m = mLen;
    params.n = nLen;
    params.k = kLen;
    params.cmatrixInitVal = first;
    Mmad(c1, a2, b2, params);
    inQueueA2.FreeTensor(a2);
    inQueueB2.FreeTensor(b2);
  }
  __aicore__ inline void CopyOut(uint32_t m0, uint32_t n0, uint32_t mLen, uint32_t nLen) {
    LocalTensor<float> c1 = outQueueCO1.DeQue<float>();
    FixpipeParamsV220 params(nLen, mLen, Align16(mLen), N, false);
    Fixpipe(cGm[m0 * N + n0], c1, params);
    outQueueCO1.FreeTensor(c1);
  }

  TPipe pipe;
  TQue<TPosition::A1, 1> inQueueA1;
  TQue<TPosition::B1, 1> inQueueB1;
  TQue<TPosition::A2, 1> inQueueA2;
  TQue<TPosition::B2, 1> inQueueB2;
  TQue<TPosition::CO1, 1> outQueueCO1;
  GlobalTensor<half> aGm;
  GlobalTensor<half> bGm;
  GlobalTensor<float> cGm;
  uint32_t M, N, K;
};

__global__ __aicore__ void cube_matmul_f16(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t m, uint32_t n,
                                           uint32_t k) {
  KernelMatmul op;
  op.Init(a, b, c, m, n, k);
  op.Process();
}

void BM_EmulatorMatmul1024(benchmark::State& state) {
  constexpr uint32_t kSize = 1024;
  setenv("KWB_SIM_COST_MODEL", state.range(0) != 0 ? "on" : "off", 1);
  uint8_t* a = static_cast<uint8_t*>(AscendC::GmAlloc(kSize * kSize * sizeof(half)));
  uint8_t* b = static_cast<uint8_t*>(AscendC::GmAlloc(kSize * kSize * sizeof(half)));
  uint8_t* c = static_cast<uint8_t*>(AscendC::GmAlloc(kSize * kSize * sizeof(float)));
  half* ah = reinterpret_cast<half*>(a);
  half* bh = reinterpret_cast<half*>(b);
  for (uint32_t i = 0; i < kSize * kSize; i++) {
    ah[i] = half(static_cast<float>(i % 97) / 97.0f);
    bh[i] = half(static_cast<float>(i % 89) / 89.0f);
  }
  AscendC::SetKernelMode(KernelMode::AIC_MODE);
  for (auto _ : state) {
    ICPU_RUN_KF(cube_matmul_f16, 8, a, b, c, kSize, kSize, kSize);
  }
  state.counters["GMAC_per_s"] = benchmark::Counter(static_cast<double>(kSize) * kSize * kSize,
                                                    benchmark::Counter::kIsIterationInvariantRate);
  AscendC::GmFree(a);
  AscendC::GmFree(b);
  AscendC::GmFree(c);
}
BENCHMARK(BM_EmulatorMatmul1024)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);

}  // namespace

BENCHMARK_MAIN();
