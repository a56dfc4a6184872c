// SPDX-License-Identifier: MIT
#include "core/emulator/costmodel/L2Model.h"

#include <algorithm>

namespace kwb::sim::detail {

using kwb_sim::Instr;
using kwb_sim::MemSpace;
using kwb_sim::SyncKind;

L2Lru::L2Lru(std::uint64_t capacityBytes)
    : capacityChunks_(static_cast<std::size_t>(std::max<std::uint64_t>(1, capacityBytes / kChunkBytes))) {
  chunks_.reserve(std::min<std::size_t>(capacityChunks_ + 1, std::size_t{1} << 20));
}

void L2Lru::touch(std::uint64_t addr, std::uint64_t len, std::uint64_t& lines, std::uint64_t& hits) {
  if (len == 0) return;
  const std::uint64_t firstLine = addr / kLineBytes, lastLine = (addr + len - 1) / kLineBytes;
  constexpr std::uint64_t linesPerChunk = kChunkBytes / kLineBytes;
  for (std::uint64_t line = firstLine; line <= lastLine;) {
    const std::uint64_t chunk = line / linesPerChunk;
    const std::uint64_t chunkEnd = std::min(lastLine + 1, (chunk + 1) * linesPerChunk);
    std::uint32_t want = 0;
    for (std::uint64_t l = line; l < chunkEnd; ++l) want |= std::uint32_t{1} << (l % linesPerChunk);
    auto it = chunks_.find(chunk);
    if (it == chunks_.end()) {
      if (chunks_.size() >= capacityChunks_) {
        chunks_.erase(order_.back());
        order_.pop_back();
      }
      order_.push_front(chunk);
      it = chunks_.emplace(chunk, Entry{0, order_.begin()}).first;
    } else {
      order_.splice(order_.begin(), order_, it->second.pos);
    }
    lines += chunkEnd - line;
    hits += static_cast<std::uint64_t>(__builtin_popcount(it->second.present & want));
    it->second.present |= want;
    line = chunkEnd;
  }
}

namespace {

bool touchesGm(const Instr& in) {
  return in.sync == SyncKind::None && in.bytes > 0 && in.gmAddr != 0 &&
         (in.srcSpace == MemSpace::GM || in.dstSpace == MemSpace::GM) &&
         in.pipe != kwb_sim::Pipe::S;  // scalar GM accesses go through the DCache model
}

}  // namespace

std::vector<float> l2HitShares(const SocParams& soc, const kwb_sim::LaunchTrace& trace,
                               const std::vector<std::size_t>& blockOffset) {
  std::vector<float> share(blockOffset.empty() ? 0 : blockOffset.back(), 0.0f);
  if (soc.l2Bytes == 0 || share.empty()) return share;

  // Lockstep order: every GM record keyed by its position as a fraction of its block's trace.
  struct Ref {
    double at;
    std::uint32_t block, record;
  };
  std::vector<Ref> refs;
  for (std::size_t b = 0; b < trace.blocks.size(); ++b) {
    const auto& instrs = trace.blocks[b].instrs;
    const double n = static_cast<double>(std::max<std::size_t>(1, instrs.size()));
    for (std::size_t k = 0; k < instrs.size(); ++k)
      if (touchesGm(instrs[k]))
        refs.push_back(
            Ref{static_cast<double>(k) / n, static_cast<std::uint32_t>(b), static_cast<std::uint32_t>(k)});
  }
  std::stable_sort(refs.begin(), refs.end(), [](const Ref& a, const Ref& b) { return a.at < b.at; });

  L2Lru l2(soc.l2Bytes);
  for (int replay = 0; replay < 2; ++replay) {
    for (const Ref& r : refs) {
      const Instr& in = trace.blocks[r.block].instrs[r.record];
      const std::uint64_t bursts = std::max<std::uint32_t>(1, in.burstCount);
      const std::uint64_t len = in.burstLen > 0 ? in.burstLen : in.bytes / bursts;
      const std::uint64_t stride = in.gmStride > 0 ? in.gmStride : len;
      std::uint64_t lines = 0, hits = 0;
      for (std::uint64_t i = 0; i < bursts; ++i) l2.touch(in.gmAddr + i * stride, len, lines, hits);
      if (replay == 1 && lines > 0)
        share[blockOffset[r.block] + r.record] =
            static_cast<float>(static_cast<double>(hits) / static_cast<double>(lines));
    }
  }
  return share;
}

}  // namespace kwb::sim::detail
