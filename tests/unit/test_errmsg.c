// SPDX-License-Identifier: GPL-2.0
/* Error-channel records become sentences that name item, rule and values. */
#include <string.h>

#include "cmocka_wrap.h"
#include "errmsg.h"

static struct warden_error rec(uint32_t rule, uint32_t kind, uint32_t index)
{
	struct warden_error e;

	memset(&e, 0, sizeof(e));
	e.code = -22;
	e.rule = rule;
	e.item_kind = kind;
	e.item_index = index;
	e.cpu = WARDEN_NO_CPU;
	return e;
}

static void memory_overlap_with_hypervisor(void **state)
{
	struct warden_error e =
		rec(WARDEN_RULE_MEM_OVERLAPS_HV, WARDEN_ITEM_MEMORY_REGION, 1);
	char buf[256];

	(void)state;
	e.values[0] = 0x3f000000;
	e.values[1] = 0x200000;
	e.values[2] = 0x3f000000;
	e.values[3] = 0x600000;
	assert_string_equal(warden_error_describe(&e, buf, sizeof(buf)),
			    "memory[1] 0x3f000000+0x200000: overlaps "
			    "hypervisor memory 0x3f000000+0x600000");
}

static void memmap_hint(void **state)
{
	struct warden_error e =
		rec(WARDEN_RULE_MEM_NOT_RESERVED, WARDEN_ITEM_SYSTEM, 0);
	char buf[256];

	(void)state;
	e.values[0] = 0x30000000;
	e.values[1] = 0x4000000;
	warden_error_describe(&e, buf, sizeof(buf));
	assert_non_null(strstr(buf, "memmap=0x4000000$0x30000000"));
}

static void cpu_item_and_caller_cpu(void **state)
{
	struct warden_error e =
		rec(WARDEN_RULE_CPU0_NOT_ROOT, WARDEN_ITEM_CPU, 0);
	char buf[256];

	(void)state;
	assert_string_equal(warden_error_describe(&e, buf, sizeof(buf)),
			    "CPU 0: CPU 0 must stay in the root cell");
	e = rec(WARDEN_RULE_VMX_BUSY, WARDEN_ITEM_NONE, 0);
	e.cpu = 3;
	warden_error_describe(&e, buf, sizeof(buf));
	assert_non_null(strstr(buf, "KVM"));
	assert_non_null(strstr(buf, "CR4.VMXE"));
	assert_non_null(strstr(buf, "(on CPU 3)"));
}

/* Enable on either vendor: the image looked for, the vendor it is for, the
 * bit that shows the extension taken, a vendor without an image. */
