// SPDX-License-Identifier: GPL-2.0
/*
 * The capability evaluator on recorded facts (tests/unit/fixtures, taken
 * with "warden hardware dump" in Bochs and QEMU).  VMX: the Bochs set as it
 * is, each required feature taken away in turn, VMX held by another
 * hypervisor, and CPUs that differ.  SVM: QEMU's AMD CPU as it is, each
 * refusal in turn (no SVM, SVMDIS locked or not, SVME set, no NPT, ...),
 * and QEMU's AMD CPU without SVM.
 */
#include <string.h>

#include <x86/cpuid.h>
#include <x86/msr.h>
#include <x86/vmx.h>

#include "cmocka_wrap.h"
#include "dump_fixture.h"
#include "hwcaps.h"

#define BOCHS "bochs-skylake-x-2cpu.dump"
#define QEMU_SVM "qemu-svm-2cpu.dump"
#define QEMU_NOVIRT "qemu-novirt-2cpu.dump"

static struct warden_msr_value *msr(struct warden_hw_probe *p,
				    unsigned int index)
{
	unsigned int i;

	for (i = 0; i < p->num_msrs; i++)
		if (p->msrs[i].index == index)
			return &p->msrs[i];
	fail_msg("MSR 0x%x not in fixture", index);
	return NULL;
}

#define HI(x) ((unsigned long long)(x) << 32)

/* CPU 0 of the Bochs recording, renamed to the CPU given. */
static void full_probe(struct warden_hw_probe *p, unsigned int cpu)
{
	struct warden_hw_probe rec[2];

	assert_int_equal(load(BOCHS, rec, 2), 2);
	*p = rec[0];
	p->cpu = cpu;
}

static struct warden_cpuid_leaf *leaf(struct warden_hw_probe *p, unsigned int l,
				      unsigned int sub)
{
	struct warden_cpuid_leaf *found =
		(struct warden_cpuid_leaf *)hwcaps_cpuid(p, l, sub);

	assert_non_null(found);
	return found;
}

/* Evaluate, expecting the table given; res gets its rows. */
static int evaluate_table(struct warden_hw_probe *p, size_t n,
			  struct hwcap_result *res, enum hwcap_table table)
{
	struct hwcap_report rep;
	int missing = hwcaps_evaluate(p, n, &rep);

	assert_int_equal(rep.table, table);
	assert_int_equal(rep.num, table == HWCAP_TABLE_SVM
					  ? HWCAP_SVM_NUM_FEATURES
					  : HWCAP_VMX_NUM_FEATURES);
	memcpy(res, rep.results, rep.num * sizeof(*res));
	return missing;
}

static int evaluate(struct warden_hw_probe *p, size_t n,
		    struct hwcap_result *res)
{
	return evaluate_table(p, n, res, HWCAP_TABLE_VMX);
}

static void table_matches_enum(void **state)
{
	struct warden_hw_probe p;
	struct hwcap_result res[HWCAP_MAX_RESULTS];
	int i;

	(void)state;
	full_probe(&p, 0);
	evaluate(&p, 1, res);
	for (i = 0; i < HWCAP_VMX_NUM_FEATURES; i++) {
		assert_int_equal(res[i].feature, i);
		assert_non_null(res[i].name);
		assert_true(res[i].detail[0] != '\0');
	}
}

static void all_present(void **state)
{
	struct warden_hw_probe p;
	struct hwcap_result res[HWCAP_MAX_RESULTS];
	int i;

	(void)state;
	full_probe(&p, 0);
	assert_int_equal(evaluate(&p, 1, res), 0);
	for (i = 0; i < HWCAP_VMX_NUM_FEATURES; i++)
		assert_int_not_equal(res[i].status, HWCAP_MISSING);
	assert_string_equal(res[HWCAP_VMCS].detail, "revision 0x2b, 4096 "
						    "bytes, memory type 6 "
						    "(write-back)");
	assert_int_equal(res[HWCAP_X2APIC].status, HWCAP_INFO);
}

