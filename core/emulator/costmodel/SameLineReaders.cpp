// SPDX-License-Identifier: MIT
#include "core/emulator/costmodel/SameLineReaders.h"

#include <algorithm>
#include <cstdint>
#include <unordered_map>

namespace kwb::sim::detail {

using kwb_sim::Instr;
using kwb_sim::MemSpace;
using kwb_sim::SyncKind;

namespace {

bool readsGm(const Instr& in) {
  return in.sync == SyncKind::None && in.bytes > 0 && in.gmAddr != 0 && in.srcSpace == MemSpace::GM &&
         in.pipe != kwb_sim::Pipe::S;  // scalar reads go through the DCache, one line at a time
}

struct Ref {
  std::uint64_t window;
  std::uint32_t block, record;
};

// Calls visit(granule) for every same-address granule the record reads, burst by burst.
template <typename Visit>
void forEachLine(const Instr& in, std::uint64_t granule, Visit&& visit) {
  const std::uint64_t bursts = std::max<std::uint32_t>(1, in.burstCount);
  const std::uint64_t len = in.burstLen > 0 ? in.burstLen : in.bytes / bursts;
  const std::uint64_t stride = in.gmStride > 0 ? in.gmStride : len;
  if (len == 0) return;
  for (std::uint64_t i = 0; i < bursts; ++i) {
    const std::uint64_t lo = in.gmAddr + i * stride;
    for (std::uint64_t line = lo / granule; line <= (lo + len - 1) / granule; ++line) visit(line);
  }
}

}  // namespace

std::vector<float> sameLineReaders(const kwb_sim::LaunchTrace& trace,
                                   const std::vector<std::size_t>& blockOffset, std::uint64_t granuleBytes) {
  const std::uint64_t granule = std::max<std::uint64_t>(1, granuleBytes);
  std::vector<float> readers(blockOffset.empty() ? 0 : blockOffset.back(), 1.0f);
  if (readers.empty() || trace.blocks.size() < 2) return readers;

  std::vector<std::uint64_t> gmReads(trace.blocks.size(), 0);
  std::uint64_t longest = 0;
  for (std::size_t b = 0; b < trace.blocks.size(); ++b) {
    for (const Instr& in : trace.blocks[b].instrs) gmReads[b] += readsGm(in) ? 1 : 0;
    longest = std::max(longest, gmReads[b]);
  }
  if (longest == 0) return readers;
  std::vector<Ref> refs;
  for (std::size_t b = 0; b < trace.blocks.size(); ++b) {
    const auto& instrs = trace.blocks[b].instrs;
    std::uint64_t ordinal = 0;
    for (std::size_t k = 0; k < instrs.size(); ++k)
      if (readsGm(instrs[k]))
        refs.push_back(Ref{ordinal++ * longest / gmReads[b], static_cast<std::uint32_t>(b),
                           static_cast<std::uint32_t>(k)});
  }
  // Window by window, blocks in order, so that one block's reads of a line are adjacent.
  std::sort(refs.begin(), refs.end(), [](const Ref& a, const Ref& b) {
    return a.window != b.window ? a.window < b.window : a.block < b.block;
  });

  struct LineReaders {
    std::uint32_t lastBlock = ~0u;
    std::uint32_t blocks = 0;
  };
  std::unordered_map<std::uint64_t, LineReaders> lines;
  for (std::size_t first = 0; first < refs.size();) {
    std::size_t end = first;
    while (end < refs.size() && refs[end].window == refs[first].window) ++end;
    lines.clear();
    for (std::size_t i = first; i < end; ++i)
      forEachLine(trace.blocks[refs[i].block].instrs[refs[i].record], granule, [&](std::uint64_t line) {
        LineReaders& l = lines[line];
        if (l.lastBlock != refs[i].block) {
          l.lastBlock = refs[i].block;
          ++l.blocks;
        }
      });
    for (std::size_t i = first; i < end; ++i) {
      double sum = 0, count = 0;
      forEachLine(trace.blocks[refs[i].block].instrs[refs[i].record], granule, [&](std::uint64_t line) {
        sum += lines[line].blocks;
        ++count;
      });
      if (count > 0) readers[blockOffset[refs[i].block] + refs[i].record] = static_cast<float>(sum / count);
    }
    first = end;
  }
  return readers;
}

double sharedReadShare(const kwb_sim::LaunchTrace& trace, std::uint64_t granuleBytes) {
  const std::uint64_t granule = std::max<std::uint64_t>(1, granuleBytes);
  struct LineReaders {
    std::uint32_t firstBlock = ~0u;
    bool shared = false;
  };
  std::unordered_map<std::uint64_t, LineReaders> lines;
  for (std::size_t b = 0; b < trace.blocks.size(); ++b)
    for (const Instr& in : trace.blocks[b].instrs)
      if (readsGm(in))
        forEachLine(in, granule, [&](std::uint64_t line) {
          LineReaders& l = lines[line];
          if (l.firstBlock == ~0u)
            l.firstBlock = static_cast<std::uint32_t>(b);
          else if (l.firstBlock != b)
            l.shared = true;
        });
  double all = 0, shared = 0;
  for (const auto& b : trace.blocks)
    for (const Instr& in : b.instrs)
      if (readsGm(in))
        forEachLine(in, granule, [&](std::uint64_t line) {
          ++all;
          shared += lines[line].shared ? 1 : 0;
        });
  return all > 0 ? shared / all : 0;
}

}  // namespace kwb::sim::detail
