// SPDX-License-Identifier: GPL-2.0
/*
 * The status calls while Warden is enabled: the hypervisor's CPUs, cells
 * and memory pool (WARDEN_IOCTL_STATUS), one CPU's state, cell and exit
 * counters (WARDEN_IOCTL_CPU_INFO), its access log
 * (WARDEN_IOCTL_CPU_ACCESS_LOG), its last failed VM entry
 * (WARDEN_IOCTL_CPU_ENTRY_FAILURE).
 */
#include <linux/mutex.h>

#include <asm/msr.h>

#include <warden/hypercall.h>

#include "hv_state.h"
#include "warden-driver.h"

int wd_status(struct warden_status *st)
{
	mutex_lock(&wd_lock);
	st->enabled = wd.enabled;
	if (wd.enabled) {
		st->num_cpus = wd.num_cpus;
		st->num_cells = wd_hypercall(WARDEN_HC_HYPERVISOR_GET_INFO,
					     WARDEN_INFO_NUM_CELLS, 0);
		st->mem_pool_pages = wd_hypercall(WARDEN_HC_HYPERVISOR_GET_INFO,
						  WARDEN_INFO_MEM_POOL_PAGES,
						  0);
		st->mem_pool_used = wd_hypercall(WARDEN_HC_HYPERVISOR_GET_INFO,
						 WARDEN_INFO_MEM_POOL_USED, 0);
	}
	mutex_unlock(&wd_lock);
	return 0;
}

/* Why a per-CPU request on cpu cannot be answered (Warden disabled, no
 * such CPU): the error filled in, or 0.  Called with wd_lock held. */
static int cpu_request_refused(struct warden_error *err, u32 cpu,
			       const char *what)
{
	struct wd_reason why = { .rule = WARDEN_RULE_NOT_ENABLED,
				 .cpu = WARDEN_NO_CPU };

	if (!wd.enabled)
		return wd_error(err, -EINVAL, &why, "%s: Warden is not enabled",
				what);
	if (cpu >= wd.num_cpus) {
		why.rule = WARDEN_RULE_CPU_NOT_PRESENT;
		why.item_kind = WARDEN_ITEM_CPU;
		why.item_index = cpu;
		why.values[0] = wd.num_cpus;
		return wd_error(err, -EINVAL, &why, "%s: no CPU %u", what, cpu);
	}
	return 0;
}

int wd_cpu_info(struct warden_cpu_info *info)
{
	unsigned int i;
	int ret;

	mutex_lock(&wd_lock);
	ret = cpu_request_refused(&info->error, info->cpu, "cpu info");
	if (ret)
		goto out;
	info->state = wd_hypercall(WARDEN_HC_CPU_GET_INFO, info->cpu,
				   WARDEN_CPU_INFO_STATE);
	info->cell_id = wd_hypercall(WARDEN_HC_CPU_GET_INFO, info->cpu,
				     WARDEN_CPU_INFO_CELL);
	info->num_stats = WARDEN_NUM_STATS;
	for (i = 0; i < WARDEN_NUM_STATS; i++)
		info->stats[i] = wd_hypercall(WARDEN_HC_CPU_GET_INFO, info->cpu,
					      WARDEN_CPU_INFO_STAT_BASE + i);
	info->tsc = rdtsc();
out:
	mutex_unlock(&wd_lock);
	return ret;
}

/* One field of an access-log entry of a CPU (warden/access.h). */
static u64 access_field(u32 cpu, unsigned int entry, unsigned int field)
{
	return wd_hypercall(WARDEN_HC_CPU_GET_INFO, cpu,
			    WARDEN_CPU_INFO_ACCESS_BASE +
				    entry * WARDEN_ACCESS_FIELDS + field);
}

int wd_cpu_access_log(struct warden_cpu_access_log *log)
{
	unsigned int i;
	u64 key;
	int ret;

	mutex_lock(&wd_lock);
	ret = cpu_request_refused(&log->error, log->cpu, "access log");
	if (ret)
		goto out;
	log->num_entries = 0;
	log->reserved = 0;
	memset(log->entries, 0, sizeof(log->entries));
	/* the entries so far, in order, up to the first empty one (the
	 * table only grows while the CPU stays in its cell) */
	for (i = 0; i < WARDEN_ACCESS_LOG_ENTRIES; i++) {
		key = access_field(log->cpu, i, WARDEN_ACCESS_FIELD_KEY);
		if (!key || (s64)key < 0)
			break;
		warden_access_unpack(
			key,
			access_field(log->cpu, i, WARDEN_ACCESS_FIELD_COUNT),
			access_field(log->cpu, i, WARDEN_ACCESS_FIELD_RIP_LOW),
			access_field(log->cpu, i, WARDEN_ACCESS_FIELD_RIP_HIGH),
			&log->entries[i]);
		log->num_entries++;
	}
	log->dropped = (u32)wd_hypercall(WARDEN_HC_CPU_GET_INFO, log->cpu,
					 WARDEN_CPU_INFO_ACCESS_DROPPED);
out:
	mutex_unlock(&wd_lock);
	return ret;
}

int wd_cpu_entry_failure(struct warden_cpu_entry_failure *f)
{
	u32 *w = (u32 *)&f->record;
	unsigned int i;
	long v;
	int ret;

	mutex_lock(&wd_lock);
	ret = cpu_request_refused(&f->error, f->cpu, "entry failure");
	if (ret)
		goto out;
	f->reserved = 0;
	/* word by word (hypercall results are non-negative): the
	 * hypervisor writes a record whole before its exit reason */
	for (i = 0; i < WARDEN_VMX_ENTRY_WORDS; i++) {
		v = wd_hypercall(WARDEN_HC_CPU_GET_INFO, f->cpu,
				 WARDEN_CPU_INFO_ENTRY_BASE + i);
		w[i] = v < 0 ? 0 : (u32)v;
	}
out:
	mutex_unlock(&wd_lock);
	return ret;
}