/* One required feature taken away at a time. */
struct removal {
	const char *what;
	unsigned int msr; /* 0: use mutate */
	unsigned long long clear;
	void (*mutate)(struct warden_hw_probe *p);
	int expect;	  /* enum hwcap_vmx_feature */
	int expect_total; /* missing features in all */
};

static void no_vmx_cpuid(struct warden_hw_probe *p)
{
	leaf(p, 1, 0)->ecx &= ~CPUID1_ECX_VMX;
	p->vmx_state = WARDEN_VMX_NOT_PROBED;
}
static void fc_unlocked(struct warden_hw_probe *p)
{
	msr(p, MSR_IA32_FEATURE_CONTROL)->value = 0x4;
}
static void fc_vmx_off(struct warden_hw_probe *p)
{
	msr(p, MSR_IA32_FEATURE_CONTROL)->value = 0x1;
}
static void vmcs_uc(struct warden_hw_probe *p)
{
	msr(p, MSR_IA32_VMX_BASIC)->value &= ~(0xfull << 50);
}
static void vmcs_32bit(struct warden_hw_probe *p)
{
	msr(p, MSR_IA32_VMX_BASIC)->value |= VMX_BASIC_32BIT_ADDRESSES;
}
static void no_true_controls(struct warden_hw_probe *p)
{
	msr(p, MSR_IA32_VMX_BASIC)->value &= ~VMX_BASIC_TRUE_CONTROLS;
}
static void vmx_in_use(struct warden_hw_probe *p)
{
	p->vmx_state = WARDEN_VMX_IN_USE;
}
static void vmxon_failed(struct warden_hw_probe *p)
{
	p->vmx_state = WARDEN_VMX_VMXON_FAILED;
}
static void no_wait_for_sipi(struct warden_hw_probe *p)
{
	msr(p, MSR_IA32_VMX_MISC)->value &= ~VMX_MISC_ACTIVITY_WAIT_FOR_SIPI;
}
static void basic_unreadable(struct warden_hw_probe *p)
{
	msr(p, MSR_IA32_VMX_BASIC)->valid = 0;
}

