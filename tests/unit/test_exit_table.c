// SPDX-License-Identifier: GPL-2.0
/*
 * The exit kind table (hypervisor/arch/x86/exit_table.c) against
 * warden/stats.h: every kind has a handler and one statistics counter,
 * every counter of stats.h is some kind's, and an exit is counted exactly
 * once -- in the total and in its own counter -- whatever its kind,
 * including an x2APIC ICR write (once, not also as an MSR write), a
 * triple fault and an NMI that was the hypervisor's own.
 */
#include "cmocka_wrap.h"
#include <asm/exit.h>
#include <string.h>
#include <warden/stats.h>

/* The handlers live in the hypervisor; the table only names them. */
#define STUB(name)                                                             \
	enum exit_action name(struct per_cpu *pc, struct guest_regs *regs,     \
			      const struct x86_exit *e)                        \
	{                                                                      \
		(void)pc;                                                      \
		(void)regs;                                                    \
		(void)e;                                                       \
		return EXIT_RESUME;                                            \
	}
STUB(x86_handle_cpuid)
STUB(x86_handle_cr)
STUB(x86_handle_msr)
STUB(x86_handle_xsetbv)
STUB(x86_handle_io)
STUB(x86_handle_xapic)
STUB(x86_handle_mmio)
STUB(x86_handle_hypercall)
STUB(x86_handle_event)
STUB(x86_handle_nmi)
STUB(x86_handle_init)
STUB(x86_handle_sipi)
STUB(x86_handle_exception)
STUB(x86_handle_triple_fault)
STUB(x86_handle_virt_insn)
STUB(x86_handle_entry_failed)
STUB(x86_handle_invd)
STUB(x86_handle_unknown)

static void every_kind_complete(void **state)
{
	unsigned int k;

	(void)state;
	for (k = 0; k < X86_EXIT_KINDS; k++) {
		assert_non_null(x86_exit_kinds[k].name);
		assert_non_null(x86_exit_kinds[k].handler);
		assert_true(x86_exit_kinds[k].stat > WARDEN_STAT_VMEXITS_TOTAL);
		assert_true(x86_exit_kinds[k].stat < WARDEN_NUM_STATS);
	}
}

static void every_stat_used(void **state)
{
	unsigned int stat, k;
	bool used;

	(void)state;
	for (stat = WARDEN_STAT_VMEXITS_TOTAL + 1; stat < WARDEN_NUM_STATS;
	     stat++) {
		used = false;
		for (k = 0; k < X86_EXIT_KINDS; k++)
			used |= x86_exit_kinds[k].stat == stat;
		if (!used)
			fail_msg("statistics id %u counts no exit kind", stat);
	}
}

/* Count one exit as the dispatcher does: refine, then count. */
static void count_one(u64 *stats, enum x86_exit_kind kind, u32 msr, bool event)
{
	memset(stats, 0, sizeof(u64) * WARDEN_MAX_STATS);
	x86_exit_count(stats, x86_exit_refine(kind, msr, event));
}

static void assert_counted_once_as(const u64 *stats, unsigned int stat)
{
	unsigned int i;
	u64 others = 0;

	assert_int_equal(stats[WARDEN_STAT_VMEXITS_TOTAL], 1);
	assert_int_equal(stats[stat], 1);
	for (i = WARDEN_STAT_VMEXITS_TOTAL + 1; i < WARDEN_MAX_STATS; i++)
		others += stats[i];
	assert_int_equal(others, 1);
}

static void each_kind_counted_once(void **state)
{
	u64 stats[WARDEN_MAX_STATS];
	unsigned int k;

	(void)state;
	for (k = 0; k < X86_EXIT_KINDS; k++) {
		count_one(stats, k, 0, false);
		assert_counted_once_as(stats, x86_exit_kinds[k].stat);
	}
}

static void special_cases(void **state)
{
	u64 stats[WARDEN_MAX_STATS];

	(void)state;
	/* the x2APIC ICR: once, as an ICR write, not also as an MSR write */
	count_one(stats, X86_EXIT_MSR_WRITE, 0x830, false);
	assert_counted_once_as(stats, WARDEN_STAT_VMEXITS_X2APIC_ICR);
	assert_int_equal(stats[WARDEN_STAT_VMEXITS_MSR_WRITE], 0);
	/* reading the ICR is an MSR read; another MSR write an MSR write */
	count_one(stats, X86_EXIT_MSR_READ, 0x830, false);
	assert_counted_once_as(stats, WARDEN_STAT_VMEXITS_MSR_READ);
	count_one(stats, X86_EXIT_MSR_WRITE, 0x831, false);
	assert_counted_once_as(stats, WARDEN_STAT_VMEXITS_MSR_WRITE);
	/* a triple fault counts (as other) */
	count_one(stats, X86_EXIT_TRIPLE_FAULT, 0, false);
	assert_counted_once_as(stats, WARDEN_STAT_VMEXITS_OTHER);
	/* the hypervisor's NMI is an event, the guest's an NMI */
	count_one(stats, X86_EXIT_NMI, 0, true);
	assert_counted_once_as(stats, WARDEN_STAT_VMEXITS_MANAGEMENT);
	count_one(stats, X86_EXIT_NMI, 0, false);
	assert_counted_once_as(stats, WARDEN_STAT_VMEXITS_NMI);
	/* "event" only refines NMIs */
	assert_int_equal(x86_exit_refine(X86_EXIT_CPUID, 0x830, true),
			 X86_EXIT_CPUID);
	/* a kind out of range is unknown, counted as other */
	count_one(stats, (enum x86_exit_kind)X86_EXIT_KINDS, 0, false);
	assert_counted_once_as(stats, WARDEN_STAT_VMEXITS_OTHER);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_kind_complete),
		cmocka_unit_test(every_stat_used),
		cmocka_unit_test(each_kind_counted_once),
		cmocka_unit_test(special_cases),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
