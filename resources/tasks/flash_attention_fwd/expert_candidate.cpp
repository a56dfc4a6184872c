// Expert candidate for flash_attention_fwd: o = softmax(q kᵀ / sqrt(D) [+ causal mask]) v per head, q, k, v,
// o [B*H, S, D] float16. A mixed AIC/AIV kernel (KERNEL_TYPE_MIX_AIC_1_2, docs/emulator.md "Mixed AIC/AIV
// kernels"): each block owns (head, 128-query tile) pairs, dealt round-robin. For every 128-key tile of a
// pair the block's AIC computes S = Q Kᵀ on the cube (Q stays in L0A for the pair; K loaded as NZ is
// already Kᵀ in the Zn layout L0B wants) and hands S to its two AIVs through a GM workspace
// (CrossCoreSetFlag mode 2). Each AIV owns 64 query rows: it scales S, adds the causal (or the tail) mask,
// updates the running row maxima and sums (online softmax), writes P = exp(S - m) as float16 to the
// workspace and signals the AIC, which computes P V on the cube and hands it back; the AIV rescales its
// float32 accumulator by exp(m_old - m_new) and adds P V. At the end of the pair O / rowsum is rounded to
// float16. Causal pairs skip the key tiles above the diagonal; the diagonal tile is masked.
#include "kwb_tiling.h"

struct FlashAttentionFwdTilingData {
  uint32_t heads;  // B * H
  uint32_t seq;    // S
  uint32_t dim;    // D: a multiple of 16, at most 128
  uint32_t causal;
  uint32_t qTiles;  // ceil(S / 128)
  float scale;      // 1 / sqrt(D)
};

#if KWB_COMPILE_KERNEL
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t TILE = 128;      // query and key tile (equal, so the diagonal tile is tile t of pair t)
constexpr uint32_t MAX_D = 128;     // L0A holds Q and P (2 x 128 x 128 half = 64 KB)
constexpr uint32_t AIV_ROWS = 64;   // rows per AIV: sub-block 0 takes rows 0..63 of a tile, 1 takes 64..127
constexpr uint16_t FLAG_S = 1;      // AIC -> AIVs: S tile in the workspace
constexpr uint16_t FLAG_P = 2;      // AIVs -> AIC: P tile in the workspace
constexpr uint16_t FLAG_PV = 3;     // AIC -> AIVs: P V tile in the workspace
constexpr float MASKED = -1.0e30f;  // added to masked scores: exp underflows to exactly 0

// Workspace of one block: S [128 x 128] float, P [128 x 128] half, P V [128 x D] float.
constexpr uint32_t WS_S_BYTES = TILE * TILE * 4;
constexpr uint32_t WS_P_BYTES = TILE * TILE * 2;
constexpr uint32_t WS_PV_BYTES = TILE * MAX_D * 4;
constexpr uint32_t WS_BLOCK_BYTES = WS_S_BYTES + WS_P_BYTES + WS_PV_BYTES;

__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b) {
  return (a + b - 1) / b;
}
__aicore__ inline uint32_t Align16(uint32_t a) {
  return CeilDiv(a, 16) * 16;
}
__aicore__ inline uint32_t MinU(uint32_t a, uint32_t b) {
  return a < b ? a : b;
}