static const struct removal removals[] = {
	{ "VMX CPUID", 0, 0, no_vmx_cpuid, HWCAP_VMX_CPUID, -1 },
	{ "FC unlocked", 0, 0, fc_unlocked, HWCAP_FEATURE_CONTROL, 1 },
	{ "FC VMX off", 0, 0, fc_vmx_off, HWCAP_FEATURE_CONTROL, 1 },
	{ "VMCS UC", 0, 0, vmcs_uc, HWCAP_VMCS, 1 },
	{ "VMCS 32-bit", 0, 0, vmcs_32bit, HWCAP_VMCS, 1 },
	{ "true controls", 0, 0, no_true_controls, HWCAP_TRUE_CONTROLS, 1 },
	{ "NMI exiting", MSR_IA32_VMX_TRUE_PINBASED_CTLS, HI(PIN_NMI_EXITING),
	  NULL, HWCAP_NMI_EXITING, 1 },
	{ "virtual NMIs", MSR_IA32_VMX_TRUE_PINBASED_CTLS, HI(PIN_VIRTUAL_NMIS),
	  NULL, HWCAP_VIRTUAL_NMIS, 1 },
	{ "preemption timer", MSR_IA32_VMX_TRUE_PINBASED_CTLS,
	  HI(PIN_PREEMPTION_TIMER), NULL, HWCAP_PREEMPTION_TIMER, 1 },
	{ "I/O bitmaps", MSR_IA32_VMX_TRUE_PROCBASED_CTLS,
	  HI(PROC_USE_IO_BITMAPS), NULL, HWCAP_IO_BITMAPS, 1 },
	{ "MSR bitmaps", MSR_IA32_VMX_TRUE_PROCBASED_CTLS,
	  HI(PROC_USE_MSR_BITMAPS), NULL, HWCAP_MSR_BITMAPS, 1 },
	/* Without secondary controls, every secondary feature goes too. */
	{ "secondary", MSR_IA32_VMX_TRUE_PROCBASED_CTLS,
	  HI(PROC_ACTIVATE_SECONDARY), NULL, HWCAP_SECONDARY_CONTROLS, -1 },
	{ "EPT", MSR_IA32_VMX_PROCBASED_CTLS2, HI(PROC2_ENABLE_EPT), NULL,
	  HWCAP_EPT, 1 },
	{ "EPT walk 4", MSR_IA32_VMX_EPT_VPID_CAP, EPT_CAP_WALK_LENGTH_4, NULL,
	  HWCAP_EPT_WALK4, 1 },
	{ "EPT WB", MSR_IA32_VMX_EPT_VPID_CAP, EPT_CAP_MEMTYPE_WB, NULL,
	  HWCAP_EPT_WB, 1 },
	{ "INVEPT all", MSR_IA32_VMX_EPT_VPID_CAP, EPT_CAP_INVEPT_ALL, NULL,
	  HWCAP_INVEPT, 1 },
	{ "INVEPT single", MSR_IA32_VMX_EPT_VPID_CAP, EPT_CAP_INVEPT_SINGLE,
	  NULL, HWCAP_INVEPT, 1 },
	{ "VPID", MSR_IA32_VMX_PROCBASED_CTLS2, HI(PROC2_ENABLE_VPID), NULL,
	  HWCAP_VPID, 1 },
	{ "INVVPID", MSR_IA32_VMX_EPT_VPID_CAP, VPID_CAP_INVVPID, NULL,
	  HWCAP_INVVPID, 1 },
	{ "INVVPID all", MSR_IA32_VMX_EPT_VPID_CAP, VPID_CAP_INVVPID_ALL, NULL,
	  HWCAP_INVVPID, 1 },
	{ "unrestricted", MSR_IA32_VMX_PROCBASED_CTLS2,
	  HI(PROC2_UNRESTRICTED_GUEST), NULL, HWCAP_UNRESTRICTED_GUEST, 1 },
	{ "APIC access", MSR_IA32_VMX_PROCBASED_CTLS2,
	  HI(PROC2_VIRTUALIZE_APIC_ACCESSES), NULL, HWCAP_VIRT_APIC_ACCESS, 1 },
	{ "wait-for-SIPI", 0, 0, no_wait_for_sipi, HWCAP_WAIT_FOR_SIPI, 1 },
	{ "64-bit host", MSR_IA32_VMX_TRUE_EXIT_CTLS,
	  HI(EXIT_HOST_ADDRESS_SPACE_SIZE), NULL, HWCAP_HOST_64BIT, 1 },
	{ "load EFER", MSR_IA32_VMX_TRUE_ENTRY_CTLS, HI(ENTRY_LOAD_EFER), NULL,
	  HWCAP_EFER_LOAD_SAVE, 1 },
	{ "save EFER", MSR_IA32_VMX_TRUE_EXIT_CTLS, HI(EXIT_SAVE_EFER), NULL,
	  HWCAP_EFER_LOAD_SAVE, 1 },
	{ "load PAT", MSR_IA32_VMX_TRUE_ENTRY_CTLS, HI(ENTRY_LOAD_PAT), NULL,
	  HWCAP_PAT_LOAD_SAVE, 1 },
	{ "exit load PAT", MSR_IA32_VMX_TRUE_EXIT_CTLS, HI(EXIT_LOAD_PAT), NULL,
	  HWCAP_PAT_LOAD_SAVE, 1 },
	{ "RDTSCP", MSR_IA32_VMX_PROCBASED_CTLS2, HI(PROC2_ENABLE_RDTSCP), NULL,
	  HWCAP_RDTSCP, 1 },
	{ "INVPCID", MSR_IA32_VMX_PROCBASED_CTLS2, HI(PROC2_ENABLE_INVPCID),
	  NULL, HWCAP_INVPCID, 1 },
	{ "XSAVES", MSR_IA32_VMX_PROCBASED_CTLS2, HI(PROC2_ENABLE_XSAVES), NULL,
	  HWCAP_XSAVES, 1 },
	{ "VMX in use", 0, 0, vmx_in_use, HWCAP_VMX_FREE, 1 },
	{ "VMXON failed", 0, 0, vmxon_failed, HWCAP_VMX_FREE, 1 },
	{ "BASIC unreadable", 0, 0, basic_unreadable, HWCAP_VMCS, -1 },
};

