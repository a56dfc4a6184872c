// SPDX-License-Identifier: MIT
// The raw-access handler's x86-64 decoder (core/emulator/analysis/X86Decode): for every form the fast
// path emulates, the instruction length, register, operand sizes and direction must be exact (a wrong
// length or register silently corrupts the program), and every form it does not handle must be refused
// (single-stepped instead). Byte sequences are gcc's (objdump of tests/emulator/raw programs) or
// hand-assembled and checked against objdump.

#include "core/emulator/analysis/X86Decode.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <vector>

namespace x86 = kwb_sim::x86;
using x86::Kind;

namespace {

struct Bytes {
  std::vector<std::uint8_t> b;
  Bytes(std::initializer_list<int> v) {
    for (int x : v) b.push_back(static_cast<std::uint8_t>(x));
  }
};

// Decodes `code` with exactly its bytes available, plus checks that hold for every accepted form: the
// length is the whole sequence, one byte less is refused (never reads past `avail`), and the width
// agrees with accessWidth (what the single-step path records).
x86::MemInstr decodeAll(const Bytes& code) {
  const x86::MemInstr m = x86::decodeMemInstr(code.b.data(), code.b.size());
  if (m.kind != Kind::Refuse) {
    EXPECT_EQ(m.length, code.b.size());
    EXPECT_EQ(x86::decodeMemInstr(code.b.data(), code.b.size() - 1).kind, Kind::Refuse);
    std::vector<std::uint8_t> padded = code.b;
    padded.resize(32, 0x90);
    EXPECT_EQ(x86::accessWidth(padded.data()), m.width);
    // Trailing bytes (the next instruction) change nothing.
    const x86::MemInstr p = x86::decodeMemInstr(padded.data(), padded.size());
    EXPECT_EQ(p.kind, m.kind);
    EXPECT_EQ(p.length, m.length);
  }
  return m;
}

void expectGpr(const Bytes& code, Kind kind, unsigned width, unsigned reg, unsigned regBytes,
               bool highByte = false, bool signExtend = false) {
  SCOPED_TRACE(::testing::Message() << "bytes[0]=" << std::hex << int(code.b[0]) << " len " << code.b.size());
  const x86::MemInstr m = decodeAll(code);
  ASSERT_EQ(m.kind, kind);
  EXPECT_EQ(m.width, width);
  EXPECT_EQ(m.reg, reg);
  EXPECT_EQ(m.regBytes, regBytes);
  EXPECT_EQ(m.highByte, highByte);
  EXPECT_EQ(m.signExtend, signExtend);
  EXPECT_EQ(m.write, kind == Kind::GprStore || kind == Kind::ImmStore);
}

void expectXmm(const Bytes& code, Kind kind, unsigned width, unsigned reg, bool aligned = false) {
  SCOPED_TRACE(::testing::Message() << "bytes[0]=" << std::hex << int(code.b[0]) << " len " << code.b.size());
  const x86::MemInstr m = decodeAll(code);
  ASSERT_EQ(m.kind, kind);
  EXPECT_EQ(m.width, width);
  EXPECT_EQ(m.reg, reg);
  EXPECT_EQ(m.write, kind == Kind::XmmStore);
  EXPECT_EQ(m.aligned16, aligned);
}

void expectRefused(const Bytes& code) {
  EXPECT_EQ(x86::decodeMemInstr(code.b.data(), code.b.size()).kind, Kind::Refuse)
      << "bytes[0]=" << std::hex << int(code.b[0]) << " len " << code.b.size();
}

}  // namespace

