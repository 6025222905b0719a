// SPDX-License-Identifier: GPL-2.0
/*
 * The MMIO dispatch registry (hypervisor/core/mmio.c): registrations that
 * overlap, wrap, have no size or find the registry full are refused with
 * their error code and change nothing; an access goes to the region that
 * contains all of it, with its offset, size and value, and anything else
 * (no region, straddling a region's end, after an unregister) falls
 * through as MMIO_NO_REGION without calling a handler.
 */
#include "cmocka_wrap.h"
#include <hv/mmio.h>
#include <warden/hypercall.h>
#include <string.h>

#define CAP 4

/* What the handlers saw; per_cpu stays opaque (a dummy address). */
struct seen {
	unsigned int calls;
	void *pc;
	struct mmio_access a;
	u64 read_value;		 /* what a read returns */
	enum mmio_result result; /* what the handler returns */
};

static struct mmio_region storage[CAP];
static struct mmio_registry reg;
static struct seen dev_a, dev_b;
static char cpu; /* stands for a struct per_cpu */
#define PC ((struct per_cpu *)&cpu)

static enum mmio_result handler(void *ctx, struct per_cpu *pc,
				struct mmio_access *a)
{
	struct seen *s = ctx;

	s->calls++;
	s->pc = pc;
	s->a = *a;
	if (!a->write)
		a->value = s->read_value;
	return s->result;
}

static int setup(void **state)
{
	(void)state;
	memset(storage, 0, sizeof(storage));
	memset(&dev_a, 0, sizeof(dev_a));
	memset(&dev_b, 0, sizeof(dev_b));
	mmio_registry_init(&reg, storage, CAP);
	return 0;
}

static enum mmio_result do_access(u64 addr, unsigned int size, bool write,
				  u64 *value)
{
	struct mmio_access a = {
		.addr = addr, .size = size, .write = write, .value = *value
	};
	enum mmio_result r = mmio_dispatch(&reg, PC, &a);

	*value = a.value;
	return r;
}

static void overlaps_refused(void **state)
{
	(void)state;
	/* [0x1000, 0x2000) */
	assert_int_equal(mmio_register(&reg, 0x1000, 0x1000, handler, &dev_a),
			 0);
	/* same start, shorter and longer */
	assert_int_equal(mmio_register(&reg, 0x1000, 0x10, handler, &dev_b),
			 -WARDEN_EBUSY);
	assert_int_equal(mmio_register(&reg, 0x1000, 0x2000, handler, &dev_b),
			 -WARDEN_EBUSY);
	/* inside, and exactly the same */
	assert_int_equal(mmio_register(&reg, 0x1800, 0x100, handler, &dev_b),
			 -WARDEN_EBUSY);
	assert_int_equal(mmio_register(&reg, 0x1000, 0x1000, handler, &dev_b),
			 -WARDEN_EBUSY);
	/* covering it */
	assert_int_equal(mmio_register(&reg, 0x0, 0x10000, handler, &dev_b),
			 -WARDEN_EBUSY);
	/* partial at the start, partial at the end (by one byte each) */
	assert_int_equal(mmio_register(&reg, 0x800, 0x801, handler, &dev_b),
			 -WARDEN_EBUSY);
	assert_int_equal(mmio_register(&reg, 0x1fff, 0x100, handler, &dev_b),
			 -WARDEN_EBUSY);
	/* last byte and first byte alone */
	assert_int_equal(mmio_register(&reg, 0x1fff, 1, handler, &dev_b),
			 -WARDEN_EBUSY);
	assert_int_equal(mmio_register(&reg, 0x1000, 1, handler, &dev_b),
			 -WARDEN_EBUSY);
	assert_int_equal(reg.count, 1);
	/* overlapping is refused before full: only then ENOSPC */
	assert_int_equal(mmio_register(&reg, 0x3000, 1, handler, &dev_b), 0);
	assert_int_equal(mmio_register(&reg, 0x4000, 1, handler, &dev_b), 0);
	assert_int_equal(mmio_register(&reg, 0x5000, 1, handler, &dev_b), 0);
	assert_int_equal(mmio_register(&reg, 0x1000, 1, handler, &dev_b),
			 -WARDEN_EBUSY);
}