static void each_missing_in_turn(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(removals) / sizeof(removals[0]); i++) {
		const struct removal *r = &removals[i];
		struct hwcap_result res[HWCAP_MAX_RESULTS];
		struct warden_hw_probe p;
		int missing;

		full_probe(&p, 0);
		if (r->mutate)
			r->mutate(&p);
		else
			msr(&p, r->msr)->value &= ~r->clear;
		missing = evaluate(&p, 1, res);
		if (res[r->expect].status != HWCAP_MISSING)
			fail_msg("%s: feature %d not reported missing", r->what,
				 r->expect);
		if (r->expect_total > 0 && missing != r->expect_total)
			fail_msg("%s: %d features missing, expected %d",
				 r->what, missing, r->expect_total);
		assert_true(missing >= 1);
	}
}

/* The recordings as they are: Bochs can run Warden on both CPUs. */
static void bochs_recording_passes(void **state)
{
	struct hwcap_result res[HWCAP_MAX_RESULTS];
	struct warden_hw_probe p[4];
	size_t n;

	(void)state;
	n = load(BOCHS, p, 4);
	assert_int_equal(n, 2);
	assert_int_equal(p[1].cpu, 1);
	assert_int_equal(evaluate(p, n, res), 0);
	assert_string_equal(res[HWCAP_VMCS].detail, "revision 0x2b, 4096 "
						    "bytes, memory type 6 "
						    "(write-back)");
}

/* VMX is judged on Intel CPUs only: an Intel CPU without it has no VMX,
 * another vendor's is not probed even when CPUID names VMX. */
static void vmx_judged_on_intel_only(void **state)
{
	struct hwcap_result res[HWCAP_MAX_RESULTS];
	struct warden_hw_probe p;
	struct warden_cpuid_leaf *l0;

	(void)state;
	full_probe(&p, 0);
	no_vmx_cpuid(&p);
	evaluate(&p, 1, res);
	assert_string_equal(res[HWCAP_EPT].detail, "no VMX on this CPU");

	full_probe(&p, 0);
	l0 = leaf(&p, 0, 0);
	memcpy(&l0->ebx, "Cent", 4);
	memcpy(&l0->edx, "aurH", 4);
	memcpy(&l0->ecx, "auls", 4);
	assert_true(evaluate(&p, 1, res) > 10);
	assert_int_equal(res[HWCAP_VMX_CPUID].status, HWCAP_OK);
	assert_int_equal(res[HWCAP_EPT].status, HWCAP_MISSING);
	assert_string_equal(res[HWCAP_EPT].detail, "not an Intel CPU "
						   "(CentaurHauls): VMX not "
						   "probed");
}

/* The two CPUs of a fixture survive writing and reading back
 * unchanged. */
static void round_trip(const char *fixture)
{
	struct warden_hw_probe a[2], b[2];
	char buf[8192];
	size_t n = 0;
	FILE *f;

	assert_int_equal(load(fixture, a, 2), 2);
	f = fmemopen(buf, sizeof(buf), "w+");
	assert_non_null(f);
	hwcaps_write_dump(f, a, 2);
	rewind(f);
	assert_int_equal(hwcaps_read_dump(f, b, 2, &n), 0);
	fclose(f);
	assert_int_equal(n, 2);
	assert_memory_equal(a, b, sizeof(a));
}

