// Expert candidate for batch_matmul_f16_f32: c [B, M, N] (float32) = a [B, M, K] x b [B, K, N] (float16),
// one independent matmul per batch, basic cube API. The output tiles of every batch (128 x 128) are dealt
// round-robin over the AIC blocks, so a small batch of large matrices and a large batch of small ones both
// keep every core busy. Per tile: GM -> L1 with Nd2Nz (ragged edges zero-padded to whole fractals),
// LoadData to L0A (Zz) and L0B (Zn, transposed), Mmad accumulating the K steps of 64 in L0C in float32,
// Fixpipe NZ -> ND; each batch's matrices are found by offsetting a, b and c by whole matrices.
#include "kwb_tiling.h"

struct BatchMatmulF16F32TilingData {
  uint32_t batch;
  uint32_t m;
  uint32_t n;
  uint32_t k;
};

#if KWB_COMPILE_KERNEL
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t BASE_M = 128;
constexpr uint32_t BASE_N = 128;
constexpr uint32_t BASE_K = 64;
constexpr int32_t BUFFER_NUM = 2;

__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b) {
  return (a + b - 1) / b;
}
__aicore__ inline uint32_t Align16(uint32_t a) {
  return CeilDiv(a, 16) * 16;
}
__aicore__ inline uint32_t MinU(uint32_t a, uint32_t b) {
  return a < b ? a : b;
}

class KernelBatchMatmulF16F32 {
 public:
  __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const BatchMatmulF16F32TilingData& t) {
    batch_ = t.batch;
    m_ = t.m;
    n_ = t.n;
    k_ = t.k;
    aGm.SetGlobalBuffer((__gm__ half*)a, static_cast<uint64_t>(batch_) * m_ * k_);
    bGm.SetGlobalBuffer((__gm__ half*)b, static_cast<uint64_t>(batch_) * k_ * n_);
    cGm.SetGlobalBuffer((__gm__ float*)c, static_cast<uint64_t>(batch_) * m_ * n_);
    pipe.InitBuffer(qA1, BUFFER_NUM, BASE_M * BASE_K * sizeof(half));
    pipe.InitBuffer(qB1, BUFFER_NUM, BASE_K * BASE_N * sizeof(half));
    pipe.InitBuffer(qA2, BUFFER_NUM, BASE_M * BASE_K * sizeof(half));
    pipe.InitBuffer(qB2, BUFFER_NUM, BASE_K * BASE_N * sizeof(half));
    pipe.InitBuffer(qC, 1, BASE_M * BASE_N * sizeof(float));
  }
  __aicore__ inline void Process() {
    const uint32_t tilesM = CeilDiv(m_, BASE_M), tilesN = CeilDiv(n_, BASE_N);
    const uint32_t perBatch = tilesM * tilesN;
    for (uint32_t t = GetBlockIdx(); t < batch_ * perBatch; t += GetBlockNum()) {
      const uint32_t bi = t / perBatch, r = t % perBatch;
      aOff_ = static_cast<uint64_t>(bi) * m_ * k_;
      bOff_ = static_cast<uint64_t>(bi) * k_ * n_;
      cOff_ = static_cast<uint64_t>(bi) * m_ * n_;
      const uint32_t m0 = (r / tilesN) * BASE_M, n0 = (r % tilesN) * BASE_N;
      const uint32_t mLen = MinU(m_ - m0, BASE_M), nLen = MinU(n_ - n0, BASE_N);
      LocalTensor<float> c1 = qC.AllocTensor<float>();
      for (uint32_t k0 = 0; k0 < k_; k0 += BASE_K) {
        const uint32_t kLen = MinU(k_ - k0, BASE_K);
        CopyIn(m0, n0, k0, mLen, nLen, kLen);
        SplitA(mLen, kLen);
        SplitB(nLen, kLen);
        Compute(c1, mLen, nLen, kLen, k0 == 0);
      }
      qC.EnQue(c1);
      CopyOut(m0, n0, mLen, nLen);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint32_t m0, uint32_t n0, uint32_t k0, uint32_t mLen, uint32_t nLen,
                                uint32_t kLen) {
    LocalTensor<half> a1 = qA1.AllocTensor<half>();
    LocalTensor<half> b1 = qB1.AllocTensor<half>();
    // M = 1 runs as GEMV (devkit Mmad.md): the cube reads A as K contiguous elements, so the column groups
    // are packed one 32-byte block apart instead of 16 rows apart.
    DataCopy(a1, aGm[aOff_ + static_cast<uint64_t>(m0) * k_ + k0],
             Nd2NzParams(1, mLen, kLen, 0, k_, mLen == 1 ? 1 : Align16(mLen), 1, 0));
    DataCopy(b1, bGm[bOff_ + static_cast<uint64_t>(k0) * n_ + n0],
             Nd2NzParams(1, kLen, nLen, 0, n_, Align16(kLen), 1, 0));
    qA1.EnQue(a1);
    qB1.EnQue(b1);
  }
  __aicore__ inline void SplitA(uint32_t mLen, uint32_t kLen) {
    const uint32_t mBlocks = CeilDiv(mLen, 16), kBlocks = CeilDiv(kLen, 16);
    LocalTensor<half> a1 = qA1.DeQue<half>();
    LocalTensor<half> a2 = qA2.AllocTensor<half>();
    if (mLen == 1) {
      // GEMV: the packed row, in whole 512-byte fractals.
      LoadData(a2, a1, LoadData2DParams(0, CeilDiv(kLen, 256), 1, 0, 0, false, 0));
    } else {
      for (uint32_t i = 0; i < mBlocks; i++)
        LoadData(a2[i * kBlocks * 256], a1, LoadData2DParams(i, kBlocks, mBlocks, 0, 0, false, 0));
    }
    qA2.EnQue(a2);
    qA1.FreeTensor(a1);
  }
  __aicore__ inline void SplitB(uint32_t nLen, uint32_t kLen) {
    const uint32_t nBlocks = CeilDiv(nLen, 16), kBlocks = CeilDiv(kLen, 16);
    LocalTensor<half> b1 = qB1.DeQue<half>();
    LocalTensor<half> b2 = qB2.AllocTensor<half>();
    for (uint32_t i = 0; i < kBlocks; i++)
      LoadData(b2[i * nBlocks * 256], b1, LoadData2DParams(i, nBlocks, kBlocks, 0, 0, true, 0));
    qB2.EnQue(b2);
    qB1.FreeTensor(b1);
  }
  __aicore__ inline void Compute(LocalTensor<float>& c1, uint32_t mLen, uint32_t nLen, uint32_t kLen,
                                 bool first) {
    LocalTensor<half> a2 = qA2.DeQue<half>();
    LocalTensor<half> b2 = qB2.DeQue<half>();
    MmadParams p;
    p.m = mLen;
    p.n = nLen;
    p.k = kLen;
    p.cmatrixInitVal = first;
    Mmad(c1, a2, b2, p);
    qA2.FreeTensor(a2);
    qB2.FreeTensor(b2);
  }
  __aicore__ inline void CopyOut(uint32_t m0, uint32_t n0, uint32_t mLen, uint32_t nLen) {
    LocalTensor<float> c1 = qC.DeQue<float>();
    Fixpipe(cGm[cOff_ + static_cast<uint64_t>(m0) * n_ + n0], c1,
            FixpipeParamsV220(nLen, mLen, Align16(mLen), n_, false));
    qC.FreeTensor(c1);
  }

  TPipe pipe;
  TQue<TPosition::A1, BUFFER_NUM> qA1;
  TQue<TPosition::B1, BUFFER_NUM> qB1;
  TQue<TPosition::A2, BUFFER_NUM> qA2;
  TQue<TPosition::B2, BUFFER_NUM> qB2;
  TQue<TPosition::CO1, 1> qC;
  GlobalTensor<half> aGm;
  GlobalTensor<half> bGm;
  GlobalTensor<float> cGm;
  uint32_t batch_ = 0, m_ = 0, n_ = 0, k_ = 0;
  uint64_t aOff_ = 0, bOff_ = 0, cOff_ = 0;  // the current batch's matrices, in elements
};

