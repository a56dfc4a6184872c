// SPDX-License-Identifier: MIT
// The vector engine: parameter checks (repeat, mask, strides, overlap), bounds and ordering checks,
// the instruction record and the iteration over count / mask-repeat forms for every PIPE_V op.

#include "kwb_sim/vec_misc.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "BlockContext.h"
#include "VecMask.h"

namespace kwb_sim {

namespace {
// d.ptr is the runtime alias of the operand (data_copy.h localDesc).
std::uint32_t off(const LocalDesc& d) {
  return static_cast<std::uint32_t>(d.ptr - ubAlias(spaceBase(d.ref.space)));
}

bool laneOn(const VecMask& m, std::uint32_t r, std::uint32_t i, std::uint32_t lanes) {
  if (m.counter) return static_cast<std::uint64_t>(r) * lanes + i < m.total;
  return ((i < 64 ? m.bits[0] >> i : m.bits[1] >> (i - 64)) & 1u) != 0;
}

// Byte offset of lane i of repeat r for an operand with element size es and block/repeat strides.
std::uint64_t laneOff(std::uint32_t r, std::uint32_t i, std::uint32_t es, std::uint32_t blk,
                      std::uint32_t rep) {
  const std::uint32_t perBlock = 32 / es;
  return static_cast<std::uint64_t>(r) * rep * 32 + static_cast<std::uint64_t>(i / perBlock) * blk * 32 +
         static_cast<std::uint64_t>(i % perBlock) * es;
}
std::uint64_t spanOf(std::uint32_t repeat, std::uint32_t lanes, std::uint32_t es, std::uint32_t blk,
                     std::uint32_t rep) {
  if (repeat == 0) return 0;
  return laneOff(repeat - 1, lanes - 1, es, blk, rep) + es > laneOff(0, lanes - 1, es, blk, rep) + es
             ? laneOff(repeat - 1, lanes - 1, es, blk, rep) + es
             : laneOff(0, lanes - 1, es, blk, rep) + es;
}

// How many lanes of repeat r are on when they are lanes 0..n-1 (a continuous mask, a full bit mask, the
// counter mode's repeats); -1 when the lanes on are not such a prefix.
int prefixLanes(const VecMask& m, std::uint32_t r, std::uint32_t lanes) {
  if (m.counter) {
    const std::uint64_t first = static_cast<std::uint64_t>(r) * lanes;
    return first >= m.total ? 0 : static_cast<int>(m.total - first < lanes ? m.total - first : lanes);
  }
  std::uint32_t n = 0;
  while (n < lanes && laneOn(m, r, n, lanes)) ++n;
  for (std::uint32_t i = n; i < lanes; ++i)
    if (laneOn(m, r, i, lanes)) return -1;
  return static_cast<int>(n);
}

// A source may be read in place while the destination is written when it is the same elements (an
// element-wise op reads each lane before it writes it) or does not overlap the destination at all; any
// other overlap needs the gather/scatter copy, which reads the whole repeat before writing it.
bool readableInPlace(const unsigned char* d, std::size_t dLen, const unsigned char* s, std::size_t sLen,
                     bool sameElementSize) {
  if (s == d && sameElementSize) return true;
  return s + sLen <= d || d + dLen <= s;
}

void compute(const VecArgs& a, void* d, const void* s0, const void* s1, std::size_t n) {
  if (a.roundMode >= 0) return vecCast(a.dt, a.srcDt, a.roundMode, d, s0, n);
  if (a.op == VOp::Axpy) return vecAxpy(a.dt, d, s0, s1, a.scalar, n);  // s1: the old dst values
  if (vopIsBinary(a.op)) return vecBinary(a.op, a.dt, d, s0, s1, n);
  if (a.op == VOp::Dup) return vecScalar(a.op, a.dt, d, nullptr, a.scalar, n);
  return vecScalar(a.op, a.dt, d, s0, a.scalar, n);
}

// exactDst: the caller marks what the op writes in the uninitialised-memory shadow (InitShadow.cpp).
bool checkOperands(const VecArgs& a, std::uint64_t dSpan, std::uint64_t sSpan, SrcLoc loc,
                   bool exactDst = false) {
  bool ok = checkLocal(a.dst.ref, off(a.dst), dSpan, a.api, loc, Pipe::V, 0, true, exactDst);
  if (a.nsrc >= 1) ok = checkLocal(a.src0.ref, off(a.src0), sSpan, a.api, loc, Pipe::V, 1, false) && ok;
  if (a.nsrc >= 2) ok = checkLocal(a.src1.ref, off(a.src1), sSpan, a.api, loc, Pipe::V, 2, false) && ok;
  for (int k = 0; k <= a.nsrc && k <= 2; ++k) {
    const LocalDesc& d = k == 0 ? a.dst : (k == 1 ? a.src0 : a.src1);
    if (off(d) % 32 != 0)
      report(Cat::MisalignedCopy, a.api, loc, Pipe::V, k,
             std::string(a.api) + ": operand " + std::to_string(k + 1) + " starts at UB byte offset " +
                 std::to_string(off(d)) +
                 ", not 32-byte aligned; vector instructions need 32-byte aligned "
                 "operand addresses");
  }
  return ok;
}

void syncOperands(const VecArgs& a, std::uint64_t dSpan, std::uint64_t sSpan, SrcLoc loc) {
  rt::syncBegin(Pipe::V);
  if (a.nsrc >= 1)
    rt::syncOperand(Pipe::V, a.src0.ref.space, off(a.src0), static_cast<std::uint32_t>(sSpan), false, a.api,
                    loc, 1);
  if (a.nsrc >= 2)
    rt::syncOperand(Pipe::V, a.src1.ref.space, off(a.src1), static_cast<std::uint32_t>(sSpan), false, a.api,
                    loc, 2);
  if (a.readsDst)
    rt::syncOperand(Pipe::V, a.dst.ref.space, off(a.dst), static_cast<std::uint32_t>(dSpan), false, a.api,
                    loc, 0);
  rt::syncOperand(Pipe::V, a.dst.ref.space, off(a.dst), static_cast<std::uint32_t>(dSpan), true, a.api, loc,
                  0);
}

Instr& recordVec(const VecArgs& a, SrcLoc loc, std::uint64_t count, std::uint32_t repeat, std::uint64_t dSpan,
                 std::uint64_t sSpan) {
  Instr& in = record(a.api, loc, Pipe::V);
  in.dtype = a.dt;
  in.srcDtype = a.srcDt == DType::None ? a.dt : a.srcDt;
  in.count = static_cast<std::uint32_t>(count);
  in.repeat = repeat;
  in.bytes = count * a.esize;
  in.dstSpace = in.srcSpace = MemSpace::UB;
  in.dstOff = off(a.dst);
  in.dstLen = static_cast<std::uint32_t>(dSpan);
  if (a.nsrc >= 1) {
    in.src0Off = off(a.src0);
    in.src0Len = static_cast<std::uint32_t>(sSpan);
  }
  if (a.nsrc >= 2) {
    in.src1Off = off(a.src1);
    in.src1Len = static_cast<std::uint32_t>(sSpan);
  }
  if (a.readsDst && count > 0) {
    in.src1Off = off(a.dst);
    in.src1Len = static_cast<std::uint32_t>(dSpan);
  }
  return in;
}

bool inBuffer(const LocalDesc& d, std::uint64_t span) {
  if (d.ref.buf < 0) return true;
  const BufferSlot& s = g_block.bufs[d.ref.buf];
  return off(d) >= s.off && off(d) + span <= static_cast<std::uint64_t>(s.off) + s.len;
}

void checkPartialOverlap(const VecArgs& a, std::uint64_t dSpan, std::uint64_t sSpan, SrcLoc loc) {
  if (!inBuffer(a.dst, dSpan)) return;  // already reported as ub-out-of-bounds
  for (int k = 1; k <= a.nsrc && k <= 2; ++k) {
    const LocalDesc& s = k == 1 ? a.src0 : a.src1;
    if (!inBuffer(s, sSpan)) continue;
    if (s.ref.space != a.dst.ref.space) continue;
    const std::uint64_t d0 = off(a.dst), s0 = off(s);
    if (d0 == s0) continue;
    if (d0 < s0 + sSpan && s0 < d0 + dSpan)
      report(Cat::InvalidParam, a.api, loc, Pipe::V, 0,
             std::string(a.api) + ": destination [" + std::to_string(d0) + ", " + std::to_string(d0 + dSpan) +
                 ") partially overlaps source operand " + std::to_string(k + 1) + " [" + std::to_string(s0) +
                 ", " + std::to_string(s0 + sSpan) +
                 "); dst may only overlap a source completely (same start)");
  }
}
// ShiftLeft/ShiftRight: the shift count must lie in 0..bit width of the element type.
void checkShift(const VecArgs& a, SrcLoc loc) {
  if (a.op != VOp::ShiftLeft && a.op != VOp::ShiftRight && a.op != VOp::ShiftRightRound) return;
  const double bits = 8.0 * a.esize;
  if (a.scalar < 0 || a.scalar > bits)
    report(Cat::InvalidParam, a.api, loc, Pipe::V, 2,
           std::string(a.api) + ": shift count " + std::to_string(static_cast<long long>(a.scalar)) +
               " is outside 0.." + std::to_string(static_cast<int>(bits)) + " for " + dtypeName(a.dt) +
               " (the hardware result is undefined)");
}

// A reduction mixes every lane it reads into its result, so one never-written lane makes the result
// stale: the lanes on must all have been written (docs/emulator.md, "Uninitialised memory"). Lanes the
// mask leaves off are not read. The common case (no hole in the span) costs one lookup.
void checkReduceReads(const VecArgs& a, const VecMask& m, std::uint32_t repeat, std::uint32_t lanes,
                      std::uint32_t blk, SrcLoc loc) {
  const std::uint32_t es = a.esize;
  const std::uint32_t rep = a.countForm ? 8 : a.src0Rep;
  const std::uint64_t span = spanOf(repeat, lanes, es, blk, rep);
  rt::ShadowHole hole;
  if (!rt::shadowFirstHole(a.src0.ref.space, off(a.src0), span, hole)) return;
  if (a.countForm) {
    rt::shadowCheckRead(a.src0.ref.space, off(a.src0), static_cast<std::uint64_t>(a.count) * es, off(a.src0),
                        es, a.api, loc, Pipe::V, 1);
    return;
  }
  for (std::uint32_t r = 0; r < repeat; ++r)
    for (std::uint32_t i = 0; i < lanes; ++i)
      if (laneOn(m, r, i, lanes) &&
          !rt::shadowCheckRead(a.src0.ref.space,
                               off(a.src0) + static_cast<std::uint32_t>(laneOff(r, i, es, blk, rep)), es,
                               off(a.src0), es, a.api, loc, Pipe::V, 1))
        return;
}
}  // namespace

void vecRun(const VecArgs& a, SrcLoc loc) {
  checkShift(a, loc);
  const std::uint32_t des = a.esize, ses = a.srcEsize ? a.srcEsize : a.esize;
  const std::uint32_t wide = des > ses ? des : ses;
  const std::uint32_t lanes = 256 / wide;
  if (a.countForm) {
    if (a.count < 0) {
      report(Cat::InvalidParam, a.api, loc, Pipe::V, 0,
             std::string(a.api) + ": count = " + std::to_string(a.count) + " is negative");
      return;
    }
    const std::uint64_t n = static_cast<std::uint64_t>(a.count);
    const std::uint64_t dSpan = n * des, sSpan = n * ses;
    const std::uint32_t repeat = static_cast<std::uint32_t>((n * wide + 255) / 256);
    if (n == 0) {
      recordVec(a, loc, 0, 0, 0, 0);
      return;
    }
    if (!checkOperands(a, dSpan, sSpan, loc, true)) {
      recordVec(a, loc, 0, 0, 0, 0);
      return;
    }
    checkPartialOverlap(a, dSpan, sSpan, loc);
    syncOperands(a, dSpan, sSpan, loc);
    // Element-wise: a result lane is stale exactly where a source lane was (docs/emulator.md,
    // "Uninitialised memory"); stale lanes are harmless until a reduction, GetValue or copy-out reads them.
    rt::ShadowSource srcs[3];
    int nsrc = 0;
    if (a.nsrc >= 1) srcs[nsrc++] = rt::ShadowSource{a.src0.ref.space, off(a.src0), ses};
    if (a.nsrc >= 2) srcs[nsrc++] = rt::ShadowSource{a.src1.ref.space, off(a.src1), ses};
    if (a.readsDst) srcs[nsrc++] = rt::ShadowSource{a.dst.ref.space, off(a.dst), des};
    rt::shadowCarry(a.dst.ref.space, off(a.dst), des, n, srcs, nsrc);
    compute(a, a.dst.ptr, a.src0.ptr, a.readsDst ? a.dst.ptr : a.src1.ptr, n);
    recordVec(a, loc, n, repeat, dSpan, sSpan);
    return;
  }
  if (a.dstBlk == 0)
    report(Cat::InvalidParam, a.api, loc, Pipe::V, 0,
           std::string(a.api) +
               ": dstBlkStride = 0 is undefined behaviour (every block would write the same 32 bytes)");
  const VecMask m = vecResolveMask(a, lanes, loc);
  if (!m.ok || m.repeat == 0) {
    recordVec(a, loc, 0, 0, 0, 0);
    return;
  }
  const std::uint64_t dSpan = spanOf(m.repeat, lanes, des, a.dstBlk, a.dstRep);
  const std::uint64_t s0Span = spanOf(m.repeat, lanes, ses, a.src0Blk, a.src0Rep);
  const std::uint64_t s1Span = spanOf(m.repeat, lanes, ses, a.src1Blk, a.src1Rep);
  const std::uint64_t sSpan = s0Span > s1Span ? s0Span : s1Span;
  if (!checkOperands(a, dSpan, a.nsrc >= 2 ? sSpan : s0Span, loc)) {
    recordVec(a, loc, 0, 0, 0, 0);
    return;
  }
  syncOperands(a, dSpan, a.nsrc >= 2 ? sSpan : s0Span, loc);
  alignas(64) unsigned char td[256], t0[256], t1[256];
  std::uint64_t done = 0;
  // The common case, contiguous blocks and the first lanes on: a repeat is computed where its operands
  // are, one call per repeat, without copying its elements. The result is the gather/scatter's: repeats
  // run in order and every source is read before it is overwritten (readableInPlace).
  const bool contiguous = a.dstBlk == 1 && (a.nsrc < 1 || a.src0Blk == 1) && (a.nsrc < 2 || a.src1Blk == 1);
  const int normalPrefix = contiguous && !m.counter ? prefixLanes(m, 0, lanes) : -1;
  for (std::uint32_t r = 0; r < m.repeat; ++r) {
    if (contiguous && (m.counter || normalPrefix >= 0)) {
      const int on = m.counter ? prefixLanes(m, r, lanes) : normalPrefix;
      if (on <= 0) continue;
      const auto n = static_cast<std::size_t>(on);
      unsigned char* d = a.dst.ptr + laneOff(r, 0, des, a.dstBlk, a.dstRep);
      const unsigned char* s0 = a.nsrc >= 1 ? a.src0.ptr + laneOff(r, 0, ses, a.src0Blk, a.src0Rep) : nullptr;
      const unsigned char* s1 =
          a.readsDst ? d : (a.nsrc >= 2 ? a.src1.ptr + laneOff(r, 0, ses, a.src1Blk, a.src1Rep) : nullptr);
      if ((!s0 || readableInPlace(d, n * des, s0, n * ses, des == ses)) &&
          (!s1 || readableInPlace(d, n * des, s1, n * (a.readsDst ? des : ses), a.readsDst || des == ses))) {
        compute(a, d, s0, s1, n);
        done += n;
        continue;
      }
    }
    std::uint32_t idx[128];
    std::uint32_t n = 0;
    for (std::uint32_t i = 0; i < lanes; ++i)
      if (laneOn(m, r, i, lanes)) idx[n++] = i;
    if (n == 0) continue;
    for (std::uint32_t k = 0; k < n; ++k) {
      if (a.nsrc >= 1)
        std::memcpy(t0 + static_cast<std::size_t>(k) * ses,
                    a.src0.ptr + laneOff(r, idx[k], ses, a.src0Blk, a.src0Rep), ses);
      if (a.nsrc >= 2)
        std::memcpy(t1 + static_cast<std::size_t>(k) * ses,
                    a.src1.ptr + laneOff(r, idx[k], ses, a.src1Blk, a.src1Rep), ses);
      if (a.readsDst)
        std::memcpy(t1 + static_cast<std::size_t>(k) * des,
                    a.dst.ptr + laneOff(r, idx[k], des, a.dstBlk, a.dstRep), des);
    }
    compute(a, td, t0, t1, n);
    for (std::uint32_t k = 0; k < n; ++k)
      std::memcpy(a.dst.ptr + laneOff(r, idx[k], des, a.dstBlk, a.dstRep),
                  td + static_cast<std::size_t>(k) * des, des);
    done += n;
  }
  recordVec(a, loc, done, m.repeat, dSpan, a.nsrc >= 2 ? sSpan : s0Span);
}

void vecCompare(const VecArgs& a, int cmpMode, SrcLoc loc) {
  const std::uint32_t es = a.esize;
  const std::uint32_t lanes = 256 / es;
  if (a.dt == DType::I32 && cmpMode != static_cast<int>(AscendC::CMPMODE::EQ))
    report(Cat::InvalidParam, "Compare", loc, Pipe::V, 1,
           "Compare on int32_t supports only CMPMODE::EQ on this architecture");
  std::uint64_t n = 0;
  std::uint32_t repeat = 0;
  VecMask m;
  if (a.countForm) {
    if (a.count < 0) return;
    const std::uint64_t bytes = static_cast<std::uint64_t>(a.count) * es;
    if (bytes % 256 != 0) {
      report(Cat::InvalidParam, "Compare", loc, Pipe::V, 0,
             "Compare count = " + std::to_string(a.count) + " x " + dtypeName(a.dt) + " = " +
                 std::to_string(bytes) + " bytes is not a multiple of 256 bytes (" + std::to_string(lanes) +
                 " elements): on hardware only the first " + std::to_string(bytes / 256 * lanes) +
                 " elements are compared and the remaining output bits are left unchanged");
    }
    repeat = static_cast<std::uint32_t>(bytes / 256);
    m.counter = true;
    m.total = static_cast<std::uint64_t>(repeat) * lanes;
  } else {
    m = vecResolveMask(a, lanes, loc);
    if (!m.ok) return;
    repeat = m.repeat;
  }
  const std::uint64_t sSpan = spanOf(repeat, lanes, es, 1, 8);
  const std::uint64_t dSpan = (static_cast<std::uint64_t>(repeat) * lanes + 7) / 8;
  if (repeat == 0) {
    recordVec(a, loc, 0, 0, 0, 0);
    return;
  }
  bool ok = checkLocal(a.dst.ref, off(a.dst), dSpan, "Compare", loc, Pipe::V, 0, true);
  ok = checkLocal(a.src0.ref, off(a.src0), sSpan, "Compare", loc, Pipe::V, 1, false) && ok;
  ok = checkLocal(a.src1.ref, off(a.src1), sSpan, "Compare", loc, Pipe::V, 2, false) && ok;
  if (!ok) return;
  rt::syncBegin(Pipe::V);
  rt::syncOperand(Pipe::V, a.src0.ref.space, off(a.src0), static_cast<std::uint32_t>(sSpan), false, "Compare",
                  loc, 1);
  rt::syncOperand(Pipe::V, a.src1.ref.space, off(a.src1), static_cast<std::uint32_t>(sSpan), false, "Compare",
                  loc, 2);
  rt::syncOperand(Pipe::V, a.dst.ref.space, off(a.dst), static_cast<std::uint32_t>(dSpan), true, "Compare",
                  loc, 0);
  for (std::uint32_t r = 0; r < repeat; ++r) {
    for (std::uint32_t i = 0; i < lanes; ++i) {
      const bool on = a.countForm || laneOn(m, r, i, lanes);
      const std::uint64_t bit = static_cast<std::uint64_t>(r) * lanes + i;
      bool res = false;
      if (on) {
        const double x = loadAsDouble(a.dt, a.src0.ptr + laneOff(r, i, es, a.src0Blk, a.src0Rep));
        const double y = loadAsDouble(a.dt, a.src1.ptr + laneOff(r, i, es, a.src1Blk, a.src1Rep));
        switch (static_cast<AscendC::CMPMODE>(cmpMode)) {
          case AscendC::CMPMODE::LT:
            res = x < y;
            break;
          case AscendC::CMPMODE::GT:
            res = x > y;
            break;
          case AscendC::CMPMODE::EQ:
            res = x == y;
            break;
          case AscendC::CMPMODE::LE:
            res = x <= y;
            break;
          case AscendC::CMPMODE::GE:
            res = x >= y;
            break;
          case AscendC::CMPMODE::NE:
            res = x != y;
            break;
        }
      }
      std::uint8_t& byte = a.dst.ptr[bit / 8];
      byte = static_cast<std::uint8_t>(res ? (byte | (1u << (bit % 8))) : (byte & ~(1u << (bit % 8))));
    }
  }
  recordVec(a, loc, static_cast<std::uint64_t>(repeat) * lanes, repeat, dSpan, sSpan);
}

void vecSelect(const VecArgs& a, const LocalDesc& other, bool scalarMode, int selMode, DType maskDt,
               SrcLoc loc) {
  (void)maskDt;
  const auto mode = static_cast<AscendC::SELMODE>(selMode);
  if (scalarMode && mode != AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE)
    report(Cat::InvalidParam, "Select", loc, Pipe::V, 4,
           "Select with a scalar src1 needs SELMODE::VSEL_TENSOR_SCALAR_MODE");
  if (!scalarMode && mode == AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE)
    report(Cat::InvalidParam, "Select", loc, Pipe::V, 4,
           "SELMODE::VSEL_TENSOR_SCALAR_MODE needs a scalar src1, but a tensor was given");
  if (a.count <= 0) return;
  const std::uint64_t n = static_cast<std::uint64_t>(a.count);
  const std::uint32_t es = a.esize;
  // VSEL_CMPMASK_SPR applies the same selMask bits (one repeat's, 256 / sizeof(T)) to every repeat; the
  // tensor modes consume selMask continuously (docs/emulator.md, "Select").
  const std::uint32_t lanes = 256 / es;
  const bool maskPerRepeat = mode == AscendC::SELMODE::VSEL_CMPMASK_SPR;
  const std::uint64_t span = n * es;
  const std::uint64_t mSpan = maskPerRepeat && n > lanes ? lanes / 8 : (n + 7) / 8;
  bool ok = checkLocal(a.dst.ref, off(a.dst), span, "Select", loc, Pipe::V, 0, true);
  ok = checkLocal(a.src0.ref, off(a.src0), mSpan, "Select", loc, Pipe::V, 1, false) && ok;
  ok = checkLocal(a.src1.ref, off(a.src1), span, "Select", loc, Pipe::V, 2, false) && ok;
  if (!scalarMode) ok = checkLocal(other.ref, off(other), span, "Select", loc, Pipe::V, 3, false) && ok;
  if (!ok) return;
  rt::syncBegin(Pipe::V);
  rt::syncOperand(Pipe::V, a.src0.ref.space, off(a.src0), static_cast<std::uint32_t>(mSpan), false, "Select",
                  loc, 1);
  rt::syncOperand(Pipe::V, a.src1.ref.space, off(a.src1), static_cast<std::uint32_t>(span), false, "Select",
                  loc, 2);
  if (!scalarMode)
    rt::syncOperand(Pipe::V, other.ref.space, off(other), static_cast<std::uint32_t>(span), false, "Select",
                    loc, 3);
  rt::syncOperand(Pipe::V, a.dst.ref.space, off(a.dst), static_cast<std::uint32_t>(span), true, "Select", loc,
                  0);
  unsigned char scalarBytes[8] = {};
  if (scalarMode) storeFromDouble(a.dt, scalarBytes, a.scalar);
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::uint64_t b = maskPerRepeat ? i % lanes : i;
    const bool bit = (a.src0.ptr[b / 8] >> (b % 8)) & 1u;
    const unsigned char* from = bit ? a.src1.ptr + i * es : (scalarMode ? scalarBytes : other.ptr + i * es);
    std::memmove(a.dst.ptr + i * es, from, es);
  }
  Instr& in = recordVec(a, loc, n, static_cast<std::uint32_t>((span + 255) / 256), span, span);
  in.src0Len = static_cast<std::uint32_t>(mSpan);
}