/* A dump survives writing and reading back unchanged. */
static void dump_round_trip(void **state)
{
	(void)state;
	round_trip(BOCHS);
}

static void malformed_dump_names_line(void **state)
{
	const char text[] = "# c\ncpu 0 msr 0x480 0x1\ncpu 0 bogus 1\n";
	struct warden_hw_probe p[1];
	size_t n;
	FILE *f = fmemopen((void *)text, sizeof(text) - 1, "r");

	(void)state;
	assert_int_equal(hwcaps_read_dump(f, p, 1, &n), 3);
	fclose(f);
	f = fmemopen((void *)"# only\n", 7, "r");
	assert_int_equal(hwcaps_read_dump(f, p, 1, &n), -1);
	fclose(f);
}

static void instruction_not_offered_is_ok(void **state)
{
	struct hwcap_result res[HWCAP_MAX_RESULTS];
	struct warden_hw_probe p;

	(void)state;
	full_probe(&p, 0);
	leaf(&p, 0x80000001, 0)->edx &= ~CPUID80000001_EDX_RDTSCP;
	msr(&p, MSR_IA32_VMX_PROCBASED_CTLS2)->value &=
		~HI(PROC2_ENABLE_RDTSCP);
	assert_int_equal(evaluate(&p, 1, res), 0);
	assert_int_equal(res[HWCAP_RDTSCP].status, HWCAP_OK);
}

static void differing_cpu_is_named(void **state)
{
	struct hwcap_result res[HWCAP_MAX_RESULTS];
	struct warden_hw_probe p[3];

	(void)state;
	full_probe(&p[0], 0);
	full_probe(&p[1], 1);
	full_probe(&p[2], 2);
	msr(&p[2], MSR_IA32_VMX_PROCBASED_CTLS2)->value &=
		~HI(PROC2_ENABLE_EPT);
	assert_int_equal(evaluate(p, 3, res), 1);
	assert_int_equal(res[HWCAP_EPT].status, HWCAP_MISSING);
	assert_int_equal(res[HWCAP_EPT].cpu, 2);
}

static void plain_controls_without_true(void **state)
{
	struct hwcap_result res[HWCAP_MAX_RESULTS];
	struct warden_hw_probe p;

	(void)state;
	/* Without true controls the plain MSRs are read: take NMI exiting
	 * away there only and it must be noticed. */
	full_probe(&p, 0);
	msr(&p, MSR_IA32_VMX_BASIC)->value &= ~VMX_BASIC_TRUE_CONTROLS;
	msr(&p, MSR_IA32_VMX_PINBASED_CTLS)->value &= ~HI(PIN_NMI_EXITING);
	evaluate(&p, 1, res);
	assert_int_equal(res[HWCAP_NMI_EXITING].status, HWCAP_MISSING);
	assert_int_equal(res[HWCAP_TRUE_CONTROLS].status, HWCAP_MISSING);
}

/* CPU 0 of the QEMU SVM recording, renamed to the CPU given. */
static void svm_probe(struct warden_hw_probe *p, unsigned int cpu)
{
	struct warden_hw_probe rec[2];

	assert_int_equal(load(QEMU_SVM, rec, 2), 2);
	*p = rec[0];
	p->cpu = cpu;
}

static int evaluate_svm(struct warden_hw_probe *p, size_t n,
			struct hwcap_result *res)
{
	return evaluate_table(p, n, res, HWCAP_TABLE_SVM);
}