class KernelFlashAttentionFwd {
 public:
  __aicore__ inline void Init(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR o, GM_ADDR ws,
                              const FlashAttentionFwdTilingData& t) {
    t_ = t;
    const uint64_t total = static_cast<uint64_t>(t.heads) * t.seq * t.dim;
    qGm.SetGlobalBuffer((__gm__ half*)q, total);
    kGm.SetGlobalBuffer((__gm__ half*)k, total);
    vGm.SetGlobalBuffer((__gm__ half*)v, total);
    oGm.SetGlobalBuffer((__gm__ half*)o, total);
    block_ = GetBlockIdx();
    if (ASCEND_IS_AIV) block_ = GetBlockIdx() / GetSubBlockNum();
    GM_ADDR mine = ws + static_cast<uint64_t>(block_) * WS_BLOCK_BYTES;
    wsS.SetGlobalBuffer((__gm__ float*)mine, TILE * TILE);
    wsP.SetGlobalBuffer((__gm__ half*)(mine + WS_S_BYTES), TILE * TILE);
    wsPV.SetGlobalBuffer((__gm__ float*)(mine + WS_S_BYTES + WS_P_BYTES), TILE * MAX_D);
    if ASCEND_IS_AIC {
      pipe.InitBuffer(qA1, 1, TILE * MAX_D * sizeof(half));
      pipe.InitBuffer(qB1, 1, TILE * MAX_D * sizeof(half));
      pipe.InitBuffer(qQ2, 1, TILE * MAX_D * sizeof(half));
      pipe.InitBuffer(qP2, 1, TILE * TILE * sizeof(half));
      pipe.InitBuffer(qB2, 1, TILE * MAX_D * sizeof(half));
      pipe.InitBuffer(qC, 1, TILE * MAX_D * sizeof(float));
    }
    if ASCEND_IS_AIV {
      pipe.InitBuffer(inS, 1, AIV_ROWS * TILE * sizeof(float));
      pipe.InitBuffer(inPV, 1, AIV_ROWS * MAX_D * sizeof(float));
      pipe.InitBuffer(outP, 1, AIV_ROWS * TILE * sizeof(half));
      pipe.InitBuffer(outO, 1, AIV_ROWS * MAX_D * sizeof(half));
      pipe.InitBuffer(accBuf, AIV_ROWS * MAX_D * sizeof(float));
      pipe.InitBuffer(maskBuf, AIV_ROWS * TILE * sizeof(float));
      pipe.InitBuffer(workBuf, TILE * 2 * sizeof(float));
      pipe.InitBuffer(redBuf, 64 * sizeof(float));
      pipe.InitBuffer(alphaBuf, AIV_ROWS * sizeof(float));
      row0_ = GetSubBlockIdx() * AIV_ROWS;
      BuildMask();
    }
  }

  __aicore__ inline void Process() {
    const uint32_t pairs = t_.heads * t_.qTiles;
    for (uint32_t pair = block_; pair < pairs; pair += GetBlockNum()) {
      const uint32_t head = pair / t_.qTiles, qt = pair % t_.qTiles;
      if ASCEND_IS_AIC {
        CubePair(head, qt);
      }
      if ASCEND_IS_AIV {
        VectorPair(head, qt);
      }
    }
  }

 private:
  __aicore__ inline uint32_t KeyTiles(uint32_t qt) const { return t_.causal ? qt + 1 : t_.qTiles; }

  // ---- AIC ----
  // rows x cols of a row-major half matrix (row stride srcD) from GM into L1 as NZ, then to L0A as Zz.
  // One row runs as GEMV (devkit Mmad.md): A is read as contiguous elements.
  __aicore__ inline void LoadA(LocalTensor<half>& a2, const GlobalTensor<half>& src, uint32_t rows,
                               uint32_t cols, uint32_t srcD) {
    LocalTensor<half> a1 = qA1.AllocTensor<half>();
    DataCopy(a1, src, Nd2NzParams(1, rows, cols, 0, srcD, rows == 1 ? 1 : Align16(rows), 1, 0));
    qA1.EnQue(a1);
    a1 = qA1.DeQue<half>();
    const uint32_t mBlocks = CeilDiv(rows, 16), kBlocks = CeilDiv(cols, 16);
    if (rows == 1) {
      LoadData(a2, a1, LoadData2DParams(0, CeilDiv(cols, 256), 1, 0, 0, false, 0));
    } else {
      for (uint32_t i = 0; i < mBlocks; i++)
        LoadData(a2[i * kBlocks * 256], a1, LoadData2DParams(i, kBlocks, mBlocks, 0, 0, false, 0));
    }
    qA1.FreeTensor(a1);
  }

