/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The capability evaluator behind "warden hardware check".
 *
 * Contract: hwcaps_evaluate() judges the raw facts the driver read on each
 * CPU (struct warden_hw_probe: CPUID leaves, VMX capability MSRs, the VMXON
 * probe) against what Warden requires, without touching hardware, so that
 * it can be tested on recorded MSR sets.  It fills one struct hwcap_result
 * per feature in the fixed order of enum hwcap_feature.  A feature is
 * required (ok or MISSING) or informational (info only).  A required
 * feature is ok only if it is ok on every CPU given; its detail then comes
 * from CPU 0, otherwise from the first CPU where it is missing.
 */
#ifndef WARDEN_TOOLS_HWCAPS_H
#define WARDEN_TOOLS_HWCAPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <warden/ioctl.h>

enum hwcap_feature {
	HWCAP_VMX_CPUID,
	HWCAP_FEATURE_CONTROL,
	HWCAP_VMCS,
	HWCAP_TRUE_CONTROLS,
	HWCAP_NMI_EXITING,
	HWCAP_VIRTUAL_NMIS,
	HWCAP_PREEMPTION_TIMER,
	HWCAP_IO_BITMAPS,
	HWCAP_MSR_BITMAPS,
	HWCAP_SECONDARY_CONTROLS,
	HWCAP_EPT,
	HWCAP_EPT_WALK4,
	HWCAP_EPT_WB,
	HWCAP_INVEPT,
	HWCAP_VPID,
	HWCAP_INVVPID,
	HWCAP_UNRESTRICTED_GUEST,
	HWCAP_VIRT_APIC_ACCESS,
	HWCAP_WAIT_FOR_SIPI,
	HWCAP_HOST_64BIT,
	HWCAP_EFER_LOAD_SAVE,
	HWCAP_PAT_LOAD_SAVE,
	HWCAP_RDTSCP,
	HWCAP_INVPCID,
	HWCAP_XSAVES,
	HWCAP_VIRT_X2APIC,
	HWCAP_X2APIC,
	HWCAP_VMX_FREE,
	HWCAP_NUM_FEATURES
};

enum hwcap_status { HWCAP_OK, HWCAP_MISSING, HWCAP_INFO };

struct hwcap_result {
	enum hwcap_feature feature;
	const char *name; /* e.g. "EPT 4-level walk" */
	enum hwcap_status status;
	unsigned int cpu; /* CPU the detail describes */
	char detail[112]; /* why, with the values read */
};

/* Raw-fact look-ups, also used by the tests. */
const struct warden_cpuid_leaf *hwcaps_cpuid(const struct warden_hw_probe *p,
					     unsigned int leaf,
					     unsigned int subleaf);
bool hwcaps_msr(const struct warden_hw_probe *p, unsigned int index,
		unsigned long long *value);

/*
 * Evaluate probes[0..num_probes-1] (one per CPU, num_probes >= 1) into
 * out[HWCAP_NUM_FEATURES].  Returns the number of required features that
 * are missing (0: Warden can run).
 */
int hwcaps_evaluate(const struct warden_hw_probe *probes, size_t num_probes,
		    struct hwcap_result out[HWCAP_NUM_FEATURES]);

const char *hwcap_status_name(enum hwcap_status status);

/*
 * Raw probes as text, one fact per line, so that a machine's facts can be
 * recorded ("warden hardware dump") and judged elsewhere ("warden hardware
 * check --from FILE") or kept as a test fixture:
 *
 *   cpu 0 state vmx_state 1 cr0 0x80050033 cr4 0x3626f0
 *   cpu 0 cpuid 0x1 0x0 0x50654 0x800 0x7ffafbff 0xbfebfbff
 *   cpu 0 msr 0x480 0xd810000000002b        ("fault" if unreadable)
 *
 * hwcaps_read_dump() fills probes[0..*num-1] (at most max CPUs, in the
 * order they first appear); on a malformed line it returns the line
 * number (> 0) and leaves the rest unread; -1 if the input holds no
 * facts at all; 0 on success.
 */
void hwcaps_write_dump(FILE *out, const struct warden_hw_probe *probes,
		       size_t num);
int hwcaps_read_dump(FILE *in, struct warden_hw_probe *probes, size_t max,
		     size_t *num);

#endif /* WARDEN_TOOLS_HWCAPS_H */