/* QEMU's AMD CPU (qemu-svm): SVM, NPT, no NRIP save; Warden runs there. */
static void qemu_svm_recording_passes(void **state)
{
	struct hwcap_result res[HWCAP_MAX_RESULTS];
	struct warden_hw_probe p[4];
	size_t n, i;

	(void)state;
	n = load(QEMU_SVM, p, 4);
	assert_int_equal(n, 2);
	assert_int_equal(evaluate_svm(p, n, res), 0);
	for (i = 0; i < HWCAP_SVM_NUM_FEATURES; i++) {
		assert_int_equal(res[i].feature, i);
		assert_true(res[i].detail[0] != '\0');
		assert_int_equal(res[i].status, i < HWCAP_SVM_NRIP_SAVE
							? HWCAP_OK
							: HWCAP_INFO);
	}
	assert_string_equal(res[HWCAP_SVM_CPUID].detail, "CPUID.80000001h:ECX["
							 "2] = 1");
	assert_string_equal(res[HWCAP_SVM_NPT].detail, "CPUID.8000000Ah:EDX[0] "
						       "= 1");
	assert_string_equal(res[HWCAP_SVM_NRIP_SAVE].detail, "CPUID.8000000Ah:"
							     "EDX[3] = 0: the "
							     "hypervisor "
							     "decodes "
							     "instruction "
							     "lengths itself");
}

/* One refusal at a time, each named by its row. */
struct svm_removal {
	const char *what;
	void (*mutate)(struct warden_hw_probe *p);
	int expect; /* enum hwcap_svm_feature */
	int expect_total;
	const char *detail; /* expected detail of that row */
};

static void svm_no_cpuid(struct warden_hw_probe *p)
{
	leaf(p, 0x80000001, 0)->ecx &= ~CPUID80000001_ECX_SVM;
}
static void svmdis_locked(struct warden_hw_probe *p)
{
	msr(p, MSR_AMD_VM_CR)->value = AMD_VM_CR_SVMDIS | AMD_VM_CR_LOCK;
}
static void svmdis_unlocked(struct warden_hw_probe *p)
{
	msr(p, MSR_AMD_VM_CR)->value = AMD_VM_CR_SVMDIS;
}
static void vm_cr_fault(struct warden_hw_probe *p)
{
	msr(p, MSR_AMD_VM_CR)->valid = 0;
}
static void svme_set(struct warden_hw_probe *p)
{
	msr(p, MSR_IA32_EFER)->value |= IA32_EFER_SVME;
}
static void no_npt(struct warden_hw_probe *p)
{
	leaf(p, 0x8000000a, 0)->edx &= ~CPUID8000000A_EDX_NPT;
}
static void one_asid(struct warden_hw_probe *p)
{
	leaf(p, 0x8000000a, 0)->ebx = 1;
}
static void no_svm_leaf(struct warden_hw_probe *p)
{
	leaf(p, 0x80000000, 0)->eax = 0x80000008;
}

static const struct svm_removal svm_removals[] = {
	{ "no SVM", svm_no_cpuid, HWCAP_SVM_CPUID, 5,
	  "CPUID.80000001h:ECX[2] = 0" },
	{ "SVMDIS locked", svmdis_locked, HWCAP_SVM_VM_CR, 1,
	  "VM_CR = 0x18: SVM disabled in the firmware setup, locked "
	  "(VM_CR.SVMDIS, LOCK): enable SVM there" },
	{ "SVMDIS unlocked", svmdis_unlocked, HWCAP_SVM_VM_CR, 1,
	  "VM_CR = 0x10: SVM disabled by firmware (VM_CR.SVMDIS), not "
	  "locked" },
	{ "VM_CR faults", vm_cr_fault, HWCAP_SVM_VM_CR, 1,
	  "VM_CR (MSR 0xc0010114) unreadable" },
	{ "SVME set", svme_set, HWCAP_SVM_FREE, 1, NULL },
	{ "no NPT", no_npt, HWCAP_SVM_NPT, 1, "CPUID.8000000Ah:EDX[0] = 0" },
	{ "one ASID", one_asid, HWCAP_SVM_ASIDS, 1,
	  "CPUID.8000000Ah:EBX = 1: need 2 (ASID 0 is the host's)" },
	{ "no leaf 8000000a", no_svm_leaf, HWCAP_SVM_NPT, 2,
	  "CPUID leaf 0x8000000a not offered" },
};