  __aicore__ inline void CubePair(uint32_t head, uint32_t qt) {
    const uint32_t d = t_.dim, q0 = qt * TILE, qLen = MinU(t_.seq - q0, TILE);
    const uint64_t headBase = static_cast<uint64_t>(head) * t_.seq * d;
    LocalTensor<half> q2 = qQ2.AllocTensor<half>();
    LoadA(q2, qGm[headBase + static_cast<uint64_t>(q0) * d], qLen, d, d);
    qQ2.EnQue(q2);
    q2 = qQ2.DeQue<half>();
    const uint32_t dBlocks = d / 16;
    for (uint32_t kt = 0; kt < KeyTiles(qt); kt++) {
      const uint32_t k0 = kt * TILE, kvLen = MinU(t_.seq - k0, TILE), kvBlocks = CeilDiv(kvLen, 16);
      const uint64_t kvOff = headBase + static_cast<uint64_t>(k0) * d;
      // S = Q Kᵀ: K [kvLen, D] as NZ holds fractal (key block j, d block i) at i * kvBlocks + j, row-major
      // inside, which is Kᵀ's Zn order, so one contiguous LoadData without transpose moves it to L0B.
      LocalTensor<half> b1 = qB1.AllocTensor<half>();
      DataCopy(b1, kGm[kvOff], Nd2NzParams(1, kvLen, d, 0, d, Align16(kvLen), 1, 0));
      qB1.EnQue(b1);
      b1 = qB1.DeQue<half>();
      LocalTensor<half> b2 = qB2.AllocTensor<half>();
      LoadData(b2, b1, LoadData2DParams(0, dBlocks * kvBlocks, 1, 0, 0, false, 0));
      qB1.FreeTensor(b1);
      qB2.EnQue(b2);
      b2 = qB2.DeQue<half>();
      LocalTensor<float> c1 = qC.AllocTensor<float>();
      Multiply(c1, q2, b2, qLen, kvLen, d);
      qB2.FreeTensor(b2);
      qC.EnQue(c1);
      c1 = qC.DeQue<float>();
      Fixpipe(wsS, c1, FixpipeParamsV220(kvLen, qLen, Align16(qLen), TILE, false));
      qC.FreeTensor(c1);
      CrossCoreSetFlag<2, PIPE_FIX>(FLAG_S);

      // O_part = P V once the AIVs wrote P (float16, row stride TILE; masked columns are 0).
      CrossCoreWaitFlag(FLAG_P);
      LocalTensor<half> p2 = qP2.AllocTensor<half>();
      LoadA(p2, wsP, qLen, kvLen, TILE);
      qP2.EnQue(p2);
      p2 = qP2.DeQue<half>();
      b1 = qB1.AllocTensor<half>();
      DataCopy(b1, vGm[kvOff], Nd2NzParams(1, kvLen, d, 0, d, Align16(kvLen), 1, 0));
      qB1.EnQue(b1);
      b1 = qB1.DeQue<half>();
      b2 = qB2.AllocTensor<half>();
      for (uint32_t i = 0; i < kvBlocks; i++)
        LoadData(b2[i * dBlocks * 256], b1, LoadData2DParams(i, dBlocks, kvBlocks, 0, 0, true, 0));
      qB1.FreeTensor(b1);
      qB2.EnQue(b2);
      b2 = qB2.DeQue<half>();
      c1 = qC.AllocTensor<float>();
      Multiply(c1, p2, b2, qLen, d, kvLen);
      qP2.FreeTensor(p2);
      qB2.FreeTensor(b2);
      qC.EnQue(c1);
      c1 = qC.DeQue<float>();
      Fixpipe(wsPV, c1, FixpipeParamsV220(d, qLen, Align16(qLen), d, false));
      qC.FreeTensor(c1);
      CrossCoreSetFlag<2, PIPE_FIX>(FLAG_PV);
    }
    qQ2.FreeTensor(q2);
  }

  __aicore__ inline void Multiply(LocalTensor<float>& c1, LocalTensor<half>& a2, LocalTensor<half>& b2,
                                  uint32_t m, uint32_t n, uint32_t k) {
    MmadParams p;
    p.m = m;
    p.n = n;
    p.k = k;
    p.cmatrixInitVal = true;
    Mmad(c1, a2, b2, p);
  }

  // ---- AIV ----
  // The additive mask of this AIV's rows: causal, key c > query row (the diagonal tile, where the key and
  // query tiles start at the same index); otherwise the last key tile's columns past S.
  __aicore__ inline void BuildMask() {
    LocalTensor<float> mask = maskBuf.Get<float>();
    Duplicate(mask, 0.0f, static_cast<int32_t>(AIV_ROWS * TILE));
    LocalTensor<float> acc = accBuf.Get<float>();
    Duplicate(acc, 0.0f, static_cast<int32_t>(AIV_ROWS * MAX_D));
    const uint32_t tail = t_.seq - (t_.qTiles - 1) * TILE;
    for (uint32_t r = 0; r < AIV_ROWS; r++) {
      const uint32_t firstMasked = t_.causal ? row0_ + r + 1 : tail;
      for (uint32_t c = firstMasked; c < TILE; c++) mask.SetValue(r * TILE + c, MASKED);
    }
  }