TEST(X86Decode, GprLoadsOfScalarLoops) {
  expectGpr({0x0f, 0xb7, 0x14, 0x77}, Kind::GprLoad, 2, 2, 4);               // movzwl (%rdi,%rsi,2),%edx
  expectGpr({0x44, 0x0f, 0xb7, 0x2c, 0x47}, Kind::GprLoad, 2, 13, 4);        // movzwl (%rdi,%rax,2),%r13d
  expectGpr({0x0f, 0xb6, 0x04, 0x0f}, Kind::GprLoad, 1, 0, 4);               // movzbl (%rdi,%rcx,1),%eax
  expectGpr({0x41, 0x0f, 0xb6, 0x7c, 0x07, 0x5e}, Kind::GprLoad, 1, 7, 4);   // movzbl 0x5e(%r15,%rax,1),%edi
  expectGpr({0x8b, 0x14, 0x87}, Kind::GprLoad, 4, 2, 4);                     // mov (%rdi,%rax,4),%edx
  expectGpr({0x48, 0x8b, 0x14, 0xc7}, Kind::GprLoad, 8, 2, 8);               // mov (%rdi,%rax,8),%rdx
  expectGpr({0x4c, 0x8b, 0x75, 0x10}, Kind::GprLoad, 8, 14, 8);              // mov 0x10(%rbp),%r14
  expectGpr({0x48, 0x0f, 0xbe, 0x17}, Kind::GprLoad, 1, 2, 8, false, true);  // movsbq (%rdi),%rdx
  expectGpr({0x48, 0x0f, 0xbf, 0x17}, Kind::GprLoad, 2, 2, 8, false, true);  // movswq (%rdi),%rdx
  expectGpr({0x0f, 0xbf, 0x17}, Kind::GprLoad, 2, 2, 4, false, true);        // movswl (%rdi),%edx
  expectGpr({0x48, 0x63, 0x17}, Kind::GprLoad, 4, 2, 8, false, true);        // movslq (%rdi),%rdx
  expectGpr({0x66, 0x8b, 0x07}, Kind::GprLoad, 2, 0, 2);                     // mov (%rdi),%ax (merges)
  expectGpr({0x8a, 0x07}, Kind::GprLoad, 1, 0, 1);                           // mov (%rdi),%al
  expectGpr({0x8a, 0x27}, Kind::GprLoad, 1, 0, 1, true);                     // mov (%rdi),%ah
  expectGpr({0x40, 0x8a, 0x37}, Kind::GprLoad, 1, 6, 1);                     // mov (%rdi),%sil (REX: no AH)
  expectGpr({0x44, 0x8b, 0x84, 0x24, 0x00, 0x01, 0x00, 0x00}, Kind::GprLoad, 4, 8,
            4);                                                                   // mov 0x100(%rsp),%r8d
  expectGpr({0x8b, 0x04, 0x25, 0x00, 0x10, 0x00, 0x00}, Kind::GprLoad, 4, 0, 4);  // mov 0x1000,%eax
  expectGpr({0x8b, 0x45, 0x08}, Kind::GprLoad, 4, 0, 4);                          // mov 0x8(%rbp),%eax
  expectGpr({0x8b, 0x05, 0x10, 0x00, 0x00, 0x00}, Kind::GprLoad, 4, 0, 4);        // mov 0x10(%rip),%eax
}

TEST(X86Decode, GprAndImmediateStores) {
  expectGpr({0x66, 0x41, 0x89, 0x04, 0x70}, Kind::GprStore, 2, 0, 2);  // mov %ax,(%r8,%rsi,2) (half store)
  expectGpr({0x89, 0x14, 0x86}, Kind::GprStore, 4, 2, 4);              // mov %edx,(%rsi,%rax,4)
  expectGpr({0x48, 0x89, 0x14, 0xc6}, Kind::GprStore, 8, 2, 8);        // mov %rdx,(%rsi,%rax,8)
  expectGpr({0x88, 0x04, 0x0e}, Kind::GprStore, 1, 0, 1);              // mov %al,(%rsi,%rcx,1)
  expectGpr({0x88, 0x3e}, Kind::GprStore, 1, 3, 1, true);              // mov %bh,(%rsi)
  expectGpr({0x44, 0x88, 0x07}, Kind::GprStore, 1, 8, 1);              // mov %r8b,(%rdi)

  auto imm = [](const Bytes& code, unsigned width, std::int64_t value) {
    SCOPED_TRACE(::testing::Message() << "imm store len " << code.b.size());
    const x86::MemInstr m = decodeAll(code);
    ASSERT_EQ(m.kind, Kind::ImmStore);
    EXPECT_TRUE(m.write);
    EXPECT_EQ(m.width, width);
    EXPECT_EQ(m.imm, value);
  };
  imm({0xc6, 0x04, 0x10, 0x00}, 1, 0);                                       // movb $0,(%rax,%rdx,1)
  imm({0xc6, 0x07, 0xa5}, 1, static_cast<std::int8_t>(0xa5));                // movb $0xa5,(%rdi)
  imm({0x66, 0xc7, 0x00, 0x34, 0x12}, 2, 0x1234);                            // movw $0x1234,(%rax)
  imm({0xc7, 0x07, 0x2a, 0x00, 0x00, 0x00}, 4, 42);                          // movl $42,(%rdi)
  imm({0xc7, 0x05, 0x10, 0x00, 0x00, 0x00, 0x2a, 0x00, 0x00, 0x00}, 4, 42);  // movl $42,0x10(%rip)
  imm({0x48, 0xc7, 0x45, 0xa8, 0x3a, 0x00, 0x00, 0x00}, 8, 0x3a);            // movq $0x3a,-0x58(%rbp)
  imm({0x48, 0xc7, 0x00, 0xff, 0xff, 0xff, 0xff}, 8, -1);                    // movq $-1,(%rax): sign-extended
}

