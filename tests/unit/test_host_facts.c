// SPDX-License-Identifier: GPL-2.0
/*
 * "warden hardware check"'s rows about the system (host_facts.c) on fake
 * trees of /proc, /sys and /lib/modules, and the memmap= reservation as
 * Linux and GRUB leave it on the command line (memmap.c).
 */
#include <stdlib.h>
#include <string.h>

#include "fake_tree.h"
#include "host_facts.h"
#include "iomem.h"
#include "memmap.h"

static struct hwcap_result rows[HOST_FACTS_ROWS];

/* A machine with nothing: no module, no headers, no KVM, no memmap=. */
static int setup(void **state)
{
	(void)state;
	tree_create("host-facts");
	dir("proc");
	dir("sys");
	dir("sys/module");
	dir("lib");
	dir("lib/modules");
	dir("lib/modules/6.1.0-57-amd64");
	put("proc/cmdline", "BOOT_IMAGE=/vmlinuz root=/dev/sda1 quiet\n");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return tree_remove();
}

static bool cpuid_virt = true;

static void judge(bool loaded, bool amd)
{
	struct host_facts_opts o = { root, "6.1.0-57-amd64", loaded, amd,
				     cpuid_virt };

	assert_int_equal(host_facts(&o, rows), HOST_FACTS_ROWS);
}

/* warden.ko: missing with the package to install; ok when installed,
 * when the headers can build it, or when it is loaded. */
static void module_row(void **state)
{
	(void)state;
	judge(false, false);
	assert_string_equal(rows[0].name, "warden.ko");
	assert_int_equal(rows[0].status, HWCAP_MISSING);
	assert_non_null(strstr(rows[0].detail, "linux-headers-6.1.0-57-amd64"));
	dir("lib/modules/6.1.0-57-amd64/build");
	put("lib/modules/6.1.0-57-amd64/build/Makefile", "");
	judge(false, false);
	assert_int_equal(rows[0].status, HWCAP_OK);
	assert_non_null(strstr(rows[0].detail, "make install"));
	dir("lib/modules/6.1.0-57-amd64/updates");
	dir("lib/modules/6.1.0-57-amd64/updates/dkms");
	put("lib/modules/6.1.0-57-amd64/updates/dkms/warden.ko.xz", "");
	judge(false, false);
	assert_non_null(strstr(rows[0].detail, "updates/dkms/warden.ko.xz"));
	assert_non_null(strstr(rows[0].detail, "modprobe warden"));
	judge(true, false);
	assert_string_equal(rows[0].detail, "loaded");
	/* loaded, seen by a user who may not open /dev/warden */
	dir("sys/module/warden");
	judge(false, false);
	assert_string_equal(rows[0].detail, "loaded");
}

/* KVM: fine unloaded; a note while loaded; refused when it holds VMX
 * from load time (enable_virt_at_load). */
static void kvm_row(void **state)
{
	(void)state;
	judge(false, false);
	assert_int_equal(rows[1].status, HWCAP_OK);
	assert_string_equal(rows[1].detail, "kvm_intel not loaded");
	dir("sys/module/kvm_intel");
	judge(false, false);
	assert_int_equal(rows[1].status, HWCAP_INFO);
	dir("sys/module/kvm");
	dir("sys/module/kvm/parameters");
	put("sys/module/kvm/parameters/enable_virt_at_load", "Y\n");
	judge(false, false);
	assert_int_equal(rows[1].status, HWCAP_MISSING);
	assert_non_null(strstr(rows[1].detail, "rmmod kvm_intel"));
	/* on AMD the module is kvm_amd, which is not loaded here */
	judge(false, true);
	assert_string_equal(rows[1].detail, "kvm_amd not loaded");
}

static void reservation_row(void **state)
{
	(void)state;
	judge(false, false);
	assert_int_equal(rows[2].status, HWCAP_MISSING);
	assert_non_null(strstr(rows[2].detail, "--suggest-reservation"));
	put("proc/cmdline", "root=/dev/sda1 memmap=64Mx30000000 quiet\n");
	judge(false, false);
	assert_int_equal(rows[2].status, HWCAP_MISSING);
	assert_non_null(strstr(rows[2].detail, "mangled by GRUB"));
	assert_non_null(strstr(rows[2].detail, "write "
					       "memmap=64M\\\\\\$0x30000000 in "
					       "/etc/default/grub"));
	put("proc/cmdline", "memmap=4M$0x30000000\n");
	judge(false, false);
	assert_int_equal(rows[2].status, HWCAP_MISSING);
	assert_non_null(strstr(rows[2].detail, "too small: 8 MiB at least"));
	put("proc/cmdline", "memmap=64M$0x30000000 console=ttyS0\n");
	judge(false, false);
	assert_int_equal(rows[2].status, HWCAP_OK);
	assert_string_equal(rows[2].detail, "memmap=64M$0x30000000: 64 MiB at "
					    "0x30000000");
}

