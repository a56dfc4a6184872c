// SPDX-License-Identifier: MIT
#pragma once
// Builds synthetic kwb_sim::LaunchTrace records the way the emulator runtime records a classic Ascend C
// vector kernel (docs/ascend-notes.md §1.2: CopyIn / Compute / CopyOut over TQue VECIN/VECOUT), so the
// cost-model tests exercise exactly the record shapes a real run produces.

#include <cstdint>
#include <string>
#include <vector>

#include "core/emulator/include/kwb_sim/trace.h"

namespace kwb::sim::test {

using kwb_sim::DType;
using kwb_sim::Instr;
using kwb_sim::MemSpace;
using kwb_sim::Pipe;
using kwb_sim::SyncKind;

class TraceBuilder {
 public:
  explicit TraceBuilder(std::string kernel = "add_custom", std::string soc = "Ascend910B1") {
    trace_.kernel = std::move(kernel);
    trace_.soc = std::move(soc);
    file_ = intern("add_custom.cpp");
  }

  std::uint32_t intern(const std::string& s) {
    for (std::uint32_t i = 0; i < trace_.strings.size(); ++i)
      if (trace_.strings[i] == s) return i;
    trace_.strings.push_back(s);
    return static_cast<std::uint32_t>(trace_.strings.size() - 1);
  }

  kwb_sim::BlockTrace& block(int idx) {
    while (static_cast<int>(trace_.blocks.size()) <= idx) {
      trace_.blocks.emplace_back();
      trace_.blocks.back().block = static_cast<std::int32_t>(trace_.blocks.size() - 1);
    }
    trace_.blockDim = static_cast<std::uint32_t>(trace_.blocks.size());
    return trace_.blocks[static_cast<size_t>(idx)];
  }

  Instr base(const std::string& api, std::uint32_t line, Pipe pipe) {
    Instr in;
    in.api = intern(api);
    in.file = file_;
    in.line = line;
    in.pipe = pipe;
    return in;
  }

  // queue record: producer/consumer pipes as trace.h describes them.
  void queue(int b, SyncKind kind, Pipe producer, Pipe consumer, std::int32_t bufferId, std::uint32_t line) {
    const char* api = kind == SyncKind::EnQue         ? "EnQue"
                      : kind == SyncKind::DeQue       ? "DeQue"
                      : kind == SyncKind::AllocTensor ? "AllocTensor"
                                                      : "FreeTensor";
    Pipe pipe = Pipe::S, src = Pipe::None, dst = Pipe::None;
    switch (kind) {
      case SyncKind::EnQue:
        pipe = producer;
        src = producer;
        dst = consumer;
        break;
      case SyncKind::DeQue:
        pipe = consumer;
        src = producer;
        dst = consumer;
        break;
      case SyncKind::FreeTensor:
        pipe = consumer;
        src = consumer;
        dst = producer;
        break;
      case SyncKind::AllocTensor:
        pipe = producer;
        src = consumer;
        dst = producer;
        break;
      default:
        break;
    }
    Instr in = base(api, line, pipe);
    in.sync = kind;
    in.syncSrc = src;
    in.syncDst = dst;
    in.syncId = bufferId;
    block(b).instrs.push_back(in);
  }

  void flag(int b, SyncKind kind, Pipe src, Pipe dst, std::int32_t id, std::uint32_t line) {
    Instr in =
        base(kind == SyncKind::SetFlag ? "SetFlag" : "WaitFlag", line, kind == SyncKind::SetFlag ? src : dst);
    in.sync = kind;
    in.syncSrc = src;
    in.syncDst = dst;
    in.syncId = id;
    block(b).instrs.push_back(in);
  }

  void barrier(int b, Pipe p, std::uint32_t line) {
    Instr in = base("PipeBarrier", line, p);
    in.sync = SyncKind::Barrier;
    in.syncSrc = in.syncDst = p;
    block(b).instrs.push_back(in);
  }

