// SPDX-License-Identifier: GPL-2.0
/*
 * The MMIO instruction decoder (hypervisor/arch/x86/insn.c) on encodings
 * produced by GNU as (objdump listings in the comments): length, direction,
 * register and immediate, and refusal of every other form; the xAPIC's
 * 32-bit subset (insn_decode_mmio) and every MOV/MOVZX size
 * (insn_decode_mmio_any), and how a load's result merges into a register.
 */
#include "cmocka_wrap.h"
#include <asm/insn.h>

#define BYTES(...) ((const u8[]){ __VA_ARGS__ })
#define DECODE(lm, out, ...)                                                   \
	insn_decode_mmio(BYTES(__VA_ARGS__),                                   \
			 sizeof((const u8[]){ __VA_ARGS__ }), lm, out)
#define ANY(lm, out, ...)                                                      \
	insn_decode_mmio_any(BYTES(__VA_ARGS__),                               \
			     sizeof((const u8[]){ __VA_ARGS__ }), lm, out)

static void check(int ret, const struct mmio_insn *in, unsigned int len,
		  bool write, unsigned int reg)
{
	assert_int_equal(ret, INSN_OK);
	assert_int_equal(in->length, len);
	assert_int_equal(in->write, write);
	assert_int_equal(in->reg, reg);
	assert_int_equal(in->size, 4);
}

static void linux_apic_accessors(void **state)
{
	struct mmio_insn in;

	(void)state;
	/* mov %eax,0xffffffffff5fd300: Linux's native_apic_mem_write */
	check(DECODE(true, &in, 0x89, 0x04, 0x25, 0x00, 0xd3, 0x5f, 0xff), &in,
	      7, true, 0);
	assert_false(in.has_imm);
	/* mov 0xffffffffff5fd0f0,%eax: native_apic_mem_read */
	check(DECODE(true, &in, 0x8b, 0x04, 0x25, 0xf0, 0xd0, 0x5f, 0xff), &in,
	      7, false, 0);
}

static void registers_and_addressing(void **state)
{
	struct mmio_insn in;

	(void)state;
	/* mov %r9d,0x310(%rdx): REX.R, disp32 */
	check(DECODE(true, &in, 0x44, 0x89, 0x8a, 0x10, 0x03, 0x00, 0x00), &in,
	      7, true, 9);
	/* mov 0x20(%r12),%r15d: REX.RB, SIB, disp8 */
	check(DECODE(true, &in, 0x45, 0x8b, 0x7c, 0x24, 0x20), &in, 5, false,
	      15);
	/* mov %ecx,(%rax,%rbx,4): SIB without displacement */
	check(DECODE(true, &in, 0x89, 0x0c, 0x98), &in, 3, true, 1);
	/* mov %esi,0x12345678(%rip) */
	check(DECODE(true, &in, 0x89, 0x35, 0x78, 0x56, 0x34, 0x12), &in, 6,
	      true, 6);
	/* mov %fs:(%rax),%edx: segment override */
	check(DECODE(true, &in, 0x64, 0x8b, 0x10), &in, 3, false, 2);
	/* addr32 mov %eax,(%ebx) */
	check(DECODE(true, &in, 0x67, 0x89, 0x03), &in, 3, true, 0);
}