TEST(X86Decode, AluWithMemorySource) {
  auto alu = [](const Bytes& code, x86::Alu op, unsigned width, bool memFirst, bool useImm,
                std::int64_t value = 0) -> x86::MemInstr {
    SCOPED_TRACE(::testing::Message() << "alu len " << code.b.size());
    const x86::MemInstr m = decodeAll(code);
    EXPECT_EQ(m.kind, Kind::GprAlu);
    EXPECT_EQ(m.alu, op);
    EXPECT_EQ(m.width, width);
    EXPECT_EQ(m.memFirst, memFirst);
    EXPECT_EQ(m.useImm, useImm);
    EXPECT_FALSE(m.write);
    if (useImm) {
      EXPECT_EQ(m.imm, value);
    }
    return m;
  };
  EXPECT_EQ(alu({0x03, 0x14, 0x8f}, x86::Alu::Add, 4, false, false).reg, 2);  // add (%rdi,%rcx,4),%edx
  EXPECT_EQ(alu({0x02, 0x04, 0x17}, x86::Alu::Add, 1, false, false).reg, 0);  // add (%rdi,%rdx,1),%al
  EXPECT_EQ(alu({0x48, 0x03, 0x14, 0xcf}, x86::Alu::Add, 8, false, false).regBytes, 8);  // add (..),%rdx
  alu({0x2b, 0x07}, x86::Alu::Sub, 4, false, false);                                     // sub (%rdi),%eax
  alu({0x23, 0x07}, x86::Alu::And, 4, false, false);
  alu({0x0b, 0x07}, x86::Alu::Or, 4, false, false);
  alu({0x33, 0x07}, x86::Alu::Xor, 4, false, false);
  alu({0x13, 0x07}, x86::Alu::Adc, 4, false, false);
  alu({0x1b, 0x07}, x86::Alu::Sbb, 4, false, false);
  alu({0x3b, 0x07}, x86::Alu::Cmp, 4, false, false);                             // cmp (%rdi),%eax
  alu({0x39, 0x07}, x86::Alu::Cmp, 4, true, false);                              // cmp %eax,(%rdi)
  alu({0x85, 0x07}, x86::Alu::Test, 4, true, false);                             // test %eax,(%rdi)
  alu({0x48, 0x85, 0x47, 0x08}, x86::Alu::Test, 8, true, false);                 // test %rax,0x8(%rdi)
  alu({0x83, 0x3f, 0x00}, x86::Alu::Cmp, 4, true, true, 0);                      // cmpl $0,(%rdi)
  alu({0x80, 0x3f, 0xff}, x86::Alu::Cmp, 1, true, true, -1);                     // cmpb $0xff,(%rdi)
  alu({0x81, 0x3f, 0x00, 0x01, 0x00, 0x00}, x86::Alu::Cmp, 4, true, true, 256);  // cmpl $0x100,(%rdi)
  alu({0x66, 0x81, 0x3f, 0x34, 0x12}, x86::Alu::Cmp, 2, true, true, 0x1234);     // cmpw $0x1234,(%rdi)
  alu({0xf6, 0x07, 0x01}, x86::Alu::Test, 1, true, true, 1);                     // testb $1,(%rdi)
  alu({0xf7, 0x47, 0x04, 0x00, 0x00, 0x01, 0x00}, x86::Alu::Test, 4, true, true,
      0x10000);                                                                // testl $0x10000,4(%rdi)
  const x86::MemInstr ah = alu({0x02, 0x27}, x86::Alu::Add, 1, false, false);  // add (%rdi),%ah
  EXPECT_TRUE(ah.highByte);
  EXPECT_EQ(ah.reg, 0);
}