static void iommu_row(void **state)
{
	(void)state;
	judge(false, false);
	assert_int_equal(rows[3].status, HWCAP_INFO);
	assert_non_null(strstr(rows[3].detail, "no DMAR or IVRS"));
	dir("sys/firmware");
	dir("sys/firmware/acpi");
	dir("sys/firmware/acpi/tables");
	put("sys/firmware/acpi/tables/IVRS", "");
	judge(false, true);
	assert_non_null(strstr(rows[3].detail, "IVRS (AMD-Vi)"));
	/* Intel's: the hypervisor's, unless Linux translates DMA */
	put("sys/firmware/acpi/tables/DMAR", "");
	judge(false, false);
	assert_int_equal(rows[3].status, HWCAP_INFO);
	assert_non_null(strstr(rows[3].detail, "the hypervisor confines"));
	dir("sys/kernel");
	dir("sys/kernel/iommu_groups");
	dir("sys/kernel/iommu_groups/0");
	judge(false, false);
	assert_int_equal(rows[3].status, HWCAP_MISSING);
	assert_non_null(strstr(rows[3].detail, "boot it with intel_iommu=off"));
}

/* QEMU's q35 DMAR with intremap=on: 48-bit, interrupt remapping, one
 * unit for all of segment 0 with the IOAPIC at ff:00.0; then a second
 * unit for one function and an HPET. */
static size_t qemu_dmar(uint8_t *t, bool two_units)
{
	static const uint8_t body[] = {
		47,   1,    0,	  0,	0, 0,	 0,    0, 0,
		0,    0,    0, /* HAW 47, INTR_REMAP */
		0,    0,    24,	  0,	1, 0,	 0,    0, /* DRHD, all of seg. 0 */
		0x00, 0x00, 0xd9, 0xfe, 0, 0,	 0,    0, /* 0xfed90000 */
		3,    8,    0,	  0,	0, 0xff, 0,    0, /* IOAPIC 0 at ff:00.0 */
		0,    0,    32,	  0,	0, 0,	 0,    0, /* DRHD, listed only */
		0x00, 0x10, 0xd9, 0xfe, 0, 0,	 0,    0, /* 0xfed91000 */
		1,    8,    0,	  0,	0, 0,	 3,    0, /* endpoint 00:03.0 */
		4,    8,    0,	  0,	2, 0,	 0x1f, 7, /* HPET 2 at 00:1f.7 */
	};
	size_t len = 36 + (two_units ? sizeof(body) : 36);
	uint8_t sum = 0;
	size_t i;

	memset(t, 0, 36);
	memcpy(t, "DMAR", 4);
	t[4] = (uint8_t)len;
	t[8] = 1;
	memcpy(t + 36, body, len - 36);
	for (i = 0; i < len; i++)
		sum = (uint8_t)(sum + t[i]);
	t[9] = (uint8_t)(0x100 - sum);
	return len;
}

/* The DMAR's units in words, and the registers where Linux shows them. */
static void units_row(void **state)
{
	uint8_t t[256];
	size_t len;

	(void)state;
	judge(false, false);
	assert_string_equal(rows[5].name, "IOMMU units (ACPI DMAR)");
	assert_string_equal(rows[5].detail, "none");
	dir("sys/firmware");
	dir("sys/firmware/acpi");
	dir("sys/firmware/acpi/tables");
	put_bytes("sys/firmware/acpi/tables/DMAR", t, qemu_dmar(t, false));
	judge(false, false);
	assert_int_equal(rows[5].status, HWCAP_INFO);
	assert_string_equal(rows[5].detail, "48-bit DMA addresses, interrupt "
					    "remapping, 1 unit; "
					    "unit 0xfed90000: every function "
					    "of segment 0 no "
					    "other unit lists, IOAPIC 0 at "
					    "ff:00.0");
	/* QEMU 10's registers (cap d2008c222f0606, ecap f00f5a) */
	dir("sys/class");
	dir("sys/class/iommu");
	dir("sys/class/iommu/dmar0");
	dir("sys/class/iommu/dmar0/intel-iommu");
	put("sys/class/iommu/dmar0/intel-iommu/address", "fed90000\n");
	put("sys/class/iommu/dmar0/intel-iommu/cap", "d2008c222f0606\n");
	put("sys/class/iommu/dmar0/intel-iommu/ecap", "f00f5a\n");
	judge(false, false);
	assert_non_null(strstr(rows[5].detail, "IOAPIC 0 at ff:00.0; 4-level "
					       "tables, 2M/1G "
					       "pages, 65536 domains, QI, "
					       "IR+EIM, 1 fault "
					       "record"));
	put_bytes("sys/firmware/acpi/tables/DMAR", t, qemu_dmar(t, true));
	judge(false, false);
	assert_non_null(strstr(rows[5].detail, "; unit 0xfed91000: 00:03.0, "
					       "HPET 2 at 00:1f.7"));
	len = qemu_dmar(t, true);
	t[9]++; /* a bad checksum: said, not guessed around */
	put_bytes("sys/firmware/acpi/tables/DMAR", t, len);
	judge(false, false);
	assert_non_null(strstr(rows[5].detail, "the table cannot be read"));
}

