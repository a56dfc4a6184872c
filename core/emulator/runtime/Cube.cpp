// SPDX-License-Identifier: MIT
// The cube unit (docs/emulator.md, "Cube unit (issue 14)"): GM->L1 ND->NZ copies (MTE2), LoadData 2D
// L1->L0A/L0B (MTE1), Mmad into L0C (M) and Fixpipe L0C->GM (FIX). Every buffer holds its data in the
// device's fractal layout, so a kernel that feeds ND data where NZ is required computes the same wrong
// answer as on hardware:
//   L1 (after Nd2Nz)  NZ: column groups of C0 = 32 B / sizeof(T) elements; group g at g * dstNzC0Stride
//                     32-byte blocks, row r of it at r * dstNzNStride blocks.
//   L0A (A2)          Zz: 16 x C0 fractals (512 B), row-major over the (M/16) x (K/C0) grid, row-major
//                     inside.
//   L0B (B2)          Zn: C0 x 16 fractals, row-major over the (K/C0) x (N/16) grid, column-major inside.
//   L0C (CO1)         Nz: 16 x 16 fractals, column-major over the (M/16) x (N/16) grid, row-major inside.
// (devkit Mmad.md table 2, LoadData_2D.md, GMToL1 ND2NZ DataCopy.md, L0C->GM Fixpipe.md.)

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "BlockContext.h"
#include "CubeGemm.h"
#include "GmAtomic.h"
#include "kwb_sim/cube.h"