static void svm_each_refusal(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(svm_removals) / sizeof(svm_removals[0]); i++) {
		const struct svm_removal *r = &svm_removals[i];
		struct hwcap_result res[HWCAP_MAX_RESULTS];
		struct warden_hw_probe p[2];
		int missing;

		/* on CPU 1 only: the row names it */
		svm_probe(&p[0], 0);
		svm_probe(&p[1], 1);
		r->mutate(&p[1]);
		missing = evaluate_svm(p, 2, res);
		if (res[r->expect].status != HWCAP_MISSING)
			fail_msg("%s: row %d not reported missing", r->what,
				 r->expect);
		if (missing != r->expect_total)
			fail_msg("%s: %d rows missing, expected %d", r->what,
				 missing, r->expect_total);
		assert_int_equal(res[r->expect].cpu, 1);
		if (r->detail)
			assert_string_equal(res[r->expect].detail, r->detail);
	}
}

/* KVM holding SVM is named as the likely holder, with EFER's value. */
static void svm_in_use_names_kvm(void **state)
{
	struct hwcap_result res[HWCAP_MAX_RESULTS];
	struct warden_hw_probe p;

	(void)state;
	svm_probe(&p, 0);
	msr(&p, MSR_IA32_EFER)->value = 0x1d01;
	assert_int_equal(evaluate_svm(&p, 1, res), 1);
	assert_string_equal(res[HWCAP_SVM_FREE].detail, "EFER = 0x1d01: SVME "
							"is set: another "
							"hypervisor "
							"(e.g. KVM, kvm_amd) "
							"holds SVM");
}

/* QEMU's AMD CPU without SVM (qemu-novirt, -cpu max,-svm): SVM in CPUID
 * is the first row missing, the other SVM rows say why in one reason. */
static void qemu_novirt_recording_fails(void **state)
{
	struct hwcap_result res[HWCAP_MAX_RESULTS];
	struct warden_hw_probe p[4];
	size_t n;

	(void)state;
	n = load(QEMU_NOVIRT, p, 4);
	assert_int_equal(n, 2);
	assert_int_equal(evaluate_svm(p, n, res), 5);
	assert_int_equal(res[HWCAP_SVM_CPUID].status, HWCAP_MISSING);
	assert_string_equal(res[HWCAP_SVM_CPUID].detail, "CPUID.80000001h:ECX["
							 "2] = 0");
	assert_string_equal(res[HWCAP_SVM_NPT].detail, "no SVM on this CPU");
	assert_int_equal(res[HWCAP_SVM_NRIP_SAVE].status, HWCAP_INFO);
	assert_int_equal(res[HWCAP_SVM_X2APIC].status, HWCAP_INFO);
}

/* An AMD dump survives writing and reading back unchanged. */
static void svm_dump_round_trip(void **state)
{
	(void)state;
	round_trip(QEMU_SVM);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(table_matches_enum),
		cmocka_unit_test(all_present),
		cmocka_unit_test(each_missing_in_turn),
		cmocka_unit_test(bochs_recording_passes),
		cmocka_unit_test(vmx_judged_on_intel_only),
		cmocka_unit_test(dump_round_trip),
		cmocka_unit_test(malformed_dump_names_line),
		cmocka_unit_test(instruction_not_offered_is_ok),
		cmocka_unit_test(differing_cpu_is_named),
		cmocka_unit_test(plain_controls_without_true),
		cmocka_unit_test(qemu_svm_recording_passes),
		cmocka_unit_test(svm_each_refusal),
		cmocka_unit_test(svm_in_use_names_kvm),
		cmocka_unit_test(qemu_novirt_recording_fails),
		cmocka_unit_test(svm_dump_round_trip),
	};

	return cmocka_run_group_tests_name("hwcaps", tests, NULL, NULL);
}