static void vendor_rules(void **state)
{
	struct warden_error e =
		rec(WARDEN_RULE_FIRMWARE_MISSING, WARDEN_ITEM_NONE, 0);
	char buf[256];

	(void)state;
	e.code = -2;
	e.values[0] = (uint64_t)-2;
	e.values[1] = WARDEN_VENDOR_AMD;
	strcpy(e.text, WARDEN_FIRMWARE_AMD);
	assert_string_equal(warden_error_describe(&e, buf, sizeof(buf)),
			    "hypervisor image warden-amd.bin not found (error "
			    "-2); it is the image for AMD and Hygon CPUs, as "
			    "this one is: install it to /lib/firmware");
	e.values[1] = WARDEN_VENDOR_INTEL;
	strcpy(e.text, WARDEN_FIRMWARE_INTEL);
	warden_error_describe(&e, buf, sizeof(buf));
	assert_non_null(strstr(buf, "hypervisor image warden-intel.bin not "
				    "found (error -2); it is the image for "
				    "Intel CPUs"));
	/* a driver that does not give the vendor */
	e.values[1] = 0;
	assert_string_equal(warden_error_describe(&e, buf, sizeof(buf)),
			    "hypervisor image warden-intel.bin not found "
			    "(error -2); install it to /lib/firmware");

	e = rec(WARDEN_RULE_SVM_BUSY, WARDEN_ITEM_NONE, 0);
	e.cpu = 1;
	assert_string_equal(warden_error_describe(&e, buf, sizeof(buf)),
			    "SVM is in use by another hypervisor: EFER.SVME is "
			    "set (is a KVM virtual machine running?) (on CPU "
			    "1)");

	e = rec(WARDEN_RULE_SVM_DISABLED, WARDEN_ITEM_NONE, 0);
	e.cpu = 0;
	assert_string_equal(warden_error_describe(&e, buf, sizeof(buf)),
			    "SVM disabled by firmware (VM_CR.SVMDIS) (on CPU "
			    "0)");

	/* warden.ko in a Linux cell: the request and the signature's leaf */
	e = rec(WARDEN_RULE_IN_CELL, WARDEN_ITEM_NONE, 0);
	e.cpu = WARDEN_NO_CPU;
	e.values[0] = 0x40000100;
	strcpy(e.text, "enable");
	assert_string_equal(warden_error_describe(&e, buf, sizeof(buf)),
			    "enable: this kernel runs inside a Warden cell "
			    "(CPUID leaf 0x40000100 says WardenWarden, the "
			    "hypervisor refuses root's calls): only root "
			    "manages Warden; here warden.ko only binds the "
			    "cell's links");

	/* the missing feature named from the values the hypervisor gave */
	e = rec(WARDEN_RULE_FEATURE_MISSING, WARDEN_ITEM_NONE, 0);
	e.cpu = 0;
	e.values[0] = 0x8000000a;
	e.values[1] = 1;
	assert_string_equal(warden_error_describe(&e, buf, sizeof(buf)),
			    "a required CPU feature is missing: nested paging, "
			    "NPT (CPUID 0x8000000a EDX[0] = 0) (run 'warden "
			    "hardware check') (on CPU 0)");
	e.values[0] = 0x80000001;
	e.values[1] = 4;
	assert_string_equal(warden_error_describe(&e, buf, sizeof(buf)),
			    "a required CPU feature is missing: SVM (CPUID "
			    "0x80000001 ECX[2] = 0) (run 'warden hardware "
			    "check') (on CPU 0)");
	e.values[0] = 0x48b;
	e.values[1] = 0x2;
	assert_string_equal(warden_error_describe(&e, buf, sizeof(buf)),
			    "a required CPU feature is missing: VMX "
			    "capabilities 0x2 of MSR 0x48b (run 'warden "
			    "hardware check') (on CPU 0)");

	e = rec(WARDEN_RULE_CPU_VENDOR, WARDEN_ITEM_NONE, 0);
	strcpy(e.text, "CentaurHauls");
	assert_string_equal(warden_error_describe(&e, buf, sizeof(buf)),
			    "CPU vendor \"CentaurHauls\" is not supported: "
			    "Warden runs on Intel, AMD and Hygon CPUs");
}

/* The vendor strings of CPUID leaf 0 (EBX, EDX, ECX) behind the image and
 * the hypercall instruction. */
static void vendor_of_cpuid(void **state)
{
	static const char *const names[] = { "GenuineIntel", "AuthenticAMD",
					     "HygonGenuine", "CentaurHauls",
					     "GenuineIotel" };
	static const uint32_t want[] = { WARDEN_VENDOR_INTEL, WARDEN_VENDOR_AMD,
					 WARDEN_VENDOR_AMD, WARDEN_VENDOR_OTHER,
					 WARDEN_VENDOR_OTHER };
	uint32_t id[3];
	char text[13];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		memcpy(id, names[i], sizeof(id));
		assert_int_equal(warden_vendor_of(id), want[i]);
		warden_vendor_text(id, text);
		assert_string_equal(text, names[i]);
	}
	/* a string that is no vendor's: unprintable bytes become '?' */
	memcpy(id, "Bad\0\x7f\x80\xffvendor", sizeof(id));
	warden_vendor_text(id, text);
	assert_string_equal(text, "Bad????vendo");
}

static void unknown_rule_shows_numbers(void **state)
{
	struct warden_error e = rec(9999, WARDEN_ITEM_NONE, 0);
	char buf[256];

	(void)state;
	e.values[0] = 0x42;
	warden_error_describe(&e, buf, sizeof(buf));
	assert_non_null(strstr(buf, "rule 9999"));
	assert_non_null(strstr(buf, "0x42"));
}

