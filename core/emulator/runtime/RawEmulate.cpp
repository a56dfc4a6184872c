// SPDX-License-Identifier: MIT
// The fast path of raw accesses (RawEmulate.h): loads, stores, ALU and SSE scalar arithmetic with a
// memory operand, executed here with the program's own flags and MXCSR so that results, flags and
// rounding are the hardware's. See docs/emulator.md, "Raw pointers".
#if defined(__x86_64__)

#include "RawEmulate.h"

#include <cstring>

namespace kwb_sim {

namespace {

constexpr int kGreg[16] = {REG_RAX, REG_RCX, REG_RDX, REG_RBX, REG_RSP, REG_RBP, REG_RSI, REG_RDI,
                           REG_R8,  REG_R9,  REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15};
constexpr std::uint64_t kArithFlags = 0x8D5;  // CF PF AF ZF SF OF

std::uint64_t readGpr(const ucontext_t* uc, const x86::MemInstr& m) {
  const auto v = static_cast<std::uint64_t>(uc->uc_mcontext.gregs[kGreg[m.reg]]);
  return m.highByte ? (v >> 8) & 0xFF : v;
}

// The register write of an m.regBytes-sized destination: 8 whole, 4 zero-extends to 64 bits, 2 and 1
// keep the other bits (AH..BH: bits 8..15).
void writeGpr(ucontext_t* uc, const x86::MemInstr& m, std::uint64_t v) {
  auto& g = uc->uc_mcontext.gregs[kGreg[m.reg]];
  const auto old = static_cast<std::uint64_t>(g);
  std::uint64_t r;
  switch (m.regBytes) {
    case 8:
      r = v;
      break;
    case 4:
      r = v & 0xFFFFFFFFull;
      break;
    case 2:
      r = (old & ~0xFFFFull) | (v & 0xFFFF);
      break;
    default:
      r = m.highByte ? (old & ~0xFF00ull) | ((v & 0xFF) << 8) : (old & ~0xFFull) | (v & 0xFF);
      break;
  }
  g = static_cast<greg_t>(r);
}

std::uint64_t loadMem(const std::uint8_t* mem, unsigned width, bool signExtend) {
  std::uint64_t v = 0;
  std::memcpy(&v, mem, width);  // little-endian: the low `width` bytes
  if (signExtend && width < 8) {
    const unsigned shift = 64 - 8 * width;
    v = static_cast<std::uint64_t>(static_cast<std::int64_t>(v << shift) >> shift);
  }
  return v;
}

// The ALU instruction itself, on the same operand size, with the program's arithmetic flags in and out
// (exact flags, adc/sbb carry-in). Below the red zone: pushfq/popfq would otherwise clobber it.
#define KWB_ALU_ASM(INSN)                                               \
  asm volatile("lea -128(%%rsp), %%rsp\n\tpushq %[f]\n\tpopfq\n\t" INSN \
               "\n\tpushfq\n\tpopq %[f]\n\tlea 128(%%rsp), %%rsp"       \
               : [d] "+r"(d), [f] "+r"(fl)                              \
               : [s] "r"(s)                                             \
               : "cc", "memory")
#define KWB_ALU_WIDTHS(MN)              \
  switch (width) {                      \
    case 1:                             \
      KWB_ALU_ASM(MN "b %b[s], %b[d]"); \
      break;                            \
    case 2:                             \
      KWB_ALU_ASM(MN "w %w[s], %w[d]"); \
      break;                            \
    case 4:                             \
      KWB_ALU_ASM(MN "l %k[s], %k[d]"); \
      break;                            \
    default:                            \
      KWB_ALU_ASM(MN "q %q[s], %q[d]"); \
      break;                            \
  }
std::uint64_t aluExec(x86::Alu op, unsigned width, std::uint64_t d, std::uint64_t s, std::uint64_t& fl) {
  switch (op) {
    case x86::Alu::Add:
      KWB_ALU_WIDTHS("add") break;
    case x86::Alu::Or:
      KWB_ALU_WIDTHS("or") break;
    case x86::Alu::Adc:
      KWB_ALU_WIDTHS("adc") break;
    case x86::Alu::Sbb:
      KWB_ALU_WIDTHS("sbb") break;
    case x86::Alu::And:
      KWB_ALU_WIDTHS("and") break;
    case x86::Alu::Sub:
      KWB_ALU_WIDTHS("sub") break;
    case x86::Alu::Xor:
      KWB_ALU_WIDTHS("xor") break;
    case x86::Alu::Cmp:
      KWB_ALU_WIDTHS("cmp") break;
    case x86::Alu::Test:
      KWB_ALU_WIDTHS("test") break;
  }
  return d;
}
#undef KWB_ALU_WIDTHS
#undef KWB_ALU_ASM

using V2d = double __attribute__((vector_size(16)));
// The scalar SSE instruction itself (register form: the same operation as the memory form on the low
// element) under the program's MXCSR (rounding, DAZ/FTZ; its sticky exception flags come back).
#define KWB_SSE_ASM(INSN)                                                                                \
  asm volatile("stmxcsr %[sv]\n\tldmxcsr %[mx]\n\t" INSN " %[s], %[d]\n\tstmxcsr %[mx]\n\tldmxcsr %[sv]" \
               : [d] "+x"(d), [mx] "+m"(mx), [sv] "+m"(sv)                                               \
               : [s] "x"(s))
#define KWB_SSE_CMP(INSN)                                                                                \
  asm volatile("stmxcsr %[sv]\n\tldmxcsr %[mx]\n\t" INSN " %[s], %[d]\n\tstmxcsr %[mx]\n\tldmxcsr %[sv]" \
               : [mx] "+m"(mx), [sv] "+m"(sv), "=@ccz"(zf), "=@ccp"(pf), "=@ccc"(cf)                     \
               : [d] "x"(d), [s] "x"(s))
void sseExec(const x86::MemInstr& m, V2d& d, V2d s, std::uint32_t& mx, std::uint64_t& efl) {
  std::uint32_t sv = 0;
  bool zf = false, pf = false, cf = false;
  if (m.dbl) {
    switch (m.sse) {
      case x86::Sse::Add:
        KWB_SSE_ASM("addsd");
        break;
      case x86::Sse::Mul:
        KWB_SSE_ASM("mulsd");
        break;
      case x86::Sse::Sub:
        KWB_SSE_ASM("subsd");
        break;
      case x86::Sse::Min:
        KWB_SSE_ASM("minsd");
        break;
      case x86::Sse::Div:
        KWB_SSE_ASM("divsd");
        break;
      case x86::Sse::Max:
        KWB_SSE_ASM("maxsd");
        break;
      case x86::Sse::Sqrt:
        KWB_SSE_ASM("sqrtsd");
        break;
      case x86::Sse::Ucomi:
        KWB_SSE_CMP("ucomisd");
        break;
      case x86::Sse::Comi:
        KWB_SSE_CMP("comisd");
        break;
    }
  } else {
    switch (m.sse) {
      case x86::Sse::Add:
        KWB_SSE_ASM("addss");
        break;
      case x86::Sse::Mul:
        KWB_SSE_ASM("mulss");
        break;
      case x86::Sse::Sub:
        KWB_SSE_ASM("subss");
        break;
      case x86::Sse::Min:
        KWB_SSE_ASM("minss");
        break;
      case x86::Sse::Div:
        KWB_SSE_ASM("divss");
        break;
      case x86::Sse::Max:
        KWB_SSE_ASM("maxss");
        break;
      case x86::Sse::Sqrt:
        KWB_SSE_ASM("sqrtss");
        break;
      case x86::Sse::Ucomi:
        KWB_SSE_CMP("ucomiss");
        break;
      case x86::Sse::Comi:
        KWB_SSE_CMP("comiss");
        break;
    }
  }
  if (m.sse == x86::Sse::Ucomi || m.sse == x86::Sse::Comi)  // ZF PF CF from the compare, OF SF AF cleared
    efl = (efl & ~kArithFlags) | (zf ? 0x40 : 0) | (pf ? 0x4 : 0) | (cf ? 0x1 : 0);
}
#undef KWB_SSE_CMP
#undef KWB_SSE_ASM

// An XSAVE signal frame restores the SSE registers from the legacy area only when XSTATE_BV says they
// are in use (else it resets them to zero): after writing one, say so.
void markSseInUse(std::uint8_t* fp) {
  std::uint32_t magic1;
  std::memcpy(&magic1, fp + 464, 4);  // struct _fpx_sw_bytes in the fxsave area's software-reserved bytes
  if (magic1 != 0x46505853u) return;  // FP_XSTATE_MAGIC1; without it the frame is plain fxsave
  std::uint64_t bv;
  std::memcpy(&bv, fp + 512, 8);  // the XSAVE header's XSTATE_BV
  bv |= 2;                        // XFEATURE_MASK_SSE
  std::memcpy(fp + 512, &bv, 8);
}

// Performs `m` with its memory operand at `mem` (the alias of the faulting address). False: not done
// (nothing changed), single-step it instead.
}  // namespace

bool emulateMemInstr(const x86::MemInstr& m, ucontext_t* uc, std::uint8_t* mem) {
  auto& efl = uc->uc_mcontext.gregs[REG_EFL];
  switch (m.kind) {
    case x86::Kind::GprLoad:
      writeGpr(uc, m, loadMem(mem, m.width, m.signExtend));
      return true;
    case x86::Kind::GprStore: {
      const std::uint64_t v = readGpr(uc, m);
      std::memcpy(mem, &v, m.width);
      return true;
    }
    case x86::Kind::ImmStore:
      std::memcpy(mem, &m.imm, m.width);
      return true;
    case x86::Kind::GprAlu: {
      const std::uint64_t mv = loadMem(mem, m.width, false);
      const std::uint64_t rv = m.useImm ? static_cast<std::uint64_t>(m.imm) : readGpr(uc, m);
      std::uint64_t fl = (static_cast<std::uint64_t>(efl) & kArithFlags) | 0x2;
      const std::uint64_t r =
          m.memFirst ? aluExec(m.alu, m.width, mv, rv, fl) : aluExec(m.alu, m.width, rv, mv, fl);
      if (!m.memFirst && m.alu != x86::Alu::Cmp && m.alu != x86::Alu::Test) writeGpr(uc, m, r);
      efl = static_cast<greg_t>((static_cast<std::uint64_t>(efl) & ~kArithFlags) | (fl & kArithFlags));
      return true;
    }
    default:
      break;
  }
  // XMM forms: the registers live in the FP frame.
  if (uc->uc_mcontext.fpregs == nullptr || m.reg > 15) return false;
  auto* fp = reinterpret_cast<std::uint8_t*>(uc->uc_mcontext.fpregs);
  std::uint8_t* xmm = reinterpret_cast<std::uint8_t*>(&uc->uc_mcontext.fpregs->_xmm[m.reg]);
  switch (m.kind) {
    case x86::Kind::XmmLoad: {
      std::uint8_t v[16] = {};
      std::memcpy(v, mem, m.width);
      std::memcpy(xmm, v, 16);
      markSseInUse(fp);
      return true;
    }
    case x86::Kind::XmmStore:
      std::memcpy(mem, xmm, m.width);
      return true;
    case x86::Kind::XmmArith: {
      std::uint32_t mx = uc->uc_mcontext.fpregs->mxcsr;
      if ((mx & 0x1F80) != 0x1F80) return false;  // an unmasked FP exception would trap here, not there
      V2d d, s = {0, 0};
      std::memcpy(&d, xmm, 16);
      std::memcpy(&s, mem, m.width);
      std::uint64_t fl = static_cast<std::uint64_t>(efl);
      sseExec(m, d, s, mx, fl);
      efl = static_cast<greg_t>(fl);
      if (m.sse != x86::Sse::Ucomi && m.sse != x86::Sse::Comi) std::memcpy(xmm, &d, 16);
      uc->uc_mcontext.fpregs->mxcsr = mx;
      markSseInUse(fp);
      return true;
    }
    default:
      return false;
  }
}

}  // namespace kwb_sim

#endif  // __x86_64__
