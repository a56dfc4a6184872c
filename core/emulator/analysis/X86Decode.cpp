// SPDX-License-Identifier: MIT
#include "core/emulator/analysis/X86Decode.h"

namespace kwb_sim::x86 {

namespace {

// VEX-encoded forms (AVX): width only; the fast path never emulates them.
unsigned vexWidth(const std::uint8_t* p) {
  unsigned map = 1, pp, L, W = 0;
  const std::uint8_t* op;
  if (p[0] == 0xC5) {
    pp = p[1] & 3;
    L = (p[1] >> 2) & 1;
    op = p + 2;
  } else {
    map = p[1] & 0x1F;
    W = p[2] >> 7;
    pp = p[2] & 3;
    L = (p[2] >> 2) & 1;
    op = p + 3;
  }
  const unsigned vec = 16u << L, sc = pp == 2 ? 4 : (pp == 3 ? 8 : 0);
  const std::uint8_t o = *op;
  if (map == 1) {
    if (o == 0x10 || o == 0x11 || (o >= 0x51 && o <= 0x5F && o != 0x5A && o != 0x5B)) return sc ? sc : vec;
    if (o == 0x5A) return sc ? sc : (pp == 0 ? vec / 2 : vec);
    if (o == 0x6E || o == 0x7E) return pp == 2 ? 8 : (W ? 8 : 4);
    if (o == 0xD6 || o == 0x12 || o == 0x13 || o == 0x16 || o == 0x17) return 8;
    if (o == 0x2E || o == 0x2F) return pp == 1 ? 8 : 4;
    if (o == 0x2A) return W ? 8 : 4;
    if (o == 0x2C || o == 0x2D) return pp == 2 ? 4 : 8;
    if (o == 0xC4) return 2;
    return vec;
  }
  if (map == 2) {
    if (o == 0x13) return vec / 2;  // vcvtph2ps reads halves
    if (o == 0x18 || o == 0x58) return 4;
    if (o == 0x19 || o == 0x59) return 8;
    if (o == 0x78) return 1;
    if (o == 0x79) return 2;
    return vec;
  }
  if (map == 3) {
    if (o == 0x1D) return vec / 2;  // vcvtps2ph stores halves
    if (o == 0x14 || o == 0x20) return 1;
    if (o == 0x15) return 2;
    if (o == 0x16 || o == 0x22) return W ? 8 : 4;
    if (o == 0x17 || o == 0x21) return 4;
    return vec;
  }
  return 0;
}

}  // namespace

// Enough of the encoding for the loads and stores gcc emits for scalar code (mov/movzx/movsx, ALU with
// a memory operand, SSE/AVX scalar and vector moves, conversions). 0 = not recognised.
unsigned accessWidth(const std::uint8_t* p) {
  bool opsz16 = false, rexW = false;
  std::uint8_t rep = 0;
  for (int i = 0; i < 14; ++i, ++p) {
    const std::uint8_t b = *p;
    if (b == 0x66)
      opsz16 = true;
    else if (b == 0xF3 || b == 0xF2)
      rep = b;
    else if (!(b == 0xF0 || b == 0x2E || b == 0x36 || b == 0x3E || b == 0x26 || b == 0x64 || b == 0x65 ||
               b == 0x67))
      break;
  }
  if ((*p & 0xF0) == 0x40) {
    rexW = (*p & 8) != 0;
    ++p;
  }
  const unsigned osz = rexW ? 8 : (opsz16 ? 2 : 4);
  const std::uint8_t op = *p;
  if (op == 0xC5 || op == 0xC4) return vexWidth(p);
  if (op != 0x0F) {
    if (op < 0x40 && (op & 7) < 4) return (op & 1) ? osz : 1;  // add/or/adc/sbb/and/sub/xor/cmp r/m
    switch (op) {
      case 0x88:
      case 0x8A:
      case 0xC6:
      case 0x80:
      case 0x82:
      case 0x84:
      case 0x86:
      case 0xF6:
      case 0xFE:
      case 0xD0:
      case 0xD2:
      case 0xC0:
      case 0xA4:
      case 0xA6:
      case 0xAA:
      case 0xAC:
      case 0xAE:
        return 1;
      case 0x89:
      case 0x8B:
      case 0xC7:
      case 0x81:
      case 0x83:
      case 0x85:
      case 0x87:
      case 0xF7:
      case 0xD1:
      case 0xD3:
      case 0xC1:
      case 0x69:
      case 0x6B:
      case 0xA5:
      case 0xA7:
      case 0xAB:
      case 0xAD:
      case 0xAF:
        return osz;
      case 0x63:
        return 4;
      case 0x8F:
        return 8;
      case 0xFF:
        return ((p[1] >> 3) & 7) < 2 ? osz : 8;  // inc/dec vs call/jmp/push
      default:
        return 0;
    }
  }
  const std::uint8_t o = p[1];
  const unsigned sc = rep == 0xF3 ? 4 : (rep == 0xF2 ? 8 : 0);
  if (o == 0x3A) {
    switch (p[2]) {
      case 0x14:
      case 0x20:
        return 1;
      case 0x15:
        return 2;
      case 0x16:
      case 0x22:
        return rexW ? 8 : 4;
      case 0x17:
      case 0x21:
      case 0x0A:
        return 4;
      case 0x0B:
        return 8;
      default:
        return 16;
    }
  }
  if (o == 0x38) return 16;
  if (o == 0xB6 || o == 0xBE || o == 0xB0 || o == 0xC0 || (o >= 0x90 && o <= 0x9F) || o == 0x18 || o == 0x0D)
    return 1;
  if (o == 0xB7 || o == 0xBF || o == 0xC4) return 2;
  if (o == 0xB1 || o == 0xC1 || o == 0xAF || (o >= 0x40 && o <= 0x4F) || o == 0xA3 || o == 0xAB ||
      o == 0xB3 || o == 0xBB || o == 0xBA)
    return osz;
  if (o == 0xC7) return 8;
  if (o == 0x10 || o == 0x11 || (o >= 0x51 && o <= 0x5F && o != 0x5A && o != 0x5B)) return sc ? sc : 16;
  if (o == 0x5A) return sc ? sc : (opsz16 ? 16 : 8);
  if (o == 0x2A) return sc ? osz : 8;
  if (o == 0x2C || o == 0x2D) return sc ? sc : 8;
  if (o == 0x2E || o == 0x2F) return opsz16 ? 8 : 4;
  if (o == 0x12 || o == 0x13 || o == 0x16 || o == 0x17 || o == 0xD6) return 8;
  if (o == 0x6E || o == 0x7E) return rep == 0xF3 ? 8 : (rexW ? 8 : 4);
  if ((o >= 0x28 && o <= 0x2B) || (o >= 0x50 && o <= 0x7F) || o == 0xC2 || o == 0xC6 || o >= 0xD0) return 16;
  return 0;
}

namespace {

// Bytes consumed by ModRM (+ SIB + displacement) at `p`; 0 when the operand is a register (mod = 3)
// or the bytes run out. Sets modrm.
std::size_t memOperand(const std::uint8_t* p, std::size_t avail, std::uint8_t& modrm) {
  if (avail < 1) return 0;
  modrm = p[0];
  const unsigned mod = modrm >> 6, rm = modrm & 7;
  if (mod == 3) return 0;
  std::size_t n = 1;
  if (rm == 4) {
    if (avail < 2) return 0;
    const unsigned base = p[1] & 7;
    n = 2;
    if (mod == 0 && base == 5) n += 4;
  } else if (mod == 0 && rm == 5) {
    n += 4;  // RIP-relative
  }
  if (mod == 1) n += 1;
  if (mod == 2) n += 4;
  return n <= avail ? n : 0;
}

std::int64_t readImm(const std::uint8_t* p, unsigned bytes) {
  std::uint64_t v = 0;
  for (unsigned i = 0; i < bytes; ++i) v |= static_cast<std::uint64_t>(p[i]) << (8 * i);
  const unsigned shift = 64 - 8 * bytes;
  return static_cast<std::int64_t>(v << shift) >> shift;  // sign-extend
}

}  // namespace

MemInstr decodeMemInstr(const std::uint8_t* code, std::size_t avail) {
  const MemInstr refuse{};
  if (avail > 15) avail = 15;
  std::size_t i = 0;
  bool p66 = false;
  std::uint8_t rep = 0;
  // Legacy prefixes: only 66 / F2 / F3 (segment, lock, address-size and the rest are refused: they
  // land in the opcode position below and match nothing).
  while (i < avail && (code[i] == 0x66 || code[i] == 0xF2 || code[i] == 0xF3)) {
    if (code[i] == 0x66)
      p66 = true;
    else if (rep != 0 && rep != code[i])
      return refuse;
    else
      rep = code[i];
    ++i;
  }
  std::uint8_t rex = 0;
  if (i < avail && (code[i] & 0xF0) == 0x40) rex = code[i++];
  if (i >= avail) return refuse;
  const bool rexW = (rex & 8) != 0, rexR = (rex & 4) != 0;
  const unsigned osz = rexW ? 8 : (p66 ? 2 : 4);

  MemInstr m;
  std::uint8_t op = code[i++];
  bool twoByte = false;
  if (op == 0x0F) {
    if (i >= avail) return refuse;
    twoByte = true;
    op = code[i++];
  }
  std::uint8_t modrm = 0;
  const std::size_t mlen = memOperand(code + i, avail - i, modrm);
  if (mlen == 0) return refuse;
  i += mlen;
  const unsigned regField = ((modrm >> 3) & 7) | (rexR ? 8u : 0u);
  auto gpr = [&](unsigned bytes) {
    m.reg = static_cast<std::uint8_t>(regField);
    m.regBytes = static_cast<std::uint8_t>(bytes);
    if (bytes == 1 && rex == 0 && regField >= 4 && regField <= 7) {
      m.highByte = true;
      m.reg = static_cast<std::uint8_t>(regField - 4);
    }
  };
  auto imm = [&](unsigned bytes) {
    if (i + bytes > avail) return false;
    m.imm = readImm(code + i, bytes);
    i += bytes;
    return true;
  };
  auto done = [&]() {
    m.length = static_cast<std::uint8_t>(i);
    return m;
  };

  if (!twoByte) {
    if (rep != 0) return refuse;
    if (op < 0x40 && (op & 7) < 4) {  // add/or/adc/sbb/and/sub/xor/cmp with a memory operand
      const Alu alu = static_cast<Alu>(op >> 3);
      const bool toReg = (op & 2) != 0;  // r, m (memory read); else m, r (read-modify-write unless cmp)
      if (!toReg && alu != Alu::Cmp) return refuse;
      m.kind = Kind::GprAlu;
      m.alu = alu;
      m.memFirst = !toReg;
      m.width = static_cast<std::uint8_t>((op & 1) ? osz : 1);
      gpr(m.width);
      return done();
    }
    switch (op) {
      case 0x8A:
      case 0x8B:  // mov r, m
        m.kind = Kind::GprLoad;
        m.width = static_cast<std::uint8_t>(op == 0x8A ? 1 : osz);
        gpr(m.width);
        return done();
      case 0x88:
      case 0x89:  // mov m, r
        m.kind = Kind::GprStore;
        m.write = true;
        m.width = static_cast<std::uint8_t>(op == 0x88 ? 1 : osz);
        gpr(m.width);
        return done();
      case 0x63:  // movsxd r64, m32 (without REX.W: a plain 32-bit load)
        if (p66) return refuse;
        m.kind = Kind::GprLoad;
        m.width = 4;
        m.signExtend = rexW;
        gpr(rexW ? 8 : 4);
        return done();
      case 0xC6:
      case 0xC7: {  // mov m, imm (C6 /0 ib, C7 /0 iw/id)
        if (((modrm >> 3) & 7) != 0) return refuse;
        m.kind = Kind::ImmStore;
        m.write = true;
        m.width = static_cast<std::uint8_t>(op == 0xC6 ? 1 : osz);
        if (!imm(op == 0xC6 ? 1 : (osz == 2 ? 2 : 4))) return refuse;
        return done();
      }
      case 0x84:
      case 0x85:  // test m, r
        m.kind = Kind::GprAlu;
        m.alu = Alu::Test;
        m.memFirst = true;
        m.width = static_cast<std::uint8_t>(op == 0x84 ? 1 : osz);
        gpr(m.width);
        return done();
      case 0x80:
      case 0x81:
      case 0x83:  // group 1 with imm: only cmp (/7) leaves memory unwritten
        if (((modrm >> 3) & 7) != 7) return refuse;
        m.kind = Kind::GprAlu;
        m.alu = Alu::Cmp;
        m.memFirst = m.useImm = true;
        m.width = static_cast<std::uint8_t>(op == 0x80 ? 1 : osz);
        if (!imm(op == 0x81 ? (osz == 2 ? 2 : 4) : 1)) return refuse;
        return done();
      case 0xF6:
      case 0xF7:  // test m, imm (/0)
        if (((modrm >> 3) & 7) != 0) return refuse;
        m.kind = Kind::GprAlu;
        m.alu = Alu::Test;
        m.memFirst = m.useImm = true;
        m.width = static_cast<std::uint8_t>(op == 0xF6 ? 1 : osz);
        if (!imm(op == 0xF6 ? 1 : (osz == 2 ? 2 : 4))) return refuse;
        return done();
      default:
        return refuse;
    }
  }

  // Two-byte opcodes.
  switch (op) {
    case 0xB6:
    case 0xB7:
    case 0xBE:
    case 0xBF:  // movzx / movsx r, m8|m16
      if (rep != 0) return refuse;
      m.kind = Kind::GprLoad;
      m.width = (op & 1) ? 2 : 1;
      m.signExtend = op >= 0xBE;
      gpr(osz);
      return done();
    default:
      break;
  }
  // SSE: one mandatory prefix at most (66, F2 or F3), never REX.W except for movd/movq.
  if (p66 && rep != 0) return refuse;
  const unsigned xmm = regField;
  auto xmmOp = [&](Kind k, unsigned width, bool aligned) {
    m.kind = k;
    m.width = static_cast<std::uint8_t>(width);
    m.reg = static_cast<std::uint8_t>(xmm);
    m.write = k == Kind::XmmStore;
    m.aligned16 = aligned;
    return done();
  };
  if (rexW && op != 0x6E && op != 0x7E) return refuse;
  switch (op) {
    case 0x10:
    case 0x11: {  // movups / movupd / movss / movsd
      const Kind k = op == 0x10 ? Kind::XmmLoad : Kind::XmmStore;
      return xmmOp(k, rep == 0xF3 ? 4 : (rep == 0xF2 ? 8 : 16), false);
    }
    case 0x28:
    case 0x29:  // movaps / movapd
      if (rep != 0) return refuse;
      return xmmOp(op == 0x28 ? Kind::XmmLoad : Kind::XmmStore, 16, true);
    case 0x6F:
    case 0x7F:  // movdqa (66) / movdqu (F3); no prefix is MMX
      if (!p66 && rep != 0xF3) return refuse;
      return xmmOp(op == 0x6F ? Kind::XmmLoad : Kind::XmmStore, 16, p66);
    case 0x6E:  // movd / movq xmm, m
      if (!p66) return refuse;
      return xmmOp(Kind::XmmLoad, rexW ? 8 : 4, false);
    case 0x7E:  // 66: movd / movq m, xmm; F3: movq xmm, m64
      if (p66) return xmmOp(Kind::XmmStore, rexW ? 8 : 4, false);
      if (rep == 0xF3 && !rexW) return xmmOp(Kind::XmmLoad, 8, false);
      return refuse;
    case 0xD6:  // movq m64, xmm
      if (!p66) return refuse;
      return xmmOp(Kind::XmmStore, 8, false);
    case 0x51:
    case 0x58:
    case 0x59:
    case 0x5C:
    case 0x5D:
    case 0x5E:
    case 0x5F: {                    // scalar arithmetic
      if (rep == 0) return refuse;  // packed forms (none, 66) are not scalar
      static const Sse kOps[16] = {Sse::Add, Sse::Sqrt, Sse::Add, Sse::Add, Sse::Add, Sse::Add,
                                   Sse::Add, Sse::Add,  Sse::Add, Sse::Mul, Sse::Add, Sse::Add,
                                   Sse::Sub, Sse::Min,  Sse::Div, Sse::Max};
      m.sse = kOps[op - 0x50];
      m.dbl = rep == 0xF2;
      return xmmOp(Kind::XmmArith, m.dbl ? 8 : 4, false);
    }
    case 0x2E:
    case 0x2F:  // ucomiss / comiss (none), ucomisd / comisd (66)
      if (rep != 0) return refuse;
      m.sse = op == 0x2E ? Sse::Ucomi : Sse::Comi;
      m.dbl = p66;
      return xmmOp(Kind::XmmArith, p66 ? 8 : 4, false);
    default:
      return refuse;
  }
}

}  // namespace kwb_sim::x86