/* VMX in CPUID but not in /proc/cpuinfo: Linux found it locked off,
 * which a user without the MSRs learns here. */
static void cpuinfo_row(void **state)
{
	(void)state;
	put("proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu vme vmx ept\n");
	judge(false, false);
	assert_int_equal(rows[4].status, HWCAP_OK);
	assert_string_equal(rows[4].detail, "/proc/cpuinfo lists vmx");
	judge(false, true);
	assert_int_equal(rows[4].status, HWCAP_MISSING);
	assert_non_null(strstr(rows[4].detail, "lacks svm although CPUID"));
	cpuid_virt = false;
	judge(false, true);
	assert_int_equal(rows[4].status, HWCAP_INFO);
	cpuid_virt = true;
	put("proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu vme\n");
	judge(false, false);
	assert_int_equal(rows[4].status, HWCAP_MISSING);
	assert_non_null(strstr(rows[4].detail, "firmware locked it off"));
}

/* memmap= as Linux takes it: escaped or not, the first valid one; GRUB's
 * mangled form named with its fix, and a valid one after it wins. */
static void memmap_forms(void **state)
{
	struct memmap m;

	(void)state;
	assert_int_equal(memmap_find("quiet", &m), MEMMAP_NONE);
	assert_int_equal(memmap_find("memmap=64M\\$0x30000000", &m),
			 MEMMAP_FOUND);
	assert_int_equal(m.size, 64ull << 20);
	assert_int_equal(m.start, 0x30000000);
	assert_string_equal(m.text, "memmap=64M$0x30000000");
	assert_int_equal(memmap_find("memmap=1G@0x100000000 memmap=0x10M", &m),
			 MEMMAP_NONE);
	assert_int_equal(memmap_find("a memmap=0x4000000x30000000 b", &m),
			 MEMMAP_MANGLED);
	assert_string_equal(m.fixed, "memmap=0x4000000\\\\\\$0x30000000");
	assert_int_equal(
		memmap_find("memmap=64Mx30000000 memmap=32M$0x40000000", &m),
		MEMMAP_FOUND);
	assert_int_equal(m.start, 0x40000000);
	/* every reservation, in order; a mangled one between is skipped */
	{
		struct memmap all[3];

		assert_int_equal(memmap_find_all("memmap=64M$0x30000000 q "
						 "memmap=64Mx50000000 "
						 "memmap=2G$0x100000000 "
						 "memmap=1M$0x60000000",
						 all, 2),
				 2);
		assert_int_equal(all[0].start, 0x30000000);
		assert_true(all[1].start == 0x100000000ull &&
			    all[1].size == 2ull << 30);
		assert_int_equal(memmap_find_all("quiet", all, 3), 0);
	}
}

/* A free place for memmap=: the highest 16 MiB-aligned one in System RAM
 * below 4 GiB, clear of Linux's own ranges; none when nothing fits. */
static void suggestion(void **state)
{
	const char *bochs = "00000000-00000fff : Reserved\n"
			    "00001000-0009efff : System RAM\n"
			    "00100000-3ffeffff : System RAM\n"
			    "  01000000-01e01d31 : Kernel code\n"
			    "  3c000000-3c7fffff : Crash kernel\n"
			    "3fff0000-3fffffff : ACPI Tables\n"
			    "c0000000-febfffff : PCI Bus 0000:00\n"
			    "100000000-13fffffff : System RAM\n";
	uint64_t start = 0;

	(void)state;
	assert_int_equal(iomem_suggest(bochs, 64 << 20, &start), 0);
	/* 0x3b000000 would hold the crash kernel: the next one down */
	assert_int_equal(start, 0x38000000);
	assert_int_equal(iomem_suggest(bochs, 2048ull << 20, &start), -1);
	assert_int_equal(iomem_suggest("00100000-2fffffff : Reserved\n",
				       64 << 20, &start),
			 -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(module_row, setup, teardown),
		cmocka_unit_test_setup_teardown(kvm_row, setup, teardown),
		cmocka_unit_test_setup_teardown(reservation_row, setup,
						teardown),
		cmocka_unit_test_setup_teardown(iommu_row, setup, teardown),
		cmocka_unit_test_setup_teardown(units_row, setup, teardown),
		cmocka_unit_test_setup_teardown(cpuinfo_row, setup, teardown),
		cmocka_unit_test(memmap_forms),
		cmocka_unit_test(suggestion),
	};

	return cmocka_run_group_tests_name("host_facts", tests, NULL, NULL);
}