static void adjacent_accepted(void **state)
{
	u64 v = 0;

	(void)state;
	assert_int_equal(mmio_register(&reg, 0x1000, 0x1000, handler, &dev_a),
			 0);
	/* right after, right before */
	assert_int_equal(mmio_register(&reg, 0x2000, 0x10, handler, &dev_b), 0);
	assert_int_equal(mmio_register(&reg, 0xff0, 0x10, handler, &dev_b), 0);
	assert_int_equal(reg.count, 3);
	/* the boundary bytes go where they belong */
	assert_int_equal(do_access(0x1fff, 1, false, &v), MMIO_HANDLED);
	assert_int_equal(dev_a.calls, 1);
	assert_int_equal(dev_a.a.offset, 0xfff);
	assert_int_equal(do_access(0x2000, 1, false, &v), MMIO_HANDLED);
	assert_int_equal(dev_b.calls, 1);
	assert_int_equal(dev_b.a.offset, 0);
	assert_int_equal(do_access(0xfff, 1, false, &v), MMIO_HANDLED);
	assert_int_equal(dev_b.calls, 2);
	assert_int_equal(dev_b.a.offset, 0xf);
	/* an access over the boundary of two adjacent regions: neither */
	assert_int_equal(do_access(0x1ffe, 4, false, &v), MMIO_NO_REGION);
	assert_int_equal(do_access(0xffe, 4, true, &v), MMIO_NO_REGION);
	assert_int_equal(dev_a.calls + dev_b.calls, 3);
}

static void full_refused(void **state)
{
	unsigned int i;
	struct mmio_registry none;

	(void)state;
	for (i = 0; i < CAP; i++)
		assert_int_equal(mmio_register(&reg, 0x10000 * (i + 1), 0x100,
					       handler, &dev_a),
				 0);
	assert_int_equal(mmio_register(&reg, 0x100000, 0x100, handler, &dev_a),
			 -WARDEN_ENOSPC);
	assert_int_equal(reg.count, CAP);
	/* a place frees up */
	assert_int_equal(mmio_unregister(&reg, 0x20000), 0);
	assert_int_equal(mmio_register(&reg, 0x100000, 0x100, handler, &dev_a),
			 0);
	/* no storage at all */
	mmio_registry_init(&none, NULL, 0);
	assert_int_equal(mmio_register(&none, 0x1000, 1, handler, &dev_a),
			 -WARDEN_ENOSPC);
	assert_null(mmio_lookup(&none, 0x1000, 1));
}

static void invalid_refused(void **state)
{
	u64 v = 0;

	(void)state;
	assert_int_equal(mmio_register(&reg, 0x1000, 0, handler, &dev_a),
			 -WARDEN_EINVAL);
	assert_int_equal(mmio_register(&reg, 0x1000, 0x10, NULL, &dev_a),
			 -WARDEN_EINVAL);
	/* wrap-around: the last byte beyond 2^64 - 1 */
	assert_int_equal(mmio_register(&reg, 0xfffffffffffff000ULL, 0x1001,
				       handler, &dev_a),
			 -WARDEN_EINVAL);
	assert_int_equal(mmio_register(&reg, 2, ~0ULL, handler, &dev_a),
			 -WARDEN_EINVAL);
	assert_int_equal(mmio_register(&reg, ~0ULL, 2, handler, &dev_a),
			 -WARDEN_EINVAL);
	assert_int_equal(reg.count, 0);
	/* ending on the last byte is no wrap */
	assert_int_equal(mmio_register(&reg, 0xfffffffffffff000ULL, 0x1000,
				       handler, &dev_a),
			 0);
	assert_int_equal(do_access(0xfffffffffffffff8ULL, 8, false, &v),
			 MMIO_HANDLED);
	assert_int_equal(dev_a.a.offset, 0xff8);
	/* an access that would wrap is in no region */
	assert_int_equal(do_access(0xfffffffffffffffeULL, 4, false, &v),
			 MMIO_NO_REGION);
	assert_int_equal(dev_a.calls, 1);
	/* sizes other than 1, 2, 4, 8: no handler called */
	assert_int_equal(do_access(0xfffffffffffff000ULL, 3, false, &v),
			 MMIO_REFUSED);
	assert_int_equal(do_access(0xfffffffffffff000ULL, 0, false, &v),
			 MMIO_REFUSED);
	assert_int_equal(do_access(0xfffffffffffff000ULL, 16, false, &v),
			 MMIO_REFUSED);
	assert_int_equal(dev_a.calls, 1);
}