  __aicore__ inline void VectorPair(uint32_t head, uint32_t qt) {
    const uint32_t d = t_.dim, q0 = qt * TILE, qLen = MinU(t_.seq - q0, TILE);
    const uint32_t rows = qLen > row0_ ? MinU(qLen - row0_, AIV_ROWS) : 0;
    LocalTensor<float> acc = accBuf.Get<float>();
    LocalTensor<float> mask = maskBuf.Get<float>();
    LocalTensor<float> work = workBuf.Get<float>();
    LocalTensor<float> red = redBuf.Get<float>();
    LocalTensor<float> alpha = alphaBuf.Get<float>();
    float rowMax[AIV_ROWS];
    float rowSum[AIV_ROWS];
    for (uint32_t r = 0; r < AIV_ROWS; r++) {
      rowMax[r] = MASKED;
      rowSum[r] = 0.0f;
    }
    if (rows > 0) Duplicate(acc, 0.0f, static_cast<int32_t>(rows * d));
    for (uint32_t kt = 0; kt < KeyTiles(qt); kt++) {
      const uint32_t k0 = kt * TILE, kvLen = MinU(t_.seq - k0, TILE);
      const bool masked = t_.causal ? kt == qt : kvLen < TILE;
      CrossCoreWaitFlag(FLAG_S);
      if (rows > 0) {
        const int32_t n = static_cast<int32_t>(rows * TILE);
        LocalTensor<float> s = inS.AllocTensor<float>();
        // Only the kvLen columns the AIC wrote are read; the row stride in UB stays TILE.
        const uint32_t kvAligned = CeilDiv(kvLen, 8) * 8;
        DataCopyPad(s, wsS[row0_ * TILE],
                    DataCopyExtParams{static_cast<uint16_t>(rows), kvLen * 4, (TILE - kvLen) * 4,
                                      (TILE - kvAligned) / 8, 0},
                    DataCopyPadExtParams<float>{true, 0, static_cast<uint8_t>(kvAligned - kvLen), 0.0f});
        inS.EnQue(s);
        s = inS.DeQue<float>();
        if (kvAligned < TILE) {
          // Columns past kvAligned hold what this buffer had; masked below, but kept finite.
          for (uint32_t r = 0; r < rows; r++)
            Duplicate(s[r * TILE + kvAligned], 0.0f, static_cast<int32_t>(TILE - kvAligned));
        }
        Muls(s, s, t_.scale, n);
        if (masked) Add(s, s, mask, n);
        for (uint32_t r = 0; r < rows; r++) {
          ReduceMax(red, s[r * TILE], work, static_cast<int32_t>(TILE));
          const float tileMax = red.GetValue(0);
          const float newMax = tileMax > rowMax[r] ? tileMax : rowMax[r];
          alpha.SetValue(r, rowMax[r] - newMax);
          rowMax[r] = newMax;
          Adds(s[r * TILE], s[r * TILE], -newMax, static_cast<int32_t>(TILE));
        }
        Exp(s, s, n);
        Exp(alpha, alpha, static_cast<int32_t>(rows));
        for (uint32_t r = 0; r < rows; r++) {
          ReduceSum(red, s[r * TILE], work, static_cast<int32_t>(TILE));
          rowSum[r] = rowSum[r] * alpha.GetValue(r) + red.GetValue(0);
        }
        LocalTensor<half> p = outP.AllocTensor<half>();
        Cast(p, s, RoundMode::CAST_RINT, n);
        inS.FreeTensor(s);
        outP.EnQue(p);
        p = outP.DeQue<half>();
        DataCopy(wsP[row0_ * TILE], p, static_cast<uint32_t>(n));
        outP.FreeTensor(p);
      }
      CrossCoreSetFlag<2, PIPE_MTE3>(FLAG_P);
      CrossCoreWaitFlag(FLAG_PV);
      if (rows > 0) {
        LocalTensor<float> pv = inPV.AllocTensor<float>();
        DataCopy(pv, wsPV[row0_ * d], rows * d);
        inPV.EnQue(pv);
        pv = inPV.DeQue<float>();
        for (uint32_t r = 0; r < rows; r++)
          Muls(acc[r * d], acc[r * d], alpha.GetValue(r), static_cast<int32_t>(d));
        Add(acc, acc, pv, static_cast<int32_t>(rows * d));
        inPV.FreeTensor(pv);
      }
    }
    if (rows == 0) return;
    for (uint32_t r = 0; r < rows; r++)
      Muls(acc[r * d], acc[r * d], 1.0f / rowSum[r], static_cast<int32_t>(d));
    LocalTensor<half> out = outO.AllocTensor<half>();
    Cast(out, acc, RoundMode::CAST_RINT, static_cast<int32_t>(rows * d));
    outO.EnQue(out);
    out = outO.DeQue<half>();
    const uint64_t oOff = (static_cast<uint64_t>(head) * t_.seq + q0 + row0_) * d;
    DataCopy(oGm[oOff], out, rows * d);
    outO.FreeTensor(out);
  }

