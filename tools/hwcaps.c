// SPDX-License-Identifier: GPL-2.0
/*
 * The capability evaluator (see hwcaps.h for the contract): the look-ups
 * and the evaluation shared by both vendor tables, and the VMX table.  The
 * SVM table is in hwcaps_svm.c, the dump format in hwcaps_dump.c.
 *
 * Each VMX feature is a row of a table: most are "may this VMX control be
 * 1" or "is this EPT/VPID capability bit set", judged by a shared helper;
 * the few others have their own function.  Bit meanings:
 * common/include/x86/vmx.h with SDM sections.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <x86/cpuid.h>
#include <x86/msr.h>
#include <x86/vmx.h>

#include "hwcaps.h"

enum row_kind {
	ROW_PIN,	/* pin-based control bit */
	ROW_PROC,	/* primary processor-based control bit */
	ROW_PROC2,	/* secondary processor-based control bit */
	ROW_EXIT,	/* VM-exit control bit(s) */
	ROW_ENTRY_EXIT, /* entry bit in .bit, exit bits in .bit2 */
	ROW_EPTCAP,	/* IA32_VMX_EPT_VPID_CAP bits, all needed */
	ROW_SPECIAL,
};

struct row {
	enum hwcap_vmx_feature feature;
	const char *name;
	enum row_kind kind;
	unsigned long long bit, bit2;
	const char *what; /* for the detail line */
};

typedef enum hwcap_status (*special_fn)(const struct warden_hw_probe *p,
					char *detail, size_t len);

static const struct row rows[HWCAP_VMX_NUM_FEATURES] = {
	{ HWCAP_VMX_CPUID, "VMX in CPUID", ROW_SPECIAL, 0, 0, NULL },
	{ HWCAP_FEATURE_CONTROL, "IA32_FEATURE_CONTROL", ROW_SPECIAL, 0, 0,
	  NULL },
	{ HWCAP_VMCS, "VMCS revision, size, memory type", ROW_SPECIAL, 0, 0,
	  NULL },
	{ HWCAP_TRUE_CONTROLS, "true VMX controls", ROW_SPECIAL, 0, 0, NULL },
	{ HWCAP_NMI_EXITING, "NMI exiting", ROW_PIN, PIN_NMI_EXITING, 0,
	  "pin-based control bit 3" },
	{ HWCAP_VIRTUAL_NMIS, "virtual NMIs", ROW_PIN, PIN_VIRTUAL_NMIS, 0,
	  "pin-based control bit 5" },
	{ HWCAP_PREEMPTION_TIMER, "VMX preemption timer", ROW_PIN,
	  PIN_PREEMPTION_TIMER, 0, "pin-based control bit 6" },
	{ HWCAP_IO_BITMAPS, "I/O bitmaps", ROW_PROC, PROC_USE_IO_BITMAPS, 0,
	  "processor-based control bit 25" },
	{ HWCAP_MSR_BITMAPS, "MSR bitmaps", ROW_PROC, PROC_USE_MSR_BITMAPS, 0,
	  "processor-based control bit 28" },
	{ HWCAP_SECONDARY_CONTROLS, "secondary controls", ROW_PROC,
	  PROC_ACTIVATE_SECONDARY, 0, "processor-based control bit 31" },
	{ HWCAP_EPT, "EPT", ROW_PROC2, PROC2_ENABLE_EPT, 0,
	  "secondary control bit 1" },
	{ HWCAP_EPT_WALK4, "EPT 4-level walk", ROW_EPTCAP,
	  EPT_CAP_WALK_LENGTH_4, 0, "EPT_VPID_CAP bit 6" },
	{ HWCAP_EPT_WB, "EPT write-back", ROW_EPTCAP, EPT_CAP_MEMTYPE_WB, 0,
	  "EPT_VPID_CAP bit 14" },
	{ HWCAP_INVEPT, "INVEPT single + all-context", ROW_EPTCAP,
	  EPT_CAP_INVEPT | EPT_CAP_INVEPT_SINGLE | EPT_CAP_INVEPT_ALL, 0,
	  "EPT_VPID_CAP bits 20, 25, 26" },
	{ HWCAP_VPID, "VPID", ROW_PROC2, PROC2_ENABLE_VPID, 0,
	  "secondary control bit 5" },
	{ HWCAP_INVVPID, "INVVPID single + all-context", ROW_EPTCAP,
	  VPID_CAP_INVVPID | VPID_CAP_INVVPID_SINGLE | VPID_CAP_INVVPID_ALL, 0,
	  "EPT_VPID_CAP bits 32, 41, 42" },
	{ HWCAP_UNRESTRICTED_GUEST, "unrestricted guest", ROW_PROC2,
	  PROC2_UNRESTRICTED_GUEST, 0, "secondary control bit 7" },
	{ HWCAP_VIRT_APIC_ACCESS, "virtualize APIC accesses", ROW_PROC2,
	  PROC2_VIRTUALIZE_APIC_ACCESSES, 0, "secondary control bit 0" },
	{ HWCAP_WAIT_FOR_SIPI, "wait-for-SIPI activity state", ROW_SPECIAL, 0,
	  0, NULL },
	{ HWCAP_HOST_64BIT, "64-bit host", ROW_EXIT,
	  EXIT_HOST_ADDRESS_SPACE_SIZE, 0, "exit control bit 9" },
	{ HWCAP_EFER_LOAD_SAVE, "load/save EFER", ROW_ENTRY_EXIT,
	  ENTRY_LOAD_EFER, EXIT_SAVE_EFER | EXIT_LOAD_EFER,
	  "entry control bit 15, exit control bits 20, 21" },
	{ HWCAP_PAT_LOAD_SAVE, "load/save PAT", ROW_ENTRY_EXIT, ENTRY_LOAD_PAT,
	  EXIT_SAVE_PAT | EXIT_LOAD_PAT,
	  "entry control bit 14, exit control bits 18, 19" },
	{ HWCAP_RDTSCP, "RDTSCP for guests", ROW_SPECIAL, 0, 0, NULL },
	{ HWCAP_INVPCID, "INVPCID for guests", ROW_SPECIAL, 0, 0, NULL },
	{ HWCAP_XSAVES, "XSAVES for guests", ROW_SPECIAL, 0, 0, NULL },
	{ HWCAP_VIRT_X2APIC, "virtualize x2APIC mode", ROW_SPECIAL, 0, 0,
	  NULL },
	{ HWCAP_X2APIC, "x2APIC", ROW_SPECIAL, 0, 0, NULL },
	{ HWCAP_VMX_FREE, "VMX not in use", ROW_SPECIAL, 0, 0, NULL },
};

