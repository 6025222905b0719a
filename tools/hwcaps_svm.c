// SPDX-License-Identifier: GPL-2.0
/*
 * The SVM table of the capability evaluator (see hwcaps.h for the
 * contract): what Warden's SVM backend (hypervisor/arch/x86/svm/svm.c,
 * vendor_init_system) and the driver's enable (driver/enable.c,
 * check_virt_free) refuse a CPU for, judged on the facts the driver read
 * on AMD and Hygon CPUs: CPUID 8000_0001h and 8000_000Ah and the MSRs
 * VM_CR and EFER.  Bit meanings: AMD APM Vol. 3, Appendix E.4.2 (8000_0001h)
 * and E.4.9 (8000_000Ah); Vol. 2, 15.4 (enabling SVM) and 15.30.1 (VM_CR).
 */
#include <stdio.h>

#include <x86/cpuid.h>
#include <x86/msr.h>

#include "hwcaps.h"

typedef enum hwcap_status (*svm_fn)(const struct warden_hw_probe *p,
				    char *detail, size_t len);

static bool has_svm(const struct warden_hw_probe *p)
{
	return hwcaps_cpuid_bit(p, 0x80000001, 0, 2, CPUID80000001_ECX_SVM);
}

/*
 * Leaf 8000_000Ah, or NULL if the CPU does not offer it: a leaf above the
 * highest one 8000_0000h:EAX names returns no SVM facts (APM Vol. 3, E.4.1).
 */
static const struct warden_cpuid_leaf *svm_leaf(const struct warden_hw_probe *p)
{
	const struct warden_cpuid_leaf *max = hwcaps_cpuid(p, 0x80000000, 0);

	if (!max || max->eax < 0x8000000a)
		return NULL;
	return hwcaps_cpuid(p, 0x8000000a, 0);
}

static enum hwcap_status svm_cpuid(const struct warden_hw_probe *p,
				   char *detail, size_t len)
{
	if (!hwcaps_cpuid(p, 0x80000001, 0)) {
		snprintf(detail, len, "CPUID leaf 0x80000001 was not read");
		return HWCAP_MISSING;
	}
	snprintf(detail, len, "CPUID.80000001h:ECX[2] = %d",
		 has_svm(p) ? 1 : 0);
	return has_svm(p) ? HWCAP_OK : HWCAP_MISSING;
}

/*
 * Firmware can switch SVM off with VM_CR.SVMDIS (bit 4) and keep it off
 * with VM_CR.LOCK (bit 3); EFER.SVME then cannot be set (APM Vol. 2, 15.4
 * and 15.30.1).  Unlocked, an OS could clear SVMDIS again, but the
 * hypervisor refuses SVMDIS either way: it does not change firmware's
 * settings.
 */
static enum hwcap_status vm_cr(const struct warden_hw_probe *p, char *detail,
			       size_t len)
{
	unsigned long long v;
	bool locked;

	if (!hwcaps_msr(p, MSR_AMD_VM_CR, &v)) {
		snprintf(detail, len, "VM_CR (MSR 0xc0010114) unreadable");
		return HWCAP_MISSING;
	}
	locked = v & AMD_VM_CR_LOCK;
	if (!(v & AMD_VM_CR_SVMDIS)) {
		snprintf(detail, len, "VM_CR = 0x%llx: SVMDIS clear%s", v,
			 locked ? ", locked" : "");
		return HWCAP_OK;
	}
	if (locked)
		snprintf(detail, len,
			 "VM_CR = 0x%llx: SVM disabled in the firmware setup, "
			 "locked (VM_CR.SVMDIS, LOCK): enable SVM there",
			 v);
	else
		snprintf(detail, len,
			 "VM_CR = 0x%llx: SVM disabled by firmware "
			 "(VM_CR.SVMDIS), not locked",
			 v);
	return HWCAP_MISSING;
}

/* The facts of leaf 8000_000Ah: *leaf NULL (and detail said why) if the
 * CPU has no SVM or does not offer the leaf. */
static bool need_leaf(const struct warden_hw_probe *p,
		      const struct warden_cpuid_leaf **leaf, char *detail,
		      size_t len)
{
	*leaf = svm_leaf(p);
	if (*leaf)
		return true;
	snprintf(detail, len, "CPUID leaf 0x8000000a not offered");
	return false;
}

static enum hwcap_status npt(const struct warden_hw_probe *p, char *detail,
			     size_t len)
{
	const struct warden_cpuid_leaf *l;

	if (!need_leaf(p, &l, detail, len))
		return HWCAP_MISSING;
	snprintf(detail, len, "CPUID.8000000Ah:EDX[0] = %d",
		 (l->edx & CPUID8000000A_EDX_NPT) ? 1 : 0);
	return (l->edx & CPUID8000000A_EDX_NPT) ? HWCAP_OK : HWCAP_MISSING;
}

/* ASID 0 is the host's (APM Vol. 2, 15.16): a cell needs one more. */
static enum hwcap_status asids(const struct warden_hw_probe *p, char *detail,
			       size_t len)
{
	const struct warden_cpuid_leaf *l;

	if (!need_leaf(p, &l, detail, len))
		return HWCAP_MISSING;
	snprintf(detail, len, "CPUID.8000000Ah:EBX = %u%s", l->ebx,
		 l->ebx >= 2 ? "" : ": need 2 (ASID 0 is the host's)");
	return l->ebx >= 2 ? HWCAP_OK : HWCAP_MISSING;
}

/* Like the driver's enable, which refuses EFER.SVME set by another
 * hypervisor: Warden's must be the only one. */
