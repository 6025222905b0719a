// SPDX-License-Identifier: GPL-2.0
/*
 * The access log of a cell CPU (contract in asm/access_log.h): the map of
 * what a guest touches, from which a guest's policies are decided
 * (docs/linux-cell.md, "What the stock kernel touched").
 */
#include <asm/access_log.h>
#include <asm/percpu.h>
#include <asm/vendor.h>
#include <hv/cell.h>
#include <hv/hypervisor.h>
#include <hv/printk.h>
#include <hv/string.h>
#include <warden/config.h>

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

void access_log_record(struct per_cpu *pc, enum access_kind kind, u32 number,
		       u32 sub, enum access_outcome outcome)
{
	struct access_log *log = &pc->arch.access_log;
	struct access_entry *e;
	unsigned int i;

	if (pc->cell == &hv.root)
		return;
	if (!logs_all(pc) && outcome != ACCESS_QUIET && outcome != ACCESS_GP &&
	    outcome != ACCESS_READ_0)
		return;
	for (i = 0; i < log->used; i++) {
		e = &log->entries[i];
		if (e->kind == kind && e->number == number && e->sub == sub) {
			e->count++;
			return;
		}
	}
	if (log->used == ACCESS_LOG_ENTRIES) {
		log->dropped++;
		return;
	}
	e = &log->entries[log->used++];
	e->kind = (u8)kind;
	e->number = number;
	e->sub = sub;
	e->count = 1;
	e->outcome = (u8)outcome;
	e->first_rip = vcpu_rip();
	if (logs_all(pc))
		print_entry(pc, "first use", e);
}

void access_log_reset(struct per_cpu *pc)
{
	pc->arch.access_log.used = 0;
	pc->arch.access_log.dropped = 0;
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