const struct warden_cpuid_leaf *hwcaps_cpuid(const struct warden_hw_probe *p,
					     unsigned int leaf,
					     unsigned int subleaf)
{
	unsigned int i;

	for (i = 0; i < p->num_cpuid && i < WARDEN_PROBE_MAX_CPUID; i++)
		if (p->cpuid[i].leaf == leaf && p->cpuid[i].subleaf == subleaf)
			return &p->cpuid[i];
	return NULL;
}

bool hwcaps_msr(const struct warden_hw_probe *p, unsigned int index,
		unsigned long long *value)
{
	unsigned int i;

	for (i = 0; i < p->num_msrs && i < WARDEN_PROBE_MAX_MSRS; i++) {
		if (p->msrs[i].index == index && p->msrs[i].valid) {
			*value = p->msrs[i].value;
			return true;
		}
	}
	return false;
}

static bool has_vmx(const struct warden_hw_probe *p)
{
	const struct warden_cpuid_leaf *l = hwcaps_cpuid(p, 1, 0);

	return l && (l->ecx & CPUID1_ECX_VMX);
}

/*
 * The vendor (WARDEN_VENDOR_*) of CPUID leaf 0, with its vendor string as
 * text in name; -1 when leaf 0 was not read.
 */
static int vendor_of(const struct warden_hw_probe *p, char name[13])
{
	const struct warden_cpuid_leaf *l = hwcaps_cpuid(p, 0, 0);
	uint32_t id[3];

	if (!l)
		return -1;
	id[0] = l->ebx;
	id[1] = l->edx;
	id[2] = l->ecx;
	warden_vendor_text(id, name);
	return (int)warden_vendor_of(id);
}

/*
 * True, with the vendor string in name, if the CPU is not Intel's (false
 * when leaf 0 was not read).  VMX is Intel's: the driver does not probe
 * it on other vendors' CPUs.
 */
static bool not_intel(const struct warden_hw_probe *p, char name[13])
{
	int v = vendor_of(p, name);

	return v >= 0 && v != WARDEN_VENDOR_INTEL;
}

