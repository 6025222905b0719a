// SPDX-License-Identifier: GPL-2.0
/*
 * Decode and dispatch together, as a second-level fault is handled
 * (hypervisor/arch/x86/mmio_insn.c): the bytes of a real instruction are
 * decoded, the access goes through a registry to a small device, and the
 * guest's registers come out as the CPU would leave them.
 */
#include "cmocka_wrap.h"
#include <asm/insn.h>
#include <asm/mmio_insn.h>
#include <string.h>

#define DEV_BASE 0xfec00000ull
#define OTHER_BASE 0xfed00000ull

/* A device of 16 byte-addressable registers, little-endian. */
struct device {
	u8 reg[16];
	unsigned int accesses;
};

static enum mmio_result device_access(void *ctx, struct per_cpu *pc,
				      struct mmio_access *a)
{
	struct device *d = ctx;
	unsigned int i;

	(void)pc;
	d->accesses++;
	if (a->offset + a->size > sizeof(d->reg))
		return MMIO_REFUSED;
	if (a->write) {
		for (i = 0; i < a->size; i++)
			d->reg[a->offset + i] = (u8)(a->value >> (8 * i));
	} else {
		a->value = 0;
		for (i = 0; i < a->size; i++)
			a->value |= (u64)d->reg[a->offset + i] << (8 * i);
	}
	return MMIO_HANDLED;
}

static enum mmio_result other_access(void *ctx, struct per_cpu *pc,
				     struct mmio_access *a)
{
	(void)pc;
	(void)a;
	++*(unsigned int *)ctx;
	return MMIO_HANDLED;
}

struct fixture {
	struct mmio_region storage[4];
	struct mmio_registry r;
	struct device dev;
	unsigned int other_calls;
	u64 regs[16];
};

static struct fixture f;

static int setup(void **state)
{
	(void)state;
	memset(&f, 0, sizeof(f));
	mmio_registry_init(&f.r, f.storage, 4);
	assert_int_equal(
		mmio_register(&f.r, DEV_BASE, 16, device_access, &f.dev), 0);
	assert_int_equal(mmio_register(&f.r, OTHER_BASE, 4096, other_access,
				       &f.other_calls),
			 0);
	return 0;
}

/* Decode bytes (64-bit code) and perform the access at gpa. */
static enum mmio_result run(const u8 *bytes, unsigned int len, u64 gpa)
{
	struct mmio_insn insn;

	assert_int_equal(insn_decode_mmio_any(bytes, len, true, &insn),
			 INSN_OK);
	assert_int_equal(insn.length, len);
	return mmio_insn_perform(&f.r, NULL, &insn, gpa, f.regs);
}

static void store_register(void **state)
{
	/* mov %eax,0x4(%rbx) */
	const u8 insn[] = { 0x89, 0x43, 0x04 };

	(void)state;
	f.regs[0] = 0xffffffff12345678ull;
	assert_int_equal(run(insn, sizeof(insn), DEV_BASE + 4), MMIO_HANDLED);
	assert_int_equal(f.dev.reg[4], 0x78);
	assert_int_equal(f.dev.reg[7], 0x12);
	assert_int_equal(f.dev.reg[8], 0); /* 4 bytes, not 8 */
}

static void store_immediate16(void **state)
{
	/* movw $0x1234,0x2(%rdi) */
	const u8 insn[] = { 0x66, 0xc7, 0x47, 0x02, 0x34, 0x12 };

	(void)state;
	assert_int_equal(run(insn, sizeof(insn), DEV_BASE + 2), MMIO_HANDLED);
	assert_int_equal(f.dev.reg[2], 0x34);
	assert_int_equal(f.dev.reg[3], 0x12);
	assert_int_equal(f.dev.reg[4], 0);
}

static void load_zero_extended(void **state)
{
	/* movzbl 0x5(%rdx),%ecx */
	const u8 insn[] = { 0x0f, 0xb6, 0x4a, 0x05 };

	(void)state;
	f.dev.reg[5] = 0xa5;
	f.regs[1] = 0xdeadbeefdeadbeefull;
	assert_int_equal(run(insn, sizeof(insn), DEV_BASE + 5), MMIO_HANDLED);
	assert_int_equal(f.regs[1], 0xa5);
}

static void load_64_and_8(void **state)
{
	/* mov 0x8(%rsi),%rax; mov 0x1(%rsi),%bh (no REX: BH) */
	const u8 mov64[] = { 0x48, 0x8b, 0x46, 0x08 };
	const u8 movbh[] = { 0x8a, 0x7e, 0x01 };
	unsigned int i;

	(void)state;
	for (i = 0; i < 16; i++)
		f.dev.reg[i] = (u8)(0x10 + i);
	assert_int_equal(run(mov64, sizeof(mov64), DEV_BASE + 8), MMIO_HANDLED);
	assert_int_equal(f.regs[0], 0x1f1e1d1c1b1a1918ull);
	f.regs[3] = 0x1111111111111111ull;
	assert_int_equal(run(movbh, sizeof(movbh), DEV_BASE + 1), MMIO_HANDLED);
	/* only bits 15:8 change */
	assert_int_equal(f.regs[3], 0x1111111111111111ull);
	f.dev.reg[1] = 0xab;
	assert_int_equal(run(movbh, sizeof(movbh), DEV_BASE + 1), MMIO_HANDLED);
	assert_int_equal(f.regs[3], 0x111111111111ab11ull);
}

static void right_region(void **state)
{
	/* mov %eax,(%rcx): the other device, not ours */
	const u8 insn[] = { 0x89, 0x01 };

	(void)state;
	assert_int_equal(run(insn, sizeof(insn), OTHER_BASE + 0x10),
			 MMIO_HANDLED);
	assert_int_equal(f.other_calls, 1);
	assert_int_equal(f.dev.accesses, 0);
}

static void outside_falls_to_policy(void **state)
{
	/* mov (%rax),%edx: an address no region holds, and one that
	 * crosses the device's end */
	const u8 insn[] = { 0x8b, 0x10 };
	u64 before[16];

	(void)state;
	f.regs[2] = 0x5555;
	memcpy(before, f.regs, sizeof(before));
	assert_int_equal(run(insn, sizeof(insn), 0x1000), MMIO_NO_REGION);
	assert_int_equal(run(insn, sizeof(insn), DEV_BASE + 14),
			 MMIO_NO_REGION);
	assert_memory_equal(before, f.regs, sizeof(before));
	assert_int_equal(f.dev.accesses, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(store_register, setup),
		cmocka_unit_test_setup(store_immediate16, setup),
		cmocka_unit_test_setup(load_zero_extended, setup),
		cmocka_unit_test_setup(load_64_and_8, setup),
		cmocka_unit_test_setup(right_region, setup),
		cmocka_unit_test_setup(outside_falls_to_policy, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