static void immediates_and_moffs(void **state)
{
	struct mmio_insn in;

	(void)state;
	/* movl $0x4000,0xb0(%rdi) */
	check(DECODE(true, &in, 0xc7, 0x87, 0xb0, 0x00, 0x00, 0x00, 0x00, 0x40,
		     0x00, 0x00),
	      &in, 10, true, 0);
	assert_true(in.has_imm);
	assert_int_equal(in.imm, 0x4000);
	/* movl $0x1,0x12345678(,%rcx,8): SIB without base */
	check(DECODE(true, &in, 0xc7, 0x04, 0xcd, 0x78, 0x56, 0x34, 0x12, 0x01,
		     0x00, 0x00, 0x00),
	      &in, 11, true, 0);
	assert_int_equal(in.imm, 1);
	/* movabs %eax,0xffffffffff5fd300: 8-byte offset in 64-bit mode */
	check(DECODE(true, &in, 0xa3, 0x00, 0xd3, 0x5f, 0xff, 0xff, 0xff, 0xff,
		     0xff),
	      &in, 9, true, 0);
	/* 32-bit mode: mov %eax,0xfee00300 (4-byte offset) */
	check(DECODE(false, &in, 0xa3, 0x00, 0x03, 0xe0, 0xfe), &in, 5, true,
	      0);
	/* 32-bit mode: movl $5,(%esp) */
	check(DECODE(false, &in, 0xc7, 0x04, 0x24, 0x05, 0x00, 0x00, 0x00), &in,
	      7, true, 0);
	/* 32-bit mode: mov 0x30(%ebp),%esi; 0x40 is INC there, not REX */
	check(DECODE(false, &in, 0x8b, 0x75, 0x30), &in, 3, false, 6);
}

static void refusals(void **state)
{
	struct mmio_insn in;

	(void)state;
	/* mov %rax,(%rbx): 64-bit access */
	assert_int_equal(DECODE(true, &in, 0x48, 0x89, 0x03), INSN_BAD_SIZE);
	/* mov %ax,(%rbx): 16-bit access */
	assert_int_equal(DECODE(true, &in, 0x66, 0x89, 0x03), INSN_BAD_SIZE);
	/* mov %eax,%ebx: no memory operand */
	assert_int_equal(DECODE(true, &in, 0x89, 0xc3), INSN_NOT_MEMORY);
	/* add %eax,(%rbx) */
	assert_int_equal(DECODE(true, &in, 0x01, 0x03), INSN_UNSUPPORTED);
	/* lock-prefixed, rep-prefixed */
	assert_int_equal(DECODE(true, &in, 0xf0, 0x89, 0x03), INSN_UNSUPPORTED);
	assert_int_equal(DECODE(true, &in, 0xf3, 0x89, 0x03), INSN_UNSUPPORTED);
	/* C7 /1 is not MOV */
	assert_int_equal(DECODE(true, &in, 0xc7, 0x0b, 0, 0, 0, 0),
			 INSN_UNSUPPORTED);
	/* 16-bit addressing in 32-bit mode */
	assert_int_equal(DECODE(false, &in, 0x67, 0x89, 0x07),
			 INSN_UNSUPPORTED);
	/* cut short: in the prefixes, the ModR/M, the SIB, the disp, imm */
	assert_int_equal(DECODE(true, &in, 0x64), INSN_TRUNCATED);
	assert_int_equal(DECODE(true, &in, 0x89), INSN_TRUNCATED);
	assert_int_equal(DECODE(true, &in, 0x89, 0x04), INSN_TRUNCATED);
	assert_int_equal(DECODE(true, &in, 0x89, 0x04, 0x25, 0x00, 0xd3),
			 INSN_TRUNCATED);
	assert_int_equal(DECODE(true, &in, 0xc7, 0x03, 0x01, 0x02),
			 INSN_TRUNCATED);
	assert_int_equal(insn_decode_mmio(NULL, 0, true, &in), INSN_TRUNCATED);
	/* 15 prefixes: longer than any instruction may be */
	assert_int_equal(DECODE(true, &in, 0x64, 0x64, 0x64, 0x64, 0x64, 0x64,
				0x64, 0x64, 0x64, 0x64, 0x64, 0x64, 0x64, 0x64,
				0x64, 0x89, 0x03),
			 INSN_TRUNCATED);
	assert_string_equal(insn_error_name(INSN_BAD_SIZE), "access is not 32 "
							    "bits wide");
}

/* insn_decode_mmio_any() decoded it with these fields. */
static void check_any(int ret, const struct mmio_insn *in, unsigned int len,
		      bool write, unsigned int reg, unsigned int size,
		      unsigned int reg_size)
{
	assert_int_equal(ret, INSN_OK);
	assert_int_equal(in->length, len);
	assert_int_equal(in->write, write);
	assert_int_equal(in->reg, reg);
	assert_int_equal(in->size, size);
	assert_int_equal(in->reg_size, reg_size);
	assert_int_equal(in->zero_extend, reg_size > size);
}