TEST(X86Decode, SseScalarAndVectorMoves) {
  expectXmm({0xf3, 0x0f, 0x10, 0x04, 0x87}, Kind::XmmLoad, 4, 0);          // movss (%rdi,%rax,4),%xmm0
  expectXmm({0xf3, 0x0f, 0x11, 0x04, 0x86}, Kind::XmmStore, 4, 0);         // movss %xmm0,(%rsi,%rax,4)
  expectXmm({0xf2, 0x0f, 0x10, 0x04, 0xc7}, Kind::XmmLoad, 8, 0);          // movsd (%rdi,%rax,8),%xmm0
  expectXmm({0xf2, 0x0f, 0x11, 0x04, 0xc6}, Kind::XmmStore, 8, 0);         // movsd %xmm0,(%rsi,%rax,8)
  expectXmm({0xf3, 0x44, 0x0f, 0x10, 0x07}, Kind::XmmLoad, 4, 8);          // movss (%rdi),%xmm8
  expectXmm({0x66, 0x0f, 0x6e, 0x07}, Kind::XmmLoad, 4, 0);                // movd (%rdi),%xmm0
  expectXmm({0x66, 0x48, 0x0f, 0x6e, 0x07}, Kind::XmmLoad, 8, 0);          // movq (%rdi),%xmm0
  expectXmm({0x66, 0x0f, 0x7e, 0x07}, Kind::XmmStore, 4, 0);               // movd %xmm0,(%rdi)
  expectXmm({0xf3, 0x0f, 0x7e, 0x07}, Kind::XmmLoad, 8, 0);                // movq (%rdi),%xmm0
  expectXmm({0x66, 0x0f, 0xd6, 0x07}, Kind::XmmStore, 8, 0);               // movq %xmm0,(%rdi)
  expectXmm({0x66, 0x44, 0x0f, 0xd6, 0x7d, 0xf0}, Kind::XmmStore, 8, 15);  // movq %xmm15,-0x10(%rbp)
  expectXmm({0x0f, 0x28, 0x07}, Kind::XmmLoad, 16, 0, true);               // movaps (%rdi),%xmm0
  expectXmm({0x0f, 0x11, 0x07}, Kind::XmmStore, 16, 0);                    // movups %xmm0,(%rdi)
  expectXmm({0xf3, 0x0f, 0x6f, 0x07}, Kind::XmmLoad, 16, 0);               // movdqu (%rdi),%xmm0
  expectXmm({0x66, 0x0f, 0x7f, 0x07}, Kind::XmmStore, 16, 0, true);        // movdqa %xmm0,(%rdi)
}

TEST(X86Decode, SseScalarArithmeticWithMemorySource) {
  auto sse = [](const Bytes& code, x86::Sse op, bool dbl, unsigned reg) {
    SCOPED_TRACE(::testing::Message() << "sse len " << code.b.size());
    const x86::MemInstr m = decodeAll(code);
    ASSERT_EQ(m.kind, Kind::XmmArith);
    EXPECT_EQ(m.sse, op);
    EXPECT_EQ(m.dbl, dbl);
    EXPECT_EQ(m.width, dbl ? 8 : 4);
    EXPECT_EQ(m.reg, reg);
    EXPECT_FALSE(m.write);
  };
  sse({0xf3, 0x0f, 0x58, 0x04, 0x8f}, x86::Sse::Add, false, 0);  // addss (%rdi,%rcx,4),%xmm0
  sse({0xf2, 0x0f, 0x58, 0x04, 0xcf}, x86::Sse::Add, true, 0);   // addsd (%rdi,%rcx,8),%xmm0
  sse({0xf3, 0x0f, 0x59, 0x07}, x86::Sse::Mul, false, 0);
  sse({0xf3, 0x0f, 0x5c, 0x0f}, x86::Sse::Sub, false, 1);
  sse({0xf3, 0x41, 0x0f, 0x5e, 0x4c, 0x24, 0x04}, x86::Sse::Div, false, 1);  // divss 0x4(%r12),%xmm1
  sse({0xf2, 0x0f, 0x5d, 0x07}, x86::Sse::Min, true, 0);
  sse({0xf2, 0x0f, 0x5f, 0x07}, x86::Sse::Max, true, 0);
  sse({0xf2, 0x0f, 0x51, 0x07}, x86::Sse::Sqrt, true, 0);   // sqrtsd (%rdi),%xmm0
  sse({0x0f, 0x2f, 0x07}, x86::Sse::Comi, false, 0);        // comiss (%rdi),%xmm0
  sse({0x66, 0x0f, 0x2e, 0x07}, x86::Sse::Ucomi, true, 0);  // ucomisd (%rdi),%xmm0
}

