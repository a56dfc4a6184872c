// SPDX-License-Identifier: MIT
#include "core/verify/MismatchPattern.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/verify/NumberText.h"

namespace kwb::verify {

std::string_view patternName(PatternKind k) {
  switch (k) {
    case PatternKind::None:
      return "none";
    case PatternKind::Unwritten:
      return "unwritten";
    case PatternKind::AllWrong:
      return "all-wrong";
    case PatternKind::TailOnly:
      return "tail-only";
    case PatternKind::RowTailOnly:
      return "row-tail-only";
    case PatternKind::BlockOnly:
      return "block-only";
    case PatternKind::Strided:
      return "strided";
    case PatternKind::Scale:
      return "scale";
    case PatternKind::Offset:
      return "offset";
    case PatternKind::ConstantOutput:
      return "constant-output";
    case PatternKind::Scattered:
      return "scattered";
  }
  return "scattered";
}

namespace {

// Element range [begin, end) of each block under the usual split: whole rows per block when the
// tensor has at least blockDim rows, else a flat split.
std::vector<std::pair<std::int64_t, std::int64_t>> blockRanges(const Shape& shape, std::int64_t n,
                                                               int blockDim) {
  std::vector<std::pair<std::int64_t, std::int64_t>> r;
  if (blockDim <= 1 || n == 0) return {{0, n}};
  const std::int64_t cols = shape.empty() ? 1 : std::max<std::int64_t>(shape.back(), 1);
  const std::int64_t rows = n / cols;
  std::int64_t chunk;
  if (shape.size() >= 2 && rows >= blockDim)
    chunk = ((rows + blockDim - 1) / blockDim) * cols;
  else
    chunk = (n + blockDim - 1) / blockDim;
  for (int b = 0; b < blockDim; ++b) {
    const std::int64_t s = std::min<std::int64_t>(n, b * chunk), e = std::min<std::int64_t>(n, s + chunk);
    r.emplace_back(s, e);
  }
  return r;
}

// Which block wrote element i and the extent of each block's slice: from the slices the run really
// wrote when the backend recorded them, else the usual even split.
class BlockMap {
 public:
  BlockMap(const Shape& shape, std::int64_t n, const LaunchShape& launch)
      : blockDim_(launch.blockDim), real_(!launch.blockWrites.empty()) {
    if (real_) {
      blockDim_ = static_cast<int>(launch.blockWrites.size());
      for (const auto& ranges : launch.blockWrites) {
        std::int64_t lo = n, hi = 0;
        for (const auto& r : ranges) {
          lo = std::min(lo, r.begin);
          hi = std::max(hi, r.end);
        }
        extents_.emplace_back(std::min(lo, hi), hi);
      }
      writes_ = &launch.blockWrites;
    } else {
      extents_ = blockRanges(shape, n, launch.blockDim);
    }
  }
  // -1: no block wrote it (real slices only).
  int blockOf(std::int64_t i) const {
    if (real_) {
      for (std::size_t b = 0; b < writes_->size(); ++b)
        for (const auto& r : (*writes_)[b])
          if (i >= r.begin && i < r.end) return static_cast<int>(b);
      return -1;
    }
    for (std::size_t b = 0; b < extents_.size(); ++b)
      if (i >= extents_[b].first && i < extents_[b].second) return static_cast<int>(b);
    return static_cast<int>(extents_.size()) - 1;
  }
  std::pair<std::int64_t, std::int64_t> extent(int b) const {
    return b >= 0 && b < static_cast<int>(extents_.size()) ? extents_[static_cast<std::size_t>(b)]
                                                           : std::pair<std::int64_t, std::int64_t>{0, 0};
  }
  int blockDim() const { return blockDim_; }
  bool real() const { return real_; }

