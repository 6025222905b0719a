// SPDX-License-Identifier: GPL-2.0
/*
 * The MMIO instruction decoder (hypervisor/arch/x86/insn.c) on encodings
 * produced by GNU as (objdump listings in the comments): length, direction,
 * register and immediate, and refusal of every other form.
 */
#include "cmocka_wrap.h"
#include <asm/insn.h>

#define BYTES(...) ((const u8[]){ __VA_ARGS__ })
#define DECODE(lm, out, ...)                                                   \
	insn_decode_mmio(BYTES(__VA_ARGS__),                                   \
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(linux_apic_accessors),
		cmocka_unit_test(registers_and_addressing),
		cmocka_unit_test(immediates_and_moffs),
		cmocka_unit_test(refusals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