static void byte_moves(void **state)
{
	struct mmio_insn in;

	(void)state;
	/* 88 03: mov %al,(%rbx) */
	check_any(ANY(true, &in, 0x88, 0x03), &in, 2, true, 0, 1, 1);
	assert_false(in.reg_high8);
	assert_false(in.has_imm);
	/* 88 23: mov %ah,(%rbx): register 4 without REX is AH */
	check_any(ANY(true, &in, 0x88, 0x23), &in, 2, true, 0, 1, 1);
	assert_true(in.reg_high8);
	/* 88 7a 10: mov %bh,0x10(%rdx) */
	check_any(ANY(true, &in, 0x88, 0x7a, 0x10), &in, 3, true, 3, 1, 1);
	assert_true(in.reg_high8);
	/* 40 88 37: mov %sil,(%rdi): with a REX prefix, 6 is SIL */
	check_any(ANY(true, &in, 0x40, 0x88, 0x37), &in, 3, true, 6, 1, 1);
	assert_false(in.reg_high8);
	/* 44 88 50 08: mov %r10b,0x8(%rax) */
	check_any(ANY(true, &in, 0x44, 0x88, 0x50, 0x08), &in, 4, true, 10, 1,
		  1);
	assert_false(in.reg_high8);
	/* 8a 0b: mov (%rbx),%cl */
	check_any(ANY(true, &in, 0x8a, 0x0b), &in, 2, false, 1, 1, 1);
	assert_false(in.reg_high8);
	/* 8a 2b: mov (%rbx),%ch */
	check_any(ANY(true, &in, 0x8a, 0x2b), &in, 2, false, 1, 1, 1);
	assert_true(in.reg_high8);
	/* 40 8a 7f 04: mov 0x4(%rdi),%dil */
	check_any(ANY(true, &in, 0x40, 0x8a, 0x7f, 0x04), &in, 4, false, 7, 1,
		  1);
	assert_false(in.reg_high8);
	/* 40 8a 23: mov (%rbx),%spl */
	check_any(ANY(true, &in, 0x40, 0x8a, 0x23), &in, 3, false, 4, 1, 1);
	assert_false(in.reg_high8);
	/* 45 8a 08: mov (%r8),%r9b */
	check_any(ANY(true, &in, 0x45, 0x8a, 0x08), &in, 3, false, 9, 1, 1);
	/* 48 88 03: REX.W does not widen a byte move (%al) */
	check_any(ANY(true, &in, 0x48, 0x88, 0x03), &in, 3, true, 0, 1, 1);
	/* c6 41 20 80: movb $0x80,0x20(%rcx) */
	check_any(ANY(true, &in, 0xc6, 0x41, 0x20, 0x80), &in, 4, true, 0, 1,
		  1);
	assert_true(in.has_imm);
	assert_int_equal(in.imm, 0x80);
	/* 32-bit mode: 88 23 mov %ah,(%ebx); 8a 33 mov (%ebx),%dh */
	check_any(ANY(false, &in, 0x88, 0x23), &in, 2, true, 0, 1, 1);
	assert_true(in.reg_high8);
	check_any(ANY(false, &in, 0x8a, 0x33), &in, 2, false, 2, 1, 1);
	assert_true(in.reg_high8);
	/* 32-bit mode: c6 00 05 movb $0x5,(%eax) */
	check_any(ANY(false, &in, 0xc6, 0x00, 0x05), &in, 3, true, 0, 1, 1);
	assert_int_equal(in.imm, 5);
}