bool hwcaps_cpuid_bit(const struct warden_hw_probe *p, unsigned int leaf,
		      unsigned int subleaf, int reg, unsigned int bit)
{
	const struct warden_cpuid_leaf *l = hwcaps_cpuid(p, leaf, subleaf);
	unsigned int v;

	if (!l)
		return false;
	v = reg == 0 ? l->eax : reg == 1 ? l->ebx : reg == 2 ? l->ecx : l->edx;
	return v & bit;
}

/*
 * The allowed 1-settings of a control MSR: the TRUE_ variant when
 * IA32_VMX_BASIC[55] says it exists (A.2), the plain one otherwise.
 */
static bool allowed1(const struct warden_hw_probe *p, unsigned int plain,
		     unsigned int true_msr, unsigned long long *allowed)
{
	unsigned long long basic, v;
	unsigned int msr = plain;

	if (!hwcaps_msr(p, MSR_IA32_VMX_BASIC, &basic))
		return false;
	if (true_msr && (basic & VMX_BASIC_TRUE_CONTROLS))
		msr = true_msr;
	if (!hwcaps_msr(p, msr, &v))
		return false;
	*allowed = v >> 32;
	return true;
}

static bool secondary_allowed1(const struct warden_hw_probe *p,
			       unsigned long long *allowed)
{
	unsigned long long proc;

	if (!allowed1(p, MSR_IA32_VMX_PROCBASED_CTLS,
		      MSR_IA32_VMX_TRUE_PROCBASED_CTLS, &proc) ||
	    !(proc & PROC_ACTIVATE_SECONDARY))
		return false;
	return allowed1(p, MSR_IA32_VMX_PROCBASED_CTLS2, 0, allowed);
}

static enum hwcap_status judge_row(const struct row *r,
				   const struct warden_hw_probe *p,
				   char *detail, size_t len)
{
	unsigned long long v = 0, v2 = 0;
	bool read = false, ok = false;

	switch (r->kind) {
	case ROW_PIN:
		read = allowed1(p, MSR_IA32_VMX_PINBASED_CTLS,
				MSR_IA32_VMX_TRUE_PINBASED_CTLS, &v);
		ok = read && (v & r->bit) == r->bit;
		break;
	case ROW_PROC:
		read = allowed1(p, MSR_IA32_VMX_PROCBASED_CTLS,
				MSR_IA32_VMX_TRUE_PROCBASED_CTLS, &v);
		ok = read && (v & r->bit) == r->bit;
		break;
	case ROW_PROC2:
		read = secondary_allowed1(p, &v);
		ok = read && (v & r->bit) == r->bit;
		break;
	case ROW_EXIT:
		read = allowed1(p, MSR_IA32_VMX_EXIT_CTLS,
				MSR_IA32_VMX_TRUE_EXIT_CTLS, &v);
		ok = read && (v & r->bit) == r->bit;
		break;
	case ROW_ENTRY_EXIT:
		read = allowed1(p, MSR_IA32_VMX_ENTRY_CTLS,
				MSR_IA32_VMX_TRUE_ENTRY_CTLS, &v) &&
		       allowed1(p, MSR_IA32_VMX_EXIT_CTLS,
				MSR_IA32_VMX_TRUE_EXIT_CTLS, &v2);
		ok = read && (v & r->bit) == r->bit &&
		     (v2 & r->bit2) == r->bit2;
		break;
	case ROW_EPTCAP:
		read = secondary_allowed1(p, &v2) &&
		       hwcaps_msr(p, MSR_IA32_VMX_EPT_VPID_CAP, &v);
		ok = read && (v & r->bit) == r->bit;
		break;
	case ROW_SPECIAL:
		return HWCAP_MISSING; /* not reached */
	}
	if (!has_vmx(p))
		snprintf(detail, len, "no VMX on this CPU");
	else if (!read)
		snprintf(detail, len, "capability MSR unreadable (%s)",
			 r->what);
	else
		snprintf(detail, len, "%s%s", r->what,
			 ok ? "" : " is not allowed to be 1");
	return ok ? HWCAP_OK : HWCAP_MISSING;
}

static enum hwcap_status vmx_cpuid(const struct warden_hw_probe *p,
				   char *detail, size_t len)
{
	if (!hwcaps_cpuid(p, 1, 0)) {
		snprintf(detail, len, "CPUID leaf 1 was not read");
		return HWCAP_MISSING;
	}
	snprintf(detail, len, "CPUID.1:ECX[5] = %d", has_vmx(p) ? 1 : 0);
	return has_vmx(p) ? HWCAP_OK : HWCAP_MISSING;
}

