// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * SMP bring-up.  The first CPU starts the others with INIT, SIPI, SIPI at
 * vector 0 (SDM Vol. 3, 9.4.4.1): they enter _start in real mode, where
 * entry.S sends them down the AP path (page tables of the first CPU, a stack
 * from inmate_ap_stacks by arrival order) to inmate_ap_start(), which counts
 * them in and calls inmate_ap_main().
 *
 * The targets are the cell's CPUs from the comm region's apic_ids (ABI
 * revision 2); without that bitmap, every CPU but this one (destination
 * shorthand), and then the wait lasts the whole timeout.
 */
#include <inmate.h>
#include "internal.h"

#define SMP_INIT_DELAY_US 10000
#define SMP_SIPI_DELAY_US 200
#define SMP_START_TIMEOUT_US 1000000
#define SMP_ENTRY_VECTOR 0 /* SIPI vector: CS.base 0, i.e. _start */
#define COMM_REVISION_APIC_IDS 2

volatile uint32_t inmate_smp_next_index;
volatile uint32_t inmate_smp_cpus_up;
uint8_t inmate_ap_stacks[INMATE_MAX_CPUS - 1][INMATE_AP_STACK_SIZE]
	__attribute__((aligned(16)));

unsigned int smp_cpu_index(void)
{
	uint64_t sp, offset;

	asm volatile("mov %%rsp, %0" : "=r"(sp));
	offset = sp - (uint64_t)inmate_ap_stacks;
	if (offset < sizeof(inmate_ap_stacks))
		return offset / INMATE_AP_STACK_SIZE + 1;
	return 0;
}

unsigned int smp_num_cpus(void)
{
	unsigned int n = __atomic_load_n(&inmate_smp_cpus_up, __ATOMIC_SEQ_CST);

	return n ? n : 1;
}

/* The other CPUs of the cell by APIC ID; false when unknown. */
static bool cell_apic_ids(uint64_t ids[4])
{
	struct warden_comm_region *comm = comm_region();
	bool any = false;

	if (!comm || comm->revision < COMM_REVISION_APIC_IDS)
		return false;
	for (unsigned int i = 0; i < 4; i++) {
		ids[i] = comm->apic_ids[i];
		any |= ids[i] != 0;
	}
	return any;
}

static void send_to(const uint64_t ids[4], unsigned int self, unsigned int max,
		    bool init)
{
	unsigned int id, n = 0;

	for (id = 0; id < 256 && n < max; id++) {
		if (id == self || !(ids[id / 64] & (1ull << (id % 64))))
			continue;
		if (init)
			apic_send_init(id);
		else
			apic_send_sipi(id, SMP_ENTRY_VECTOR);
		n++;
	}
}

unsigned int smp_start_cpus(void)
{
	unsigned int self, id, expected = 0;
	uint64_t ids[4], start, timeout;
	bool known;

	if (inmate_smp_ready)
		return smp_num_cpus();
	if (!apic_is_initialized() && apic_init(true) < 0)
		return 1;
	__atomic_store_n(&inmate_smp_cpus_up, 1, __ATOMIC_SEQ_CST);
	__atomic_store_n(&inmate_smp_next_index, 1, __ATOMIC_SEQ_CST);
	__atomic_store_n(&inmate_smp_ready, 1, __ATOMIC_SEQ_CST);

	self = apic_id();
	known = cell_apic_ids(ids);
	if (known) {
		for (id = 0; id < 256; id++)
			if (id != self && (ids[id / 64] & (1ull << (id % 64))))
				expected++;
		if (expected > INMATE_MAX_CPUS - 1)
			expected = INMATE_MAX_CPUS - 1;
		if (!expected)
			return 1;
		send_to(ids, self, expected, true);
		delay_us(SMP_INIT_DELAY_US);
		send_to(ids, self, expected, false);
		delay_us(SMP_SIPI_DELAY_US);
		send_to(ids, self, expected, false);
	} else {
		apic_send_icr(0, APIC_ICR_DEST_ALL_BUT_SELF | APIC_ICR_DM_INIT |
					 APIC_ICR_LEVEL_ASSERT);
		delay_us(SMP_INIT_DELAY_US);
		for (int i = 0; i < 2; i++) {
			apic_send_icr(0, APIC_ICR_DEST_ALL_BUT_SELF |
						 APIC_ICR_DM_SIPI |
						 APIC_ICR_LEVEL_ASSERT |
						 SMP_ENTRY_VECTOR);
			delay_us(SMP_SIPI_DELAY_US);
		}
		expected = INMATE_MAX_CPUS - 1;
	}

	timeout = (uint64_t)tsc_khz() * (SMP_START_TIMEOUT_US / 1000);
	start = rdtsc();
	while (smp_num_cpus() < expected + 1 && rdtsc() - start < timeout)
		cpu_relax();
	return smp_num_cpus();
}
