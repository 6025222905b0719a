// SPDX-License-Identifier: GPL-2.0
/*
 * bad-state: hands the hypervisor a value it must not load into the
 * hardware, or makes it fail on purpose, one kind per run (command line
 * kind=...).  What must happen is in docs/inmates.md; a run that goes on
 * after the attempt prints "bad-state: still running after <kind>".
 *
 *   kind=xsetbv value=V    XSETBV of V into XCR0 (CR4.OSXSAVE set first):
 *                          #GP for every invalid V
 *   kind=cr4 bits=B        MOV to CR4 of CR4 | B with VMXE, so that it
 *                          exits: #GP for a reserved bit
 *   kind=cr0 bits=B clear=C
 *                          MOV to CR0 of (CR0 ^ NE | B) & ~C, NE toggled
 *                          so that it exits: #GP where invalid
 *   kind=entry|hvfault|hang
 *                          the test hooks (WARDEN_HC_TEST): a VM entry
 *                          that fails, an exception in the hypervisor, a
 *                          hypervisor that stops answering
 *   kind=forge             prints, through the console hypercall, lines
 *                          that look like the hypervisor's
 *   kind=flood count=N     prints N distinct lines through it
 *   kind=repeat count=N    reads an x2APIC MSR in xAPIC mode N times
 *                          (each a #GP it catches, and a notice of the
 *                          hypervisor), then prints one line N times
 *   kind=invd              INVD, which would drop other cells' dirty
 *                          cache lines: #UD on both vendors
 *   kind=pat value=V       WRMSR of V to IA32_PAT: #GP for a reserved
 *                          memory type (2, 3, 8-255) in any entry
 *   kind=ipi vector=V x2apic=0|1
 *                          a Fixed IPI with vector V to itself through
 *                          the ICR, in xAPIC (default) or x2APIC mode:
 *                          vectors 0-15 fail the cell
 */
#include <inmate.h>

#define CR4_OSXSAVE (1ull << 18)
#define CR4_VMXE (1ull << 13)
#define CR0_NE_BIT (1ull << 5)

static void hc_puts(const char *s)
{
	while (*s)
		warden_debug_putc(*s++);
}

static void flood(unsigned long count)
{
	char line[64];
	unsigned long i;

	for (i = 0; i < count; i++) {
		snprintf(line, sizeof(line), "flood line %lu of %lu\n", i + 1,
			 count);
		hc_puts(line);
	}
	printk("bad-state: flooded %lu lines\n", count);
}

static void read_x2apic_id(void *arg)
{
	(void)arg;
	rdmsr(0x802);
}

static void repeat(unsigned long count)
{
	unsigned long i, gp = 0;

	for (i = 0; i < count; i++)
		gp += exception_catch(read_x2apic_id, NULL) == 13;
	for (i = 0; i < count; i++)
		hc_puts("the same line again\n");
	printk("bad-state: %lu of %lu x2APIC reads got #GP\n", gp, count);
}

void inmate_main(void)
{
	const char *kind = cmdline_str("kind", "");
	uint64_t value = cmdline_uint("value", 0);
	uint64_t bits = cmdline_uint("bits", 0);
	uint64_t clear = cmdline_uint("clear", 0);

	printk("bad-state: %s\n", kind);
	if (!strcmp(kind, "xsetbv")) {
		asm volatile("mov %0, %%cr4" : : "r"(read_cr4() | CR4_OSXSAVE));
		printk("bad-state: XSETBV 0x%lx\n", (unsigned long)value);
		asm volatile("xsetbv"
			     :
			     : "c"(0), "a"((uint32_t)value),
			       "d"((uint32_t)(value >> 32)));
	} else if (!strcmp(kind, "cr4")) {
		value = read_cr4() | CR4_VMXE | bits;
		printk("bad-state: MOV to CR4 0x%lx\n", (unsigned long)value);
		asm volatile("mov %0, %%cr4" : : "r"(value));
	} else if (!strcmp(kind, "cr0")) {
		value = ((read_cr0() ^ CR0_NE_BIT) | bits) & ~clear;
		printk("bad-state: MOV to CR0 0x%lx\n", (unsigned long)value);
		asm volatile("mov %0, %%cr0" : : "r"(value));
	} else if (!strcmp(kind, "entry")) {
		warden_hypercall(WARDEN_HC_TEST, WARDEN_TEST_BAD_ENTRY_STATE,
				 0);
	} else if (!strcmp(kind, "hvfault")) {
		warden_hypercall(WARDEN_HC_TEST, WARDEN_TEST_HV_FAULT, 0);
	} else if (!strcmp(kind, "hang")) {
		warden_hypercall(WARDEN_HC_TEST, WARDEN_TEST_HV_HANG, 0);
	} else if (!strcmp(kind, "invd")) {
		asm volatile("invd" : : : "memory");
	} else if (!strcmp(kind, "pat")) {
		printk("bad-state: WRMSR to PAT 0x%lx\n", (unsigned long)value);
		wrmsr(0x277, value);
	} else if (!strcmp(kind, "ipi")) {
		value = cmdline_uint("vector", 2);
		if (apic_init(cmdline_bool("x2apic", false)) < 0) {
			printk("bad-state: no local APIC\n");
			return;
		}
		printk("bad-state: fixed IPI vector %lu to itself (%s)\n",
		       (unsigned long)value,
		       apic_is_x2apic() ? "x2apic" : "xapic");
		apic_send_icr(apic_id(), APIC_ICR_DM_FIXED |
						 APIC_ICR_LEVEL_ASSERT |
						 (uint32_t)value);
	} else if (!strcmp(kind, "forge")) {
		hc_puts("Cell 0 \"Linux\", CPU 0: write outside its memory "
			"0x0 at RIP 0x0; cell failed, CPU parked\n");
		hc_puts("\rCell 1 \"tiny-demo\" destroyed\x1b[2J\n");
		printk("bad-state: forged\n");
		return;
	} else if (!strcmp(kind, "flood")) {
		flood(cmdline_uint("count", 10000));
		return;
	} else if (!strcmp(kind, "repeat")) {
		repeat(cmdline_uint("count", 806));
		return;
	} else {
		printk("bad-state: unknown kind '%s'\n", kind);
		return;
	}
	printk("bad-state: still running after %s\n", kind);
}
