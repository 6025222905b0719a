// SPDX-License-Identifier: GPL-2.0
/*
 * The driver's state of the hypervisor (hv_state.h) and what every other
 * file may ask of it: wd_lock, whether Warden is enabled, the CPUs it lost
 * or failed; the hypercall instruction and the device that main.c sets at
 * module load.  The lowest layer of the driver: it calls no other file.
 */
#include <linux/cpumask.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/string.h>

#include <warden/cell.h>
#include <warden/hypercall.h>

#include "hv_state.h"
#include "warden-driver.h"

struct wd_hv wd;

DEFINE_MUTEX(wd_lock);

/* Set by main.c at module load, before any other file runs. */
unsigned int wd_hc_insn;
static struct device *wd_dev;

void wd_set_device(struct device *dev)
{
	wd_dev = dev;
}

struct device *wd_device(void)
{
	return wd_dev;
}

bool wd_is_enabled(void)
{
	return wd.enabled;
}

void wd_cpu_lost(unsigned int cpu)
{
	if (cpu >= WARDEN_MAX_CPUS || cpu_lost(cpu))
		return;
	if (!memchr_inv(&wd.lost, 0, sizeof(wd.lost)))
		__module_get(THIS_MODULE); /* no unload: see wd.lost */
	warden_cpu_set_add(&wd.lost, cpu);
	pr_err("warden: the hypervisor lost CPU %u; it stays offline until "
	       "reboot\n",
	       cpu);
}

void wd_cpus_failed(const struct warden_cpu_set *set,
		    struct warden_cpu_set *failed, struct warden_cpu_set *lost)
{
	unsigned int cpu;
	long state;

	memset(failed, 0, sizeof(*failed));
	memset(lost, 0, sizeof(*lost));
	for (cpu = 0; cpu < WARDEN_MAX_CPUS; cpu++) {
		if (!warden_cpu_in_set(set, cpu))
			continue;
		state = wd_hypercall(WARDEN_HC_CPU_GET_INFO, cpu,
				     WARDEN_CPU_INFO_STATE);
		if (state == WARDEN_CPU_FAILED || state == WARDEN_CPU_LOST)
			warden_cpu_set_add(failed, cpu);
		if (state == WARDEN_CPU_LOST)
			warden_cpu_set_add(lost, cpu);
	}
}
