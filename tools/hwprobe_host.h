/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hardware probe without the driver (hwprobe_host.c): the raw facts
 * the driver's probe reads, from user space, for "warden hardware check"
 * when /dev/warden does not exist.
 */
#ifndef WARDEN_TOOLS_HWPROBE_HOST_H
#define WARDEN_TOOLS_HWPROBE_HOST_H

#include <stdbool.h>
#include <stddef.h>

#include <warden/ioctl.h>

struct hwprobe_host_info {
	unsigned int skipped; /* offline CPUs */
	int msr_errno;	      /* why /dev/cpu/N/msr could not be read; 0 */
};

/*
 * Probes every online CPU into probes[0..*num-1] (at most max).  Each is
 * flagged HWCAP_PROBE_HOST, and HWCAP_PROBE_NO_MSRS when its MSRs could
 * not be read.  Returns 0, or -1 when no CPU could be probed.
 */
int hwprobe_host(struct warden_hw_probe *probes, size_t max, size_t *num,
		 struct hwprobe_host_info *info);

/* The MSRs it reads on AMD (amd) or Intel CPUs, in the driver's order. */
const unsigned int *hwprobe_host_msrs(bool amd, size_t *num);

#endif /* WARDEN_TOOLS_HWPROBE_HOST_H */