  void copyIn(int b, std::uint64_t gmAddr, std::uint32_t ubOff, std::uint64_t bytes, std::uint32_t line,
              DType dt = DType::F16) {
    Instr in = base("DataCopy", line, Pipe::MTE2);
    in.dtype = in.srcDtype = dt;
    in.srcSpace = MemSpace::GM;
    in.dstSpace = MemSpace::UB;
    in.bytes = bytes;
    in.count = static_cast<std::uint32_t>(bytes / kwb_sim::dtypeSize(dt));
    in.gmAddr = gmAddr;
    in.burstCount = 1;
    in.burstLen = static_cast<std::uint32_t>(bytes);
    in.gmStride = bytes;
    in.dstOff = ubOff;
    in.dstLen = static_cast<std::uint32_t>(bytes);
    block(b).instrs.push_back(in);
  }

  void copyOut(int b, std::uint64_t gmAddr, std::uint32_t ubOff, std::uint64_t bytes, std::uint32_t line,
               DType dt = DType::F16) {
    Instr in = base("DataCopy", line, Pipe::MTE3);
    in.dtype = in.srcDtype = dt;
    in.srcSpace = MemSpace::UB;
    in.dstSpace = MemSpace::GM;
    in.bytes = bytes;
    in.count = static_cast<std::uint32_t>(bytes / kwb_sim::dtypeSize(dt));
    in.gmAddr = gmAddr;
    in.burstCount = 1;
    in.burstLen = static_cast<std::uint32_t>(bytes);
    in.gmStride = bytes;
    in.src0Off = ubOff;
    in.src0Len = static_cast<std::uint32_t>(bytes);
    block(b).instrs.push_back(in);
  }

  void vec(int b, const std::string& api, std::uint32_t count, std::uint32_t dstOff, std::uint32_t src0Off,
           std::uint32_t src1Off, bool binary, std::uint32_t line, DType dt = DType::F16) {
    Instr in = base(api, line, Pipe::V);
    in.dtype = in.srcDtype = dt;
    in.srcSpace = in.dstSpace = MemSpace::UB;
    const std::uint32_t bytes = count * kwb_sim::dtypeSize(dt);
    in.count = count;
    in.repeat = (bytes + 255) / 256;
    in.bytes = bytes;
    in.dstOff = dstOff;
    in.dstLen = bytes;
    in.src0Off = src0Off;
    in.src0Len = bytes;
    if (binary) {
      in.src1Off = src1Off;
      in.src1Len = bytes;
    }
    block(b).instrs.push_back(in);
  }

  void scalar(int b, const std::string& api, MemSpace space, std::uint32_t ubOff, std::uint64_t gmAddr,
              bool write, std::uint32_t line, std::uint32_t times = 1) {
    Instr in = base(api, line, Pipe::S);
    in.dtype = DType::F32;
    in.count = 1;
    in.bytes = 4;
    in.times = times;
    if (write) {
      in.dstSpace = space;
      if (space == MemSpace::UB) {
        in.dstOff = ubOff;
        in.dstLen = 4;
      }
    } else {
      in.srcSpace = space;
      if (space == MemSpace::UB) {
        in.src0Off = ubOff;
        in.src0Len = 4;
      }
    }
    in.gmAddr = space == MemSpace::GM ? gmAddr : 0;
    block(b).instrs.push_back(in);
  }

  kwb_sim::LaunchTrace& trace() { return trace_; }