static void word_and_quad_moves(void **state)
{
	struct mmio_insn in;

	(void)state;
	/* 66 89 03: mov %ax,(%rbx) */
	check_any(ANY(true, &in, 0x66, 0x89, 0x03), &in, 3, true, 0, 2, 2);
	/* 66 44 8b 5e 1c: mov 0x1c(%rsi),%r11w */
	check_any(ANY(true, &in, 0x66, 0x44, 0x8b, 0x5e, 0x1c), &in, 5, false,
		  11, 2, 2);
	/* 66 c7 00 ef be: movw $0xbeef,(%rax): imm16 */
	check_any(ANY(true, &in, 0x66, 0xc7, 0x00, 0xef, 0xbe), &in, 5, true, 0,
		  2, 2);
	assert_true(in.has_imm);
	assert_int_equal(in.imm, 0xbeef);
	/* 48 89 03: mov %rax,(%rbx) */
	check_any(ANY(true, &in, 0x48, 0x89, 0x03), &in, 3, true, 0, 8, 8);
	/* 4c 8b 62 08: mov 0x8(%rdx),%r12 */
	check_any(ANY(true, &in, 0x4c, 0x8b, 0x62, 0x08), &in, 4, false, 12, 8,
		  8);
	/* 66 48 89 03: REX.W wins over 66 */
	check_any(ANY(true, &in, 0x66, 0x48, 0x89, 0x03), &in, 4, true, 0, 8,
		  8);
	/* 48 c7 07 fe ff ff ff: movq $0xfffffffffffffffe,(%rdi) */
	check_any(ANY(true, &in, 0x48, 0xc7, 0x07, 0xfe, 0xff, 0xff, 0xff), &in,
		  7, true, 0, 8, 8);
	assert_true(in.has_imm);
	assert_true(in.imm == 0xfffffffffffffffeULL);
	/* 48 c7 07 ff ff ff 7f: movq $0x7fffffff,(%rdi): positive */
	check_any(ANY(true, &in, 0x48, 0xc7, 0x07, 0xff, 0xff, 0xff, 0x7f), &in,
		  7, true, 0, 8, 8);
	assert_true(in.imm == 0x7fffffffULL);
	/* c7 07 fe ff ff ff: movl $0xfffffffe,(%rdi): no extension */
	check_any(ANY(true, &in, 0xc7, 0x07, 0xfe, 0xff, 0xff, 0xff), &in, 6,
		  true, 0, 4, 4);
	assert_true(in.imm == 0xfffffffeULL);
	/* 32-bit mode: 66 89 33 mov %si,(%ebx) */
	check_any(ANY(false, &in, 0x66, 0x89, 0x33), &in, 3, true, 6, 2, 2);
	/* 32-bit mode: 66 c7 45 08 34 12 movw $0x1234,0x8(%ebp) */
	check_any(ANY(false, &in, 0x66, 0xc7, 0x45, 0x08, 0x34, 0x12), &in, 6,
		  true, 0, 2, 2);
	assert_int_equal(in.imm, 0x1234);
	/* 32-bit mode: 48 is DEC %eax, not REX.W */
	assert_int_equal(ANY(false, &in, 0x48, 0x89, 0x03), INSN_UNSUPPORTED);
	/* the 32-bit forms decode as insn_decode_mmio decodes them */
	check_any(ANY(true, &in, 0x45, 0x8b, 0x7c, 0x24, 0x20), &in, 5, false,
		  15, 4, 4);
	check_any(ANY(true, &in, 0xc7, 0x87, 0xb0, 0x00, 0x00, 0x00, 0x00, 0x40,
		      0x00, 0x00),
		  &in, 10, true, 0, 4, 4);
	assert_int_equal(in.imm, 0x4000);
}

