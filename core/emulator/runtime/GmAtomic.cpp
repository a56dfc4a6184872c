// SPDX-License-Identifier: MIT
#include "GmAtomic.h"

#include <cstring>

#include "kwb_sim/fp16.h"

#include "BlockContext.h"

namespace kwb_sim::rt {

namespace {
// Atomic accumulation into GM (UB->GM DataCopy, L0C->GM Fixpipe under SetAtomicAdd/Max/Min): each element is
// combined with GM by a compare-and-swap loop on the shared GM mapping, so concurrent blocks (separate
// processes) never lose an update. The element type is the one given to SetAtomic*<T>. A GM address not
// aligned to the element (already reported as misaligned-copy) is combined without the CAS.
template <typename Bits>
Bits combineBits(AtomicOp op, DType dt, Bits g, Bits v) {
  auto pick = [&](auto a, auto b) {
    using V = decltype(a);
    V r = a;
    if (op == AtomicOp::Add)
      r = static_cast<V>(a + b);
    else if (op == AtomicOp::Max)
      r = b > a ? b : a;
    else if (op == AtomicOp::Min)
      r = b < a ? b : a;
    return r;
  };
  Bits out = g;
  if (dt == DType::F32) {
    float a, b;
    std::memcpy(&a, &g, 4);
    std::memcpy(&b, &v, 4);
    const float r = pick(a, b);
    std::memcpy(&out, &r, 4);
  } else if (dt == DType::I32) {
    std::int32_t a, b;
    std::memcpy(&a, &g, 4);
    std::memcpy(&b, &v, 4);
    // Wrapping add, as the vector integer ops.
    const std::int32_t r =
        op == AtomicOp::Add
            ? static_cast<std::int32_t>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b))
            : pick(a, b);
    std::memcpy(&out, &r, 4);
  } else if (dt == DType::F16) {
    std::uint16_t ha, hb;
    std::memcpy(&ha, &g, 2);
    std::memcpy(&hb, &v, 2);
    const float r = pick(half::toFloat(ha), half::toFloat(hb));  // computed in float, rounded once
    const std::uint16_t hr = half::fromFloat(r);
    std::memcpy(&out, &hr, 2);
  }
  return out;
}

template <typename Bits>
void accumulateElems(std::uint8_t* d, const std::uint8_t* s, std::uint64_t n, AtomicOp op, DType dt) {
  for (std::uint64_t k = 0; k + sizeof(Bits) <= n; k += sizeof(Bits)) {
    Bits v;
    std::memcpy(&v, s + k, sizeof(Bits));
    if (reinterpret_cast<std::uintptr_t>(d + k) % sizeof(Bits) != 0) {
      Bits g;
      std::memcpy(&g, d + k, sizeof(Bits));
      const Bits r = combineBits(op, dt, g, v);
      std::memcpy(d + k, &r, sizeof(Bits));
      continue;
    }
    Bits* p = reinterpret_cast<Bits*>(d + k);
    Bits g = __atomic_load_n(p, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(p, &g, combineBits(op, dt, g, v), false, __ATOMIC_SEQ_CST,
                                        __ATOMIC_RELAXED)) {
    }
  }
}

}  // namespace

void gmAccumulate(std::uint8_t* d, const std::uint8_t* s, std::uint64_t n) {
  const AtomicOp op = g_block.atomicOp;
  const DType dt = g_block.atomicType;
  if (dt == DType::F16)
    accumulateElems<std::uint16_t>(d, s, n, op, dt);
  else
    accumulateElems<std::uint32_t>(d, s, n, op, dt);
}

}  // namespace kwb_sim::rt