static enum hwcap_status svm_free(const struct warden_hw_probe *p, char *detail,
				  size_t len)
{
	unsigned long long efer;

	if (!hwcaps_msr(p, MSR_IA32_EFER, &efer)) {
		snprintf(detail, len, "EFER (MSR 0xc0000080) unreadable");
		return HWCAP_MISSING;
	}
	if (efer & IA32_EFER_SVME) {
		snprintf(detail, len,
			 "EFER = 0x%llx: SVME is set: another hypervisor (e.g. "
			 "KVM, kvm_amd) holds SVM",
			 efer);
		return HWCAP_MISSING;
	}
	snprintf(detail, len, "EFER = 0x%llx: SVME clear", efer);
	return HWCAP_OK;
}

/* An informational bit of 8000_000Ah:EDX with what it means to Warden. */
static enum hwcap_status edx_info(const struct warden_hw_probe *p,
				  unsigned int bit, const char *with,
				  const char *without, char *detail, size_t len)
{
	const struct warden_cpuid_leaf *l;
	bool set;

	if (!need_leaf(p, &l, detail, len))
		return HWCAP_INFO;
	set = l->edx & bit;
	snprintf(detail, len, "CPUID.8000000Ah:EDX[%d] = %d: %s",
		 __builtin_ctz(bit), set ? 1 : 0, set ? with : without);
	return HWCAP_INFO;
}

static enum hwcap_status nrip_save(const struct warden_hw_probe *p,
				   char *detail, size_t len)
{
	return edx_info(p, CPUID8000000A_EDX_NRIPS, "exits give the next RIP",
			"the hypervisor decodes instruction lengths itself",
			detail, len);
}

static enum hwcap_status decode_assists(const struct warden_hw_probe *p,
					char *detail, size_t len)
{
	return edx_info(p, CPUID8000000A_EDX_DECODE_ASSISTS,
			"exits name the register of a CR write",
			"the hypervisor decodes CR writes itself", detail, len);
}

static enum hwcap_status flush_by_asid(const struct warden_hw_probe *p,
				       char *detail, size_t len)
{
	return edx_info(p, CPUID8000000A_EDX_FLUSH_BY_ASID,
			"a cell's TLB entries are flushed alone",
			"each flush empties the whole TLB", detail, len);
}

static enum hwcap_status vmcb_clean(const struct warden_hw_probe *p,
				    char *detail, size_t len)
{
	return edx_info(p, CPUID8000000A_EDX_VMCB_CLEAN, "not used by Warden",
			"not used by Warden", detail, len);
}

static enum hwcap_status avic(const struct warden_hw_probe *p, char *detail,
			      size_t len)
{
	return edx_info(p, CPUID8000000A_EDX_AVIC, "not used by Warden",
			"not used by Warden", detail, len);
}

static enum hwcap_status revision(const struct warden_hw_probe *p, char *detail,
				  size_t len)
{
	const struct warden_cpuid_leaf *l;

	if (need_leaf(p, &l, detail, len))
		snprintf(detail, len, "CPUID.8000000Ah:EAX[7:0] = %u",
			 l->eax & 0xff);
	return HWCAP_INFO;
}

static const struct {
	const char *name;
	svm_fn fn;
	bool info; /* informational: judged even without SVM */
} rows[HWCAP_SVM_NUM_FEATURES] = {
	[HWCAP_SVM_CPUID] = { "SVM in CPUID", svm_cpuid, false },
	[HWCAP_SVM_VM_CR] = { "SVM not disabled by firmware", vm_cr, false },
	[HWCAP_SVM_NPT] = { "nested paging (NPT)", npt, false },
	[HWCAP_SVM_ASIDS] = { "ASIDs", asids, false },
	[HWCAP_SVM_FREE] = { "SVM not in use", svm_free, false },
	[HWCAP_SVM_NRIP_SAVE] = { "NRIP save", nrip_save, true },
	[HWCAP_SVM_DECODE_ASSISTS] = { "decode assists", decode_assists, true },
	[HWCAP_SVM_FLUSH_BY_ASID] = { "flush by ASID", flush_by_asid, true },
	[HWCAP_SVM_VMCB_CLEAN] = { "VMCB clean bits", vmcb_clean, true },
	[HWCAP_SVM_AVIC] = { "AVIC", avic, true },
	[HWCAP_SVM_X2APIC] = { "x2APIC", hwcaps_x2apic, true },
	[HWCAP_SVM_REVISION] = { "SVM revision", revision, true },
};

/* hwcap_report holds the longer table's rows */
_Static_assert((int)HWCAP_SVM_NUM_FEATURES <= HWCAP_MAX_RESULTS, "rows");

static const char *svm_name(int feature)
{
	return rows[feature].name;
}

static enum hwcap_status svm_judge(int feature, const struct warden_hw_probe *p,
				   char *detail, size_t len)
{
	/* Without SVM the other SVM rows have one reason (x2APIC is not
	 * SVM's). */
	if (!has_svm(p) && feature != HWCAP_SVM_CPUID &&
	    feature != HWCAP_SVM_X2APIC) {
		snprintf(detail, len, "no SVM on this CPU");
		return rows[feature].info ? HWCAP_INFO : HWCAP_MISSING;
	}
	return rows[feature].fn(p, detail, len);
}

/* VM_CR and EFER are MSRs; the other rows are CPUID's. */
static bool svm_reads_msrs(int feature, const struct warden_hw_probe *p)
{
	return has_svm(p) &&
	       (feature == HWCAP_SVM_VM_CR || feature == HWCAP_SVM_FREE);
}

const struct hwcap_table_def hwcaps_svm_table = {
	HWCAP_SVM_NUM_FEATURES,
	svm_name,
	svm_judge,
	svm_reads_msrs,
};