static void movzx(void **state)
{
	struct mmio_insn in;

	(void)state;
	/* 0f b6 07: movzbl (%rdi),%eax */
	check_any(ANY(true, &in, 0x0f, 0xb6, 0x07), &in, 3, false, 0, 1, 4);
	/* 66 0f b6 07: movzbw (%rdi),%ax */
	check_any(ANY(true, &in, 0x66, 0x0f, 0xb6, 0x07), &in, 4, false, 0, 1,
		  2);
	/* 4c 0f b6 6e 03: movzbq 0x3(%rsi),%r13 */
	check_any(ANY(true, &in, 0x4c, 0x0f, 0xb6, 0x6e, 0x03), &in, 5, false,
		  13, 1, 8);
	/* 0f b6 33: movzbl (%rbx),%esi: 6 is ESI, never DH */
	check_any(ANY(true, &in, 0x0f, 0xb6, 0x33), &in, 3, false, 6, 1, 4);
	assert_false(in.reg_high8);
	/* 0f b7 4a 02: movzwl 0x2(%rdx),%ecx */
	check_any(ANY(true, &in, 0x0f, 0xb7, 0x4a, 0x02), &in, 4, false, 1, 2,
		  4);
	/* 4c 0f b7 33: movzwq (%rbx),%r14 */
	check_any(ANY(true, &in, 0x4c, 0x0f, 0xb7, 0x33), &in, 4, false, 14, 2,
		  8);
	/* 66 0f b7 33: a 16-bit load into %si, nothing to extend */
	check_any(ANY(true, &in, 0x66, 0x0f, 0xb7, 0x33), &in, 4, false, 6, 2,
		  2);
	/* 32-bit mode: 0f b6 3e movzbl (%esi),%edi; 0f b7 16 movzwl */
	check_any(ANY(false, &in, 0x0f, 0xb6, 0x3e), &in, 3, false, 7, 1, 4);
	check_any(ANY(false, &in, 0x0f, 0xb7, 0x16), &in, 3, false, 2, 2, 4);
}

static void moffs_sizes(void **state)
{
	struct mmio_insn in;

	(void)state;
	/* a0 <8>: movabs 0xfec00010,%al */
	check_any(ANY(true, &in, 0xa0, 0x10, 0x00, 0xc0, 0xfe, 0, 0, 0, 0), &in,
		  9, false, 0, 1, 1);
	assert_false(in.reg_high8);
	/* a2 <8>: movabs %al,0xfec00010 */
	check_any(ANY(true, &in, 0xa2, 0x10, 0x00, 0xc0, 0xfe, 0, 0, 0, 0), &in,
		  9, true, 0, 1, 1);
	/* 66 a1 <8>: movabs 0xfec00010,%ax */
	check_any(ANY(true, &in, 0x66, 0xa1, 0x10, 0x00, 0xc0, 0xfe, 0, 0, 0,
		      0),
		  &in, 10, false, 0, 2, 2);
	/* 48 a1 <8>: movabs 0xfec00010,%rax; 48 a3: the store */
	check_any(ANY(true, &in, 0x48, 0xa1, 0x10, 0x00, 0xc0, 0xfe, 0, 0, 0,
		      0),
		  &in, 10, false, 0, 8, 8);
	check_any(ANY(true, &in, 0x48, 0xa3, 0x10, 0x00, 0xc0, 0xfe, 0, 0, 0,
		      0),
		  &in, 10, true, 0, 8, 8);
	/* 67 a1 <4>: addr32 mov 0xfec00010,%eax */
	check_any(ANY(true, &in, 0x67, 0xa1, 0x10, 0x00, 0xc0, 0xfe), &in, 6,
		  false, 0, 4, 4);
	/* 32-bit mode: a0 <4> mov 0xfec00000,%al; 66 a3 <4> mov %ax */
	check_any(ANY(false, &in, 0xa0, 0x00, 0x00, 0xc0, 0xfe), &in, 5, false,
		  0, 1, 1);
	check_any(ANY(false, &in, 0x66, 0xa3, 0x00, 0x00, 0xc0, 0xfe), &in, 6,
		  true, 0, 2, 2);
	/* the offset cut short */
	assert_int_equal(ANY(true, &in, 0xa0, 0x10, 0x00, 0xc0, 0xfe),
			 INSN_TRUNCATED);
}

