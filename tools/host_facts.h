/* SPDX-License-Identifier: GPL-2.0 */
/*
 * "warden hardware check"'s rows about the running system (host_facts.c),
 * judged from files under a root prefix ("" for the machine):
 *
 *   warden.ko        loaded; else installed under /lib/modules/<release>;
 *                    else whether that kernel's headers are there
 *   KVM              /sys/module/kvm_intel or kvm_amd, and
 *                    /sys/module/kvm/parameters/enable_virt_at_load
 *   reservation      memmap= on /proc/cmdline (memmap.h), large enough
 *   IOMMU            /sys/firmware/acpi/tables/DMAR or IVRS (info)
 *   Linux's view     the vmx/svm flag of /proc/cpuinfo where CPUID offers
 *                    VMX/SVM: Linux clears it when the firmware locked
 *                    it off, which a user without the MSRs can see so
 */
#ifndef WARDEN_TOOLS_HOST_FACTS_H
#define WARDEN_TOOLS_HOST_FACTS_H

#include <stdbool.h>
#include <stddef.h>

#include "hwcaps.h"

#define HOST_FACTS_ROWS 6

struct host_facts_opts {
	const char *root;    /* prefix of /proc, /sys and /lib */
	const char *release; /* the running kernel's (uname -r) */
	bool driver_loaded;  /* /dev/warden answers */
	bool amd;	     /* SVM and kvm_amd rather than VMX, kvm_intel */
	bool cpuid_virt;     /* CPUID offers VMX (SVM on AMD) */
};

/* Fills out[0..HOST_FACTS_ROWS-1]; returns HOST_FACTS_ROWS. */
size_t host_facts(const struct host_facts_opts *o, struct hwcap_result *out);

#endif /* WARDEN_TOOLS_HOST_FACTS_H */