static enum hwcap_status feature_control(const struct warden_hw_probe *p,
					 char *detail, size_t len)
{
	unsigned long long v;

	if (!hwcaps_msr(p, MSR_IA32_FEATURE_CONTROL, &v)) {
		snprintf(detail, len, "MSR 0x3a unreadable");
		return HWCAP_MISSING;
	}
	if (!(v & FEATURE_CONTROL_LOCKED)) {
		snprintf(detail, len,
			 "0x%llx: not locked (firmware or Linux must lock it "
			 "with VMX enabled)",
			 v);
		return HWCAP_MISSING;
	}
	if (!(v & FEATURE_CONTROL_VMX_OUTSIDE_SMX)) {
		snprintf(detail, len,
			 "0x%llx: locked with VMX disabled (enable VT-x in the "
			 "firmware setup)",
			 v);
		return HWCAP_MISSING;
	}
	snprintf(detail, len, "0x%llx: locked, VMX outside SMX enabled", v);
	return HWCAP_OK;
}

static enum hwcap_status vmcs(const struct warden_hw_probe *p, char *detail,
			      size_t len)
{
	unsigned long long b;
	unsigned int size, type;

	if (!hwcaps_msr(p, MSR_IA32_VMX_BASIC, &b)) {
		snprintf(detail, len, "IA32_VMX_BASIC unreadable");
		return HWCAP_MISSING;
	}
	size = VMX_BASIC_VMCS_SIZE(b);
	type = VMX_BASIC_MEMTYPE(b);
	snprintf(detail, len, "revision 0x%x, %u bytes, memory type %u%s%s",
		 VMX_BASIC_REVISION(b), size, type,
		 type == VMX_MEMTYPE_WB ? " (write-back)" : " (need WB = 6)",
		 (b & VMX_BASIC_32BIT_ADDRESSES) ? ", 32-bit addresses only"
						 : "");
	if (size == 0 || size > 4096 || type != VMX_MEMTYPE_WB ||
	    (b & VMX_BASIC_32BIT_ADDRESSES))
		return HWCAP_MISSING;
	return HWCAP_OK;
}

static enum hwcap_status true_controls(const struct warden_hw_probe *p,
				       char *detail, size_t len)
{
	unsigned long long b;

	if (!hwcaps_msr(p, MSR_IA32_VMX_BASIC, &b)) {
		snprintf(detail, len, "IA32_VMX_BASIC unreadable");
		return HWCAP_MISSING;
	}
	snprintf(detail, len, "IA32_VMX_BASIC[55] = %d",
		 (b & VMX_BASIC_TRUE_CONTROLS) ? 1 : 0);
	return (b & VMX_BASIC_TRUE_CONTROLS) ? HWCAP_OK : HWCAP_MISSING;
}

static enum hwcap_status wait_for_sipi(const struct warden_hw_probe *p,
				       char *detail, size_t len)
{
	unsigned long long m;

	if (!hwcaps_msr(p, MSR_IA32_VMX_MISC, &m)) {
		snprintf(detail, len, "IA32_VMX_MISC unreadable");
		return HWCAP_MISSING;
	}
	snprintf(detail, len,
		 "IA32_VMX_MISC[8] = %d (preemption timer rate: TSC >> %u)",
		 (m & VMX_MISC_ACTIVITY_WAIT_FOR_SIPI) ? 1 : 0,
		 VMX_MISC_PREEMPTION_TIMER_RATE(m));
	return (m & VMX_MISC_ACTIVITY_WAIT_FOR_SIPI) ? HWCAP_OK : HWCAP_MISSING;
}

/*
 * An instruction Linux uses when the CPU offers it: the guest must be
 * allowed to execute it, or Linux takes #UD (docs/hypervisor.md).
 */
static enum hwcap_status guest_insn(const struct warden_hw_probe *p,
				    bool offered, unsigned int control,
				    const char *cpuid_name, char *detail,
				    size_t len)
{
	unsigned long long v;

	if (!offered) {
		snprintf(detail, len,
			 "%s = 0: the CPU lacks it, so Linux does not use it",
			 cpuid_name);
		return HWCAP_OK;
	}
	if (secondary_allowed1(p, &v) && (v & control)) {
		snprintf(detail, len, "offered (%s) and can be enabled",
			 cpuid_name);
		return HWCAP_OK;
	}
	snprintf(detail, len,
		 "offered (%s) but VMX cannot enable it: Linux would take #UD",
		 cpuid_name);
	return HWCAP_MISSING;
}

