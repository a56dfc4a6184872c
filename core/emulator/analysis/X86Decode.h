// SPDX-License-Identifier: MIT
#pragma once
// x86-64 decoding for the raw-access handler (runtime/RawAccess.cpp). Pure functions over instruction
// bytes, async-signal-safe (no allocation, no globals), compiled into both the emulator runtime and
// kwb_core (tests/core/X86DecodeTest.cpp).
//
//  - accessWidth: how many bytes of memory an instruction touches, for the mov/movzx/ALU/SSE/AVX forms
//    gcc emits (0 = not recognised). Used to record and bounds-check every raw access.
//  - decodeMemInstr: the exact meaning of the common scalar load/store forms, so the SIGSEGV handler can
//    perform them itself on the runtime alias instead of single-stepping them (the fast path). Anything
//    it is not certain about is Kind::Refuse and takes the single-step path.

#include <cstddef>
#include <cstdint>

namespace kwb_sim::x86 {

unsigned accessWidth(const std::uint8_t* code);

enum class Kind : std::uint8_t {
  Refuse,    // not handled: single-step the instruction
  GprLoad,   // reg <- extend(mem): mov r, m / movzx / movsx / movsxd
  GprStore,  // mem <- low `width` bytes of reg: mov m, r
  ImmStore,  // mem <- imm: mov m, imm
  GprAlu,    // reg (not for cmp/test) and EFLAGS <- reg OP mem; or EFLAGS <- mem OP reg/imm (memFirst)
  XmmLoad,   // xmm bytes [0, width) <- mem, bytes [width, 16) <- 0: movss/movsd/movd/movq/movups/movaps/...
  XmmStore,  // mem <- xmm bytes [0, width)
  XmmArith,  // xmm low scalar <- xmm OP mem (addss, ..., sqrtsd), or EFLAGS <- compare (ucomiss, comisd)
};

enum class Alu : std::uint8_t { Add, Or, Adc, Sbb, And, Sub, Xor, Cmp, Test };
enum class Sse : std::uint8_t { Add, Mul, Sub, Min, Div, Max, Sqrt, Ucomi, Comi };

struct MemInstr {
  Kind kind = Kind::Refuse;
  std::uint8_t length = 0;  // instruction bytes (RIP advance)
  std::uint8_t width = 0;   // memory bytes (1, 2, 4, 8 or 16); equals accessWidth() for every accepted form
  std::uint8_t reg = 0;     // GPR (x86 numbering: 0 rax, 1 rcx, 2 rdx, 3 rbx, 4 rsp, 5 rbp, 6 rsi, 7 rdi,
                            // 8..15 r8..r15) or XMM register number; unused for ImmStore / mem-imm GprAlu
  std::uint8_t regBytes =
      0;                  // GPR operand size: the bytes of reg read or written (4: writes zero-extend to 64)
  bool highByte = false;  // 8-bit reg 4..7 without REX: AH, CH, DH, BH (bits 8..15 of reg - 4)
  bool signExtend = false;  // GprLoad: movsx / movsxd
  bool write = false;       // the instruction writes memory (GprStore, ImmStore, XmmStore)
  bool aligned16 = false;   // movaps/movapd/movdqa: the address must be 16-byte aligned
  bool memFirst = false;    // GprAlu: memory is the left operand (cmp m, r / cmp m, imm / test m, r|imm)
  bool useImm = false;      // GprAlu: the right operand is imm, not reg
  bool dbl = false;         // XmmArith: double (sd) rather than float (ss)
  Alu alu = Alu::Add;
  Sse sse = Sse::Add;
  std::int64_t imm = 0;  // ImmStore / GprAlu with useImm: the immediate, sign-extended to 64 bits
};

// `avail`: readable bytes at `code` (an instruction is at most 15). Never reads past them.
MemInstr decodeMemInstr(const std::uint8_t* code, std::size_t avail);

}  // namespace kwb_sim::x86