extern "C" __global__ __aicore__ void batch_matmul_f16_f32(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace,
                                                           GM_ADDR tiling) {
  BatchMatmulF16F32TilingData t = *reinterpret_cast<__gm__ BatchMatmulF16F32TilingData*>(tiling);
  KernelBatchMatmulF16F32 op;
  op.Init(a, b, c, t);
  op.Process();
}
#endif  // KWB_COMPILE_KERNEL

#if KWB_COMPILE_TILING
extern "C" int kwb_tiling(const KwbTilingInput* in, KwbTilingOutput* out) {
  const KwbTensorDesc& a = in->inputs[0];
  const KwbTensorDesc& b = in->inputs[1];
  if (a.dimNum != 3 || b.dimNum != 3 || a.dims[0] != b.dims[0] || a.dims[2] != b.dims[1])
    return KWB_TILING_FAILED;
  BatchMatmulF16F32TilingData t{};
  t.batch = static_cast<uint32_t>(a.dims[0]);
  t.m = static_cast<uint32_t>(a.dims[1]);
  t.k = static_cast<uint32_t>(a.dims[2]);
  t.n = static_cast<uint32_t>(b.dims[2]);
  if (t.k > 65535 || t.n > 65535) return KWB_TILING_FAILED;  // Nd2Nz srcDValue is 16-bit
  const uint64_t tiles = static_cast<uint64_t>(t.batch) * ((t.m + 127) / 128) * ((t.n + 127) / 128);
  if (tiles == 0) return KWB_TILING_FAILED;
  const uint32_t cores = in->coreNumAic ? in->coreNumAic : 1;
  kwb_set_block_dim(out, static_cast<uint32_t>(tiles < cores ? tiles : cores));
  kwb_set_workspace(out, 0);
  return kwb_set_tiling(out, &t, sizeof t);
}
#endif  // KWB_COMPILE_TILING
