/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the driver keeps of the hypervisor while it runs (hv_state.c): its
 * memory, the CPUs entered, the console's place, the CPUs it lost.  Shared
 * by the files of enable and disable (enable.c, enable_checks.c,
 * hv_page_tables.c), the console reader (hv_console.c) and the status calls
 * (hv_info.c); written only with wd_lock held.  Everything else of the
 * driver asks through warden-driver.h (wd_is_enabled, ...).
 */
#ifndef WARDEN_DRIVER_HV_STATE_H
#define WARDEN_DRIVER_HV_STATE_H

#include <linux/ioport.h>
#include <linux/threads.h>
#include <linux/types.h>

#include <warden/config.h>
#include <warden/hvheader.h>

/* What exists while Warden is enabled. */
struct wd_hv {
	bool enabled;
	void *hv_mem; /* memremap of the hypervisor memory */
	u64 hv_phys, hv_size;
	struct resource *region;
	struct warden_entry_ctx *ctx[NR_CPUS];
	u64 next_free; /* bump allocator for the initial page tables */
	struct warden_hv_header *header; /* only until enabled */
	unsigned int num_cpus;
	/* the TSC rate the hypervisor was given (sysfs tsc_khz: the Linux
	 * loader's tsc_early_khz=) */
	u32 tsc_khz;
	u64 console_offset;
	/* CPUs the hypervisor lost (WARDEN_CPU_LOST): offline for good; they
	 * may still run hypervisor code, so there is no enable again until
	 * reboot, and the module stays loaded */
	struct warden_cpu_set lost;
};

extern struct wd_hv wd;

/* Did the hypervisor lose cpu (wd_cpu_lost)? */
static inline bool cpu_lost(unsigned int cpu)
{
	return warden_cpu_in_set(&wd.lost, cpu);
}

#endif /* WARDEN_DRIVER_HV_STATE_H */
