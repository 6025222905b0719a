/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The capability evaluator behind "warden hardware check".
 *
 * Contract: hwcaps_evaluate() judges the raw facts the driver read on each
 * CPU (struct warden_hw_probe: CPUID leaves; on Intel the VMX capability
 * MSRs and the VMXON probe, on AMD the MSRs VM_CR and EFER) against what
 * Warden requires, without touching hardware, so that it can be tested on
 * recorded dumps.  The vendor of CPU 0 (CPUID leaf 0) picks the table: SVM
 * for AMD and Hygon, VMX for every other CPU (whose VMX rows then say that
 * VMX was not probed).  It fills one struct hwcap_result per row of that
 * table, in the fixed order of enum hwcap_vmx_feature or hwcap_svm_feature.
 * A row is required (ok or MISSING) or informational (info only).  A
 * required row is ok only if it is ok on every CPU given; its detail then
 * comes from CPU 0, otherwise from the first CPU where it is missing.
 */
#ifndef WARDEN_TOOLS_HWCAPS_H
#define WARDEN_TOOLS_HWCAPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <warden/ioctl.h>

/* The rows of the VMX table (hwcaps.c). */
enum hwcap_vmx_feature {
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
	HWCAP_VMX_NUM_FEATURES
};

/* The rows of the SVM table (hwcaps_svm.c). */
enum hwcap_svm_feature {
	HWCAP_SVM_CPUID,
	HWCAP_SVM_VM_CR,
	HWCAP_SVM_NPT,
	HWCAP_SVM_ASIDS,
	HWCAP_SVM_FREE,
	HWCAP_SVM_NRIP_SAVE,
	HWCAP_SVM_DECODE_ASSISTS,
	HWCAP_SVM_FLUSH_BY_ASID,
	HWCAP_SVM_VMCB_CLEAN,
	HWCAP_SVM_AVIC,
	HWCAP_SVM_X2APIC,
	HWCAP_SVM_REVISION,
	HWCAP_SVM_NUM_FEATURES
};

#define HWCAP_MAX_RESULTS ((int)HWCAP_VMX_NUM_FEATURES) /* the longer table */

/*
 * HWCAP_UNREAD: a required row that needs facts the probe could not read
 * (the MSRs of a probe without the driver, as a user other than root);
 * neither ok nor MISSING.
 */
enum hwcap_status { HWCAP_OK, HWCAP_MISSING, HWCAP_INFO, HWCAP_UNREAD };

/*
 * Flags in vmx_state of a probe the CLI took itself, without the driver
 * (hwprobe_host.c), beside the driver's WARDEN_VMX_* in the low byte:
 * CPUID read by the instruction, the MSRs through /dev/cpu/N/msr, no VMXON
 * tried, CR0 and CR4 unknown.  They travel in the dump like any state.
 */
#define HWCAP_PROBE_HOST 0x100u
#define HWCAP_PROBE_NO_MSRS 0x200u /* the MSRs could not be read */

struct hwcap_result {
	int feature;	  /* enum hwcap_vmx_feature or hwcap_svm_feature */
	const char *name; /* e.g. "EPT 4-level walk" */
	enum hwcap_status status;
	unsigned int cpu; /* CPU the detail describes */
	char detail[256]; /* why, with the values read */
};

enum hwcap_table { HWCAP_TABLE_VMX, HWCAP_TABLE_SVM };

struct hwcap_report {
	enum hwcap_table table;
	size_t num;	     /* rows filled in results */
	unsigned int unread; /* rows HWCAP_UNREAD */
	struct hwcap_result results[HWCAP_MAX_RESULTS];
};

/* Raw-fact look-ups, also used by the vendor tables and the tests. */
const struct warden_cpuid_leaf *hwcaps_cpuid(const struct warden_hw_probe *p,
					     unsigned int leaf,
					     unsigned int subleaf);
bool hwcaps_msr(const struct warden_hw_probe *p, unsigned int index,
		unsigned long long *value);
/* A CPUID bit (reg: 0 EAX, 1 EBX, 2 ECX, 3 EDX); false if not read. */
bool hwcaps_cpuid_bit(const struct warden_hw_probe *p, unsigned int leaf,
		      unsigned int subleaf, int reg, unsigned int bit);

/* The x2APIC row (info) both tables share: CPUID.1:ECX[21]. */
enum hwcap_status hwcaps_x2apic(const struct warden_hw_probe *p, char *detail,
				size_t len);

/*
 * Evaluate probes[0..num_probes-1] (one per CPU, num_probes >= 1) into
 * *out.  Returns the number of required rows that are missing (0: Warden
 * can run).
 */
int hwcaps_evaluate(const struct warden_hw_probe *probes, size_t num_probes,
		    struct hwcap_report *out);

const char *hwcap_status_name(enum hwcap_status status);

/*
 * When a CPU says it runs under a hypervisor (CPUID.1:ECX[31]) that does
 * not offer it VMX (Intel) or SVM (AMD), writes the hint to enable nested
 * virtualization on the host into buf and returns true.
 */
bool hwcaps_nested_hint(const struct warden_hw_probe *p, char *buf, size_t len);

/*
 * A vendor table for hwcaps_evaluate(): its number of rows, their names,
 * the judgement of one row on one CPU, which writes the values read into
 * detail, and whether that judgement rests on MSRs on this CPU (so that a
 * probe without them leaves the row unread instead of MISSING).
 */
struct hwcap_table_def {
	size_t num;
	const char *(*name)(int feature);
	enum hwcap_status (*judge)(int feature, const struct warden_hw_probe *p,
				   char *detail, size_t len);
	bool (*reads_msrs)(int feature, const struct warden_hw_probe *p);
};
extern const struct hwcap_table_def hwcaps_svm_table;

/*
 * Raw probes as text, one fact per line, so that a machine's facts can be
 * recorded ("warden hardware dump") and judged elsewhere ("warden hardware
 * check --from FILE") or kept as a test fixture:
 *
 *   cpu 0 state vmx_state 1 cr0 0x80050033 cr4 0x3626f0
 *   cpu 0 cpuid 0x1 0x0 0x50654 0x800 0x7ffafbff 0xbfebfbff
 *   cpu 0 msr 0x480 0xd810000000002b        ("fault" if unreadable)
 *
 * (on AMD the msr lines are VM_CR, 0xc0010114, and EFER, 0xc0000080).
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