static void any_refusals(void **state)
{
	struct mmio_insn in;

	(void)state;
	/* 88 e3: mov %ah,%bl; 0f b6 c0: movzbl %al,%eax */
	assert_int_equal(ANY(true, &in, 0x88, 0xe3), INSN_NOT_MEMORY);
	assert_int_equal(ANY(true, &in, 0x0f, 0xb6, 0xc0), INSN_NOT_MEMORY);
	/* 0f be 07: movsbl (%rdi),%eax (MOVSX), 0f 10: not a move to GPR */
	assert_int_equal(ANY(true, &in, 0x0f, 0xbe, 0x07), INSN_UNSUPPORTED);
	assert_int_equal(ANY(true, &in, 0x0f, 0x10, 0x07), INSN_UNSUPPORTED);
	/* c6 /1 is not MOV; c6 f8: xabort */
	assert_int_equal(ANY(true, &in, 0xc6, 0x0b, 0x01), INSN_UNSUPPORTED);
	assert_int_equal(ANY(true, &in, 0xc6, 0xf8, 0x01), INSN_UNSUPPORTED);
	/* lock, rep */
	assert_int_equal(ANY(true, &in, 0xf0, 0x88, 0x03), INSN_UNSUPPORTED);
	assert_int_equal(ANY(true, &in, 0xf3, 0x0f, 0xb6, 0x07),
			 INSN_UNSUPPORTED);
	/* 16-bit addressing in 32-bit mode */
	assert_int_equal(ANY(false, &in, 0x67, 0x88, 0x07), INSN_UNSUPPORTED);
	/* cut short: after 0f, the ModR/M, imm8, imm16, imm32 of REX.W */
	assert_int_equal(ANY(true, &in, 0x0f), INSN_TRUNCATED);
	assert_int_equal(ANY(true, &in, 0x0f, 0xb7), INSN_TRUNCATED);
	assert_int_equal(ANY(true, &in, 0x0f, 0xb7, 0x44, 0x24),
			 INSN_TRUNCATED);
	assert_int_equal(ANY(true, &in, 0xc6, 0x03), INSN_TRUNCATED);
	assert_int_equal(ANY(true, &in, 0x66, 0xc7, 0x03, 0x01),
			 INSN_TRUNCATED);
	assert_int_equal(ANY(true, &in, 0x48, 0xc7, 0x03, 0x01, 0x02, 0x03),
			 INSN_TRUNCATED);
	assert_int_equal(insn_decode_mmio_any(NULL, 0, true, &in),
			 INSN_TRUNCATED);
}

/* The xAPIC's decoder keeps refusing what is not a 32-bit MOV. */
static void apic_subset_unchanged(void **state)
{
	struct mmio_insn in;

	(void)state;
	assert_int_equal(DECODE(true, &in, 0x88, 0x03), INSN_UNSUPPORTED);
	assert_int_equal(DECODE(true, &in, 0x8a, 0x0b), INSN_UNSUPPORTED);
	assert_int_equal(DECODE(true, &in, 0xc6, 0x41, 0x20, 0x80),
			 INSN_UNSUPPORTED);
	assert_int_equal(DECODE(true, &in, 0x0f, 0xb6, 0x07), INSN_UNSUPPORTED);
	assert_int_equal(DECODE(true, &in, 0x0f, 0xb7, 0x4a, 0x02),
			 INSN_UNSUPPORTED);
	assert_int_equal(DECODE(true, &in, 0xa0, 0x10, 0x00, 0xc0, 0xfe, 0, 0,
				0, 0),
			 INSN_UNSUPPORTED);
	/* 16-bit imm: refused before its immediate is read, as before */
	assert_int_equal(DECODE(true, &in, 0x66, 0xc7, 0x00), INSN_BAD_SIZE);
	assert_int_equal(DECODE(true, &in, 0x48, 0xc7, 0x07, 0xfe, 0xff, 0xff,
				0xff),
			 INSN_BAD_SIZE);
	assert_int_equal(DECODE(true, &in, 0x66, 0xa1, 0x10, 0x00, 0xc0, 0xfe,
				0, 0, 0, 0),
			 INSN_BAD_SIZE);
	assert_int_equal(DECODE(true, &in, 0x48, 0xa3, 0x10, 0x00, 0xc0, 0xfe,
				0, 0, 0, 0),
			 INSN_BAD_SIZE);
	/* and what it accepts has reg_size 4 and nothing to merge */
	check(DECODE(true, &in, 0x8b, 0x04, 0x25, 0xf0, 0xd0, 0x5f, 0xff), &in,
	      7, false, 0);
	assert_int_equal(in.reg_size, 4);
	assert_false(in.zero_extend);
	assert_false(in.reg_high8);
}

