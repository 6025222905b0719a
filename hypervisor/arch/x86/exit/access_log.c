// SPDX-License-Identifier: GPL-2.0
/*
 * The access log of a cell CPU (contract in asm/access_log.h): the map of
 * what a guest touches, from which a guest's policies are decided
 * (docs/linux-cell.md, "What the stock kernel touched").
 */
#include <asm/access_log.h>
#include <asm/percpu.h>
#include <asm/vendor.h>
#include <hv/arch.h>
#include <hv/cell.h>
#include <hv/hypervisor.h>
#include <hv/printk.h>
#include <hv/string.h>
#include <warden/config.h>
#include <warden/hypercall.h>

static const char *const kind_names[] = {
	[ACCESS_PORT_IN] = "port in", [ACCESS_PORT_OUT] = "port out",
	[ACCESS_MSR_READ] = "rdmsr",  [ACCESS_MSR_WRITE] = "wrmsr",
	[ACCESS_CPUID] = "cpuid",
};

static const char *const outcome_names[] = {
	[ACCESS_DONE] = "done",	    [ACCESS_QUIET] = "quiet",
	[ACCESS_GP] = "#GP",	    [ACCESS_READ_0] = "read 0",
	[ACCESS_FAILED] = "failed", [ACCESS_CHANGED] = "changed",
};

static bool logs_all(const struct per_cpu *pc)
{
	return pc->cell->config->flags & WARDEN_CELL_ACCESS_LOG;
}

static void print_entry(const struct per_cpu *pc, const char *what,
			const struct access_entry *e)
{
	if (e->kind == ACCESS_CPUID)
		printk("CPU %u: cell %u %s: cpuid 0x%x.%x x%u, first at RIP "
		       "0x%llx (%s)\n",
		       pc->cpu_id, pc->cell->id, what, e->number, e->sub,
		       e->count, (unsigned long long)e->first_rip,
		       outcome_names[e->outcome]);
	else
		printk("CPU %u: cell %u %s: %s 0x%x x%u, first at RIP 0x%llx "
		       "(%s)\n",
		       pc->cpu_id, pc->cell->id, what, kind_names[e->kind],
		       e->number, e->count, (unsigned long long)e->first_rip,
		       outcome_names[e->outcome]);
}

/* The CPUID leaves whose ECX selects a subleaf (SDM Vol. 2A, CPUID;
 * APM Vol. 3, E.3). */
static bool cpuid_has_subleaves(u32 leaf)
{
	switch (leaf) {
	case 4:
	case 7:
	case 0xb:
	case 0xd:
	case 0xf:
	case 0x10:
	case 0x12:
	case 0x14:
	case 0x17:
	case 0x18:
	case 0x1d:
	case 0x1f:
	case 0x8000001d:
	case 0x80000020:
		return true;
	default:
		return false;
	}
}

void access_log_record(struct per_cpu *pc, enum access_kind kind, u32 number,
		       u32 sub, enum access_outcome outcome)
{
	struct access_log *log = &pc->arch.access_log;
	struct access_entry *e;
	unsigned int i;

	/* nothing for root; for other cells the policies' answers, or
	 * everything when the cell asks: decided before any other work,
	 * since this runs on every port, MSR and CPUID exit */
	if (pc->cell == &hv.root ||
	    (!logs_all(pc) && outcome != ACCESS_QUIET && outcome != ACCESS_GP &&
	     outcome != ACCESS_READ_0))
		return;
	if (kind == ACCESS_CPUID) {
		/* Linux scans 0x40000100-0x4000ff00 in steps of 0x100 for
		 * other hypervisors' signatures: one entry for the scan */
		if (number > 0x40000000 && number < 0x40010000 &&
		    (number & 0xff) == 0)
			number = 0x40000100;
		if (!cpuid_has_subleaves(number))
			sub = 0; /* ECX is whatever the guest left there */
	}
	for (i = 0; i < log->used; i++) {
		e = &log->entries[i];
		if (e->kind == kind && e->number == number && e->sub == sub) {
			__atomic_store_n(&e->count, e->count + 1,
					 __ATOMIC_RELAXED);
			return;
		}
	}
	if (log->used == ACCESS_LOG_ENTRIES) {
		__atomic_store_n(&log->dropped, log->dropped + 1,
				 __ATOMIC_RELAXED);
		return;
	}
	e = &log->entries[log->used];
	e->kind = (u8)kind;
	e->number = number;
	e->sub = sub;
	e->count = 1;
	e->outcome = (u8)outcome;
	e->first_rip = vcpu_rip();
	/* complete before root may see it (arch_cpu_access_info) */
	__atomic_store_n(&log->used, log->used + 1, __ATOMIC_RELEASE);
	if (logs_all(pc))
		print_entry(pc, "first use", e);
}

long arch_cpu_access_info(const struct per_cpu *pc, unsigned long type)
{
	const struct access_log *log = &pc->arch.access_log;
	const struct access_entry *e;
	unsigned long entry, field;

	if (type == WARDEN_CPU_INFO_ACCESS_DROPPED)
		return __atomic_load_n(&log->dropped, __ATOMIC_RELAXED);
	entry = (type - WARDEN_CPU_INFO_ACCESS_BASE) / WARDEN_ACCESS_FIELDS;
	field = (type - WARDEN_CPU_INFO_ACCESS_BASE) % WARDEN_ACCESS_FIELDS;
	if (type < WARDEN_CPU_INFO_ACCESS_BASE ||
	    entry >= __atomic_load_n(&log->used, __ATOMIC_ACQUIRE))
		return 0;
	e = &log->entries[entry];
	switch (field) {
	case WARDEN_ACCESS_FIELD_KEY:
		return (long)warden_access_key(e->kind, e->outcome, e->number,
					       e->sub);
	case WARDEN_ACCESS_FIELD_COUNT:
		return __atomic_load_n(&e->count, __ATOMIC_RELAXED);
	case WARDEN_ACCESS_FIELD_RIP_LOW:
		return (long)(u32)e->first_rip;
	case WARDEN_ACCESS_FIELD_RIP_HIGH:
		return (long)(e->first_rip >> 32);
	}
	return 0;
}

void access_log_reset(struct per_cpu *pc)
{
	__atomic_store_n(&pc->arch.access_log.used, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&pc->arch.access_log.dropped, 0, __ATOMIC_RELAXED);
}

void access_log_print(struct per_cpu *pc)
{
	struct access_log *log = &pc->arch.access_log;
	unsigned int i;

	for (i = 0; i < log->used; i++)
		print_entry(pc, "used", &log->entries[i]);
	if (log->dropped)
		printk("CPU %u: cell %u: %u more uses found no room in the "
		       "access log\n",
		       pc->cpu_id, pc->cell->id, log->dropped);
	access_log_reset(pc);
}