namespace kwb_sim {

namespace {

constexpr std::uint32_t kFractalBytes = 512;

std::uint32_t localOff(const LocalDesc& d) {
  return static_cast<std::uint32_t>(d.ptr - ubAlias(spaceBase(d.ref.space)));
}
std::uint32_t ceilDiv(std::uint32_t a, std::uint32_t b) {
  return (a + b - 1) / b;
}
std::string num(std::uint64_t v) {
  return std::to_string(v);
}

// A cube operand in the wrong memory: the hardware has no such path.
bool requireSpace(const char* api, const LocalDesc& d, MemSpace want, const char* position, SrcLoc loc,
                  Pipe pipe, int operand, const char* role) {
  if (d.ref.space == want) return true;
  report(Cat::InvalidParam, api, loc, pipe, operand,
         std::string(api) + ": " + role + " must be in " + spaceName(want) + " (TPosition::" + position +
             ") but this tensor lives in " + spaceName(d.ref.space) +
             "; allocate it from a TQue/TBuf of that position");
  return false;
}

bool requireAlign(const char* api, const LocalDesc& d, std::uint32_t align, SrcLoc loc, Pipe pipe,
                  int operand, const char* role) {
  const std::uint32_t off = localOff(d);
  if (off % align == 0) return true;
  report(Cat::MisalignedCopy, api, loc, pipe, operand,
         std::string(api) + ": " + role + " starts at " + spaceName(d.ref.space) + " byte offset " +
             num(off) + ", not " + num(align) + "-byte aligned (" + num(off % align) +
             " bytes past a boundary); " + spaceName(d.ref.space) + " operands of the cube must start on " +
             num(align) + "-byte boundaries");
  return false;
}

void noteGmSource(Instr& in, const GmDesc& g) {
  in.gmAddr = reinterpret_cast<std::uint64_t>(g.ptr);
  if (g.setAt.line != 0 && g.setAt.file) {
    in.gmSetFile = rt::intern(g.setAt.file);
    in.gmSetLine = g.setAt.line;
  }
}

// Which 64-byte rows of L0C some Mmad has written in this block (the "L0C read before its Mmad" check).
std::vector<std::uint8_t>& l0cRows() {
  static std::vector<std::uint8_t> v;
  return v;
}
std::vector<std::uint8_t>& l0cWritten() {
  std::vector<std::uint8_t>& v = l0cRows();
  if (v.size() != spaceSize(MemSpace::L0C) / 64) v.assign(spaceSize(MemSpace::L0C) / 64, 0);
  return v;
}

float toF32(DType dt, const std::uint8_t* p) {
  std::uint16_t h;
  float f;
  switch (dt) {
    case DType::F16:
      std::memcpy(&h, p, 2);
      return half::toFloat(h);
    case DType::BF16:
      std::memcpy(&h, p, 2);
      return bfloat16::toFloat(h);
    default:
      std::memcpy(&f, p, 4);
      return f;
  }
}

}  // namespace

// ------------------------------------------------------------------------------------ GM -> L1 (Nd2Nz)

void cubeNd2Nz(const LocalDesc& dst, const GmDesc& src, ElemDesc e, const AscendC::Nd2NzParams& p,
               SrcLoc loc) {
  const char* api = "DataCopy";
  const Pipe pipe = Pipe::MTE2;
  Instr* rec = nullptr;
  auto finish = [&](std::uint64_t moved) {
    rec = &record(api, loc, pipe);
    rec->dtype = rec->srcDtype = e.dtype;
    rec->dstSpace = dst.ref.space;
    rec->srcSpace = MemSpace::GM;
    rec->bytes = moved;
    rec->count = static_cast<std::uint32_t>(moved / e.size);
    rec->burstCount = static_cast<std::uint32_t>(p.ndNum) * p.nValue;
    rec->burstLen = static_cast<std::uint32_t>(p.dValue) * e.size;
    rec->gmStride = static_cast<std::uint64_t>(p.srcDValue) * e.size;
    noteGmSource(*rec, src);
  };
  if (!requireSpace(api, dst, MemSpace::L1, "A1/B1", loc, pipe, 0, "the Nd2Nz destination")) return finish(0);
  if (p.ndNum == 0 || p.nValue == 0 || p.dValue == 0) return finish(0);  // a NOP on the device
  const std::uint32_t c0 = 32 / e.size;
  bool ok = true;
  auto bad = [&](int operand, const std::string& msg) {
    report(Cat::InvalidParam, api, loc, pipe, operand, std::string(api) + " (Nd2NzParams): " + msg);
    ok = false;
  };
  if (p.nValue > 16384) bad(2, "nValue " + num(p.nValue) + " is outside [0, 16384]");
  if (p.srcDValue < p.dValue)
    bad(2, "srcDValue " + num(p.srcDValue) + " (elements per GM row) is smaller than dValue " +
               num(p.dValue) +
               ": consecutive rows overlap in GM; srcDValue is the row length of the whole GM matrix");
  if (p.dstNzNStride == 0) bad(2, "dstNzNStride is 0; it must be in [1, 16384] (1 = rows packed)");
  if (p.dstNzC0Stride == 0) bad(2, "dstNzC0Stride is 0; it must be in [1, 16384]");
  const std::uint32_t groups = ceilDiv(p.dValue, c0);
  if (ok && groups > 1 &&
      static_cast<std::uint32_t>(p.dstNzC0Stride) <
          static_cast<std::uint32_t>(p.nValue - 1) * p.dstNzNStride + 1)
    bad(2, "dstNzC0Stride " + num(p.dstNzC0Stride) + " blocks is smaller than the " + num(p.nValue) +
               " rows of one column group: the groups of " + num(c0) +
               " columns overwrite each other in L1. Use at least nValue rounded up to 16 (" +
               num(static_cast<std::uint64_t>(ceilDiv(p.nValue, 16)) * 16) + ")");
  if (!ok) return finish(0);
  if (localOff(dst) % 32 != 0) {
    requireAlign(api, dst, 32, loc, pipe, 0, "the L1 destination");
    return finish(0);
  }
  const std::uint64_t perMatrix = static_cast<std::uint64_t>(groups - 1) * p.dstNzC0Stride * 32 +
                                  static_cast<std::uint64_t>(p.nValue - 1) * p.dstNzNStride * 32 + 32;
  const std::uint64_t dstSpan =
      static_cast<std::uint64_t>(p.ndNum - 1) * p.dstNzMatrixStride * e.size + perMatrix;
  const std::uint64_t srcSpan = (static_cast<std::uint64_t>(p.ndNum - 1) * p.srcNdMatrixStride +
                                 static_cast<std::uint64_t>(p.nValue - 1) * p.srcDValue + p.dValue) *
                                e.size;
  if (!checkLocal(dst.ref, localOff(dst), dstSpan, api, loc, pipe, 0, true)) return finish(0);
  const std::uint64_t gmOk = checkGm(src.ptr, srcSpan, src.lo, src.hi, api, loc, pipe, 1, false);
  rt::syncBegin(pipe);
  rt::syncOperand(pipe, dst.ref.space, localOff(dst), static_cast<std::uint32_t>(dstSpan), true, api, loc, 0);

  const std::uint8_t* g = gmAlias(src.ptr);
  std::uint64_t moved = 0;
  for (std::uint32_t mat = 0; mat < p.ndNum; ++mat) {
    std::uint8_t* base = dst.ptr + static_cast<std::uint64_t>(mat) * p.dstNzMatrixStride * e.size;
    for (std::uint32_t r = 0; r < p.nValue; ++r) {
      const std::uint64_t rowOff = (static_cast<std::uint64_t>(mat) * p.srcNdMatrixStride +
                                    static_cast<std::uint64_t>(r) * p.srcDValue) *
                                   e.size;
      for (std::uint32_t grp = 0; grp < groups; ++grp) {
        std::uint8_t* d = base + static_cast<std::uint64_t>(grp) * p.dstNzC0Stride * 32 +
                          static_cast<std::uint64_t>(r) * p.dstNzNStride * 32;
        const std::uint32_t cols = std::min(c0, static_cast<std::uint32_t>(p.dValue) - grp * c0);
        std::uint64_t bytes = static_cast<std::uint64_t>(cols) * e.size;
        const std::uint64_t from = rowOff + static_cast<std::uint64_t>(grp) * c0 * e.size;
        if (from >= gmOk)
          bytes = 0;
        else if (from + bytes > gmOk)
          bytes = gmOk - from;
        std::memcpy(d, g + from, bytes);
        // A row shorter than C0 is padded with zeros to the 32-byte block (devkit: dValue not 32-byte
        // aligned is zero-filled in the destination).
        std::memset(d + bytes, 0, 32 - bytes);
        moved += bytes;
      }
    }
  }
  finish(moved);
  rec->dstOff = localOff(dst);
  rec->dstLen = static_cast<std::uint32_t>(dstSpan);
}

// --------------------------------------------------------------------------------- L1 -> L0A / L0B

void cubeLoad2D(const LocalDesc& dst, const LocalDesc& src, ElemDesc e, const AscendC::LoadData2DParams& p,
                SrcLoc loc) {
  const char* api = "LoadData";
  const Pipe pipe = Pipe::MTE1;
  auto finish = [&](std::uint64_t moved, std::uint64_t dstSpan, std::uint64_t srcSpan) {
    Instr& in = record(api, loc, pipe);
    in.dtype = in.srcDtype = e.dtype;
    in.dstSpace = dst.ref.space;
    in.srcSpace = src.ref.space;
    in.bytes = moved;
    in.count = static_cast<std::uint32_t>(moved / e.size);
    in.burstCount = p.repeatTimes;
    in.burstLen = kFractalBytes;
    if (dstSpan) {
      in.dstOff = localOff(dst);
      in.dstLen = static_cast<std::uint32_t>(dstSpan);
      in.src0Off = localOff(src);
      in.src0Len = static_cast<std::uint32_t>(srcSpan);
    }
  };
  if (dst.ref.space != MemSpace::L0A && dst.ref.space != MemSpace::L0B) {
    report(Cat::InvalidParam, api, loc, pipe, 0,
           std::string(api) +
               ": the destination must be in L0A (TPosition::A2) or L0B (TPosition::B2) but "
               "this tensor lives in " +
               spaceName(dst.ref.space));
    return finish(0, 0, 0);
  }
  if (!requireSpace(api, src, MemSpace::L1, "A1/B1", loc, pipe, 1, "the LoadData source"))
    return finish(0, 0, 0);
  if (p.repeatTimes == 0) return finish(0, 0, 0);
  if (p.ifTranspose && e.size != 2) {
    report(Cat::InvalidParam, api, loc, pipe, 2,
           std::string(api) +
               ": ifTranspose transposes 16 x 16 fractals of 16-bit elements only, but the "
               "tensors hold " +
               dtypeName(e.dtype));
    return finish(0, 0, 0);
  }
  if (!requireAlign(api, dst, kFractalBytes, loc, pipe, 0, "the destination") ||
      !requireAlign(api, src, 32, loc, pipe, 1, "the source"))
    return finish(0, 0, 0);
  const std::uint64_t srcSpan = (static_cast<std::uint64_t>(p.startIndex) +
                                 static_cast<std::uint64_t>(p.repeatTimes - 1) * p.srcStride + 1) *
                                kFractalBytes;
  const std::uint64_t dstSpan =
      (static_cast<std::uint64_t>(p.repeatTimes - 1) * (1u + p.dstGap) + 1) * kFractalBytes;
  if (!checkLocal(src.ref, localOff(src), srcSpan, api, loc, pipe, 1, false) ||
      !checkLocal(dst.ref, localOff(dst), dstSpan, api, loc, pipe, 0, true))
    return finish(0, 0, 0);
  rt::syncBegin(pipe);
  rt::syncOperand(pipe, src.ref.space, localOff(src), static_cast<std::uint32_t>(srcSpan), false, api, loc,
                  1);
  rt::syncOperand(pipe, dst.ref.space, localOff(dst), static_cast<std::uint32_t>(dstSpan), true, api, loc, 0);
  for (std::uint32_t i = 0; i < p.repeatTimes; ++i) {
    const std::uint8_t* s =
        src.ptr + (static_cast<std::uint64_t>(p.startIndex) + static_cast<std::uint64_t>(i) * p.srcStride) *
                      kFractalBytes;
    std::uint8_t* d = dst.ptr + static_cast<std::uint64_t>(i) * (1u + p.dstGap) * kFractalBytes;
    if (!p.ifTranspose) {
      std::memmove(d, s, kFractalBytes);
      continue;
    }
    std::uint16_t t[256];
    std::memcpy(t, s, kFractalBytes);
    std::uint16_t o[256];
    for (int r = 0; r < 16; ++r)
      for (int c = 0; c < 16; ++c) o[c * 16 + r] = t[r * 16 + c];
    std::memcpy(d, o, kFractalBytes);
  }
  finish(static_cast<std::uint64_t>(p.repeatTimes) * kFractalBytes, dstSpan, srcSpan);
}

// ------------------------------------------------------------------------------------------------ Mmad

void cubeMmad(const LocalDesc& c, ElemDesc ce, const LocalDesc& a, ElemDesc ae, const LocalDesc& b,
              const LocalDesc* bias, ElemDesc biasE, const AscendC::MmadParams& p, SrcLoc loc) {
  const char* api = "Mmad";
  const Pipe pipe = Pipe::M;
  const std::uint32_t m = p.m, n = p.n, k = p.k;
  const std::uint32_t k0 = 32 / ae.size;
  const std::uint32_t mB = ceilDiv(m, 16), nB = ceilDiv(n, 16), kB = ceilDiv(k, k0);
  const bool gemv = m == 1;  // devkit Mmad.md: with M = 1 the cube reads A from L0A as ND
  const std::uint64_t aSpan = gemv ? static_cast<std::uint64_t>(kB) * k0 * ae.size
                                   : static_cast<std::uint64_t>(mB) * kB * kFractalBytes;
  const std::uint64_t bSpan = static_cast<std::uint64_t>(kB) * nB * kFractalBytes;
  const std::uint64_t cSpan = static_cast<std::uint64_t>(mB) * nB * 256 * ce.size;
  const std::uint64_t biasSpan = bias ? (static_cast<std::uint64_t>(n) * biasE.size + 63) / 64 * 64 : 0;
  auto finish = [&](bool ran) {
    Instr& in = record(api, loc, pipe);
    in.dtype = ce.dtype;
    in.srcDtype = ae.dtype;
    in.dstSpace = MemSpace::L0C;
    in.srcSpace = MemSpace::L0A;
    if (!ran) return;
    // The cube works on whole fractals: the MACs it spends are those of the padded shape.
    const std::uint64_t macs = static_cast<std::uint64_t>(mB) * 16 * nB * 16 * kB * k0;
    in.count = static_cast<std::uint32_t>(std::min<std::uint64_t>(macs, 0xffffffffu));
    in.bytes = cSpan;
    in.dstOff = localOff(c);
    in.dstLen = static_cast<std::uint32_t>(cSpan);
    in.src0Off = localOff(a);
    in.src0Len = static_cast<std::uint32_t>(aSpan);
    in.src1Off = localOff(b);
    in.src1Len = static_cast<std::uint32_t>(bSpan);
  };
  bool ok = requireSpace(api, c, MemSpace::L0C, "CO1", loc, pipe, 0, "dst (the C matrix)");
  ok = requireSpace(api, a, MemSpace::L0A, "A2", loc, pipe, 1, "fm (the A matrix)") && ok;
  ok = requireSpace(api, b, MemSpace::L0B, "B2", loc, pipe, 2, "filter (the B matrix)") && ok;
  if (bias) ok = requireSpace(api, *bias, MemSpace::BT, "C2", loc, pipe, 3, "the bias") && ok;
  if (!ok) return finish(false);
  if (m > 4095 || n > 4095 || k > 4095) {
    report(Cat::InvalidParam, api, loc, pipe, bias ? 4 : 3,
           std::string(api) + ": m, n and k must each be in [0, 4095], got m " + num(m) + ", n " + num(n) +
               ", k " + num(k));
    return finish(false);
  }
  if (m == 0 || n == 0 || k == 0) return finish(false);  // a NOP on the device
  ok = requireAlign(api, a, kFractalBytes, loc, pipe, 1, "fm (L0A)");
  ok = requireAlign(api, b, kFractalBytes, loc, pipe, 2, "filter (L0B)") && ok;
  ok = requireAlign(api, c, 64, loc, pipe, 0, "dst (L0C)") && ok;
  if (bias) ok = requireAlign(api, *bias, 64, loc, pipe, 3, "the bias (BT)") && ok;
  if (!ok) return finish(false);
  if (!checkLocal(a.ref, localOff(a), aSpan, api, loc, pipe, 1, false) ||
      !checkLocal(b.ref, localOff(b), bSpan, api, loc, pipe, 2, false) ||
      !checkLocal(c.ref, localOff(c), cSpan, api, loc, pipe, 0, true) ||
      (bias && !checkLocal(bias->ref, localOff(*bias), biasSpan, api, loc, pipe, 3, false)))
    return finish(false);

  // Where C starts from: the bias row (bias overload, or cmatrixSource with the table's start), zero
  // (cmatrixInitVal), or what L0C holds (accumulation; also the deprecated isBias).
  enum class Init { Zero, Accumulate, Bias } init = Init::Zero;
  if (bias)
    init = Init::Bias;
  else if (p.isBias || !p.cmatrixInitVal)
    init = p.cmatrixSource && !p.isBias ? Init::Bias : Init::Accumulate;
  const std::uint8_t* biasPtr = bias ? bias->ptr : g_block.bt;
  rt::syncBegin(pipe);
  rt::syncOperand(pipe, MemSpace::L0A, localOff(a), static_cast<std::uint32_t>(aSpan), false, api, loc, 1);
  rt::syncOperand(pipe, MemSpace::L0B, localOff(b), static_cast<std::uint32_t>(bSpan), false, api, loc, 2);
  if (init == Init::Bias)
    rt::syncOperand(pipe, MemSpace::BT, bias ? localOff(*bias) : 0,
                    static_cast<std::uint32_t>(biasSpan ? biasSpan : 64), false, api, loc, bias ? 3 : 0);
  if (init == Init::Accumulate)
    rt::syncOperand(pipe, MemSpace::L0C, localOff(c), static_cast<std::uint32_t>(cSpan), false, api, loc, 0);
  rt::syncOperand(pipe, MemSpace::L0C, localOff(c), static_cast<std::uint32_t>(cSpan), true, api, loc, 0);

  // Unpack the fractals into dense row-major matrices, multiply, pack C back (Nz).
  auto cIndex = [&](std::uint32_t i, std::uint32_t j) {
    return ((static_cast<std::uint64_t>(j / 16) * mB + i / 16) * 16 + i % 16) * 16 + j % 16;
  };
  auto aIndex = [&](std::uint32_t i, std::uint32_t kk) {
    if (gemv) return static_cast<std::uint64_t>(kk);
    return ((static_cast<std::uint64_t>(i / 16) * kB + kk / k0) * 16 + i % 16) * k0 + kk % k0;
  };
  auto bIndex = [&](std::uint32_t kk, std::uint32_t j) {
    return ((static_cast<std::uint64_t>(kk / k0) * nB + j / 16) * 16 + j % 16) * k0 + kk % k0;
  };
  const bool integer = ae.dtype == DType::I8;
  const std::size_t mn = static_cast<std::size_t>(m) * n;
  if (integer) {
    std::vector<std::int32_t> A(static_cast<std::size_t>(m) * k), B(static_cast<std::size_t>(k) * n),
        C(mn, 0);
    // int8 bytes read unsigned and sign-extended by hand (two's complement).
    auto s8 = [](std::uint8_t u) { return static_cast<std::int32_t>(u) - (u >= 128 ? 256 : 0); };
    for (std::uint32_t i = 0; i < m; ++i)
      for (std::uint32_t kk = 0; kk < k; ++kk)
        A[static_cast<std::size_t>(i) * k + kk] = s8(a.ptr[aIndex(i, kk)]);
    for (std::uint32_t kk = 0; kk < k; ++kk)
      for (std::uint32_t j = 0; j < n; ++j)
        B[static_cast<std::size_t>(kk) * n + j] = s8(b.ptr[bIndex(kk, j)]);
    auto* cp = reinterpret_cast<std::int32_t*>(c.ptr);
    for (std::uint32_t i = 0; i < m; ++i)
      for (std::uint32_t j = 0; j < n; ++j) {
        std::int32_t v = 0;
        if (init == Init::Accumulate) v = cp[cIndex(i, j)];
        if (init == Init::Bias) std::memcpy(&v, biasPtr + static_cast<std::size_t>(j) * 4, 4);
        C[static_cast<std::size_t>(i) * n + j] = v;
      }
    rt::gemmAccumulateI32(A.data(), B.data(), C.data(), static_cast<int>(m), static_cast<int>(n),
                          static_cast<int>(k));
    for (std::uint32_t i = 0; i < m; ++i)
      for (std::uint32_t j = 0; j < n; ++j) cp[cIndex(i, j)] = C[static_cast<std::size_t>(i) * n + j];
  } else {
    // half / bfloat16 widen to float exactly; the products are summed in fp32 as in L0C.
    std::vector<float> A(static_cast<std::size_t>(m) * k), B(static_cast<std::size_t>(k) * n), C(mn, 0.0f);
    for (std::uint32_t i = 0; i < m; ++i)
      for (std::uint32_t kk = 0; kk < k; ++kk)
        A[static_cast<std::size_t>(i) * k + kk] = toF32(ae.dtype, a.ptr + aIndex(i, kk) * ae.size);
    for (std::uint32_t kk = 0; kk < k; ++kk)
      for (std::uint32_t j = 0; j < n; ++j)
        B[static_cast<std::size_t>(kk) * n + j] = toF32(ae.dtype, b.ptr + bIndex(kk, j) * ae.size);
    auto* cp = reinterpret_cast<float*>(c.ptr);
    for (std::uint32_t i = 0; i < m; ++i)
      for (std::uint32_t j = 0; j < n; ++j) {
        float v = 0.0f;
        if (init == Init::Accumulate) v = cp[cIndex(i, j)];
        if (init == Init::Bias) std::memcpy(&v, biasPtr + static_cast<std::size_t>(j) * 4, 4);
        C[static_cast<std::size_t>(i) * n + j] = v;
      }
    rt::gemmAccumulateF32(A.data(), B.data(), C.data(), static_cast<int>(m), static_cast<int>(n),
                          static_cast<int>(k));
    for (std::uint32_t i = 0; i < m; ++i)
      for (std::uint32_t j = 0; j < n; ++j) cp[cIndex(i, j)] = C[static_cast<std::size_t>(i) * n + j];
  }
  // Rows of 16 C elements written: what Fixpipe may read.
  std::vector<std::uint8_t>& written = l0cWritten();
  const std::uint32_t rowBytes = 16 * ce.size;
  for (std::uint64_t r = 0; r < static_cast<std::uint64_t>(mB) * nB * 16; ++r) {
    const std::uint64_t byte = localOff(c) + r * rowBytes;
    for (std::uint64_t g = byte / 64; g < (byte + rowBytes) / 64 && g < written.size(); ++g) written[g] = 1;
  }
  finish(true);
}

// ----------------------------------------------------------------------------------- L0C -> GM (Fixpipe)

void cubeFixpipe(const GmDesc& dst, ElemDesc de, const LocalDesc& src, ElemDesc se,
                 const AscendC::FixpipeParamsV220& p, bool nz2nd, SrcLoc loc) {
  const char* api = "Fixpipe";
  const Pipe pipe = Pipe::FIX;
  const std::uint32_t mS = p.mSize, nS = p.nSize, nd = p.ndNum;
  Instr* rec = nullptr;
  auto finish = [&](std::uint64_t moved) {
    rec = &record(api, loc, pipe);
    rec->dtype = de.dtype;
    rec->srcDtype = se.dtype;
    rec->dstSpace = MemSpace::GM;
    rec->srcSpace = src.ref.space;
    rec->bytes = moved;
    rec->count = static_cast<std::uint32_t>(moved / de.size);
    rec->burstCount = mS * std::max<std::uint32_t>(nd, 1);
    rec->burstLen = nS * de.size;
    rec->gmStride = nz2nd ? static_cast<std::uint64_t>(p.dstStride) * de.size : 32;
    rec->atomic = g_block.atomicOp;
    noteGmSource(*rec, dst);
  };
  if (!requireSpace(api, src, MemSpace::L0C, "CO1", loc, pipe, 1, "the source")) return finish(0);
  if (mS == 0 || nS == 0 || nd == 0) return finish(0);  // a NOP on the device
  bool ok = true;
  auto bad = [&](const std::string& msg) {
    report(Cat::InvalidParam, api, loc, pipe, 2, std::string(api) + " (FixpipeParamsV220): " + msg);
    ok = false;
  };
  const std::uint32_t mAligned = ceilDiv(mS, 16) * 16;
  if (ceilDiv(nS, 16) > 1 && p.srcStride < mAligned)
    bad("srcStride " + num(p.srcStride) + " is smaller than mSize " + num(mS) + " rounded up to 16 (" +
        num(mAligned) +
        "): in L0C each column group of 16 holds that many rows, so the groups would be read "
        "from the middle of the previous one. srcStride is the tile's M rounded up to 16");
  if (nz2nd && p.dstStride < nS)
    bad("dstStride " + num(p.dstStride) + " (elements per GM row with NZ2ND) is smaller than nSize " +
        num(nS) + ": the output rows overlap; dstStride is the row length of the GM matrix");
  const bool toHalf = de.dtype == DType::F16, toBf16 = de.dtype == DType::BF16;
  const bool floatSrc = se.dtype == DType::F32;
  const AscendC::QuantMode_t want = toHalf ? AscendC::F322F16 : toBf16 ? AscendC::F322BF16 : AscendC::NoQuant;
  if (p.quantPre != want || (de.dtype == DType::I32 && floatSrc) || (de.dtype == DType::F32 && !floatSrc))
    bad(std::string("writing ") + dtypeName(de.dtype) + " from " + dtypeName(se.dtype) +
        " L0C data needs quantPre " +
        (toHalf   ? "QuantMode_t::F322F16"
         : toBf16 ? "QuantMode_t::F322BF16"
                  : "QuantMode_t::NoQuant") +
        ", but it is " + num(static_cast<unsigned>(p.quantPre)) +
        "; Fixpipe does not infer the conversion, so on the device the output bits are wrong");
  if (nd > 1 && p.srcNdStride == 0) bad("ndNum > 1 needs srcNdStride >= 1");
  if (!ok) return finish(0);
  if (!requireAlign(api, src, 64, loc, pipe, 1, "the L0C source")) return finish(0);

  const std::uint64_t groups = ceilDiv(nS, 16);
  const std::uint64_t srcSpan =
      (static_cast<std::uint64_t>(nd - 1) * p.srcNdStride * 256 + ((groups - 1) * p.srcStride + mS) * 16) *
      se.size;
  const std::uint64_t dstSpan =
      nz2nd ? (static_cast<std::uint64_t>(nd - 1) * p.dstNdStride +
               static_cast<std::uint64_t>(mS - 1) * p.dstStride + nS) *
                  de.size
            : (groups - 1) * p.dstStride * 32 + static_cast<std::uint64_t>(mS) * 16 * de.size;
  if (!checkLocal(src.ref, localOff(src), srcSpan, api, loc, pipe, 1, false)) return finish(0);
  const std::uint64_t gmOk = checkGm(dst.ptr, dstSpan, dst.lo, dst.hi, api, loc, pipe, 0, true);

  // Rows of L0C that no Mmad of this block has written hold stale data: the tile offset or the sizes
  // are wrong (a missing wait for the Mmad is the sync checker's missing-sync).
  {
    const std::vector<std::uint8_t>& written = l0cWritten();
    const std::uint64_t rowBytes = std::uint64_t{16} * se.size;
    for (std::uint32_t t = 0; t < nd && ok; ++t)
      for (std::uint64_t grp = 0; grp < groups && ok; ++grp)
        for (std::uint32_t i = 0; i < mS && ok; ++i) {
          const std::uint64_t byte =
              localOff(src) +
              (t * static_cast<std::uint64_t>(p.srcNdStride) * 256 + (grp * p.srcStride + i) * 16) * se.size;
          const std::uint64_t gi = byte / 64;
          if (gi < written.size() && written[gi] == 0 && byte + rowBytes <= spaceSize(MemSpace::L0C)) {
            report(
                Cat::InvalidParam, api, loc, pipe, 1,
                std::string(api) + " reads L0C row " + num(i) + " of column group " + num(grp) +
                    " (L0C byte " + num(byte) +
                    ") that no Mmad in this block has written: the data is stale. Check the "
                    "L0C tile offset, mSize/nSize/srcStride against the Mmad's m/n, and that the Mmad runs "
                    "before this Fixpipe");
            ok = false;
          }
        }
  }

  rt::syncBegin(pipe);
  rt::syncOperand(pipe, MemSpace::L0C, localOff(src), static_cast<std::uint32_t>(srcSpan), false, api, loc,
                  1);
  std::uint8_t* g = gmAlias(dst.ptr);
  const bool atomic = g_block.atomicOp != AtomicOp::None;
  std::uint64_t moved = 0;
  for (std::uint32_t t = 0; t < nd; ++t)
    for (std::uint32_t i = 0; i < mS; ++i)
      for (std::uint32_t j = 0; j < nS; ++j) {
        const std::uint64_t sIdx = t * static_cast<std::uint64_t>(p.srcNdStride) * 256 +
                                   (static_cast<std::uint64_t>(j / 16) * p.srcStride + i) * 16 + j % 16;
        const std::uint64_t dOff = nz2nd ? (t * static_cast<std::uint64_t>(p.dstNdStride) +
                                            static_cast<std::uint64_t>(i) * p.dstStride + j) *
                                               de.size
                                         : static_cast<std::uint64_t>(j / 16) * p.dstStride * 32 +
                                               (static_cast<std::uint64_t>(i) * 16 + j % 16) * de.size;
        if (dOff + de.size > gmOk) continue;
        const std::uint8_t* s = src.ptr + sIdx * se.size;
        std::uint8_t out[4];
        if (floatSrc) {
          float v;
          std::memcpy(&v, s, 4);
          if (p.reluEn && v < 0.0f) v = 0.0f;
          if (toHalf) {
            const std::uint16_t h = half::fromFloat(v);  // CAST_RINT: round to nearest, ties to even
            std::memcpy(out, &h, 2);
          } else if (toBf16) {
            const std::uint16_t h = bfloat16::fromFloat(v);
            std::memcpy(out, &h, 2);
          } else {
            std::memcpy(out, &v, 4);
          }
        } else {
          std::int32_t v;
          std::memcpy(&v, s, 4);
          if (p.reluEn && v < 0) v = 0;
          std::memcpy(out, &v, 4);
        }
        // Under SetAtomicAdd/Max/Min the FIX pipe accumulates into GM like a UB->GM copy (split-K
        // partial products summed by several cores).
        if (atomic)
          rt::gmAccumulate(g + dOff, out, de.size);
        else
          std::memcpy(g + dOff, out, de.size);
        moved += de.size;
      }
  finish(moved);
}

namespace rt {
void cubeResetBlock() {
  l0cRows().clear();  // as in a fresh process: sized and zeroed at the block's first cube call
}
}  // namespace rt

}  // namespace kwb_sim
