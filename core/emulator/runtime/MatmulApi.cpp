// SPDX-License-Identifier: MIT
// The Matmul high-level API (docs/emulator.md, "Matmul API"). A Matmul object computes the block's
// single-core tile C[singleM x singleN] = A[singleM x singleK] * B[singleK x singleN] (+ bias row) from
// ND GM operands with the cube's numerics: the products summed in fp32 (int32 for int8) as in L0C, the
// bias added there, one rounding to C's type when the result leaves (Fixpipe, round to nearest even).
// The products come from Eigen (CubeGemm.h); the order of the fp32 sum differs from the device's
// baseK-step order. The cost is the device's base-tile loop: per base tile of C, GM->L1 copies of A and
// B (MTE2, stepKa / stepKb K-tiles at a time), L1->L0A/L0B loads (MTE1), one Mmad per K-tile (M) and
// the Fixpipe out (FIX), on ping-pong halves of L1/L0 so that tiles overlap as double buffering allows.

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "BlockContext.h"
#include "CubeGemm.h"
#include "kwb_sim/matmul_api.h"

namespace kwb_sim {

void matmulAicServes(SrcLoc loc) {
  record("REGIST_MATMUL_OBJ", loc, Pipe::S);
  rt::endBlock(0, true);
}

namespace {

std::string num(std::int64_t v) {
  return std::to_string(v);
}
std::int64_t ceilDiv(std::int64_t a, std::int64_t b) {
  return b > 0 ? (a + b - 1) / b : 0;
}
std::int64_t alignUp(std::int64_t a, std::int64_t b) {
  return ceilDiv(a, b) * b;
}

void misuse(const char* api, SrcLoc loc, const std::string& msg) {
  report(Cat::InvalidParam, api, loc, Pipe::S, kOperandThis, msg);
}

// Iterate / IterateAll need an initialised object with A and B set, before End.
bool ready(const MatmulRun& s, const char* api, SrcLoc loc) {
  if (s.ended) {
    misuse(api, loc,
           "called after End(): End releases the Matmul object's buffers; call End once, after the last "
           "Iterate/GetTensorC or IterateAll");
    return false;
  }
  if (!s.inited) {
    if (s.initFailed) return false;  // Init reported why at its line; one error, not one per call
    misuse(api, loc,
           "the Matmul object has no tiling: pass the TCubeTiling to REGIST_MATMUL_OBJ or call Init(&tiling) "
           "first");
    return false;
  }
  if (!s.aSet || !s.bSet) {
    misuse(api, loc,
           std::string("called before ") +
               (!s.aSet && !s.bSet ? "SetTensorA and SetTensorB"
                : !s.aSet          ? "SetTensorA"
                                   : "SetTensorB") +
               ": the left (A) and right (B) matrices must be set before the product is computed");
    return false;
  }
  return true;
}

float toFloat(DType dt, const std::uint8_t* p) {
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

std::int32_t toInt(DType dt, const std::uint8_t* p) {
  if (dt == DType::I8) return static_cast<std::int32_t>(static_cast<std::int8_t>(*p));
  std::int32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

// Stores one accumulator value as C's type at `d`; with enAtomic (1: add) onto what is there.
void storeC(DType dt, std::uint8_t* d, double acc, bool atomicAdd) {
  switch (dt) {
    case DType::F32: {
      float v = static_cast<float>(acc);
      if (atomicAdd) v += toFloat(dt, d);
      std::memcpy(d, &v, 4);
      break;
    }
    case DType::F16:
    case DType::BF16: {
      float v = static_cast<float>(acc);
      std::uint16_t h = dt == DType::F16 ? half::fromFloat(v) : bfloat16::fromFloat(v);
      if (atomicAdd) {
        const float sum = toFloat(dt, d) + (dt == DType::F16 ? half::toFloat(h) : bfloat16::toFloat(h));
        h = dt == DType::F16 ? half::fromFloat(sum) : bfloat16::fromFloat(sum);
      }
      std::memcpy(d, &h, 2);
      break;
    }
    default: {
      std::int32_t v = static_cast<std::int32_t>(acc);
      if (atomicAdd) v = static_cast<std::int32_t>(static_cast<std::uint32_t>(v) + toInt(dt, d));
      std::memcpy(d, &v, 4);
      break;
    }
  }
}

std::int64_t ldA(const MatmulRun& s) {
  return s.transA ? s.orgM : s.orgKa;
}
std::int64_t ldB(const MatmulRun& s) {
  return s.transB ? s.orgKb : s.orgN;
}
std::int64_t ldC(const MatmulRun& s) {
  return s.orgKc > 0 ? s.orgKc : s.orgN;
}
std::int64_t tilesM(const MatmulRun& s) {
  return ceilDiv(s.singleM, s.t.baseM);
}
std::int64_t tilesN(const MatmulRun& s) {
  return ceilDiv(s.singleN, s.t.baseN);
}

struct TileBox {
  std::int64_t m0, n0, mLen, nLen;
};
TileBox tileBox(const MatmulRun& s, std::int64_t index) {
  const std::int64_t tm = tilesM(s), tn = tilesN(s);
  if (tm <= 0 || tn <= 0) return TileBox{0, 0, 0, 0};  // an empty single-core shape has no tiles
  // iterateOrder 0 (ORDER_M): along M first; 1 (ORDER_N): along N first.
  const std::int64_t mi = s.t.iterateOrder == 1 ? index / tn : index % tm;
  const std::int64_t ni = s.t.iterateOrder == 1 ? index % tn : index / tm;
  TileBox b{mi * s.t.baseM, ni * s.t.baseN, 0, 0};
  b.mLen = std::min<std::int64_t>(s.t.baseM, s.singleM - b.m0);
  b.nLen = std::min<std::int64_t>(s.t.baseN, s.singleN - b.n0);
  return b;
}

// Bytes of `g` a read of [rows x cols] elements with leading dimension `ld` may touch (the GM checker
// reports what lies past the tensor).
std::uint64_t checkedSpan(const GmDesc& g, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                          std::uint32_t size, const char* api, SrcLoc loc, Pipe pipe, bool write) {
  if (rows <= 0 || cols <= 0) return 0;
  const std::uint64_t span = (static_cast<std::uint64_t>(rows - 1) * ld + cols) * size;
  return checkGm(g.ptr, span, g.lo, g.hi, api, loc, pipe, write ? 0 : kOperandThis, write);
}

// C[box] (+)= bias + A[box rows, :] * B[:, box cols], in the accumulator's type, into `out` (row-major).
void computeBox(const MatmulRun& s, const TileBox& box, const char* api, SrcLoc loc,
                std::vector<double>& out) {
  const std::int64_t m = box.mLen, n = box.nLen, k = s.singleK;
  out.assign(static_cast<std::size_t>(m * n), 0.0);
  if (m <= 0 || n <= 0 || k <= 0) return;
  const std::int64_t la = ldA(s), lb = ldB(s);
  // The whole single-core operands are checked once per call, against what the GlobalTensors allow.
  const std::uint64_t aOk = s.transA
                                ? checkedSpan(s.aGm, k, s.singleM, la, s.a.size, api, loc, Pipe::MTE2, false)
                                : checkedSpan(s.aGm, s.singleM, k, la, s.a.size, api, loc, Pipe::MTE2, false);
  const std::uint64_t bOk = s.transB
                                ? checkedSpan(s.bGm, s.singleN, k, lb, s.b.size, api, loc, Pipe::MTE2, false)
                                : checkedSpan(s.bGm, k, s.singleN, lb, s.b.size, api, loc, Pipe::MTE2, false);
  const std::uint8_t* ag = gmAlias(s.aGm.ptr);
  const std::uint8_t* bg = gmAlias(s.bGm.ptr);
  auto aOff = [&](std::int64_t i, std::int64_t kk) {
    return static_cast<std::uint64_t>(s.transA ? kk * la + i : i * la + kk) * s.a.size;
  };
  auto bOff = [&](std::int64_t kk, std::int64_t j) {
    return static_cast<std::uint64_t>(s.transB ? j * lb + kk : kk * lb + j) * s.b.size;
  };
  const bool integer = s.a.dtype == DType::I8;
  std::uint64_t biasOk = 0;
  if (s.biasSet)
    biasOk = checkedSpan(s.biasGm, 1, s.singleN, s.singleN, s.bias.size, api, loc, Pipe::MTE2, false);
  const std::uint8_t* biasG = s.biasSet ? gmAlias(s.biasGm.ptr) : nullptr;
  auto biasAt = [&](std::int64_t j) -> double {
    const std::uint64_t off = static_cast<std::uint64_t>(box.n0 + j) * s.bias.size;
    if (!biasG || off + s.bias.size > biasOk) return 0.0;
    return integer ? toInt(s.bias.dtype, biasG + off) : toFloat(s.bias.dtype, biasG + off);
  };
  if (integer) {
    std::vector<std::int32_t> A(static_cast<std::size_t>(m * k)), B(static_cast<std::size_t>(k * n)),
        C(static_cast<std::size_t>(m * n));
    for (std::int64_t i = 0; i < m; ++i)
      for (std::int64_t kk = 0; kk < k; ++kk) {
        const std::uint64_t o = aOff(box.m0 + i, kk);
        A[static_cast<std::size_t>(i * k + kk)] = o + 1 <= aOk ? toInt(DType::I8, ag + o) : 0;
      }
    for (std::int64_t kk = 0; kk < k; ++kk)
      for (std::int64_t j = 0; j < n; ++j) {
        const std::uint64_t o = bOff(kk, box.n0 + j);
        B[static_cast<std::size_t>(kk * n + j)] = o + 1 <= bOk ? toInt(DType::I8, bg + o) : 0;
      }
    for (std::int64_t i = 0; i < m; ++i)
      for (std::int64_t j = 0; j < n; ++j)
        C[static_cast<std::size_t>(i * n + j)] = static_cast<std::int32_t>(biasAt(j));
    rt::gemmAccumulateI32(A.data(), B.data(), C.data(), static_cast<int>(m), static_cast<int>(n),
                          static_cast<int>(k));
    for (std::size_t i = 0; i < C.size(); ++i) out[i] = C[i];
    return;
  }
  // half / bfloat16 widen to float exactly; the bias row starts the fp32 accumulator, as in L0C.
  std::vector<float> A(static_cast<std::size_t>(m * k)), B(static_cast<std::size_t>(k * n)),
      C(static_cast<std::size_t>(m * n));
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t kk = 0; kk < k; ++kk) {
      const std::uint64_t o = aOff(box.m0 + i, kk);
      A[static_cast<std::size_t>(i * k + kk)] = o + s.a.size <= aOk ? toFloat(s.a.dtype, ag + o) : 0.0f;
    }
  for (std::int64_t kk = 0; kk < k; ++kk)
    for (std::int64_t j = 0; j < n; ++j) {
      const std::uint64_t o = bOff(kk, box.n0 + j);
      B[static_cast<std::size_t>(kk * n + j)] = o + s.b.size <= bOk ? toFloat(s.b.dtype, bg + o) : 0.0f;
    }
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j)
      C[static_cast<std::size_t>(i * n + j)] = static_cast<float>(biasAt(j));
  rt::gemmAccumulateF32(A.data(), B.data(), C.data(), static_cast<int>(m), static_cast<int>(n),
                        static_cast<int>(k));
  for (std::size_t i = 0; i < C.size(); ++i) out[i] = C[i];
}

// The device's work for one base tile up to L0C: MTE2 GM->L1 (A and B, stepK K-tiles per copy), MTE1
// L1->L0A/L0B and one Mmad per K-tile. Halves of L1 and L0 alternate between tiles (double buffering).
void costTileCompute(const MatmulRun& s, const TileBox& box, std::int64_t index, SrcLoc loc) {
  const std::int64_t baseK = s.t.baseK, kTiles = ceilDiv(s.singleK, baseK);
  const std::int64_t stepKa = std::max(1, s.t.stepKa), stepKb = std::max(1, s.t.stepKb);
  const std::uint32_t c0 = 32 / std::max<std::uint32_t>(1, s.a.size);
  const std::uint32_t ping = static_cast<std::uint32_t>(index % 2);
  const std::uint64_t aL1 = static_cast<std::uint64_t>(s.t.baseM) * baseK * stepKa * s.a.size;
  const std::uint64_t bL1 = static_cast<std::uint64_t>(s.t.baseN) * baseK * stepKb * s.b.size;
  auto l1Off = [&](std::uint64_t base, std::uint64_t len) {
    return static_cast<std::uint32_t>(
        std::min<std::uint64_t>(base + ping * len, spaceSize(MemSpace::L1) - len));
  };
  // A: rows of the tile (columns when transposed), stepKa * baseK K elements per copy.
  {
    const std::int64_t kCopy = std::min<std::int64_t>(s.singleK, stepKa * baseK);
    Instr& in = record("Matmul CopyIn A (GM->L1)", loc, Pipe::MTE2);
    in.dtype = in.srcDtype = s.a.dtype;
    in.srcSpace = MemSpace::GM;
    in.dstSpace = MemSpace::L1;
    const std::int64_t rows = s.transA ? kCopy : box.mLen, cols = s.transA ? box.mLen : kCopy;
    in.bytes = static_cast<std::uint64_t>(rows * cols) * s.a.size;
    in.count = static_cast<std::uint32_t>(rows * cols);
    in.burstCount = static_cast<std::uint32_t>(rows);
    in.burstLen = static_cast<std::uint32_t>(cols * s.a.size);
    in.gmStride = static_cast<std::uint64_t>(ldA(s)) * s.a.size;
    in.gmAddr = reinterpret_cast<std::uint64_t>(s.aGm.ptr) +
                static_cast<std::uint64_t>(s.transA ? box.m0 : box.m0 * ldA(s)) * s.a.size;
    in.times = static_cast<std::uint32_t>(ceilDiv(kTiles, stepKa));
    in.dstOff = l1Off(0, aL1);
    in.dstLen = static_cast<std::uint32_t>(aL1);
  }
  {
    const std::int64_t kCopy = std::min<std::int64_t>(s.singleK, stepKb * baseK);
    Instr& in = record("Matmul CopyIn B (GM->L1)", loc, Pipe::MTE2);
    in.dtype = in.srcDtype = s.b.dtype;
    in.srcSpace = MemSpace::GM;
    in.dstSpace = MemSpace::L1;
    const std::int64_t rows = s.transB ? box.nLen : kCopy, cols = s.transB ? kCopy : box.nLen;
    in.bytes = static_cast<std::uint64_t>(rows * cols) * s.b.size;
    in.count = static_cast<std::uint32_t>(rows * cols);
    in.burstCount = static_cast<std::uint32_t>(rows);
    in.burstLen = static_cast<std::uint32_t>(cols * s.b.size);
    in.gmStride = static_cast<std::uint64_t>(ldB(s)) * s.b.size;
    in.gmAddr = reinterpret_cast<std::uint64_t>(s.bGm.ptr) +
                static_cast<std::uint64_t>(s.transB ? box.n0 * ldB(s) : box.n0) * s.b.size;
    in.times = static_cast<std::uint32_t>(ceilDiv(kTiles, stepKb));
    in.dstOff = l1Off(2 * aL1, bL1);
    in.dstLen = static_cast<std::uint32_t>(bL1);
  }
  const std::uint64_t aL0 = alignUp(box.mLen, 16) * alignUp(baseK, c0) * s.a.size;
  const std::uint64_t bL0 = alignUp(box.nLen, 16) * alignUp(baseK, c0) * s.b.size;
  const std::uint32_t l0Ping = s.t.dbL0A > 1 ? ping : 0;
  for (int which = 0; which < 2; ++which) {
    Instr& in =
        record(which == 0 ? "Matmul LoadData A (L1->L0A)" : "Matmul LoadData B (L1->L0B)", loc, Pipe::MTE1);
    in.dtype = in.srcDtype = s.a.dtype;
    in.srcSpace = MemSpace::L1;
    in.dstSpace = which == 0 ? MemSpace::L0A : MemSpace::L0B;
    const std::uint64_t len = which == 0 ? aL0 : bL0;
    in.bytes = len;
    in.count = static_cast<std::uint32_t>(len / s.a.size);
    in.burstCount = static_cast<std::uint32_t>(len / 512);
    in.burstLen = 512;
    in.times = static_cast<std::uint32_t>(kTiles);
    in.src0Off = which == 0 ? l1Off(0, aL1) : l1Off(2 * aL1, bL1);
    in.src0Len = static_cast<std::uint32_t>(which == 0 ? aL1 : bL1);
    const std::uint32_t cap = spaceSize(in.dstSpace);
    in.dstOff = static_cast<std::uint32_t>(std::min<std::uint64_t>(l0Ping * len, cap > len ? cap - len : 0));
    in.dstLen = static_cast<std::uint32_t>(std::min<std::uint64_t>(len, cap));
  }
  {
    Instr& in = record("Matmul Mmad", loc, Pipe::M);
    in.dtype = s.a.dtype == DType::I8 ? DType::I32 : DType::F32;
    in.srcDtype = s.a.dtype;
    in.srcSpace = MemSpace::L0A;
    in.dstSpace = MemSpace::L0C;
    const std::uint64_t macs = static_cast<std::uint64_t>(alignUp(box.mLen, 16)) * alignUp(box.nLen, 16) *
                               alignUp(std::min<std::int64_t>(baseK, s.singleK), c0);
    in.count = static_cast<std::uint32_t>(std::min<std::uint64_t>(macs, 0xffffffffu));
    in.times = static_cast<std::uint32_t>(kTiles);
    const std::uint64_t cLen = static_cast<std::uint64_t>(alignUp(box.mLen, 16)) * alignUp(box.nLen, 16) * 4;
    in.bytes = cLen;
    const std::uint32_t cPing = s.t.dbL0C > 1 ? ping : 0;
    in.dstOff = static_cast<std::uint32_t>(std::min<std::uint64_t>(
        cPing * cLen, spaceSize(MemSpace::L0C) - std::min<std::uint64_t>(cLen, spaceSize(MemSpace::L0C))));
    in.dstLen = static_cast<std::uint32_t>(std::min<std::uint64_t>(cLen, spaceSize(MemSpace::L0C)));
    in.src0Off = static_cast<std::uint32_t>(std::min<std::uint64_t>(
        l0Ping * aL0, spaceSize(MemSpace::L0A) - std::min<std::uint64_t>(aL0, spaceSize(MemSpace::L0A))));
    in.src0Len = static_cast<std::uint32_t>(std::min<std::uint64_t>(aL0, spaceSize(MemSpace::L0A)));
    in.src1Off = static_cast<std::uint32_t>(std::min<std::uint64_t>(
        l0Ping * bL0, spaceSize(MemSpace::L0B) - std::min<std::uint64_t>(bL0, spaceSize(MemSpace::L0B))));
    in.src1Len = static_cast<std::uint32_t>(std::min<std::uint64_t>(bL0, spaceSize(MemSpace::L0B)));
  }
}

// The Fixpipe out of one tile: L0C -> GM (row stride ld elements) or -> UB.
Instr& costTileOut(const MatmulRun& s, const TileBox& box, std::uint64_t dstAddr, std::int64_t ld,
                   MemSpace dst, SrcLoc loc) {
  Instr& in = record("Matmul Fixpipe (L0C->C)", loc, Pipe::FIX);
  in.dtype = s.c.dtype;
  in.srcDtype = s.a.dtype == DType::I8 ? DType::I32 : DType::F32;
  in.srcSpace = MemSpace::L0C;
  in.dstSpace = dst;
  in.bytes = static_cast<std::uint64_t>(box.mLen * box.nLen) * s.c.size;
  in.count = static_cast<std::uint32_t>(box.mLen * box.nLen);
  in.burstCount = static_cast<std::uint32_t>(box.mLen);
  in.burstLen = static_cast<std::uint32_t>(box.nLen * s.c.size);
  in.gmStride = static_cast<std::uint64_t>(ld) * s.c.size;
  if (dst == MemSpace::GM) in.gmAddr = dstAddr;
  return in;
}

// Writes a computed tile to GM at `base` (row stride ld), cut where the GM checker says.
void writeTileGm(const MatmulRun& s, const GmDesc& c, std::uint64_t elemOff, std::int64_t ld,
                 const TileBox& box, const std::vector<double>& v, std::uint8_t enAtomic, const char* api,
                 SrcLoc loc) {
  GmDesc at = c;
  at.ptr = c.ptr + elemOff * s.c.size;
  const std::uint64_t ok = checkedSpan(at, box.mLen, box.nLen, ld, s.c.size, api, loc, Pipe::FIX, true);
  std::uint8_t* g = gmAlias(at.ptr);
  for (std::int64_t i = 0; i < box.mLen; ++i)
    for (std::int64_t j = 0; j < box.nLen; ++j) {
      const std::uint64_t off = static_cast<std::uint64_t>(i * ld + j) * s.c.size;
      if (off + s.c.size > ok) continue;
      storeC(s.c.dtype, g + off, v[static_cast<std::size_t>(i * box.nLen + j)], enAtomic == 1);
    }
  costTileOut(s, box, reinterpret_cast<std::uint64_t>(at.ptr), ld, MemSpace::GM, loc);
}

}  // namespace

void matmulUnsupported(const char* what, SrcLoc loc) {
  fatal(Cat::InvalidParam, "Matmul", loc, Pipe::S, kOperandNone,
        std::string("unsupported-api: Matmul ") + what +
            " is not emulated by the kwb emulator (docs/emulator.md, "
            "\"Matmul API\")");
}

void matmulInit(MatmulRun& s, const MatmulTilingView& t, SrcLoc loc) {
  const char* api = "Init";
  s.t = t;
  s.inited = true;
  s.initFailed = false;
  s.ended = false;
  s.initAt = loc;
  s.orgM = t.M;
  s.orgN = t.N;
  s.orgKa = t.Ka;
  s.orgKb = t.Kb;
  s.orgKc = 0;
  s.singleM = t.singleCoreM;
  s.singleN = t.singleCoreN;
  s.singleK = t.singleCoreK;
  s.nextTile = 0;
  s.curTile = -1;
  auto bad = [&](Cat cat, const std::string& msg) {
    report(cat, api, loc, Pipe::S, kOperandNone, "Matmul tiling (TCubeTiling): " + msg);
    s.inited = false;
    s.initFailed = true;
  };
  const std::pair<const char*, std::int32_t> positive[] = {{"M", t.M},
                                                           {"N", t.N},
                                                           {"Ka", t.Ka},
                                                           {"Kb", t.Kb},
                                                           {"singleCoreM", t.singleCoreM},
                                                           {"singleCoreN", t.singleCoreN},
                                                           {"singleCoreK", t.singleCoreK},
                                                           {"baseM", t.baseM},
                                                           {"baseN", t.baseN},
                                                           {"baseK", t.baseK}};
  for (const auto& [name, v] : positive)
    if (v <= 0) {
      bad(Cat::InvalidParam, std::string(name) + " is " + num(v) +
                                 ", it must be positive; fill the tiling with MatmulApiTiling/"
                                 "MultiCoreMatmulTiling::GetTiling on the host and check that it returned 0");
      return;
    }
  const std::uint32_t c0 = 32 / s.a.size;
  if (t.baseM % 16 != 0 || t.baseN % 16 != 0 || t.baseK % static_cast<std::int32_t>(c0) != 0) {
    bad(Cat::InvalidParam, "baseM " + num(t.baseM) + ", baseN " + num(t.baseN) + ", baseK " + num(t.baseK) +
                               ": baseM and baseN must be multiples of 16 and baseK of " + num(c0) +
                               " (32 bytes of A's type), the cube's fractal sizes");
    return;
  }
  const std::uint64_t aTile = static_cast<std::uint64_t>(t.baseM) * t.baseK * s.a.size;
  const std::uint64_t bTile = static_cast<std::uint64_t>(t.baseN) * t.baseK * s.b.size;
  const std::uint64_t cTile = static_cast<std::uint64_t>(t.baseM) * t.baseN * 4;
  struct Need {
    const char* buffer;
    MemSpace space;
    std::uint64_t bytes;
    std::string what;
  };
  const std::uint64_t biasRow = t.isBias ? static_cast<std::uint64_t>(t.baseN) * 4 : 0;
  const Need needs[] = {
      {"L0A", MemSpace::L0A, aTile * (t.dbL0A > 1 ? 2 : 1),
       "baseM x baseK = " + num(t.baseM) + " x " + num(t.baseK) + " A tile" +
           (t.dbL0A > 1 ? " (dbL0A = 2: twice)" : "")},
      {"L0B", MemSpace::L0B, bTile * (t.dbL0B > 1 ? 2 : 1),
       "baseK x baseN = " + num(t.baseK) + " x " + num(t.baseN) + " B tile" +
           (t.dbL0B > 1 ? " (dbL0B = 2: twice)" : "")},
      {"L0C", MemSpace::L0C, cTile * (t.dbL0C > 1 ? 2 : 1),
       "baseM x baseN = " + num(t.baseM) + " x " + num(t.baseN) + " fp32/int32 C tile" +
           (t.dbL0C > 1 ? " (dbL0C = 2: twice)" : "")},
      {"L1", MemSpace::L1,
       static_cast<std::uint64_t>(std::max(1, t.depthA1)) * aTile +
           static_cast<std::uint64_t>(std::max(1, t.depthB1)) * bTile + biasRow,
       "depthA1 " + num(t.depthA1) + " A tiles + depthB1 " + num(t.depthB1) + " B tiles" +
           (biasRow ? " + the bias row" : "")},
  };
  for (const Need& n : needs)
    if (n.bytes > spaceSize(n.space)) {
      bad(Cat::UbOverflow, "the " + n.what + " needs " + num(static_cast<std::int64_t>(n.bytes)) +
                               " bytes of " + n.buffer + ", but " + rt::soc().name + " has " +
                               num(spaceSize(n.space)) + " bytes of " + n.buffer +
                               "; compute the tiling with GetTiling for this SoC or choose smaller base "
                               "tiles");
      return;
    }
}

void matmulSetOrgShape(MatmulRun& s, int orgM, int orgN, int orgKa, int orgKb, int orgKc, SrcLoc loc) {
  if (orgM <= 0 || orgN <= 0 || orgKa <= 0 || orgKb <= 0 || orgKc < 0) {
    report(Cat::InvalidParam, "SetOrgShape", loc, Pipe::S, kOperandNone,
           "Matmul::SetOrgShape(" + num(orgM) + ", " + num(orgN) + ", " + num(orgKa) + ", " + num(orgKb) +
               ", " + num(orgKc) + "): the sizes must be positive (orgKc 0: C's row length is orgN)");
    return;
  }
  s.orgM = orgM;
  s.orgN = orgN;
  s.orgKa = orgKa;
  s.orgKb = orgKb;
  s.orgKc = orgKc;
}

void matmulSetSingleShape(MatmulRun& s, int m, int n, int k, const char* api, SrcLoc loc) {
  const bool tail = std::string(api) == "SetTail";
  const std::int64_t nm = tail && m < 0 ? s.singleM : m, nn = tail && n < 0 ? s.singleN : n,
                     nk = tail && k < 0 ? s.singleK : k;
  std::string why;
  if (nm <= 0 || nn <= 0 || nk <= 0)
    why = "the sizes must be positive";
  else if (nm > s.orgM)
    why = "M " + num(nm) + " is larger than the org shape's M " + num(s.orgM) +
          " (TCubeTiling.M / SetOrgShape)";
  else if (nn > s.orgN)
    why = "N " + num(nn) + " is larger than the org shape's N " + num(s.orgN) +
          " (TCubeTiling.N / SetOrgShape)";
  else if (nk > std::min(s.orgKa, s.orgKb))
    why = "K " + num(nk) + " is larger than the org shape's K " + num(std::min(s.orgKa, s.orgKb)) +
          " (TCubeTiling.Ka/Kb / SetOrgShape)";
  if (!why.empty()) {
    report(Cat::InvalidParam, api, loc, Pipe::S, kOperandNone,
           std::string("Matmul::") + api + "(" + num(nm) + ", " + num(nn) + ", " + num(nk) + "): " + why +
               ": the tile would read rows or columns that are not the matrix's");
    return;
  }
  s.singleM = static_cast<std::int32_t>(nm);
  s.singleN = static_cast<std::int32_t>(nn);
  s.singleK = static_cast<std::int32_t>(nk);
  s.nextTile = 0;
  s.curTile = -1;
}

void matmulSetTensor(MatmulRun& s, int which, const GmDesc& g, bool trans, SrcLoc loc) {
  if (s.ended)
    misuse(which == 0   ? "SetTensorA"
           : which == 1 ? "SetTensorB"
                        : "SetBias",
           loc, "called after End(); End releases the object, Init it again first");
  if (which == 0) {
    s.aGm = g;
    s.aSet = true;
    s.transA = trans;
  } else if (which == 1) {
    s.bGm = g;
    s.bSet = true;
    s.transB = trans;
  } else {
    s.biasGm = g;
    s.biasSet = true;
  }
  s.nextTile = 0;
  s.curTile = -1;
}

void matmulDisableBias(MatmulRun& s) {
  s.biasSet = false;
}

void matmulIterateAll(MatmulRun& s, const GmDesc& c, std::uint8_t enAtomic, SrcLoc loc) {
  const char* api = "IterateAll";
  if (!ready(s, api, loc)) return;
  if (s.cToLocal) {
    misuse(api, loc,
           "C is declared in a local position (MatmulType<TPosition::VECIN ...>); IterateAll to GM "
           "needs MatmulType<TPosition::GM, ...> for C");
    return;
  }
  const std::int64_t total = tilesM(s) * tilesN(s), ld = ldC(s);
  std::vector<double> v;
  for (std::int64_t t = 0; t < total; ++t) {
    const TileBox box = tileBox(s, t);
    computeBox(s, box, api, loc, v);
    costTileCompute(s, box, t, loc);
    writeTileGm(s, c, static_cast<std::uint64_t>(box.m0 * ld + box.n0), ld, box, v, enAtomic, api, loc);
  }
  s.nextTile = 0;
  s.curTile = -1;
}

bool matmulIterate(MatmulRun& s, SrcLoc loc) {
  const char* api = "Iterate";
  if (!ready(s, api, loc)) return false;
  const std::int64_t total = tilesM(s) * tilesN(s);
  if (s.nextTile >= total) {
    s.curTile = -1;
    return false;
  }
  const TileBox box = tileBox(s, s.nextTile);
  computeBox(s, box, api, loc, s.tile);
  costTileCompute(s, box, s.nextTile, loc);
  s.curTile = s.nextTile++;
  return true;
}

void matmulGetTensorC(MatmulRun& s, const GmDesc* gm, const LocalDesc* local, std::uint8_t enAtomic,
                      SrcLoc loc) {
  const char* api = "GetTensorC";
  if (s.ended) {
    misuse(api, loc, "called after End()");
    return;
  }
  if (s.curTile < 0) {
    misuse(
        api, loc,
        "no base tile is pending: GetTensorC returns the tile the last successful Iterate() computed, once "
        "(call it inside `while (mm.Iterate()) { mm.GetTensorC(...); }`)");
    return;
  }
  const TileBox box = tileBox(s, s.curTile);
  if (gm) {
    const std::int64_t ld = ldC(s);
    writeTileGm(s, *gm, static_cast<std::uint64_t>(box.m0 * ld + box.n0), ld, box, s.tile, enAtomic, api,
                loc);
  } else {
    // A local C tile is baseM x baseN, row-major with rows of baseN elements.
    const LocalDesc& d = *local;
    if (d.ref.space != MemSpace::UB) {
      report(Cat::InvalidParam, api, loc, Pipe::FIX, 0,
             std::string(
                 "Matmul::GetTensorC: a local C tile must be in UB (TPosition::VECIN/VECOUT/VECCALC) but "
                 "this tensor lives in ") +
                 spaceName(d.ref.space));
      s.curTile = -1;
      return;
    }
    const std::uint64_t span = static_cast<std::uint64_t>((box.mLen - 1) * s.t.baseN + box.nLen) * s.c.size;
    const std::uint32_t off = static_cast<std::uint32_t>(d.ptr - ubAlias(spaceBase(MemSpace::UB)));
    if (checkLocal(d.ref, off, span, api, loc, Pipe::FIX, 0, true)) {
      for (std::int64_t i = 0; i < box.mLen; ++i)
        for (std::int64_t j = 0; j < box.nLen; ++j)
          storeC(s.c.dtype, d.ptr + static_cast<std::uint64_t>(i * s.t.baseN + j) * s.c.size,
                 s.tile[static_cast<std::size_t>(i * box.nLen + j)], enAtomic == 1);
      Instr& out = costTileOut(s, box, 0, s.t.baseN, MemSpace::UB, loc);
      out.dstOff = off;
      out.dstLen = static_cast<std::uint32_t>(span);
    }
  }
  s.curTile = -1;
}

void matmulEnd(MatmulRun& s, SrcLoc loc) {
  (void)loc;
  s.ended = true;
  s.curTile = -1;
}

}  // namespace kwb_sim