static enum hwcap_status rdtscp(const struct warden_hw_probe *p, char *detail,
				size_t len)
{
	return guest_insn(
		p,
		hwcaps_cpuid_bit(p, 0x80000001, 0, 3, CPUID80000001_EDX_RDTSCP),
		PROC2_ENABLE_RDTSCP, "CPUID.80000001H:EDX[27]", detail, len);
}

static enum hwcap_status invpcid(const struct warden_hw_probe *p, char *detail,
				 size_t len)
{
	return guest_insn(p, hwcaps_cpuid_bit(p, 7, 0, 1, CPUID7_EBX_INVPCID),
			  PROC2_ENABLE_INVPCID, "CPUID.7:EBX[10]", detail, len);
}

static enum hwcap_status xsaves(const struct warden_hw_probe *p, char *detail,
				size_t len)
{
	return guest_insn(p, hwcaps_cpuid_bit(p, 0xd, 1, 0, CPUIDD1_EAX_XSAVES),
			  PROC2_ENABLE_XSAVES, "CPUID.(EAX=0DH,ECX=1):EAX[3]",
			  detail, len);
}

static enum hwcap_status virt_x2apic(const struct warden_hw_probe *p,
				     char *detail, size_t len)
{
	unsigned long long v;
	bool ok = secondary_allowed1(p, &v) && (v & PROC2_VIRTUALIZE_X2APIC);

	snprintf(detail, len, "secondary control bit 4 %s",
		 ok ? "can be 1" : "not available");
	return HWCAP_INFO;
}

enum hwcap_status hwcaps_x2apic(const struct warden_hw_probe *p, char *detail,
				size_t len)
{
	bool ok = hwcaps_cpuid_bit(p, 1, 0, 2, CPUID1_ECX_X2APIC);

	snprintf(detail, len, "CPUID.1:ECX[21] = %d%s", ok ? 1 : 0,
		 ok ? "" : ": cells can use xAPIC only");
	return HWCAP_INFO;
}

static enum hwcap_status vmx_free(const struct warden_hw_probe *p, char *detail,
				  size_t len)
{
	if (p->vmx_state & HWCAP_PROBE_HOST) {
		/* only the driver can try VMXON; KVM's hold is a row of its
		 * own (host_facts.c) */
		snprintf(detail, len, "VMXON not tried (no driver)");
		return HWCAP_INFO;
	}
	switch (p->vmx_state) {
	case WARDEN_VMX_FREE:
		snprintf(detail, len, "VMXON/VMXOFF probe succeeded");
		return HWCAP_OK;
	case WARDEN_VMX_IN_USE:
		snprintf(detail, len,
			 "CR4.VMXE is set: another hypervisor (e.g. a running "
			 "KVM virtual machine) holds VMX");
		return HWCAP_MISSING;
	case WARDEN_VMX_VMXON_FAILED:
		snprintf(detail, len,
			 "VMXON failed although CR4.VMXE was clear");
		return HWCAP_MISSING;
	default:
		snprintf(detail, len, "not probed (no usable VMX)");
		return HWCAP_MISSING;
	}
}

static special_fn special(enum hwcap_vmx_feature f)
{
	switch (f) {
	case HWCAP_VMX_CPUID:
		return vmx_cpuid;
	case HWCAP_FEATURE_CONTROL:
		return feature_control;
	case HWCAP_VMCS:
		return vmcs;
	case HWCAP_TRUE_CONTROLS:
		return true_controls;
	case HWCAP_WAIT_FOR_SIPI:
		return wait_for_sipi;
	case HWCAP_RDTSCP:
		return rdtscp;
	case HWCAP_INVPCID:
		return invpcid;
	case HWCAP_XSAVES:
		return xsaves;
	case HWCAP_VIRT_X2APIC:
		return virt_x2apic;
	case HWCAP_X2APIC:
		return hwcaps_x2apic;
	case HWCAP_VMX_FREE:
		return vmx_free;
	default:
		return NULL;
	}
}