static void config_check_rules(void **state)
{
	struct warden_error e =
		rec(WARDEN_RULE_CONFIG_CONTEXT, WARDEN_ITEM_SYSTEM, 0);
	char buf[256];

	(void)state;
	e.values[0] = 3;
	assert_string_equal(warden_error_describe(&e, buf, sizeof(buf)),
			    "system config: this config, needed to check the "
			    "new one, is itself invalid (3 errors)");
	e = rec(WARDEN_RULE_CONFIG_CONTEXT, WARDEN_ITEM_CELL, 2);
	e.values[0] = 1;
	assert_string_equal(warden_error_describe(&e, buf, sizeof(buf)),
			    "cell 2: this config, needed to check the new one, "
			    "is itself invalid (1 errors)");
	e = rec(WARDEN_RULE_CONSOLE_PORTS, WARDEN_ITEM_CONSOLE, 1);
	e.values[0] = WARDEN_CONSOLE_UART_PIO;
	e.values[1] = 0x3f8;
	assert_string_equal(warden_error_describe(&e, buf, sizeof(buf)),
			    "console: UART ports 0x3f8-0x3ff are not all in "
			    "the cell's own port ranges");
}

static void short_buffer_is_safe(void **state)
{
	struct warden_error e =
		rec(WARDEN_RULE_FIRMWARE_MISSING, WARDEN_ITEM_NONE, 0);
	char buf[16];

	(void)state;
	memset(buf, 'x', sizeof(buf));
	warden_error_describe(&e, buf, sizeof(buf));
	assert_int_equal(strlen(buf), sizeof(buf) - 1);
}

/* Pins, PCI devices and IOAPICs are named as the YAML writes them. */
static void pci_items(void **state)
{
	struct warden_error e =
		rec(WARDEN_RULE_PCI_PIN_NOT_OWNED, WARDEN_ITEM_PCI_DEVICE, 0);
	char buf[256];

	(void)state;
	e.values[0] = 0x18; /* 00:03.0 */
	e.values[1] = 19;
	assert_string_equal(warden_error_describe(&e, buf, sizeof(buf)),
			    "PCI device 00:03.0: its INTx drives GSI 19, which "
			    "the cell does not own (add it to irq_pins)");
	/* a domain, a function, and the BAR field that differs */
	e = rec(WARDEN_RULE_PCI_MISMATCH, WARDEN_ITEM_PCI_DEVICE, 2);
	e.values[0] = 0x1ff3f; /* 0001:ff:07.7 */
	e.values[1] = WARDEN_PCI_FIELD_BAR(5, 2);
	e.values[2] = 2;
	e.values[3] = 0;
	assert_string_equal(warden_error_describe(&e, buf, sizeof(buf)),
			    "PCI device 0001:ff:07.7: BAR 5 flags is 0x2, but "
			    "the system config has 0x0");
	e.values[1] = 7; /* no such field: still a sentence */
	warden_error_describe(&e, buf, sizeof(buf));
	assert_non_null(strstr(buf, "field 7 is 0x2"));
	e = rec(WARDEN_RULE_PCI_BAR, WARDEN_ITEM_PCI_DEVICE, 0);
	e.values[0] = 0x18;
	e.values[1] = 3;
	e.values[2] = 99;
	warden_error_describe(&e, buf, sizeof(buf));
	assert_non_null(strstr(buf, "BAR 3: fault 99"));
	e = rec(WARDEN_RULE_PIN_IN_OTHER_CELL, WARDEN_ITEM_IRQ_PIN, 1);
	e.values[0] = 7;
	e.values[1] = 2;
	assert_string_equal(warden_error_describe(&e, buf, sizeof(buf)),
			    "irq_pins[1] GSI 7: belongs to cell 2");
	assert_int_equal(warden_rule_other_cell_value(e.rule), 1);
	e = rec(WARDEN_RULE_IOAPIC_PINS, WARDEN_ITEM_IOAPIC, 0);
	e.values[0] = 0xfec00000;
	e.values[1] = 0;
	e.values[2] = 240;
	assert_string_equal(warden_error_describe(&e, buf, sizeof(buf)),
			    "ioapics[0] 0xfec00000: 0 pins, but an IOAPIC has "
			    "1 to 240");
}

