// SPDX-License-Identifier: MIT
// DataCopy / DataCopyPad: every variant is described as bursts (count, bytes, strides) and goes through
// one routine that checks alignment, length, bounds and ordering, moves the bytes and records the
// instruction.

#include "kwb_sim/data_copy.h"

#include <cstring>
#include <string>
#include <vector>

#include "kwb_sim/fp16.h"

#include "BlockContext.h"
#include "GmAtomic.h"

namespace kwb_sim {

namespace {
enum class Dir { GmToLocal, LocalToGm, LocalToLocal };

struct Burst {
  std::uint32_t count = 1;
  std::uint64_t len = 0;        // payload bytes per burst
  std::uint64_t srcStride = 0;  // bytes between burst starts (source)
  std::uint64_t dstStride = 0;  // bytes between burst starts (destination)
  // DataCopyPad GM->UB
  bool pad = false;
  bool isPad = false;
  std::uint32_t leftBytes = 0, rightBytes = 0;
  std::uint64_t padBits = 0;
  std::uint32_t ubBurst = 0;  // bytes one burst occupies in UB (payload + pads, 32-byte rounded)
  // Contiguous DataCopy cut to whole 32-byte blocks: the bytes asked for (already a misaligned-copy
  // error; the shadow counts them as written so the cut tail is not reported a second time).
  std::uint64_t requested = 0;
};

std::uint32_t localOff(const LocalDesc& d) {
  // d.ptr is the runtime alias (data_copy.h localDesc), so is the base it is measured from.
  return static_cast<std::uint32_t>(d.ptr - ubAlias(spaceBase(d.ref.space)));
}

Pipe pipeFor(Dir dir, const LocalDesc* dst) {
  switch (dir) {
    case Dir::GmToLocal:
      return Pipe::MTE2;
    case Dir::LocalToGm:
      return Pipe::MTE3;
    case Dir::LocalToLocal:
      if (dst && dst->ref.space == MemSpace::BT) return Pipe::MTE1;  // L1 -> bias table (TPosition C1 -> C2)
      return dst && dst->ref.space == MemSpace::L1 ? Pipe::MTE3 : Pipe::V;
  }
  return Pipe::V;
}

void checkLocalAlign(const char* api, const LocalDesc& d, SrcLoc loc, Pipe pipe, int operand) {
  const std::uint32_t off = localOff(d);
  if (off % 32 != 0)
    report(Cat::MisalignedCopy, api, loc, pipe, operand,
           std::string(api) + ": the " + spaceName(d.ref.space) + " address of operand " +
               std::to_string(operand + 1) + " is byte offset " + std::to_string(off) +
               ", not 32-byte aligned (" + std::to_string(off % 32) +
               " bytes past a 32-byte boundary); UB/L1 transfers need 32-byte aligned local addresses");
}

// Uninitialised memory (InitShadow.cpp, docs/emulator.md "Uninitialised memory"), burst by burst: a copy
// into UB/L1 writes its payload (and its padding with isPad, or with the SetPadValue register once a
// kernel set it, as the copy itself does), a local-to-local copy carries the
// source's holes. The bursts are the move's: cut where GM ends (gmOk, measured on the GM side). A copy
// out to GM is not checked: kernels copy out padded records whose never-written bytes the host ignores
// (tests/emulator/corpus/gather_brcb_compares), so a stale byte in GM is only wrong where the verifier
// finds it wrong.
void shadowCopy(const char* api, const LocalDesc* dstL, const LocalDesc* srcL, const Burst& b,
                std::uint64_t gmOk, bool gmIsSource, SrcLoc loc) {
  if (!dstL) return;
  const bool padWritten = b.pad && (b.isPad || g_block.padValueSet);
  const int padOrigin =
      b.pad && !padWritten && b.ubBurst > b.len
          ? rt::shadowOrigin(rt::ShadowOrigin{api, loc, static_cast<std::uint32_t>(b.len), b.ubBurst})
          : -1;
  std::vector<rt::ShadowHole> holes;
  for (std::uint32_t i = 0; i < b.count; ++i) {
    const std::uint64_t so = i * b.srcStride, dO = i * b.dstStride;
    const std::uint64_t gmOff = gmIsSource ? so : dO;
    if (gmOff >= gmOk) break;
    const std::uint64_t n = gmOff + b.len > gmOk ? gmOk - gmOff : b.len;
    const auto d0 = static_cast<std::uint32_t>(localOff(*dstL) + dO);
    if (srcL) {
      rt::shadowHoles(srcL->ref.space, static_cast<std::uint32_t>(localOff(*srcL) + so), n, holes);
      rt::shadowWritten(dstL->ref.space, d0, n);
      for (const rt::ShadowHole& h : holes)
        rt::shadowUnwritten(dstL->ref.space, d0 + (h.off - static_cast<std::uint32_t>(localOff(*srcL) + so)),
                            h.len, h.origin);
      continue;
    }
    if (padWritten) {
      rt::shadowWritten(dstL->ref.space, d0, b.ubBurst);
      continue;
    }
    rt::shadowWritten(dstL->ref.space, d0 + b.leftBytes, b.requested > n ? b.requested : n);
    if (padOrigin >= 0) rt::shadowRetag(dstL->ref.space, d0, b.ubBurst, padOrigin);
  }
}

void run(const char* api, Dir dir, const LocalDesc* dstL, const GmDesc* dstG, const LocalDesc* srcL,
         const GmDesc* srcG, ElemDesc e, const Burst& b, SrcLoc loc) {
  const Pipe pipe = pipeFor(dir, dstL);
  Instr* rec = nullptr;
  auto finishRecord = [&](std::uint64_t moved) {
    rec = &record(api, loc, pipe);
    rec->dtype = rec->srcDtype = e.dtype;
    rec->count = static_cast<std::uint32_t>(moved / (e.size ? e.size : 1));
    rec->bytes = moved;
    rec->dstSpace = dstL ? dstL->ref.space : MemSpace::GM;
    rec->srcSpace = srcL ? srcL->ref.space : MemSpace::GM;
    rec->burstCount = b.count;
    rec->burstLen = static_cast<std::uint32_t>(b.len);
    if (dstG) rec->atomic = g_block.atomicOp;
    if (dstG) {
      rec->gmAddr = reinterpret_cast<std::uint64_t>(dstG->ptr);
      rec->gmStride = b.dstStride;
    }
    if (srcG) {
      rec->gmAddr = reinterpret_cast<std::uint64_t>(srcG->ptr);
      rec->gmStride = b.srcStride;
    }
    const GmDesc* g = dstG ? dstG : srcG;
    if (g && g->setAt.line != 0 && g->setAt.file) {
      rec->gmSetFile = rt::intern(g->setAt.file);
      rec->gmSetLine = g->setAt.line;
    }
    return rec;
  };
  if (b.count == 0 || b.len == 0) {
    // Cut to nothing: the shadow counts the bytes asked for as written (see Burst::requested).
    if (dstL && b.requested) rt::shadowWritten(dstL->ref.space, localOff(*dstL), b.requested);
    finishRecord(0);
    return;
  }
  const std::uint64_t dstBurst = b.pad ? b.ubBurst : b.len;
  const std::uint64_t dstSpan = (b.count - 1) * b.dstStride + dstBurst;
  const std::uint64_t srcSpan = (b.count - 1) * b.srcStride + b.len;

  if (dstL) checkLocalAlign(api, *dstL, loc, pipe, 0);
  if (srcL) checkLocalAlign(api, *srcL, loc, pipe, 1);
  if (dstG && reinterpret_cast<std::uintptr_t>(dstG->ptr) % e.size != 0)
    report(Cat::MisalignedCopy, api, loc, pipe, 0,
           std::string(api) + ": GM destination address is not aligned to the element size (" +
               std::to_string(e.size) + " bytes)");
  if (srcG && reinterpret_cast<std::uintptr_t>(srcG->ptr) % e.size != 0)
    report(Cat::MisalignedCopy, api, loc, pipe, 1,
           std::string(api) + ": GM source address is not aligned to the element size (" +
               std::to_string(e.size) + " bytes)");

  // Bounds. Local sides: skip the copy when it leaves the memory space; GM: cut at the end of the block.
  if (dstL && !checkLocal(dstL->ref, localOff(*dstL), dstSpan, api, loc, pipe, 0, true, true))
    return void(finishRecord(0));
  if (srcL && !checkLocal(srcL->ref, localOff(*srcL), srcSpan, api, loc, pipe, 1, false))
    return void(finishRecord(0));
  std::uint64_t gmOk = ~0ull;
  if (dstG) gmOk = checkGm(dstG->ptr, dstSpan, dstG->lo, dstG->hi, api, loc, pipe, 0, true);
  if (srcG) gmOk = checkGm(srcG->ptr, srcSpan, srcG->lo, srcG->hi, api, loc, pipe, 1, false);

  // Ordering.
  rt::syncBegin(pipe);
  if (srcL)
    rt::syncOperand(pipe, srcL->ref.space, localOff(*srcL), static_cast<std::uint32_t>(srcSpan), false, api,
                    loc, 1);
  if (dstL)
    rt::syncOperand(pipe, dstL->ref.space, localOff(*dstL), static_cast<std::uint32_t>(dstSpan), true, api,
                    loc, 0);

  // Move.
  std::uint64_t moved = 0;
  // GM through its runtime alias: the kernel view is PROT_NONE while the kernel runs.
  std::uint8_t* dst = dstL ? dstL->ptr : gmAlias(dstG->ptr);
  const std::uint8_t* src = srcL ? srcL->ptr : gmAlias(srcG->ptr);
  for (std::uint32_t i = 0; i < b.count; ++i) {
    const std::uint64_t so = i * b.srcStride, dO = i * b.dstStride;
    const std::uint64_t gmOff = srcG ? so : dO;
    std::uint64_t n = b.len;
    if (gmOff >= gmOk) break;
    if (gmOff + n > gmOk) n = gmOk - gmOff;
    std::uint8_t* d = dst + dO + b.leftBytes;
    if (dstG && g_block.atomicOp != AtomicOp::None)
      rt::gmAccumulate(d, src + so, n);
    else if (srcG)
      rt::gmCopyIn(d, srcG->ptr + so, n);
    else if (dstG)
      rt::gmCopyOut(dstG->ptr + dO + b.leftBytes, src + so, n);
    else
      std::memmove(d, src + so, n);
    moved += n;
    // isPad = false pads with the SetPadValue register once a kernel set it (docs/emulator.md,
    // "SetPadValue"); before that the padding keeps what UB held.
    if (b.pad && (b.isPad || g_block.padValueSet)) {
      const std::uint64_t fill = b.isPad ? b.padBits : g_block.padValue;
      std::uint8_t* burst = dst + dO;
      for (std::uint32_t k = 0; k < b.leftBytes; k += e.size) std::memcpy(burst + k, &fill, e.size);
      for (std::uint64_t k = b.leftBytes + b.len; k + e.size <= b.ubBurst; k += e.size)
        std::memcpy(burst + k, &fill, e.size);
    }
  }
  shadowCopy(api, dstL, srcL, b, gmOk, srcG != nullptr, loc);
  Instr* in = finishRecord(moved);
  if (dstL) {
    in->dstOff = localOff(*dstL);
    in->dstLen = static_cast<std::uint32_t>(dstSpan);
  }
  if (srcL) {
    in->src0Off = localOff(*srcL);
    in->src0Len = static_cast<std::uint32_t>(srcSpan);
  }
}

// Contiguous count form: the length must be whole 32-byte blocks; the hardware rounds it down.
Burst contiguous(const char* api, ElemDesc e, std::uint32_t count, SrcLoc loc, Pipe pipe) {
  Burst b;
  std::uint64_t bytes = static_cast<std::uint64_t>(count) * e.size;
  if (bytes % 32 != 0) {
    const std::uint64_t kept = bytes / 32 * 32;
    report(Cat::MisalignedCopy, api, loc, pipe, pipe == Pipe::MTE3 ? 1 : 0,
           std::string(api) + " of " + std::to_string(count) + " x " + dtypeName(e.dtype) + " = " +
               std::to_string(bytes) + " bytes: the length must be a multiple of 32 bytes (" +
               std::to_string(32 / e.size) + " elements). On hardware the transfer is truncated to " +
               std::to_string(kept) + " bytes and the last " + std::to_string((bytes - kept) / e.size) +
               " element(s) are not copied. Use DataCopyPad for lengths that are not 32-byte multiples, or "
               "pad the "
               "tile to a multiple of " +
               std::to_string(32 / e.size) + " elements");
    b.requested = bytes;
    bytes = kept;
  }
  b.len = bytes;
  b.srcStride = b.dstStride = bytes;
  return b;
}

Burst strided(const char* api, const AscendC::DataCopyParams& p, SrcLoc loc, Pipe pipe) {
  Burst b;
  if (p.blockCount > 4095)
    report(Cat::InvalidParam, api, loc, pipe, 2,
           "DataCopyParams.blockCount = " + std::to_string(p.blockCount) + " exceeds 4095");
  b.count = p.blockCount;
  b.len = static_cast<std::uint64_t>(p.blockLen) * 32;
  b.srcStride = b.len + static_cast<std::uint64_t>(p.srcStride) * 32;
  b.dstStride = b.len + static_cast<std::uint64_t>(p.dstStride) * 32;
  return b;
}
}  // namespace

void padValueSet(std::uint64_t bits, SrcLoc loc) {
  record("SetPadValue", loc, Pipe::S);
  g_block.padValue = bits;
  g_block.padValueSet = true;
}

void atomicSet(AtomicOp op, DType dt, const char* api, SrcLoc loc) {
  record(api, loc, Pipe::S);
  g_block.atomicOp = op;
  g_block.atomicType = dt;
}

void copyGmToLocal(const LocalDesc& dst, const GmDesc& src, ElemDesc e, std::uint32_t count, SrcLoc loc) {
  run("DataCopy", Dir::GmToLocal, &dst, nullptr, nullptr, &src, e,
      contiguous("DataCopy", e, count, loc, Pipe::MTE2), loc);
}
void copyLocalToGm(const GmDesc& dst, const LocalDesc& src, ElemDesc e, std::uint32_t count, SrcLoc loc) {
  run("DataCopy", Dir::LocalToGm, nullptr, &dst, &src, nullptr, e,
      contiguous("DataCopy", e, count, loc, Pipe::MTE3), loc);
}
void copyLocalToLocal(const LocalDesc& dst, const LocalDesc& src, ElemDesc e, std::uint32_t count,
                      SrcLoc loc) {
  run("DataCopy", Dir::LocalToLocal, &dst, nullptr, &src, nullptr, e,
      contiguous("DataCopy", e, count, loc, pipeFor(Dir::LocalToLocal, &dst)), loc);
}
void copyGmToLocalParams(const LocalDesc& dst, const GmDesc& src, ElemDesc e,
                         const AscendC::DataCopyParams& p, SrcLoc loc) {
  run("DataCopy", Dir::GmToLocal, &dst, nullptr, nullptr, &src, e, strided("DataCopy", p, loc, Pipe::MTE2),
      loc);
}
void copyLocalToGmParams(const GmDesc& dst, const LocalDesc& src, ElemDesc e,
                         const AscendC::DataCopyParams& p, SrcLoc loc) {
  run("DataCopy", Dir::LocalToGm, nullptr, &dst, &src, nullptr, e, strided("DataCopy", p, loc, Pipe::MTE3),
      loc);
}
void copyLocalToLocalParams(const LocalDesc& dst, const LocalDesc& src, ElemDesc e,
                            const AscendC::DataCopyParams& p, SrcLoc loc) {
  run("DataCopy", Dir::LocalToLocal, &dst, nullptr, &src, nullptr, e,
      strided("DataCopy", p, loc, pipeFor(Dir::LocalToLocal, &dst)), loc);
}

void copyPadGmToLocal(const LocalDesc& dst, const GmDesc& src, ElemDesc e, std::uint32_t blockCount,
                      std::uint32_t blockLen, std::uint32_t srcStrideBytes, std::uint32_t dstStrideBlocks,
                      bool isPad, std::uint32_t left, std::uint32_t right, std::uint64_t padBits,
                      SrcLoc loc) {
  Burst b;
  b.count = blockCount;
  b.len = blockLen;
  b.pad = true;
  b.isPad = isPad;
  b.leftBytes = left * e.size;
  b.rightBytes = right * e.size;
  b.padBits = padBits;
  if (b.leftBytes > 32 || b.rightBytes > 32)
    report(Cat::InvalidParam, "DataCopyPad", loc, Pipe::MTE2, 3,
           "DataCopyPadExtParams padding of " + std::to_string(left) + " left / " + std::to_string(right) +
               " right elements is more than 32 bytes on a side (the limit is 32 bytes each)");
  b.ubBurst = static_cast<std::uint32_t>((b.leftBytes + blockLen + b.rightBytes + 31) / 32 * 32);
  b.srcStride = static_cast<std::uint64_t>(blockLen) + srcStrideBytes;
  b.dstStride = b.ubBurst + static_cast<std::uint64_t>(dstStrideBlocks) * 32;
  if (blockCount > 4095)
    report(Cat::InvalidParam, "DataCopyPad", loc, Pipe::MTE2, 2,
           "DataCopyExtParams.blockCount = " + std::to_string(blockCount) + " exceeds 4095");
  run("DataCopyPad", Dir::GmToLocal, &dst, nullptr, nullptr, &src, e, b, loc);
}

void copyPadLocalToGm(const GmDesc& dst, const LocalDesc& src, ElemDesc e, std::uint32_t blockCount,
                      std::uint32_t blockLen, std::uint32_t srcStrideBlocks, std::uint32_t dstStrideBytes,
                      SrcLoc loc) {
  Burst b;
  b.count = blockCount;
  b.len = blockLen;
  b.srcStride = (static_cast<std::uint64_t>(blockLen) + 31) / 32 * 32 +
                static_cast<std::uint64_t>(srcStrideBlocks) * 32;
  b.dstStride = static_cast<std::uint64_t>(blockLen) + dstStrideBytes;
  if (blockCount > 4095)
    report(Cat::InvalidParam, "DataCopyPad", loc, Pipe::MTE3, 2,
           "DataCopyExtParams.blockCount = " + std::to_string(blockCount) + " exceeds 4095");
  run("DataCopyPad", Dir::LocalToGm, nullptr, &dst, &src, nullptr, e, b, loc);
}

}  // namespace kwb_sim