 private:
  int blockDim_;
  bool real_;
  std::vector<std::pair<std::int64_t, std::int64_t>> extents_;
  const BlockSlices* writes_ = nullptr;
};

// Every wrong element still holds the poison: the kernel never wrote them. Which ones, and which
// block's slice they fall in when the run's slices are known.
Pattern unwrittenPattern(const std::vector<std::int64_t>& idx, std::int64_t n, const BlockMap& blocks) {
  Pattern p;
  p.kind = PatternKind::Unwritten;
  const auto count = static_cast<std::int64_t>(idx.size());
  const std::int64_t first = idx.front(), last = idx.back();
  p.firstIndex = first;
  if (count == n) {
    p.detail = "not written: the kernel wrote none of the " + std::to_string(n) +
               " elements of this output (they still hold the poison the harness filled it with); check the "
               "copy to this output's GlobalTensor and its SetGlobalBuffer";
    return p;
  }
  p.detail = "not written: " + std::to_string(count) + " of " + std::to_string(n) +
             " elements still hold the poison the harness filled the output with (indices " +
             std::to_string(first) + ".." + std::to_string(last) +
             (last - first + 1 == count ? ", contiguous" : "") + ")";
  if (first == 0 && last - first + 1 == count) p.unwrittenPrefix = count;
  if (last == n - 1 && last - first + 1 == count)
    p.detail += ": the end of the output is never copied out (a tail tile or the last block's remainder)";
  else if (blocks.real() && blocks.blockDim() > 1)
    p.detail += "; no block's copies cover them: check each block's offset and length";
  return p;
}

}  // namespace

Pattern classifyMismatches(const std::vector<bool>& wrong, const Shape& shape,
                           const std::vector<double>& expected, const std::vector<double>& actual,
                           int blockDim) {
  return classifyMismatches(wrong, shape, expected, actual, LaunchShape{blockDim, {}}, {});
}

namespace {
// The layout of the wrong elements (tail, block, row tail, stride) and, when their values are the
// kernel's (`valuesKnown`: none still holds the poison), a constant output, factor or offset.
Pattern classifyLayout(const std::vector<std::int64_t>& idx, const Shape& shape,
                       const std::vector<double>& expected, const std::vector<double>& actual,
                       const BlockMap& blocks, bool valuesKnown) {
  Pattern p;
  const auto n = static_cast<std::int64_t>(expected.size());
  const auto count = static_cast<std::int64_t>(idx.size());
  const int blockDim = blocks.blockDim();
  const bool anyUnwritten = !valuesKnown;

  // Constant output while the reference varies (all zeros is the classic reward hack). Not when some
  // elements still hold the poison: their equal values are the harness's, not the kernel's.
  if (n > 1 && !anyUnwritten) {
    const double a0 = actual[0];
    bool constant = true;
    for (double a : actual)
      if (!(a == a0) && !(std::isnan(a) && std::isnan(a0))) {
        constant = false;
        break;
      }
    const auto [mn, mx] = std::minmax_element(expected.begin(), expected.end());
    if (constant && *mx > *mn) {
      p.kind = PatternKind::ConstantOutput;
      p.detail =
          a0 == 0.0 ? "the output is all zeros while the reference is not: nothing was computed or copied out"
                    : "every output element is " + numberText(a0) + " while the reference varies from " +
                          numberText(*mn) + " to " + numberText(*mx);
      return p;
    }
  }

  // A constant factor or offset over the wrong elements (a missing scale, a wrong attribute, a
  // reduction divided by the wrong count).
  std::optional<Pattern> affine;
  if (count >= 4 && valuesKnown) {
    std::vector<double> ratios, diffs;
    for (auto i : idx) {
      const double e = expected[static_cast<std::size_t>(i)], a = actual[static_cast<std::size_t>(i)];
      if (!std::isfinite(a) || !std::isfinite(e)) {
        ratios.clear();
        diffs.clear();
        break;
      }
      if (std::fabs(e) > 1e-6) ratios.push_back(a / e);
      diffs.push_back(a - e);
    }
    auto near = [](const std::vector<double>& v, double tolRel) -> std::optional<double> {
      if (v.size() < 4) return std::nullopt;
      std::vector<double> s = v;
      std::nth_element(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(s.size() / 2), s.end());
      const double med = s[s.size() / 2];
      for (double x : v)
        if (std::fabs(x - med) > tolRel * std::max(1.0, std::fabs(med))) return std::nullopt;
      return med;
    };
    if (ratios.size() * 10 >= idx.size() * 9) {
      if (auto k = near(ratios, 5e-3); k && std::fabs(*k - 1.0) > 1e-2 && std::fabs(*k) > 1e-3) {
        Pattern a;
        a.kind = PatternKind::Scale;
        a.factor = *k;
        a.detail = "wrong elements are the reference times " + numberText(*k) +
                   " (a constant factor): check scaling attributes, divisors and mean/count terms";
        if (count * 10 < n * 9)
          a.detail += "; it affects " + std::to_string(count) + " of " + std::to_string(n) + " elements";
        affine = a;
      }
    }
    // An offset is constant only when every difference has its sign and they spread over at most a
    // tenth of it: small errors of mixed signs (rounding, a wrong reduction order) are not one.
    auto constantOffset = [](const std::vector<double>& v) -> std::optional<double> {
      if (v.size() < 4) return std::nullopt;
      std::vector<double> s = v;
      std::sort(s.begin(), s.end());
      const double med = s[s.size() / 2];
      if (s.front() * s.back() <= 0.0 || s.back() - s.front() > 0.1 * std::fabs(med)) return std::nullopt;
      return med;
    };
    if (!affine) {
      if (auto c = constantOffset(diffs)) {
        Pattern a;
        a.kind = PatternKind::Offset;
        a.factor = *c;
        a.detail = "wrong elements are the reference plus " + numberText(*c) + " (a constant offset)";
        affine = a;
      }
    }
  }
  bool wrongAreZero = true;
  for (auto i : idx)
    if (actual[static_cast<std::size_t>(i)] != 0.0) {
      wrongAreZero = false;
      break;
    }
  const std::string zeroNote = wrongAreZero ? "; the wrong elements are all 0" : "";

  const auto blockOf = [&](std::int64_t i) { return blocks.blockOf(i); };
  const auto sliceLen = [&](int b) { return blocks.extent(b).second - blocks.extent(b).first; };

  if (count * 100 >= n * 95) {
    if (affine) return *affine;
    p.kind = PatternKind::AllWrong;
    p.detail =
        "every element is wrong (" + std::to_string(count) + " of " + std::to_string(n) +
        "): the formula, the dtype handling or the data movement is wrong everywhere, not just at the edges";
    return p;
  }

  const std::int64_t first = idx.front(), last = idx.back();
  const int b0 = blockOf(first), b1 = blockOf(last);
  // Suffix of the tensor: the tail tile.
  const std::int64_t tailLen = n - first;
  const bool suffix = last == n - 1 && count * 2 >= tailLen;
  if (suffix && tailLen * 2 < n && (b0 != b1 || tailLen * 2 <= sliceLen(b1))) {
    p.kind = PatternKind::TailOnly;
    p.firstIndex = first;
    p.detail = "only the last " + std::to_string(tailLen) + " elements (indices " + std::to_string(first) +
               ".." + std::to_string(n - 1) + ") are wrong: the partial tail tile is not handled (length " +
               std::to_string(n) + " is not a multiple of the tile; use DataCopyPad or a shorter last tile)";
    p.detail += zeroNote;
    return p;
  }
  if (blockDim > 1 && b0 >= 0 && b0 == b1 && count * 10 >= sliceLen(b0)) {
    const auto [s, e] = blocks.extent(b0);
    p.kind = PatternKind::BlockOnly;
    p.block = b0;
    p.detail = "only block " + std::to_string(b0) + " of " + std::to_string(blockDim) + " is wrong (" +
               std::to_string(count) + " wrong elements inside the slice " + std::to_string(s) + ".." +
               std::to_string(e - 1) + (blocks.real() ? " it wrote" : " an even split gives it") +
               "): check the offset/length computed from GetBlockIdx() for that block" +
               (b0 == blockDim - 1 ? " (the last block takes the remainder)" : "");
    p.detail += zeroNote;
    return p;
  }
  // Trailing columns of rows.
  if (shape.size() >= 2 && shape.back() > 1) {
    const std::int64_t cols = shape.back();
    std::int64_t minCol = cols;
    std::vector<bool> rowHit(static_cast<std::size_t>(n / cols + 1), false);
    std::int64_t rowsHit = 0;
    for (auto i : idx) {
      minCol = std::min(minCol, i % cols);
      if (!rowHit[static_cast<std::size_t>(i / cols)]) {
        rowHit[static_cast<std::size_t>(i / cols)] = true;
        ++rowsHit;
      }
    }
    // Dense in the trailing columns of the rows it touches (a few stray elements are not a pattern).
    if (minCol > 0 && count * 2 >= rowsHit * (cols - minCol)) {
      p.kind = PatternKind::RowTailOnly;
      p.firstIndex = minCol;
      p.detail = "only columns " + std::to_string(minCol) + ".." + std::to_string(cols - 1) +
                 " of rows are wrong: the end of each row (row length " + std::to_string(cols) +
                 " is not a multiple of the tile/32-byte block) is not handled";
      p.detail += zeroNote;
      return p;
    }
  }
  // Every n-th element.
  if (count >= 3) {
    std::int64_t g = 0;
    for (std::size_t k = 1; k < idx.size(); ++k) g = std::gcd(g, idx[k] - idx[k - 1]);
    if (g > 1) {
      const std::int64_t possible = (last - first) / g + 1;
      if (count * 10 >= possible * 9 && possible * g * 2 >= n) {
        p.kind = PatternKind::Strided;
        p.stride = g;
        p.firstIndex = first;
        p.detail = "every " + std::to_string(g) +
                   "-th element is wrong (indices = " + std::to_string(first % g) + " mod " +
                   std::to_string(g) + "): a stride, repeat or mask parameter is off";
        return p;
      }
    }
  }
  if (affine) return *affine;
  p.kind = PatternKind::Scattered;
  std::vector<int> hit;
  for (auto i : idx) {
    const int b = blockOf(i);
    if (b >= 0) hit.push_back(b);
  }
  std::sort(hit.begin(), hit.end());
  hit.erase(std::unique(hit.begin(), hit.end()), hit.end());
  p.detail = std::to_string(count) + " wrong elements scattered from index " + std::to_string(first) +
             " to " + std::to_string(last);
  if (blockDim > 1) {
    p.detail += ", in " + std::to_string(hit.size()) + " of " + std::to_string(blockDim) + " blocks";
  }
  if (anyUnwritten) p.detail += "; some of them were never written (still the poison)";
  return p;
}
}  // namespace

Pattern classifyMismatches(const std::vector<bool>& wrong, const Shape& shape,
                           const std::vector<double>& expected, const std::vector<double>& actual,
                           const LaunchShape& launch, const std::vector<bool>& unwritten) {
  const auto n = static_cast<std::int64_t>(wrong.size());
  std::vector<std::int64_t> idx;
  for (std::int64_t i = 0; i < n; ++i)
    if (wrong[static_cast<std::size_t>(i)]) idx.push_back(i);
  if (idx.empty()) return Pattern{};
  const BlockMap blocks(shape, n, launch);
  bool anyUnwritten = false, allUnwritten = unwritten.size() == wrong.size();
  if (unwritten.size() == wrong.size())
    for (auto i : idx) {
      const bool u = unwritten[static_cast<std::size_t>(i)];
      anyUnwritten = anyUnwritten || u;
      allUnwritten = allUnwritten && u;
    }
  Pattern p = classifyLayout(idx, shape, expected, actual, blocks, !anyUnwritten);
  if (!allUnwritten) return p;
  // Never written: said first, with the layout when there is one (the tail, one block's slice).
  Pattern u = unwrittenPattern(idx, n, blocks);
  if (p.kind == PatternKind::TailOnly || p.kind == PatternKind::BlockOnly ||
      p.kind == PatternKind::RowTailOnly || p.kind == PatternKind::Strided) {
    p.detail = u.detail + "; " + p.detail;
    p.unwrittenPrefix = u.unwrittenPrefix;
    return p;
  }
  return u;
}

void to_json(nlohmann::json& j, const Pattern& p) {
  j = {{"kind", patternName(p.kind)}, {"detail", p.detail}};
  if (p.block) j["block"] = *p.block;
  if (p.stride) j["stride"] = *p.stride;
  if (p.factor) j["factor"] = *p.factor;
  if (p.firstIndex) j["first_index"] = *p.firstIndex;
}

}  // namespace kwb::verify