#define R(n) (0x1111111111111111ULL * (n))

static void init_regs(u64 regs[16])
{
	unsigned int i;

	for (i = 0; i < 16; i++)
		regs[i] = 0x8000000000000000ULL | R(i);
}

/* Decode bytes (64-bit mode), apply the load of value; regs start from
 * init_regs(). */
static void load(const u8 *bytes, unsigned int len, u64 value, u64 regs[16])
{
	struct mmio_insn in;

	assert_int_equal(insn_decode_mmio_any(bytes, len, true, &in), INSN_OK);
	init_regs(regs);
	assert_int_equal(insn_apply_load(&in, value, regs), INSN_OK);
}

static void load_merges(void **state)
{
	u64 regs[16], want[16];

	(void)state;
	init_regs(want);
	/* 8a 0b: mov (%rbx),%cl: bits 7:0 only; the value's high bits
	 * beyond the access are ignored */
	load(BYTES(0x8a, 0x0b), 2, 0xffffff5a, regs);
	want[1] = (want[1] & ~0xffULL) | 0x5a;
	assert_memory_equal(regs, want, sizeof(regs));
	/* 8a 2b: mov (%rbx),%ch: bits 15:8 of RCX */
	init_regs(want);
	load(BYTES(0x8a, 0x2b), 2, 0xa5, regs);
	want[1] = (want[1] & ~0xff00ULL) | 0xa500;
	assert_memory_equal(regs, want, sizeof(regs));
	/* 40 8a 23: mov (%rbx),%spl: regs[4] is RSP */
	init_regs(want);
	load(BYTES(0x40, 0x8a, 0x23), 3, 0x77, regs);
	want[4] = (want[4] & ~0xffULL) | 0x77;
	assert_memory_equal(regs, want, sizeof(regs));
	/* 66 44 8b 5e 1c: mov 0x1c(%rsi),%r11w: bits 15:0 only */
	init_regs(want);
	load(BYTES(0x66, 0x44, 0x8b, 0x5e, 0x1c), 5, 0xdeadbeef, regs);
	want[11] = (want[11] & ~0xffffULL) | 0xbeef;
	assert_memory_equal(regs, want, sizeof(regs));
	/* 8b 03: mov (%rbx),%eax: zero-extended to 64 bits */
	init_regs(want);
	load(BYTES(0x8b, 0x03), 2, 0xffffffff87654321ULL, regs);
	want[0] = 0x87654321;
	assert_memory_equal(regs, want, sizeof(regs));
	/* 4c 8b 62 08: mov 0x8(%rdx),%r12: the whole value */
	init_regs(want);
	load(BYTES(0x4c, 0x8b, 0x62, 0x08), 4, 0xfedcba9876543210ULL, regs);
	want[12] = 0xfedcba9876543210ULL;
	assert_memory_equal(regs, want, sizeof(regs));
	/* 0f b6 33: movzbl (%rbx),%esi: byte zero-extended to 64 */
	init_regs(want);
	load(BYTES(0x0f, 0xb6, 0x33), 3, 0x1234ff, regs);
	want[6] = 0xff;
	assert_memory_equal(regs, want, sizeof(regs));
	/* 66 0f b6 07: movzbw (%rdi),%ax: bits 15:0 = byte, 63:16 kept */
	init_regs(want);
	load(BYTES(0x66, 0x0f, 0xb6, 0x07), 4, 0x1234ff, regs);
	want[0] = (want[0] & ~0xffffULL) | 0x00ff;
	assert_memory_equal(regs, want, sizeof(regs));
	/* 4c 0f b7 33: movzwq (%rbx),%r14 */
	init_regs(want);
	load(BYTES(0x4c, 0x0f, 0xb7, 0x33), 4, 0xffff8001, regs);
	want[14] = 0x8001;
	assert_memory_equal(regs, want, sizeof(regs));
	/* a0: movabs 0x...,%al */
	init_regs(want);
	load(BYTES(0xa0, 0x10, 0x00, 0xc0, 0xfe, 0, 0, 0, 0), 9, 0x3c, regs);
	want[0] = (want[0] & ~0xffULL) | 0x3c;
	assert_memory_equal(regs, want, sizeof(regs));
}

