// SPDX-License-Identifier: GPL-2.0
/*
 * "warden hardware check" without the driver, on recorded dumps: a KVM
 * guest without nested virtualization (recorded without the driver, as
 * tools/hwprobe_host.c probes), and the Bochs and QEMU recordings as the
 * probe without the driver sees them (no VMXON tried; as a user other than
 * root, no MSRs).  And the nested-virtualization hint.
 */
#include <string.h>

#include <x86/cpuid.h>

#include "cmocka_wrap.h"
#include "dump_fixture.h"
#include "hwcaps.h"
#include "hwprobe_host.h"

/* What hwprobe_host.c records: no VMXON tried; no MSRs when not root. */
static void as_host_probe(struct warden_hw_probe *p, size_t n, bool msrs)
{
	size_t i;

	for (i = 0; i < n; i++) {
		p[i].vmx_state = WARDEN_VMX_NOT_PROBED | HWCAP_PROBE_HOST;
		p[i].cr0 = p[i].cr4 = 0;
		if (!msrs) {
			p[i].vmx_state |= HWCAP_PROBE_NO_MSRS;
			p[i].num_msrs = 0;
		}
	}
}

/* The machine of issue 29: Intel, a KVM guest, no VMX.  VMX in CPUID is
 * the first row missing, and the hint names nested virtualization. */
static void kvm_guest_without_vmx_hints_nested(void **state)
{
	struct warden_hw_probe p[4];
	struct hwcap_report rep;
	char hint[400];
	size_t n;

	(void)state;
	n = load("kvm-intel-nonested-2cpu.dump", p, 4);
	assert_int_equal(n, 2);
	assert_int_equal(p[0].vmx_state,
			 HWCAP_PROBE_HOST | HWCAP_PROBE_NO_MSRS);
	assert_true(hwcaps_evaluate(p, n, &rep) > 0);
	assert_int_equal(rep.table, HWCAP_TABLE_VMX);
	assert_int_equal(rep.results[HWCAP_VMX_CPUID].status, HWCAP_MISSING);
	/* no VMX is a verdict, not a row left unread for want of root */
	assert_int_equal(rep.unread, 0);
	assert_true(hwcaps_nested_hint(&p[0], hint, sizeof(hint)));
	assert_non_null(strstr(hint, "CPUID.1:ECX[31] = 1"));
	assert_non_null(strstr(hint, "does not offer it VMX"));
	assert_non_null(strstr(hint, "kvm_intel with nested=1"));
}

/* QEMU's AMD CPU without SVM is a guest too: the hint names kvm_amd. */
static void amd_guest_without_svm_hints_nested(void **state)
{
	struct warden_hw_probe p[4];
	char hint[400];

	(void)state;
	load("qemu-novirt-2cpu.dump", p, 4);
	assert_true(hwcaps_nested_hint(&p[0], hint, sizeof(hint)));
	assert_non_null(strstr(hint, "does not offer it SVM"));
	assert_non_null(strstr(hint, "kvm_amd with nested=1"));
}

/* No hint where VMX or SVM is there (QEMU's guest with SVM), nor on a
 * CPU that does not say it is a guest (Bochs). */
static void no_hint_with_virtualization(void **state)
{
	struct warden_hw_probe p[4];
	char hint[400] = "";

	(void)state;
	load("qemu-svm-2cpu.dump", p, 4);
	assert_false(hwcaps_nested_hint(&p[0], hint, sizeof(hint)));
	load("bochs-skylake-x-2cpu.dump", p, 4);
	assert_false(hwcaps_nested_hint(&p[0], hint, sizeof(hint)));
	/* Bochs's CPU with VMX taken away: bare metal, no hint either */
	p[0].cpuid[1].ecx &= ~CPUID1_ECX_VMX;
	assert_false(hwcaps_nested_hint(&p[0], hint, sizeof(hint)));
	assert_string_equal(hint, "");
}

/* As root without the driver: every required row judged from the MSRs,
 * VMXON left to the driver (info, not MISSING). */
static void root_without_driver_passes(void **state)
{
	struct warden_hw_probe p[4];
	struct hwcap_report rep;
	size_t n;

	(void)state;
	n = load("bochs-skylake-x-2cpu.dump", p, 4);
	as_host_probe(p, n, true);
	assert_int_equal(hwcaps_evaluate(p, n, &rep), 0);
	assert_int_equal(rep.unread, 0);
	assert_int_equal(rep.results[HWCAP_VMX_FREE].status, HWCAP_INFO);
	assert_string_equal(rep.results[HWCAP_VMX_FREE].detail, "VMXON not "
								"tried (no "
								"driver)");
	assert_int_equal(rep.results[HWCAP_EPT].status, HWCAP_OK);
}