  TPipe pipe;
  TQue<TPosition::A1, 1> qA1;
  TQue<TPosition::B1, 1> qB1;
  TQue<TPosition::A2, 1> qQ2;
  TQue<TPosition::A2, 1> qP2;
  TQue<TPosition::B2, 1> qB2;
  TQue<TPosition::CO1, 1> qC;
  TQue<QuePosition::VECIN, 1> inS;
  TQue<QuePosition::VECIN, 1> inPV;
  TQue<QuePosition::VECOUT, 1> outP;
  TQue<QuePosition::VECOUT, 1> outO;
  TBuf<TPosition::VECCALC> accBuf, maskBuf, workBuf, redBuf, alphaBuf;
  GlobalTensor<half> qGm, kGm, vGm, oGm;
  GlobalTensor<float> wsS, wsPV;
  GlobalTensor<half> wsP;
  FlashAttentionFwdTilingData t_{};
  uint32_t block_ = 0, row0_ = 0;
};

extern "C" __global__ __aicore__ void flash_attention_fwd(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR o,
                                                          GM_ADDR workspace, GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  FlashAttentionFwdTilingData t = *reinterpret_cast<__gm__ FlashAttentionFwdTilingData*>(tiling);
  KernelFlashAttentionFwd op;
  op.Init(q, k, v, o, workspace, t);
  op.Process();
}
#endif  // KWB_COMPILE_KERNEL

#if KWB_COMPILE_TILING
// 1 / sqrt(x) by Newton's iteration (the tiling half uses no math library).
static float InvSqrt(float x) {
  float y = 1.0f / x;
  for (int i = 0; i < 40; i++) y = y * (1.5f - 0.5f * x * y * y);
  return y;
}

extern "C" int kwb_tiling(const KwbTilingInput* in, KwbTilingOutput* out) {
  const KwbTensorDesc& q = in->inputs[0];
  for (uint32_t i = 0; i < 3; i++) {
    const KwbTensorDesc& x = in->inputs[i];
    if (x.dimNum != 3 || x.dims[0] != q.dims[0] || x.dims[1] != q.dims[1] || x.dims[2] != q.dims[2])
      return KWB_TILING_FAILED;
  }
  FlashAttentionFwdTilingData t{};
  t.heads = static_cast<uint32_t>(q.dims[0]);
  t.seq = static_cast<uint32_t>(q.dims[1]);
  t.dim = static_cast<uint32_t>(q.dims[2]);
  if (t.dim == 0 || t.dim % 16 != 0 || t.dim > 128 || t.seq == 0 || t.heads == 0) return KWB_TILING_FAILED;
  t.causal = kwb_attr_int(in, "causal", 0) != 0 ? 1 : 0;
  t.qTiles = (t.seq + 127) / 128;
  t.scale = InvSqrt(static_cast<float>(t.dim));
  const uint32_t pairs = t.heads * t.qTiles;
  const uint32_t cores = in->coreNumAic ? in->coreNumAic : 1;
  const uint32_t blocks = pairs < cores ? pairs : cores;
  kwb_set_block_dim(out, blocks);
  // Per block: S [128 x 128] float, P [128 x 128] half, P V [128 x 128] float.
  kwb_set_workspace(out, static_cast<uint64_t>(blocks) * (128 * 128 * 4 + 128 * 128 * 2 + 128 * 128 * 4));
  return kwb_set_tiling(out, &t, sizeof t);
}
#endif  // KWB_COMPILE_TILING