static void dispatch_to_handler(void **state)
{
	u64 v;

	(void)state;
	assert_int_equal(
		mmio_register(&reg, 0xfec00000, 0x1000, handler, &dev_a), 0);
	assert_int_equal(
		mmio_register(&reg, 0xfed00000, 0x400, handler, &dev_b), 0);
	/* a 4-byte write at 0xfec00010 */
	v = 0x12345678;
	assert_int_equal(do_access(0xfec00010, 4, true, &v), MMIO_HANDLED);
	assert_int_equal(dev_a.calls, 1);
	assert_int_equal(dev_b.calls, 0);
	assert_ptr_equal(dev_a.pc, PC);
	assert_true(dev_a.a.addr == 0xfec00010);
	assert_true(dev_a.a.offset == 0x10);
	assert_int_equal(dev_a.a.size, 4);
	assert_true(dev_a.a.write);
	assert_true(dev_a.a.value == 0x12345678);
	/* a byte write: the handler sees the low byte only */
	v = 0xabcd;
	assert_int_equal(do_access(0xfed003ff, 1, true, &v), MMIO_HANDLED);
	assert_int_equal(dev_b.calls, 1);
	assert_true(dev_b.a.offset == 0x3ff);
	assert_int_equal(dev_b.a.size, 1);
	assert_true(dev_b.a.value == 0xcd);
	/* an 8-byte write, all of it */
	v = 0x8877665544332211ULL;
	assert_int_equal(do_access(0xfed00008, 8, true, &v), MMIO_HANDLED);
	assert_true(dev_b.a.value == 0x8877665544332211ULL);
	assert_true(dev_b.a.offset == 8);
	/* the handler's result comes back */
	dev_a.result = MMIO_REFUSED;
	v = 1;
	assert_int_equal(do_access(0xfec00000, 4, true, &v), MMIO_REFUSED);
	assert_int_equal(dev_a.calls, 2);
}

static void read_returns_value(void **state)
{
	u64 v;

	(void)state;
	assert_int_equal(
		mmio_register(&reg, 0xfec00000, 0x1000, handler, &dev_a), 0);
	dev_a.read_value = 0x1122334455667788ULL;
	/* the handler is called with 0, the caller gets size bytes of it */
	v = 0xdeadbeef;
	assert_int_equal(do_access(0xfec00010, 4, false, &v), MMIO_HANDLED);
	assert_false(dev_a.a.write);
	assert_true(dev_a.a.value == 0);
	assert_true(dev_a.a.offset == 0x10);
	assert_true(v == 0x55667788);
	assert_int_equal(do_access(0xfec00011, 2, false, &v), MMIO_HANDLED);
	assert_true(v == 0x7788);
	assert_int_equal(do_access(0xfec00012, 1, false, &v), MMIO_HANDLED);
	assert_true(v == 0x88);
	assert_int_equal(do_access(0xfec00ff8, 8, false, &v), MMIO_HANDLED);
	assert_true(v == 0x1122334455667788ULL);
	assert_int_equal(dev_a.calls, 4);
}

static void no_region(void **state)
{
	u64 v = 0;

	(void)state;
	assert_int_equal(mmio_register(&reg, 0x1000, 0x100, handler, &dev_a),
			 0);
	/* nothing there: before, after, far away */
	assert_int_equal(do_access(0xfff, 1, false, &v), MMIO_NO_REGION);
	assert_int_equal(do_access(0x1100, 4, true, &v), MMIO_NO_REGION);
	assert_int_equal(do_access(0xfee00000, 4, false, &v), MMIO_NO_REGION);
	/* straddling either end */
	assert_int_equal(do_access(0xffe, 4, false, &v), MMIO_NO_REGION);
	assert_int_equal(do_access(0x10fc, 8, true, &v), MMIO_NO_REGION);
	assert_int_equal(do_access(0x10ff, 2, false, &v), MMIO_NO_REGION);
	/* while the last bytes inside are fine */
	assert_int_equal(do_access(0x10f8, 8, false, &v), MMIO_HANDLED);
	assert_int_equal(dev_a.calls, 1);
	assert_null(mmio_lookup(&reg, 0x10ff, 2));
	assert_null(mmio_lookup(&reg, 0x1000, 0));
	assert_ptr_equal(mmio_lookup(&reg, 0x10ff, 1), &storage[0]);
	assert_true(mmio_lookup(&reg, 0x1000, 8)->ctx == &dev_a);
}