/* A user other than root: the rows that need MSRs are unread and named
 * so, nothing is MISSING, and what CPUID says is judged. */
static void user_gets_unread_rows(void **state)
{
	struct warden_hw_probe p[4];
	struct hwcap_report rep;
	size_t n, f;

	(void)state;
	n = load("bochs-skylake-x-2cpu.dump", p, 4);
	as_host_probe(p, n, false);
	assert_int_equal(hwcaps_evaluate(p, n, &rep), 0);
	assert_int_equal(rep.results[HWCAP_VMX_CPUID].status, HWCAP_OK);
	assert_int_equal(rep.results[HWCAP_X2APIC].status, HWCAP_INFO);
	assert_int_equal(rep.results[HWCAP_FEATURE_CONTROL].status,
			 HWCAP_UNREAD);
	assert_non_null(strstr(rep.results[HWCAP_EPT].detail, "run as root"));
	assert_string_equal(hwcap_status_name(HWCAP_UNREAD), "unread");
	for (f = 0; f < rep.num; f++)
		assert_int_not_equal(rep.results[f].status, HWCAP_MISSING);
	/* FEATURE_CONTROL .. XSAVES: 24 rows, RDTSCP/INVPCID/XSAVES among
	 * them as Bochs offers them */
	assert_int_equal(rep.unread, 24);
}

/* The same on AMD: VM_CR and EFER are the only MSR rows. */
static void user_on_amd_reads_cpuid_rows(void **state)
{
	struct warden_hw_probe p[4];
	struct hwcap_report rep;
	size_t n;

	(void)state;
	n = load("qemu-svm-2cpu.dump", p, 4);
	as_host_probe(p, n, false);
	assert_int_equal(hwcaps_evaluate(p, n, &rep), 0);
	assert_int_equal(rep.table, HWCAP_TABLE_SVM);
	assert_int_equal(rep.unread, 2);
	assert_int_equal(rep.results[HWCAP_SVM_VM_CR].status, HWCAP_UNREAD);
	assert_int_equal(rep.results[HWCAP_SVM_FREE].status, HWCAP_UNREAD);
	assert_int_equal(rep.results[HWCAP_SVM_NPT].status, HWCAP_OK);
}

/* A driverless recording survives the dump format, flags included. */
static void host_dump_round_trip(void **state)
{
	struct warden_hw_probe p[4], back[4];
	char buf[8192];
	size_t n, m;
	FILE *f;

	(void)state;
	n = load("kvm-intel-nonested-2cpu.dump", p, 4);
	f = fmemopen(buf, sizeof(buf), "w+");
	assert_non_null(f);
	hwcaps_write_dump(f, p, n);
	rewind(f);
	assert_int_equal(hwcaps_read_dump(f, back, 4, &m), 0);
	fclose(f);
	assert_int_equal(m, n);
	assert_memory_equal(p, back, n * sizeof(p[0]));
}

/* The probe without the driver reads the MSRs the driver reads, in its
 * order (as the driver's recordings show them), so that both dumps judge
 * alike. */
static void same_msrs_as_driver(void **state)
{
	static const char *const dumps[] = { "bochs-skylake-x-2cpu.dump", "qemu"
									  "-svm"
									  "-2cp"
									  "u."
									  "dum"
									  "p" };
	struct warden_hw_probe p[4];
	const unsigned int *msrs;
	size_t d, i, n;

	(void)state;
	for (d = 0; d < 2; d++) {
		load(dumps[d], p, 4);
		msrs = hwprobe_host_msrs(d == 1, &n);
		assert_int_equal(n, p[0].num_msrs);
		for (i = 0; i < n; i++)
			assert_int_equal(msrs[i], p[0].msrs[i].index);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kvm_guest_without_vmx_hints_nested),
		cmocka_unit_test(amd_guest_without_svm_hints_nested),
		cmocka_unit_test(no_hint_with_virtualization),
		cmocka_unit_test(root_without_driver_passes),
		cmocka_unit_test(user_gets_unread_rows),
		cmocka_unit_test(user_on_amd_reads_cpuid_rows),
		cmocka_unit_test(host_dump_round_trip),
		cmocka_unit_test(same_msrs_as_driver),
	};

	return cmocka_run_group_tests_name("hwcaps_host", tests, NULL, NULL);
}
