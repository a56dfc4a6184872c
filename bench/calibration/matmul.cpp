// SPDX-License-Identifier: MIT
// Calibration program: the published cube kernel `matmul_kernel` (calibration-data section 2, notes): one
// block on one AIC computes CAL_MATRICES products C[256,32] (float) = A[256,256] (half) x B[256,32] (half),
// one after another, each read from GM and written back. The published run launches one block per
// matrix (12 launches per round at B = 1); its aic_mac_ratio 0.153 of about 2 us on the core is one
// matrix's 2.1 M MACs at 4096 a cycle, so the point is CAL_MATRICES = 1 (docs/calibration.md, "Cube").
// Written with the basic cube API (the emulator has no high-level Matmul object), pipelined over K as the
// library's Matmul does: per matrix, both K halves of A ([256,128]) and B ([128,32]) go to L1 with ND->NZ
// into two-deep queues, so the second half's copy overlaps the first half's LoadData (A to L0A, 64 KB,
// all of it; B to L0B transposed) and Mmad (256x32x128, accumulating in L0C); then Fixpipe NZ -> ND.
// One source for the emulator and the device (docs/calibration.md, "kwb calibrate"): CAL_HOST_SHAPES keeps
// only the launch constants, CAL_KERNEL_ONLY drops the CPU-mode main.
#ifdef CAL_HOST_SHAPES
#include <cstdint>
#else
#include "kernel_operator.h"
#endif

#ifndef CAL_MATRICES
#define CAL_MATRICES 1
#endif
constexpr uint32_t kM = 256, kN = 32, kK = 256;
constexpr uint32_t kHalfK = kK / 2;  // one L0A load: 256 x 128 halves = 64 KB
constexpr uint32_t kMatrices = CAL_MATRICES;

constexpr uint32_t kCalLaunchBlocks = 1;
constexpr int kCalLaunchBuffers = 3;                                     // a, b, c
constexpr uint64_t kCalBufferBytes = uint64_t{kMatrices} * kM * kK * 2;  // the largest (a)

#ifndef CAL_HOST_SHAPES
class MatmulKernel {
 public:
  __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c) {
    a_ = (__gm__ half*)a;
    b_ = (__gm__ half*)b;
    c_ = (__gm__ float*)c;
    pipe_.InitBuffer(a1_, 2, kM * kHalfK * sizeof(half));
    pipe_.InitBuffer(b1_, 2, kHalfK * kN * sizeof(half));
    pipe_.InitBuffer(a2_, 1, kM * kHalfK * sizeof(half));
    pipe_.InitBuffer(b2_, 1, kHalfK * kN * sizeof(half));
    pipe_.InitBuffer(c1_, 1, kM * kN * sizeof(float));
  }

  __aicore__ inline void Process() {
    for (uint32_t m = 0; m < kMatrices; ++m) {
      for (uint32_t k0 = 0; k0 < kK; k0 += kHalfK) CopyIn(m, k0);
      AscendC::LocalTensor<float> c1 = c1_.AllocTensor<float>();
      for (uint32_t k0 = 0; k0 < kK; k0 += kHalfK) {
        AscendC::LocalTensor<half> a1 = a1_.DeQue<half>();
        AscendC::LocalTensor<half> b1 = b1_.DeQue<half>();
        SplitA(a1);
        SplitB(b1);
        a1_.FreeTensor(a1);
        b1_.FreeTensor(b1);
        Multiply(c1, k0 == 0);
      }
      c1_.EnQue(c1);
      CopyOut(m);
    }
  }

 private:
  // Columns k0 .. k0 + 127 of A and rows k0 .. k0 + 127 of B, into NZ.
  __aicore__ inline void CopyIn(uint32_t m, uint32_t k0) {
    AscendC::LocalTensor<half> a1 = a1_.AllocTensor<half>();
    AscendC::LocalTensor<half> b1 = b1_.AllocTensor<half>();
    aGm_.SetGlobalBuffer(a_ + uint64_t{m} * kM * kK + k0, kM * kK - k0);
    bGm_.SetGlobalBuffer(b_ + uint64_t{m} * kK * kN + uint64_t{k0} * kN, kHalfK * kN);
    AscendC::DataCopy(a1, aGm_, AscendC::Nd2NzParams(1, kM, kHalfK, 0, kK, kM, 1, 0));
    AscendC::DataCopy(b1, bGm_, AscendC::Nd2NzParams(1, kHalfK, kN, 0, kN, kHalfK, 1, 0));
    a1_.EnQue(a1);
    b1_.EnQue(b1);
  }

  // The half of A in L1 (8 NZ column groups of 256 rows) into L0A, fractal row by fractal row.
  __aicore__ inline void SplitA(const AscendC::LocalTensor<half>& a1) {
    constexpr uint32_t mFractals = kM / 16, kFractals = kHalfK / 16;
    AscendC::LocalTensor<half> a2 = a2_.AllocTensor<half>();
    for (uint32_t i = 0; i < mFractals; ++i)
      AscendC::LoadData(
          a2[i * kFractals * 256], a1,
          AscendC::LoadData2DParams(static_cast<uint16_t>(i), kFractals, mFractals, 0, 0, false, 0));
    a2_.EnQue(a2);
  }

  // The half of B in L1 (2 NZ column groups of 128 rows) into L0B, transposed fractals.
  __aicore__ inline void SplitB(const AscendC::LocalTensor<half>& b1) {
    constexpr uint32_t nFractals = kN / 16, kFractals = kHalfK / 16;
    AscendC::LocalTensor<half> b2 = b2_.AllocTensor<half>();
    for (uint32_t i = 0; i < kFractals; ++i)
      AscendC::LoadData(
          b2[i * nFractals * 256], b1,
          AscendC::LoadData2DParams(static_cast<uint16_t>(i), nFractals, kFractals, 0, 0, true, 0));
    b2_.EnQue(b2);
  }

  __aicore__ inline void Multiply(AscendC::LocalTensor<float>& c1, bool first) {
    AscendC::LocalTensor<half> a2 = a2_.DeQue<half>();
    AscendC::LocalTensor<half> b2 = b2_.DeQue<half>();
    AscendC::MmadParams params;
    params.m = kM;
    params.n = kN;
    params.k = kHalfK;
    params.cmatrixInitVal = first;
    AscendC::Mmad(c1, a2, b2, params);
    a2_.FreeTensor(a2);
    b2_.FreeTensor(b2);
  }

  __aicore__ inline void CopyOut(uint32_t m) {
    AscendC::LocalTensor<float> c1 = c1_.DeQue<float>();
    cGm_.SetGlobalBuffer(c_ + uint64_t{m} * kM * kN, kM * kN);
    AscendC::FixpipeParamsV220 params(kN, kM, kM, kN, false);
    AscendC::Fixpipe(cGm_, c1, params);
    c1_.FreeTensor(c1);
  }

  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::A1, 2> a1_;
  AscendC::TQue<AscendC::TPosition::B1, 2> b1_;
  AscendC::TQue<AscendC::TPosition::A2, 1> a2_;
  AscendC::TQue<AscendC::TPosition::B2, 1> b2_;
  AscendC::TQue<AscendC::TPosition::CO1, 1> c1_;
  AscendC::GlobalTensor<half> aGm_, bGm_;
  AscendC::GlobalTensor<float> cGm_;
  __gm__ half* a_ = nullptr;
  __gm__ half* b_ = nullptr;
  __gm__ float* c_ = nullptr;
};