TEST(X86Decode, RefusesWhatItDoesNotHandle) {
  expectRefused({0x01, 0x07});              // add %eax,(%rdi): read-modify-write
  expectRefused({0x20, 0x27});              // and %ah,(%rdi): read-modify-write
  expectRefused({0x83, 0x07, 0x01});        // addl $1,(%rdi): read-modify-write
  expectRefused({0xfe, 0x07});              // incb (%rdi)
  expectRefused({0x87, 0x07});              // xchg %eax,(%rdi)
  expectRefused({0x0f, 0xaf, 0x07});        // imul (%rdi),%eax
  expectRefused({0xf3, 0xa4});              // rep movsb
  expectRefused({0xc5, 0xfa, 0x10, 0x07});  // vmovss (%rdi),%xmm0 (VEX: zeroes bits 128+)
  expectRefused({0x64, 0x8b, 0x04, 0x25, 0x28, 0x00, 0x00, 0x00});  // mov %fs:0x28,%eax (segment)
  expectRefused({0x67, 0x8b, 0x07});                                // mov (%edi),%eax (address size)
  expectRefused({0xf0, 0x01, 0x07});                                // lock add
  expectRefused({0x89, 0xc0});                                      // mov %eax,%eax (no memory operand)
  expectRefused({0x0f, 0x10, 0xc1});                                // movups %xmm1,%xmm0
  expectRefused({0xc6, 0x0f, 0x00});                                // C6 /1: not mov
  expectRefused({0x66, 0xf3, 0x0f, 0x10, 0x07});                    // two mandatory prefixes
  expectRefused({0xf3, 0xf2, 0x0f, 0x10, 0x07});
  expectRefused({0x48, 0xf3, 0x0f, 0x10, 0x07});  // REX not next to the opcode
  expectRefused({0xf3, 0x48, 0x0f, 0x10, 0x07});  // REX.W on movss
  expectRefused({0x0f, 0x6e, 0x07});              // movd (%rdi),%mm0 (MMX)
  expectRefused({0x0f, 0x6f, 0x07});              // movq (%rdi),%mm0 (MMX)
  expectRefused({0x0f, 0x58, 0x07});              // addps (packed)
  expectRefused({0x66, 0x0f, 0x58, 0x07});        // addpd (packed)
  expectRefused({0x66, 0x0f, 0x12, 0x07});        // movlpd (merges)
  expectRefused({0xf3, 0x0f, 0x5a, 0x07});        // cvtss2sd (not emulated)
  expectRefused({0xf3, 0x0f, 0xb8, 0x07});        // popcnt
  expectRefused({0xf3, 0x0f, 0xb6, 0x07});        // movzx with a stray F3
  expectRefused({0xf3, 0x8b, 0x07});              // mov with a stray F3
  expectRefused({0x66, 0x63, 0x07});              // movsxd with 66
  expectRefused({0xd9, 0x07});                    // flds (x87)
  expectRefused({0x0f, 0x38, 0x00, 0x07});        // pshufb (0F 38 map)
  expectRefused({0x8f, 0x07});                    // pop (%rdi)
  expectRefused({0xff, 0x37});                    // push (%rdi)
  // Cut short: ModRM, SIB, displacement or immediate missing.
  expectRefused({0x8b});
  expectRefused({0x8b, 0x04});
  expectRefused({0x8b, 0x45});
  expectRefused({0x8b, 0x84, 0x24, 0x00, 0x01, 0x00});
  expectRefused({0xc7, 0x07, 0x2a, 0x00, 0x00});
  expectRefused({0x66});
  expectRefused({0x0f});
  expectRefused({});
}