/* One VMX row on one CPU. */
static enum hwcap_status vmx_judge(int feature, const struct warden_hw_probe *p,
				   char *detail, size_t len)
{
	const struct row *r = &rows[feature];
	char vendor[13];
	bool other = not_intel(p, vendor);

	if ((!has_vmx(p) || other) && r->feature != HWCAP_VMX_CPUID &&
	    r->feature != HWCAP_X2APIC) {
		/* Everything else is about VMX: one reason. */
		if (other)
			snprintf(detail, len,
				 "not an Intel CPU (%s): VMX not probed",
				 vendor);
		else
			snprintf(detail, len, "no VMX on this CPU");
		return r->feature == HWCAP_VIRT_X2APIC ? HWCAP_INFO
						       : HWCAP_MISSING;
	}
	if (r->kind == ROW_SPECIAL)
		return special(r->feature)(p, detail, len);
	return judge_row(r, p, detail, len);
}

static const char *vmx_name(int feature)
{
	return rows[feature].name;
}

/* Every row but CPUID's and x2APIC's rests on the capability MSRs. */
static bool vmx_reads_msrs(int feature, const struct warden_hw_probe *p)
{
	char vendor[13];

	return has_vmx(p) && !not_intel(p, vendor) &&
	       feature != HWCAP_VMX_CPUID && feature != HWCAP_X2APIC &&
	       feature != HWCAP_VMX_FREE;
}

static const struct hwcap_table_def vmx_table = {
	HWCAP_VMX_NUM_FEATURES,
	vmx_name,
	vmx_judge,
	vmx_reads_msrs,
};

bool hwcaps_nested_hint(const struct warden_hw_probe *p, char *buf, size_t len)
{
	char vendor[13];
	bool amd = vendor_of(p, vendor) == WARDEN_VENDOR_AMD;
	bool has = amd ? hwcaps_cpuid_bit(p, 0x80000001, 0, 2,
					  CPUID80000001_ECX_SVM)
		       : has_vmx(p);

	if (!hwcaps_cpuid_bit(p, 1, 0, 2, CPUID1_ECX_HYPERVISOR) || has)
		return false;
	snprintf(buf, len,
		 "this CPU runs under a hypervisor (CPUID.1:ECX[31] = 1) "
		 "that does not offer it %s: enable nested virtualization on "
		 "the host (KVM: load %s with nested=1 and give the guest "
		 "the host's CPU, e.g. -cpu host), or run Warden on bare "
		 "metal",
		 amd ? "SVM" : "VMX", amd ? "kvm_amd" : "kvm_intel");
	return true;
}

int hwcaps_evaluate(const struct warden_hw_probe *probes, size_t num_probes,
		    struct hwcap_report *out)
{
	const struct hwcap_table_def *t = &vmx_table;
	char vendor[13];
	int missing = 0;
	size_t f, c;

	/* All CPUs of a machine have one vendor: CPU 0's picks the table;
	 * AMD's and Hygon's CPUs have SVM, every other is judged for VMX. */
	out->table = HWCAP_TABLE_VMX;
	if (vendor_of(&probes[0], vendor) == WARDEN_VENDOR_AMD) {
		t = &hwcaps_svm_table;
		out->table = HWCAP_TABLE_SVM;
	}
	out->num = t->num;
	out->unread = 0;
	for (f = 0; f < t->num; f++) {
		struct hwcap_result *res = &out->results[f];

		res->feature = (int)f;
		res->name = t->name((int)f);
		res->status = HWCAP_OK;
		res->detail[0] = '\0';
		for (c = 0; c < num_probes; c++) {
			const struct warden_hw_probe *p = &probes[c];
			char detail[sizeof(res->detail)];
			enum hwcap_status st;

			st = t->judge((int)f, p, detail, sizeof(detail));
			if (st == HWCAP_MISSING &&
			    (p->vmx_state & HWCAP_PROBE_NO_MSRS) &&
			    t->reads_msrs((int)f, p)) {
				st = HWCAP_UNREAD;
				snprintf(detail, sizeof(detail),
					 "needs the MSRs: run as root (with "
					 "the msr module)");
			}
			if (c == 0 || (st == HWCAP_MISSING &&
				       res->status != HWCAP_MISSING)) {
				res->status = st;
				res->cpu = p->cpu;
				memcpy(res->detail, detail, sizeof(detail));
			}
		}
		if (res->status == HWCAP_MISSING)
			missing++;
		if (res->status == HWCAP_UNREAD)
			out->unread++;
	}
	return missing;
}

const char *hwcap_status_name(enum hwcap_status status)
{
	switch (status) {
	case HWCAP_OK:
		return "ok";
	case HWCAP_MISSING:
		return "MISSING";
	case HWCAP_UNREAD:
		return "unread";
	default:
		return "info";
	}
}