static void store_values(void **state)
{
	struct mmio_insn in;
	u64 regs[16];

	(void)state;
	init_regs(regs);
	regs[0] = 0x1122334455667788ULL;
	regs[3] = 0x0102030405060708ULL;
	/* mov %al,(%rbx); mov %ah,(%rbx); mov %bh,0x10(%rdx) */
	assert_int_equal(ANY(true, &in, 0x88, 0x03), INSN_OK);
	assert_true(insn_store_value(&in, regs) == 0x88);
	assert_int_equal(ANY(true, &in, 0x88, 0x23), INSN_OK);
	assert_true(insn_store_value(&in, regs) == 0x77);
	assert_int_equal(ANY(true, &in, 0x88, 0x7a, 0x10), INSN_OK);
	assert_true(insn_store_value(&in, regs) == 0x07);
	/* mov %ax,(%rbx); mov %eax (89 03); mov %rax,(%rbx) */
	assert_int_equal(ANY(true, &in, 0x66, 0x89, 0x03), INSN_OK);
	assert_true(insn_store_value(&in, regs) == 0x7788);
	assert_int_equal(ANY(true, &in, 0x89, 0x03), INSN_OK);
	assert_true(insn_store_value(&in, regs) == 0x55667788);
	assert_int_equal(ANY(true, &in, 0x48, 0x89, 0x03), INSN_OK);
	assert_true(insn_store_value(&in, regs) == 0x1122334455667788ULL);
	/* 40 88 37: mov %sil,(%rdi) */
	assert_int_equal(ANY(true, &in, 0x40, 0x88, 0x37), INSN_OK);
	assert_true(insn_store_value(&in, regs) == (R(6) & 0xff));
	/* immediates: movq $-2 (sign-extended), movw $0xbeef */
	assert_int_equal(ANY(true, &in, 0x48, 0xc7, 0x07, 0xfe, 0xff, 0xff,
			     0xff),
			 INSN_OK);
	assert_true(insn_store_value(&in, regs) == 0xfffffffffffffffeULL);
	assert_int_equal(ANY(true, &in, 0x66, 0xc7, 0x00, 0xef, 0xbe), INSN_OK);
	assert_true(insn_store_value(&in, regs) == 0xbeef);
	/* a store is not a load: regs unchanged */
	assert_int_equal(insn_apply_load(&in, 1, regs), INSN_UNSUPPORTED);
	assert_true(regs[0] == 0x1122334455667788ULL);
	/* no register 16; AH..BH are 0..3 only */
	assert_int_equal(ANY(true, &in, 0x8b, 0x03), INSN_OK);
	in.reg = 16;
	assert_int_equal(insn_apply_load(&in, 1, regs), INSN_UNSUPPORTED);
	assert_int_equal(ANY(true, &in, 0x8a, 0x2b), INSN_OK);
	in.reg = 4;
	assert_int_equal(insn_apply_load(&in, 1, regs), INSN_UNSUPPORTED);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(linux_apic_accessors),
		cmocka_unit_test(registers_and_addressing),
		cmocka_unit_test(immediates_and_moffs),
		cmocka_unit_test(refusals),
		cmocka_unit_test(byte_moves),
		cmocka_unit_test(word_and_quad_moves),
		cmocka_unit_test(movzx),
		cmocka_unit_test(moffs_sizes),
		cmocka_unit_test(any_refusals),
		cmocka_unit_test(apic_subset_unchanged),
		cmocka_unit_test(load_merges),
		cmocka_unit_test(store_values),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