extern "C" __global__ __cube__ void calibration_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR c) {
  MatmulKernel op;
  op.Init(a, b, c);
  op.Process();
}

#endif  // CAL_HOST_SHAPES

#if !defined(CAL_HOST_SHAPES) && !defined(CAL_KERNEL_ONLY)
#include <cmath>
#include <cstdio>
#include "tikicpulib.h"
int main() {
  const uint64_t aCount = uint64_t{kMatrices} * kM * kK, bCount = uint64_t{kMatrices} * kK * kN;
  const uint64_t cCount = uint64_t{kMatrices} * kM * kN;
  auto* a = static_cast<uint8_t*>(AscendC::GmAlloc(aCount * sizeof(half)));
  auto* b = static_cast<uint8_t*>(AscendC::GmAlloc(bCount * sizeof(half)));
  auto* c = static_cast<uint8_t*>(AscendC::GmAlloc(cCount * sizeof(float)));
  auto* ah = reinterpret_cast<half*>(a);
  auto* bh = reinterpret_cast<half*>(b);
  for (uint64_t i = 0; i < aCount; ++i) ah[i] = half(static_cast<float>(i % 7) * 0.125f - 0.375f);
  for (uint64_t i = 0; i < bCount; ++i) bh[i] = half(static_cast<float>(i % 5) * 0.25f - 0.5f);
  AscendC::SetKernelMode(KernelMode::AIC_MODE);
  ICPU_RUN_KF(calibration_matmul, kCalLaunchBlocks, a, b, c);
  // The program measures time, but a wrong product would mean it does not do the published work.
  const auto* cf = reinterpret_cast<const float*>(c);
  int bad = 0;
  for (uint32_t m = 0; m < kMatrices && bad < 5; ++m)
    for (uint32_t i = 0; i < kM; i += 37)
      for (uint32_t j = 0; j < kN; j += 7) {
        double ref = 0;
        for (uint32_t k = 0; k < kK; ++k)
          ref += static_cast<double>(static_cast<float>(ah[uint64_t{m} * kM * kK + i * kK + k])) *
                 static_cast<double>(static_cast<float>(bh[uint64_t{m} * kK * kN + k * kN + j]));
        if (std::fabs(ref - cf[uint64_t{m} * kM * kN + i * kN + j]) > 1e-2 && bad++ < 5)
          std::printf("mismatch matrix %u at (%u,%u): %f vs %f\n", m, i, j,
                      cf[uint64_t{m} * kM * kN + i * kN + j], ref);
      }
  AscendC::GmFree(a);
  AscendC::GmFree(b);
  AscendC::GmFree(c);
  std::printf("calibration_matmul matrices=%u %s\n", kMatrices, bad ? "WRONG" : "ok");
  return bad ? 1 : 0;
}
#endif