/* Root's functions at enable: the MSI-X table the hypervisor cannot
 * trap, and a function the driver cannot describe. */
static void root_pci_rules(void **state)
{
	struct warden_error e =
		rec(WARDEN_RULE_ROOT_MSIX_UNTRAPPED, WARDEN_ITEM_SYSTEM, 0);
	char buf[512];

	(void)state;
	e.values[0] = 0x20; /* 00:04.0 */
	e.values[1] = 0xfeba0000;
	e.values[2] = WARDEN_MSIX_UNTRAPPED_PLACE;
	e.values[3] = 32;
	warden_error_describe(&e, buf, sizeof(buf));
	assert_non_null(strstr(buf, "PCI function 00:04.0 has MSI-X on, but "
				    "the hypervisor cannot trap its table at "
				    "0xfeba0000: the table must lie in one of "
				    "root's io memory regions"));
	e.values[1] = 0;
	e.values[2] = WARDEN_MSIX_UNTRAPPED_COUNT;
	warden_error_describe(&e, buf, sizeof(buf));
	assert_non_null(strstr(buf, "its table (its BAR decodes nowhere): "
				    "more functions have MSI-X tables"));
	/* a Linux cell's unconfined device, its RAM not at guest = phys */
	e = rec(WARDEN_RULE_LINUX_DMA, WARDEN_ITEM_PCI_DEVICE, 0);
	e.values[0] = 0x20; /* 00:04.0 */
	e.values[1] = 0;
	e.values[2] = 0x20000000;
	warden_error_describe(&e, buf, sizeof(buf));
	assert_non_null(strstr(buf, "this Linux cell's memory at guest 0x0 is "
				    "phys 0x20000000: Linux gives the device "
				    "guest-physical addresses"));
	/* the IOMMU's take-over at enable */
	e = rec(WARDEN_RULE_IOMMU_TAKEOVER, WARDEN_ITEM_SYSTEM, 0);
	e.values[0] = 0xfed90000;
	e.values[1] = WARDEN_IOMMU_DMA_REMAPPING_ON;
	warden_error_describe(&e, buf, sizeof(buf));
	assert_non_null(strstr(buf, "cannot take the IOMMU at 0xfed90000 "
				    "over: Linux has DMA remapping on; boot "
				    "with intel_iommu=off"));
	e.values[1] = WARDEN_IOMMU_FEW_DOMAINS;
	e.values[2] = 16;
	warden_error_describe(&e, buf, sizeof(buf));
	assert_non_null(strstr(buf, "it has 16 domain ids"));
	e = rec(WARDEN_RULE_ROOT_PCI_UNDESCRIBED, WARDEN_ITEM_SYSTEM, 0);
	e.values[0] = 0x10018; /* 0001:00:03.0 */
	warden_error_describe(&e, buf, sizeof(buf));
	assert_non_null(strstr(buf, "PCI function 0001:00:03.0 cannot be "
				    "handed to the hypervisor: Warden traps "
				    "PCI segment 0 only"));
	/* a cell's function whose interrupts find no room in the
	 * hypervisor's remapping table (at create) */
	e = rec(WARDEN_RULE_PCI_IRQ_REMAP_FULL, WARDEN_ITEM_PCI_DEVICE, 0);
	e.values[0] = 0x20; /* 00:04.0 */
	e.values[1] = 6;
	e.values[2] = 4094;
	warden_error_describe(&e, buf, sizeof(buf));
	assert_non_null(strstr(buf, "PCI function 00:04.0 needs 6 interrupt "
				    "remapping entries in a row"));
	assert_non_null(strstr(buf, "(4094 in use)"));
	/* a cell's IOAPIC pins: no source id, no room; the IOMMU units */
	e = rec(WARDEN_RULE_IOAPIC_NO_SOURCE_ID, WARDEN_ITEM_IOAPIC, 0);
	e.values[0] = 0xfec00000;
	e.values[1] = 3;
	warden_error_describe(&e, buf, sizeof(buf));
	assert_non_null(strstr(buf, "ioapics[0] 0xfec00000: the cell's pin "
				    "(GSI 3) would be an interrupt remapping "
				    "entry"));
	e = rec(WARDEN_RULE_PIN_IRQ_REMAP_FULL, WARDEN_ITEM_IRQ_PIN, 0);
	e.values[0] = 3;
	e.values[1] = 2;
	e.values[2] = 4095;
	warden_error_describe(&e, buf, sizeof(buf));
	assert_non_null(strstr(buf, "irq_pins[0] GSI 3: the cell's 2 IOAPIC "
				    "pins need"));
	e = rec(WARDEN_RULE_IOMMU_UNIT, WARDEN_ITEM_IOMMU, 1);
	e.values[0] = 0xfed91000;
	e.values[1] = WARDEN_IOMMU_UNIT_ALL_TWICE;
	e.values[2] = 0;
	warden_error_describe(&e, buf, sizeof(buf));
	assert_non_null(strstr(buf, "iommus[1] 0xfed91000: a second unit with "
				    "include_pci_all for its segment "
				    "(iommus[0] is the first)"));
	/* functions the IOMMU cannot tell apart (behind one bridge) */
	e = rec(WARDEN_RULE_PCI_DMA_ALIAS, WARDEN_ITEM_PCI_DEVICE, 1);
	e.values[0] = 0x208; /* 02:01.0 */
	e.values[1] = 0x200;
	e.values[2] = 0x210;
	warden_error_describe(&e, buf, sizeof(buf));
	assert_non_null(strstr(buf, "PCI device 02:01.0: its DMA may carry "
				    "requester id 02:00.0, as may PCI device "
				    "02:02.0, which the cell does not take"));
	e = rec(WARDEN_RULE_PCI_MISMATCH, WARDEN_ITEM_PCI_DEVICE, 1);
	e.values[0] = 0x208;
	e.values[1] = WARDEN_PCI_FIELD_DMA_ALIAS;
	e.values[2] = 0;
	e.values[3] = 0x10200;
	warden_error_describe(&e, buf, sizeof(buf));
	assert_non_null(strstr(buf, "dma_alias"));
	e = rec(WARDEN_RULE_PCI_NO_IOMMU, WARDEN_ITEM_PCI_DEVICE, 2);
	e.values[0] = 0x20;
	warden_error_describe(&e, buf, sizeof(buf));
	assert_non_null(strstr(buf, "PCI device 00:04.0: no IOMMU unit of the "
				    "system config covers it"));
	e = rec(WARDEN_RULE_IOMMU_TAKEOVER, WARDEN_ITEM_SYSTEM, 0);
	e.values[0] = 0xfed90000;
	e.values[1] = WARDEN_IOMMU_SEVERAL_UNITS;
	e.values[2] = 2;
	warden_error_describe(&e, buf, sizeof(buf));
	assert_non_null(strstr(buf, "lists 2 IOMMU units and a hypervisor of "
				    "ABI revision 10 handles one"));
	/* a config naming a unit the machine does not have: the base and
	 * the way out are named */
	e.values[0] = 0xfed90000;
	e.values[1] = WARDEN_IOMMU_ABSENT;
	e.values[2] = 0;
	warden_error_describe(&e, buf, sizeof(buf));
	assert_non_null(strstr(buf, "cannot take the IOMMU at 0xfed90000 "
				    "over: no IOMMU answers there"));
	assert_non_null(strstr(buf, "the system config names a unit this "
				    "machine does not have"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pci_items),
		cmocka_unit_test(memory_overlap_with_hypervisor),
		cmocka_unit_test(memmap_hint),
		cmocka_unit_test(cpu_item_and_caller_cpu),
		cmocka_unit_test(vendor_rules),
		cmocka_unit_test(vendor_of_cpuid),
		cmocka_unit_test(unknown_rule_shows_numbers),
		cmocka_unit_test(config_check_rules),
		cmocka_unit_test(short_buffer_is_safe),
		cmocka_unit_test(root_pci_rules),
	};

	return cmocka_run_group_tests_name("errmsg", tests, NULL, NULL);
}
