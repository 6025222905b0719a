// SPDX-License-Identifier: GPL-2.0
/* The TSC's rate, for the hypervisor's header at enable. */
#include <linux/delay.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/printk.h>

#include <asm/tsc.h>

#include "enable_steps.h"

/*
 * The TSC's rate against Linux's own clock, over 20 ms.  The hypervisor
 * bounds every wait with it, and cells learn it from their communication
 * region: it must be the rate the TSC really has.  An emulator's TSC can
 * run at another rate than the CPU model announces (Bochs: about 100 MHz
 * of Linux's time against 3.5 GHz announced); a real CPU's agrees with
 * Linux's tsc_khz, which is then kept (it is the more precise).
 */
u32 measure_tsc_khz(void)
{
	u64 t0, t1, n0, n1, khz;

	n0 = ktime_get_ns();
	t0 = rdtsc();
	msleep(20);
	n1 = ktime_get_ns();
	t1 = rdtsc();
	if (n1 <= n0)
		return tsc_khz;
	khz = div64_u64((t1 - t0) * 1000000, n1 - n0);
	if (tsc_khz && khz * 50 > (u64)tsc_khz * 49 &&
	    khz * 50 < (u64)tsc_khz * 51)
		return tsc_khz;
	pr_info("warden: the TSC runs at %llu kHz against Linux's clock, not "
		"the %u kHz announced; the hypervisor uses %llu kHz\n",
		khz, tsc_khz, khz);
	return khz > U32_MAX ? U32_MAX : (u32)khz;
}