void vecReduce(const VecArgs& a, RedOp op, bool whole, bool calIndex, int order, const LocalDesc& work,
               SrcLoc loc) {
  const std::uint32_t es = a.esize;
  const std::uint32_t lanes = 256 / es;
  std::uint32_t repeat = 0;
  VecMask m;
  if (a.countForm) {
    if (a.count <= 0) {
      if (a.count < 0)
        report(Cat::InvalidParam, a.api, loc, Pipe::V, 3, std::string(a.api) + ": count is negative");
      return;
    }
    m.counter = true;
    m.total = static_cast<std::uint64_t>(a.count);
    repeat = static_cast<std::uint32_t>((m.total + lanes - 1) / lanes);
  } else {
    m = vecResolveMask(a, lanes, loc);
    if (!m.ok) return;
    repeat = m.repeat;
  }
  if (repeat == 0) return;
  const std::uint32_t blk = whole ? a.src0Blk : 1;
  // The source bytes the active lanes read: a mask narrower than the repeat (WholeReduceSum of rows shorter
  // than 256 bytes) leaves the tail of the last repeat unread, so a buffer may end at the last active lane.
  VecMask active = m;
  active.repeat = repeat;
  const std::uint64_t sSpan = vecActiveSpan(active, lanes, es, blk, a.countForm ? 8 : a.src0Rep);
  const bool pair = whole && op != RedOp::Sum &&
                    (order == AscendC::ORDER_VALUE_INDEX || order == AscendC::ORDER_INDEX_VALUE);
  const std::uint32_t outPer = pair ? 2 : 1;
  const std::uint64_t dSpan =
      whole ? (static_cast<std::uint64_t>(repeat - 1) * (a.dstRep ? a.dstRep : 1) * outPer + outPer) * es
            : static_cast<std::uint64_t>(calIndex ? 2 : 1) * es;
  bool ok = checkLocal(a.dst.ref, off(a.dst), dSpan, a.api, loc, Pipe::V, 0, true);
  ok = checkLocal(a.src0.ref, off(a.src0), sSpan, a.api, loc, Pipe::V, 1, false) && ok;
  if (!ok) return;
  checkReduceReads(a, m, repeat, lanes, blk, loc);
  rt::syncBegin(Pipe::V);
  rt::syncOperand(Pipe::V, a.src0.ref.space, off(a.src0), static_cast<std::uint32_t>(sSpan), false, a.api,
                  loc, 1);
  if (work.ptr) {
    const std::uint64_t wSpan = static_cast<std::uint64_t>(repeat) * es;
    if (checkLocal(work.ref, off(work), wSpan, a.api, loc, Pipe::V, 2, true))
      rt::syncOperand(Pipe::V, work.ref.space, off(work), static_cast<std::uint32_t>(wSpan), true, a.api, loc,
                      2);
  }
  rt::syncOperand(Pipe::V, a.dst.ref.space, off(a.dst), static_cast<std::uint32_t>(dSpan), true, a.api, loc,
                  0);

  double acc = op == RedOp::Sum ? 0.0 : (op == RedOp::Max ? -INFINITY : INFINITY);
  std::uint64_t accIdx = 0, done = 0;
  bool first = true;
  for (std::uint32_t r = 0; r < repeat; ++r) {
    double racc = op == RedOp::Sum ? 0.0 : (op == RedOp::Max ? -INFINITY : INFINITY);
    std::uint32_t rIdx = 0;
    bool rFirst = true;
    for (std::uint32_t i = 0; i < lanes; ++i) {
      if (!laneOn(m, r, i, lanes)) continue;
      const double v = loadAsDouble(a.dt, a.src0.ptr + laneOff(r, i, es, blk, a.countForm ? 8 : a.src0Rep));
      ++done;
      if (op == RedOp::Sum)
        racc += v;
      else if (rFirst || (op == RedOp::Max ? v > racc : v < racc)) {
        racc = v;
        rIdx = i;
      }
      rFirst = false;
    }
    if (whole) {
      char* out = reinterpret_cast<char*>(a.dst.ptr) +
                  static_cast<std::uint64_t>(r) * (a.dstRep ? a.dstRep : 1) * outPer * es;
      unsigned char valBytes[8], idxBytes[8] = {};
      storeFromDouble(a.dt, valBytes, racc);
      std::memcpy(idxBytes, &rIdx, es < 4 ? es : 4);
      if (order == AscendC::ORDER_INDEX_VALUE && pair) {
        std::memcpy(out, idxBytes, es);
        std::memcpy(out + es, valBytes, es);
      } else if (order == AscendC::ORDER_ONLY_INDEX && op != RedOp::Sum)
        std::memcpy(out, idxBytes, es);
      else {
        std::memcpy(out, valBytes, es);
        if (pair) std::memcpy(out + es, idxBytes, es);
      }
      continue;
    }
    if (op == RedOp::Sum)
      acc += racc;
    else if (!rFirst && (first || (op == RedOp::Max ? racc > acc : racc < acc))) {
      acc = racc;
      accIdx = static_cast<std::uint64_t>(r) * lanes + rIdx;
      first = false;
    }
  }
  if (!whole) {
    storeFromDouble(a.dt, a.dst.ptr, acc);
    if (calIndex && op != RedOp::Sum) {
      const std::uint32_t idx = static_cast<std::uint32_t>(accIdx);
      std::memcpy(a.dst.ptr + es, &idx, es < 4 ? es : 4);
    }
  }
  recordVec(a, loc, done, repeat, dSpan, sSpan);
}

void dumpLocal(const void* ptr, DType dt, std::uint32_t count, std::uint32_t desc, const char* what,
               SrcLoc loc) {
  std::printf("DumpTensor: desc=%u, %s<%s>, block %lld, %s:%u:", desc, what, dtypeName(dt),
              static_cast<long long>(g_block.blockIdx), loc.file ? loc.file : "?", loc.line);
  const unsigned es = dtypeSize(dt);
  // A kernel-view address: read it through the runtime alias.
  ptr = what[0] == 'L' ? static_cast<const void*>(ubAlias(static_cast<const char*>(ptr))) : gmAlias(ptr);
  for (std::uint32_t i = 0; i < count; ++i) {
    if (i % 16 == 0) std::printf("\n  [%5u]", i);
    const double v = loadAsDouble(dt, static_cast<const char*>(ptr) + static_cast<std::size_t>(i) * es);
    std::printf(" %g", v);
  }
  std::printf("\n");
}

}  // namespace kwb_sim