 private:
  kwb_sim::LaunchTrace trace_;
  std::uint32_t file_ = 0;
};

struct ElementwiseKernel {
  std::uint64_t totalElements = std::uint64_t{8} * 65536;  // over all blocks
  int blocks = 8;
  std::uint32_t tile = 2048;  // elements per tile
  int bufferNum = 2;          // 1 = single, 2 = double buffering
  std::string op = "Add";     // "Add" (two inputs) or a unary op ("Exp", "Abs", ...)
  DType dtype = DType::F16;
  std::uint64_t gmBase = 0x100000000ull;  // 512 B aligned unless a test shifts it
};

// The classic add_custom kernel of the public samples: per tile AllocTensor/DataCopy/EnQue (CopyIn),
// DeQue/op/EnQue/FreeTensor (Compute), DeQue/DataCopy/FreeTensor (CopyOut), source lines as in a
// kernel file where CopyIn/Compute/CopyOut follow each other.
inline kwb_sim::LaunchTrace buildElementwise(const ElementwiseKernel& k) {
  TraceBuilder tb;
  const bool binary =
      k.op == "Add" || k.op == "Sub" || k.op == "Mul" || k.op == "Div" || k.op == "Max" || k.op == "Min";
  const unsigned es = kwb_sim::dtypeSize(k.dtype);
  const std::uint64_t perBlock = k.totalElements / static_cast<std::uint64_t>(k.blocks);
  const std::uint64_t tiles = perBlock / k.tile;
  const std::uint32_t tileBytes = k.tile * es;
  const std::uint64_t xBase = k.gmBase, yBase = k.gmBase + 0x40000000ull, zBase = k.gmBase + 0x80000000ull;
  for (int b = 0; b < k.blocks; ++b) {
    tb.block(b);
    const std::uint64_t blockOff = static_cast<std::uint64_t>(b) * perBlock * es;
    for (std::uint64_t i = 0; i < tiles; ++i) {
      const int slot = static_cast<int>(i % static_cast<std::uint64_t>(k.bufferNum));
      const std::int32_t xId = slot, yId = k.bufferNum + slot, zId = 2 * k.bufferNum + slot;
      // UB layout free of bank conflicts (docs/calibration.md, "UB bank conflicts"): x, y and z buffers
      // each in their own 64 KB third of the 910B UB (different banks), y shifted by 256 B so that its
      // DataBlocks fall into the other 8 bank groups than x's. CostModelBankConflictTest costs the
      // conflicting placements.
      const std::uint32_t xUb = static_cast<std::uint32_t>(slot) * tileBytes;
      const std::uint32_t yUb = 0x10000 + 256 + static_cast<std::uint32_t>(slot) * tileBytes;
      const std::uint32_t zUb = 0x20000 + static_cast<std::uint32_t>(slot) * tileBytes;
      const std::uint64_t off = blockOff + i * tileBytes;
      // CopyIn (lines 40-46)
      tb.queue(b, SyncKind::AllocTensor, Pipe::MTE2, Pipe::V, xId, 40);
      if (binary) tb.queue(b, SyncKind::AllocTensor, Pipe::MTE2, Pipe::V, yId, 41);
      tb.copyIn(b, xBase + off, xUb, tileBytes, 42, k.dtype);
      if (binary) tb.copyIn(b, yBase + off, yUb, tileBytes, 43, k.dtype);
      tb.queue(b, SyncKind::EnQue, Pipe::MTE2, Pipe::V, xId, 44);
      if (binary) tb.queue(b, SyncKind::EnQue, Pipe::MTE2, Pipe::V, yId, 45);
      // Compute (lines 50-57)
      tb.queue(b, SyncKind::DeQue, Pipe::MTE2, Pipe::V, xId, 50);
      if (binary) tb.queue(b, SyncKind::DeQue, Pipe::MTE2, Pipe::V, yId, 51);
      tb.queue(b, SyncKind::AllocTensor, Pipe::V, Pipe::MTE3, zId, 52);
      tb.vec(b, k.op, k.tile, zUb, xUb, yUb, binary, 53, k.dtype);
      tb.queue(b, SyncKind::EnQue, Pipe::V, Pipe::MTE3, zId, 54);
      tb.queue(b, SyncKind::FreeTensor, Pipe::MTE2, Pipe::V, xId, 55);
      if (binary) tb.queue(b, SyncKind::FreeTensor, Pipe::MTE2, Pipe::V, yId, 56);
      // CopyOut (lines 60-62)
      tb.queue(b, SyncKind::DeQue, Pipe::V, Pipe::MTE3, zId, 60);
      tb.copyOut(b, zBase + off, zUb, tileBytes, 61, k.dtype);
      tb.queue(b, SyncKind::FreeTensor, Pipe::V, Pipe::MTE3, zId, 62);
    }
  }
  return tb.trace();
}

}  // namespace kwb::sim::test
