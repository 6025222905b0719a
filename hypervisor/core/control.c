// SPDX-License-Identifier: GPL-2.0
/*
 * Hypercalls (include/warden/hypercall.h).  Management calls come only
 * from the root cell at CPL 0; the architecture layer has checked the
 * privilege level before calling hypercall().
 */
#include <hv/arch.h>
#include <hv/cell.h>
#include <hv/hypervisor.h>
#include <hv/printk.h>
#include <hv/unit.h>
#include <hv/spinlock.h>
#include <warden/access.h>
#include <warden/cell.h>
#include <warden/hypercall.h>
#include <warden/vmx_entry.h>

static u32 cpus_left;

/* CPUs the hypervisor gave up on: they will not disable. */
static unsigned int lost_cpus(void)
{
	unsigned int cpu, n = 0;

	for (cpu = 0; cpu < hv.num_cpus; cpu++)
		n += __atomic_load_n(&per_cpu(cpu)->state, __ATOMIC_SEQ_CST) ==
		     WARDEN_CPU_LOST;
	return n;
}

static long hypervisor_info(unsigned long type)
{
	switch (type) {
	case WARDEN_INFO_MEM_POOL_PAGES:
		return (long)hv.pool.pages;
	case WARDEN_INFO_MEM_POOL_USED:
		return (long)hv.pool.used;
	case WARDEN_INFO_NUM_CELLS:
		return cell_count();
	case WARDEN_INFO_ABI_REVISION:
		return WARDEN_ABI_REVISION;
	}
	return -WARDEN_EINVAL;
}

static long cpu_info(unsigned long cpu, unsigned long type)
{
	struct per_cpu *pc;

	if (cpu >= hv.num_cpus)
		return -WARDEN_EINVAL;
	pc = per_cpu((unsigned int)cpu);
	if (type == WARDEN_CPU_INFO_STATE)
		return __atomic_load_n(&pc->state, __ATOMIC_SEQ_CST);
	if (type == WARDEN_CPU_INFO_CELL)
		return __atomic_load_n(&pc->cell, __ATOMIC_SEQ_CST)->id;
	if (type >= WARDEN_CPU_INFO_STAT_BASE &&
	    type < WARDEN_CPU_INFO_STAT_BASE + WARDEN_NUM_STATS)
		return (long)(pc->stats[type - WARDEN_CPU_INFO_STAT_BASE] &
			      0x7fffffffffffffffull);
	if (type == WARDEN_CPU_INFO_ACCESS_DROPPED ||
	    (type >= WARDEN_CPU_INFO_ACCESS_BASE &&
	     type < WARDEN_CPU_INFO_ACCESS_BASE +
			     WARDEN_ACCESS_LOG_ENTRIES * WARDEN_ACCESS_FIELDS))
		return arch_cpu_access_info(pc, type);
	if (type >= WARDEN_CPU_INFO_ENTRY_BASE &&
	    type < WARDEN_CPU_INFO_ENTRY_BASE + WARDEN_VMX_ENTRY_WORDS)
		return arch_cpu_entry_info(pc,
					   type - WARDEN_CPU_INFO_ENTRY_BASE);
	return -WARDEN_EINVAL;
}

long hypercall(struct per_cpu *pc, unsigned long code, unsigned long arg1,
	       unsigned long arg2)
{
	/* Cells other than root may only write to the console (and use the
	 * test hooks where enabled). */
	if (code == WARDEN_HC_DEBUG_CONSOLE_PUTC) {
		console_cell_putc(pc, (u8)arg1);
		return 0;
	}
	if (code == WARDEN_HC_TEST && pc->cell != &hv.root &&
	    (hv.header->flags & WARDEN_HV_TEST_HOOKS)) {
		printk("CPU %u: test hook %lu of cell %u\n", pc->cpu_id, arg1,
		       pc->cell->id);
		return arch_test_failure(pc, arg1);
	}
	if (pc->cell != &hv.root)
		return -WARDEN_EPERM;
	units_root_call(pc);
	switch (code) {
	case WARDEN_HC_DISABLE:
		printk("CPU %u: disabling\n", pc->cpu_id);
		if (__atomic_add_fetch(&cpus_left, 1, __ATOMIC_SEQ_CST) ==
		    hv.num_cpus - lost_cpus()) {
			units_shutdown();
			printk("Warden disabled: memory pool %lu of %lu pages "
			       "used\n",
			       hv.pool.used, hv.pool.pages);
		}
		return 0; /* the caller leaves after this returns 0 */
	case WARDEN_HC_HYPERVISOR_GET_INFO:
		return hypervisor_info(arg1);
	case WARDEN_HC_CPU_GET_INFO:
		return cpu_info(arg1, arg2);
	case WARDEN_HC_CONFIG_VALIDATE:
		return cell_config_validate(pc, arg1, arg2);
	case WARDEN_HC_CELL_CREATE:
		return cell_create(pc, arg1, arg2);
	case WARDEN_HC_CELL_DESTROY:
		return cell_destroy(pc, arg1, arg2);
	case WARDEN_HC_CELL_GET_STATE:
		return cell_get_state(arg1);
	case WARDEN_HC_CELL_SET_LOADABLE:
		return cell_set_loadable(pc, arg1, arg2);
	case WARDEN_HC_CELL_START:
		return cell_start(pc, arg1, arg2);
	case WARDEN_HC_CELL_SHUTDOWN:
		return cell_shutdown(pc, arg1, arg2);
	}
	return units_hypercall(pc, code, arg1, arg2);
}