static void unregister_falls_through(void **state)
{
	u64 v = 0;

	(void)state;
	assert_int_equal(mmio_register(&reg, 0x1000, 0x100, handler, &dev_a),
			 0);
	assert_int_equal(mmio_register(&reg, 0x2000, 0x100, handler, &dev_b),
			 0);
	assert_int_equal(mmio_register(&reg, 0x3000, 0x100, handler, &dev_a),
			 0);
	/* by start: only the exact start counts */
	assert_int_equal(mmio_unregister(&reg, 0x2010), -WARDEN_ENOENT);
	assert_int_equal(mmio_unregister(&reg, 0x2000), 0);
	assert_int_equal(mmio_unregister(&reg, 0x2000), -WARDEN_ENOENT);
	assert_int_equal(do_access(0x2000, 4, false, &v), MMIO_NO_REGION);
	assert_int_equal(dev_b.calls, 0);
	/* the others still work */
	assert_int_equal(do_access(0x3000, 4, false, &v), MMIO_HANDLED);
	assert_int_equal(dev_a.calls, 1);
	/* by context: both of dev_a's */
	assert_int_equal(mmio_unregister_ctx(&reg, &dev_a), 2);
	assert_int_equal(reg.count, 0);
	assert_int_equal(mmio_unregister_ctx(&reg, &dev_a), 0);
	assert_int_equal(do_access(0x1000, 4, false, &v), MMIO_NO_REGION);
	assert_int_equal(do_access(0x3000, 4, true, &v), MMIO_NO_REGION);
	assert_int_equal(dev_a.calls, 1);
	/* and the space is free again */
	assert_int_equal(mmio_register(&reg, 0x1000, 0x3000, handler, &dev_b),
			 0);
	assert_int_equal(do_access(0x2ffc, 4, false, &v), MMIO_HANDLED);
	assert_int_equal(dev_b.calls, 1);
	assert_true(dev_b.a.offset == 0x1ffc);
}

/* Removing from the middle keeps the others, ctx by ctx. */
static void unregister_ctx_keeps_others(void **state)
{
	u64 v = 0;

	(void)state;
	assert_int_equal(mmio_register(&reg, 0x1000, 0x10, handler, &dev_a), 0);
	assert_int_equal(mmio_register(&reg, 0x2000, 0x10, handler, &dev_b), 0);
	assert_int_equal(mmio_register(&reg, 0x3000, 0x10, handler, &dev_a), 0);
	assert_int_equal(mmio_register(&reg, 0x4000, 0x10, handler, &dev_b), 0);
	assert_int_equal(mmio_unregister_ctx(&reg, &dev_a), 2);
	assert_int_equal(reg.count, 2);
	assert_int_equal(do_access(0x2000, 1, false, &v), MMIO_HANDLED);
	assert_int_equal(do_access(0x4000, 1, false, &v), MMIO_HANDLED);
	assert_int_equal(do_access(0x1000, 1, false, &v), MMIO_NO_REGION);
	assert_int_equal(do_access(0x3000, 1, false, &v), MMIO_NO_REGION);
	assert_int_equal(dev_b.calls, 2);
	assert_int_equal(dev_a.calls, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(overlaps_refused, setup),
		cmocka_unit_test_setup(adjacent_accepted, setup),
		cmocka_unit_test_setup(full_refused, setup),
		cmocka_unit_test_setup(invalid_refused, setup),
		cmocka_unit_test_setup(dispatch_to_handler, setup),
		cmocka_unit_test_setup(read_returns_value, setup),
		cmocka_unit_test_setup(no_region, setup),
		cmocka_unit_test_setup(unregister_falls_through, setup),
		cmocka_unit_test_setup(unregister_ctx_keeps_others, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
