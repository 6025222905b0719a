// SPDX-License-Identifier: GPL-2.0
/*
 * tools/linux_tables.c, tools/linux_boot.c, tools/bzimage.c and
 * elf_note(): what "warden cell linux" puts into a Linux cell.  Every
 * table's checksum and the fields Linux reads are checked byte by byte;
 * Debian's iasl (acpica-tools) must disassemble every table without an
 * error; a bzImage built here around an XZ stream gives its ELF back, and
 * the real Debian kernel of the test machine (build/kernel/vmlinuz) when
 * it is there.
 */
#define _GNU_SOURCE /* memmem */
#include <elf.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <warden/config.h>

#include "bzimage.h"
#include "cmocka_wrap.h"
#include "elf_image.h"
#include "linux_boot.h"
#include "linux_irqs.h"
#include "linux_tables.h"

#define BASE 0xe0000u

static uint8_t buf[0x2000];
static char why[512];

static uint32_t get32(const uint8_t *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint64_t get64(const uint8_t *p)
{
	return get32(p) | (uint64_t)get32(p + 4) << 32;
}

static uint8_t sum(const uint8_t *p, size_t n)
{
	uint8_t s = 0;

	while (n--)
		s += *p++;
	return s;
}

/* Two CPUs (one with an x2APIC-only ID), COM3 and COM4, 128 MiB. */
static void platform(struct lt_platform *p)
{
	memset(p, 0, sizeof(*p));
	p->num_cpus = 2;
	p->apic_ids[0] = 1;
	p->apic_ids[1] = 0x100;
	p->num_uarts = 2;
	p->uart_ports[0] = 0x3e8;
	p->uart_ports[1] = 0x2e8;
	p->num_ram = 1;
	p->ram[0].size = 128u << 20;
}

/* The table an address of the tables points at. */
static const uint8_t *at(uint64_t addr)
{
	assert_true(addr >= BASE && addr < BASE + sizeof(buf));
	return buf + (addr - BASE);
}

static void test_rsdp_xsdt(void **state)
{
	struct lt_platform p;
	const uint8_t *x;
	size_t n;

	(void)state;
	platform(&p);
	n = lt_acpi_tables(&p, BASE, buf, sizeof(buf));
	assert_true(n > 0 && n <= LB_TABLES_SIZE);
	assert_memory_equal(buf, "RSD PTR ", 8);
	assert_int_equal(sum(buf, 20), 0);
	assert_int_equal(sum(buf, LT_RSDP_SIZE), 0);
	assert_int_equal(buf[15], 2);
	assert_int_equal(get32(buf + 16), 0); /* no RSDT */
	assert_int_equal(get32(buf + 20), LT_RSDP_SIZE);
	x = at(get64(buf + 24));
	assert_memory_equal(x, "XSDT", 4);
	assert_int_equal(get32(x + 4), 36 + 16);
	assert_int_equal(sum(x, get32(x + 4)), 0);
	assert_memory_equal(at(get64(x + 36)), "FACP", 4);
	assert_memory_equal(at(get64(x + 44)), "APIC", 4);
}

static void test_fadt(void **state)
{
	struct lt_platform p;
	const uint8_t *f, *d;

	(void)state;
	platform(&p);
	assert_true(lt_acpi_tables(&p, BASE, buf, sizeof(buf)) > 0);
	f = at(get64(at(get64(buf + 24)) + 36));
	assert_int_equal(get32(f + 4), LT_FADT_SIZE);
	assert_int_equal(f[8], 6);
	assert_int_equal(sum(f, LT_FADT_SIZE), 0);
	/* hardware-reduced; no 8042, no VGA, no CMOS RTC */
	assert_true(get32(f + 112) & LT_FADT_HW_REDUCED);
	assert_int_equal(f[109] | f[110] << 8,
			 LT_IAPC_NO_VGA | LT_IAPC_NO_CMOS_RTC);
	/* no fixed hardware: SCI, SMI, PM blocks, PM timer all 0 */
	assert_int_equal(f[46] | f[47] << 8, 0);
	assert_int_equal(get32(f + 48), 0);
	assert_int_equal(get32(f + 76), 0);
	assert_int_equal(get64(f + 132), 0); /* no FACS */
	/* reset register: a byte in I/O space, 0xcf9, value 6 */
	assert_true(get32(f + 112) & LT_FADT_RESET_REG_SUP);
	assert_memory_equal(f + 116, "\x01\x08\x00\x01", 4);
	assert_int_equal(get64(f + 120), 0xcf9);
	assert_int_equal(f[128], 6);
	/* sleep control and status: bytes in I/O space */
	assert_memory_equal(f + 244, "\x01\x08\x00\x01", 4);
	assert_int_equal(get64(f + 248), WARDEN_LINUX_SLEEP_CONTROL_PORT);
	assert_memory_equal(f + 256, "\x01\x08\x00\x01", 4);
	assert_int_equal(get64(f + 260), WARDEN_LINUX_SLEEP_STATUS_PORT);
	d = at(get64(f + 140));
	assert_int_equal(get32(f + 40), get64(f + 140));
	assert_memory_equal(d, "DSDT", 4);
	assert_int_equal(sum(d, get32(d + 4)), 0);
}

static void test_madt(void **state)
{
	struct lt_platform p;
	const uint8_t *m;

	(void)state;
	platform(&p);
	assert_true(lt_acpi_tables(&p, BASE, buf, sizeof(buf)) > 0);
	m = at(get64(at(get64(buf + 24)) + 44));
	assert_int_equal(get32(m + 4), 36 + 8 + 8 + 16);
	assert_int_equal(sum(m, get32(m + 4)), 0);
	assert_int_equal(get32(m + 36), 0xfee00000);
	assert_int_equal(get32(m + 40), 0); /* no PCAT_COMPAT */
	/* CPU 0: local APIC, UID 0, ID 1, enabled */
	assert_int_equal(m[44], 0);
	assert_int_equal(m[45], 8);
	assert_int_equal(m[46], 0);
	assert_int_equal(m[47], 1);
	assert_int_equal(get32(m + 48), 1);
	/* CPU 1: x2APIC 0x100, UID 1, enabled */
	assert_int_equal(m[52], 9);
	assert_int_equal(m[53], 16);
	assert_int_equal(get32(m + 56), 0x100);
	assert_int_equal(get32(m + 60), 1);
	assert_int_equal(get32(m + 64), 1);
}

/* bytes of needle in the DSDT's AML */
static int dsdt_has(const uint8_t *d, const void *needle, size_t n)
{
	uint32_t len = get32(d + 4), i;

	for (i = 36; i + n <= len; i++)
		if (!memcmp(d + i, needle, n))
			return 1;
	return 0;
}

static void test_dsdt(void **state)
{
	static const uint8_t io3e8[] = { 0x47, 1, 0xe8, 3,    0xe8,
					 3,    1, 8,	0x79, 0 };
	static const uint8_t io2e8[] = { 0x47, 1, 0xe8, 2,    0xe8,
					 2,    1, 8,	0x79, 0 };
	static const uint8_t pnp0501[] = { 0x0c, 0x41, 0xd0, 0x05, 0x01 };
	static const uint8_t s5[] = { '\\', '_', 'S', '5', '_', 0x12 };
	struct lt_platform p;
	const uint8_t *d;

	(void)state;
	platform(&p);
	assert_true(lt_acpi_tables(&p, BASE, buf, sizeof(buf)) > 0);
	d = at(get64(at(get64(at(get64(buf + 24)) + 36)) + 140));
	assert_true(dsdt_has(d, "COM3", 4));
	assert_true(dsdt_has(d, "COM4", 4));
	assert_true(dsdt_has(d, pnp0501, sizeof(pnp0501)));
	assert_true(dsdt_has(d, io3e8, sizeof(io3e8)));
	assert_true(dsdt_has(d, io2e8, sizeof(io2e8)));
	assert_true(dsdt_has(d, s5, sizeof(s5)));
	/* no interrupt descriptor: the UARTs are polled */
	assert_false(dsdt_has(d, "\x22", 1) && dsdt_has(d, "\x89", 1));
}

static void test_too_many(void **state)
{
	struct lt_platform p;

	(void)state;
	platform(&p);
	p.num_cpus = LT_MAX_CPUS + 1;
	assert_int_equal(lt_acpi_tables(&p, BASE, buf, sizeof(buf)), 0);
	platform(&p);
	assert_int_equal(lt_acpi_tables(&p, BASE, buf, 100), 0);
}

/* Debian's iasl disassembles each table of p without an error; the
 * DSDT's and the MADT's disassembly each hold every line of want_dsdt and
 * want_madt (NULL-terminated lists, fixed strings). */
static void iasl_check(const struct lt_platform *p,
		       const char *const *want_dsdt,
		       const char *const *want_madt)
{
	static const char *const sigs[] = { "FACP", "APIC", "DSDT", "XSDT" };
	char dir[] = "/tmp/wd-iasl-XXXXXX", cmd[768], path[300];
	const char *const *want;
	const uint8_t *x, *t;
	unsigned int i;
	uint64_t addr;
	FILE *f;
	int rc;

	if (system("command -v iasl >/dev/null 2>&1")) {
		fail_msg("iasl (acpica-tools) is not installed: "
			 "scripts/deps.sh "
			 "installs it");
		return;
	}
	assert_true(lt_acpi_tables(p, BASE, buf, sizeof(buf)) > 0);
	assert_non_null(mkdtemp(dir));
	x = at(get64(buf + 24));
	for (i = 0; i < 4; i++) {
		if (i < 2)
			addr = get64(x + 36 + 8 * i);
		else if (i == 2)
			addr = get64(at(get64(x + 36)) + 140);
		else
			addr = get64(buf + 24);
		t = at(addr);
		assert_memory_equal(t, sigs[i], 4);
		snprintf(path, sizeof(path), "%s/%s.dat", dir, sigs[i]);
		f = fopen(path, "wb");
		assert_non_null(f);
		assert_int_equal(fwrite(t, 1, get32(t + 4), f), get32(t + 4));
		fclose(f);
		snprintf(cmd, sizeof(cmd),
			 "cd %s && iasl -d %s.dat >%s.log 2>&1 && "
			 "! grep -qiE 'error|warning' %s.dsl",
			 dir, sigs[i], sigs[i], sigs[i]);
		rc = system(cmd);
		if (rc) {
			snprintf(cmd, sizeof(cmd), "cat %s/%s.log", dir,
				 sigs[i]);
			(void)system(cmd);
		}
		assert_int_equal(rc, 0);
		want = i == 1 ? want_madt : i == 2 ? want_dsdt : NULL;
		for (; want && *want; want++) {
			snprintf(cmd, sizeof(cmd), "grep -qF '%s' %s/%s.dsl",
				 *want, dir, sigs[i]);
			rc = system(cmd);
			if (rc) {
				print_error("%s.dsl lacks \"%s\":\n", sigs[i],
					    *want);
				snprintf(cmd, sizeof(cmd), "cat %s/%s.dsl", dir,
					 sigs[i]);
				(void)system(cmd);
			}
			assert_int_equal(rc, 0);
		}
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* Debian's iasl disassembles each table without an error: polled UARTs,
 * no IOAPIC, no host bridge. */
static void test_iasl(void **state)
{
	static const char *const dsdt[] = { "Device (COM4)", NULL };
	struct lt_platform p;

	(void)state;
	platform(&p);
	iasl_check(&p, dsdt, NULL);
	assert_null(memmem(buf, sizeof(buf), "PCI0", 4));
	assert_null(memmem(buf, sizeof(buf), "\x89\x06\x00", 3));
}

/* A cell owning COM4's pin 3 and the pin 20 of the function at 00:04.0:
 * the MADT lists the IOAPIC, COM4's _CRS has its interrupt (edge, high),
 * COM3's none (polled), and a host bridge's _PRT routes device 4's INTA
 * to GSI 20 (level, active low: a GSI source, ACPI 6.2.13). */
static void test_iasl_irqs(void **state)
{
	static const char *const dsdt[] = { "Device (COM4)",
					    "Interrupt (ResourceConsumer, "
					    "Edge, ActiveHigh, Exclusive, ,, )",
					    "0x00000003,",
					    "Device (PCI0)",
					    "Name (_HID, EisaId (\"PNP0A08\")",
					    "Name (_CID, EisaId (\"PNP0A03\")",
					    "WordBusNumber (ResourceProducer, "
					    "MinFixed, MaxFixed, PosDecode,",
					    "DWordMemory (ResourceProducer, "
					    "PosDecode, MinFixed, MaxFixed, "
					    "NonCacheable, ReadWrite,",
					    "0xFEBFFFFF,",
					    "Name (_PRT, Package (0x01)",
					    "0x0004FFFF,",
					    "0x00000014",
					    NULL };
	static const char *const madt[] = { "Subtable Type : 01 [I/O APIC]",
					    "Address : FEC00000", NULL };
	struct lt_platform p;
	const uint8_t *x, *m, *d;
	static const uint8_t com4_irq[] = { 0x89, 0x06, 0x00, 0x03, 0x01,
					    0x03, 0,	0,    0 };

	(void)state;
	platform(&p);
	p.uart_gsi[1] = 3;
	p.num_ioapics = 1;
	p.ioapics[0].id = 0;
	p.ioapics[0].address = 0xfec00000;
	p.num_prt = 1;
	p.prt[0].device = 4;
	p.prt[0].pin = 0;
	p.prt[0].gsi = 20;
	iasl_check(&p, dsdt, madt);
	/* the bytes: one interrupt descriptor, COM4's; the MADT's entry */
	x = at(get64(buf + 24));
	m = at(get64(x + 44));
	d = at(get64(at(get64(x + 36)) + 140));
	assert_non_null(memmem(d, get32(d + 4), com4_irq, sizeof(com4_irq)));
	assert_memory_equal(m + get32(m + 4) - 12,
			    "\x01\x0c\x00\x00\x00\x00\xc0\xfe\x00\x00\x00\x00",
			    12);
}

/* lt_irqs: what a cell's pins and functions give its tables. */
static void test_lt_irqs(void **state)
{
	static const struct warden_irq_pin pins[] = { { 3, 0 }, { 20, 0 } };
	struct warden_pci_device fns[3];
	struct acpi_madt madt = { .n_ioapics = 2 };
	struct lt_platform p;

	(void)state;
	memset(fns, 0, sizeof(fns));
	fns[0].bdf = 0x04 << 3; /* 00:04.0, INTA on 20: routed */
	fns[0].int_pin = WARDEN_PCI_INT_A;
	fns[0].gsi = 20;
	fns[1].bdf = 0x100; /* 01:00.0: not bus 0, left out */
	fns[1].int_pin = WARDEN_PCI_INT_A + 1; /* INTB */
	fns[1].gsi = 20;
	fns[2].bdf = 0x05 << 3; /* 00:05.0 on 21, not the cell's */
	fns[2].int_pin = WARDEN_PCI_INT_A;
	fns[2].gsi = 21;
	madt.ioapic[0] = (struct acpi_ioapic){ 0, 0xfec00000, 0 };
	madt.ioapic[1] = (struct acpi_ioapic){ 1, 0xfec01000, 24 };
	platform(&p); /* COM3 (IRQ 4, not owned) and COM4 (IRQ 3) */
	assert_int_equal(lt_irqs(&p, pins, 2, fns, 3, &madt), 1);
	assert_int_equal(p.uart_gsi[0], LT_POLLED);
	assert_int_equal(p.uart_gsi[1], 3);
	assert_int_equal(p.num_prt, 1);
	assert_int_equal(p.prt[0].device, 4);
	assert_int_equal(p.prt[0].pin, 0);
	assert_int_equal(p.prt[0].gsi, 20);
	/* both pins on the first IOAPIC (GSI base 0), listed once */
	assert_int_equal(p.num_ioapics, 1);
	assert_int_equal(p.ioapics[0].address, 0xfec00000);
	/* no MADT: nothing routed, COM4's and the two functions' left out */
	platform(&p);
	assert_int_equal(lt_irqs(&p, pins, 2, fns, 3, NULL), 3);
	assert_int_equal(p.uart_gsi[1], LT_POLLED);
	assert_int_equal(p.num_prt, 0);
	assert_int_equal(p.num_ioapics, 0);
	/* no pins: nothing, nothing left out */
	platform(&p);
	assert_int_equal(lt_irqs(&p, NULL, 0, fns, 3, &madt), 0);
	assert_int_equal(p.num_ioapics, 0);
}

static void test_memmap(void **state)
{
	struct lt_hole holes[2] = { { 0xe0000, 0x2000, LT_E820_ACPI },
				    { 0xf0000, 0x10000, LT_E820_RESERVED } };
	struct lt_memmap_entry map[8];
	struct lt_platform p;

	(void)state;
	platform(&p);
	assert_int_equal(lt_memmap(&p, holes, 2, map, 8), 5);
	assert_int_equal(map[0].addr, 0);
	assert_int_equal(map[0].size, 0xe0000);
	assert_int_equal(map[0].type, LT_E820_RAM);
	assert_int_equal(map[1].addr, 0xe0000);
	assert_int_equal(map[1].type, LT_E820_ACPI);
	assert_int_equal(map[2].addr, 0xe2000);
	assert_int_equal(map[2].size, 0xe000);
	assert_int_equal(map[2].type, LT_E820_RAM);
	assert_int_equal(map[3].type, LT_E820_RESERVED);
	assert_int_equal(map[4].addr, 0x100000);
	assert_int_equal(map[4].size, (128u << 20) - 0x100000);
	/* too little room, a hole outside the RAM, overlapping holes */
	assert_int_equal(lt_memmap(&p, holes, 2, map, 4), -1);
	p.ram[0].start = 0x200000;
	assert_int_equal(lt_memmap(&p, holes, 2, map, 8), -1);
	platform(&p);
	holes[1].start = 0xe1000;
	assert_int_equal(lt_memmap(&p, holes, 2, map, 8), -1);
}

static uint8_t low[LB_LOW_SIZE];

static void test_low_memory(void **state)
{
	struct lb_boot b = { .reset_address = 0xff000,
			     .pvh_entry = 0x1000123,
			     .initrd_address = 0x7f00000,
			     .initrd_size = 0x1234,
			     .cmdline = "console=ttyS2 tsc_early_khz=2000000" };
	const struct lt_start_info *si;
	const struct lt_module *mod;
	const struct lt_memmap_entry *map;
	struct lt_platform p;
	uint8_t stub[LB_STUB_SIZE];
	unsigned int i;

	(void)state;
	platform(&p);
	memset(low, 0xaa, sizeof(low));
	assert_int_equal(lb_low_memory(&p, &b, low, why, sizeof(why)), 0);
	si = (const void *)(low + LB_START_INFO);
	assert_int_equal(si->magic, LT_START_INFO_MAGIC);
	assert_true(si->version >= 1);
	assert_int_equal(si->rsdp_paddr, LB_TABLES);
	assert_memory_equal(low + LB_TABLES, "RSD PTR ", 8);
	assert_string_equal((const char *)low + si->cmdline_paddr, b.cmdline);
	assert_int_equal(si->nr_modules, 1);
	mod = (const void *)(low + si->modlist_paddr);
	assert_int_equal(mod->paddr, 0x7f00000);
	assert_int_equal(mod->size, 0x1234);
	/* the map: RAM below the tables, the tables as ACPI, ..., RAM from
	 * 1 MiB to the end */
	assert_true(si->memmap_entries >= 4);
	map = (const void *)(low + si->memmap_paddr);
	assert_int_equal(map[0].addr, 0);
	assert_int_equal(map[0].type, LT_E820_RAM);
	assert_int_equal(map[1].type, LT_E820_ACPI);
	assert_int_equal(map[si->memmap_entries - 1].addr, 0x100000);
	/* scrubbed: zeros where nothing was put */
	for (i = 0; i < LB_TABLES; i++)
		if (low[i])
			fail_msg("byte 0x%x of low memory is 0x%x", i, low[i]);
	/* the stub at the reset address */
	lb_stub(stub, 0xff000, 0x1000123, LB_START_INFO);
	assert_memory_equal(low + 0xff000, stub, LB_STUB_SIZE);
}

/* The stub's instructions, byte by byte: real mode to the PVH entry. */
static void test_stub(void **state)
{
	uint8_t s[LB_STUB_SIZE];

	(void)state;
	lb_stub(s, 0xff000, 0x1000123, 0xf0000);
	assert_int_equal(s[0], 0xfa); /* cli */
	/* lgdt [IP + 88]: CS base 0xf0000, IP 0xf000 */
	assert_int_equal(s[5], 0x66);
	assert_int_equal(s[9] | s[10] << 8, 0xf000 + 88);
	/* jmp 0x08:0xff000 + 32 */
	assert_int_equal(s[21], 0x66);
	assert_int_equal(s[22], 0xea);
	assert_int_equal(get32(s + 23), 0xff020);
	assert_int_equal(s[27], 0x08);
	/* mov ebx, start info; mov eax, entry; jmp eax */
	assert_int_equal(s[47], 0xbb);
	assert_int_equal(get32(s + 48), 0xf0000);
	assert_int_equal(s[52], 0xb8);
	assert_int_equal(get32(s + 53), 0x1000123);
	assert_int_equal(s[57], 0xff);
	assert_int_equal(s[58], 0xe0);
	/* GDT: flat code 0x08, flat data 0x10; GDTR limit 23, base */
	assert_int_equal(get64(s + 72), 0x00cf9b000000ffffull);
	assert_int_equal(get64(s + 80), 0x00cf93000000ffffull);
	assert_int_equal(s[88] | s[89] << 8, 23);
	assert_int_equal(get32(s + 90), 0xff040);
}

/* The 32-bit boot protocol's stub: ESI = boot_params, EBX, EBP, EDI 0, a
 * far jump to 0x10 and data 0x18 (boot.rst), the descriptors where
 * lb_stub has them, the GDT from 16 bytes before them. */
static void test_stub32(void **state)
{
	static const uint8_t zero3[] = { 0x31, 0xdb, 0x31, 0xed, 0x31, 0xff };
	uint8_t s[LB_STUB_SIZE];

	(void)state;
	lb_stub32(s, 0xff000, 0x28000000, 0xf0000);
	assert_int_equal(s[0], 0xfa); /* cli */
	assert_int_equal(s[9] | s[10] << 8, 0xf000 + 88);
	/* jmp 0x10:0xff000 + 32 */
	assert_int_equal(s[22], 0xea);
	assert_int_equal(get32(s + 23), 0xff020);
	assert_int_equal(s[27], 0x10);
	/* mov eax, 0x18 and into the data segment registers */
	assert_int_equal(s[32], 0xb8);
	assert_int_equal(get32(s + 33), 0x18);
	assert_int_equal(s[37], 0x8e);
	assert_int_equal(s[38], 0xd8);
	/* mov esi, boot_params; xor ebx, ebp, edi; mov eax, entry; jmp */
	assert_int_equal(s[47], 0xbe);
	assert_int_equal(get32(s + 48), 0xf0000);
	assert_memory_equal(s + 52, zero3, sizeof(zero3));
	assert_int_equal(s[58], 0xb8);
	assert_int_equal(get32(s + 59), 0x28000000);
	assert_int_equal(s[63], 0xff);
	assert_int_equal(s[64], 0xe0);
	/* GDT: flat code 0x10, flat data 0x18; limit 31, base reset + 56 */
	assert_int_equal(get64(s + 72), 0x00cf9b000000ffffull);
	assert_int_equal(get64(s + 80), 0x00cf93000000ffffull);
	assert_int_equal(s[88] | s[89] << 8, 31);
	assert_int_equal(get32(s + 90), 0xff038);
}

/* The first MiB for the 32-bit boot protocol: boot_params with the
 * kernel's setup header and what a loader fills in, the e820 map. */
static void test_low_memory32(void **state)
{
	uint8_t hdr[0x26c - 0x1f1];
	struct lb_boot b = { .reset_address = 0xff000,
			     .initrd_address = 0x2f000000,
			     .initrd_size = 0x1234,
			     .cmdline = "console=ttyS3 nokaslr",
			     .kernel32 = 0x28000000,
			     .setup_header = hdr,
			     .setup_header_len = sizeof(hdr) };
	const uint8_t *bp = low + LB_BOOT_PARAMS;
	struct lt_platform p;
	uint8_t stub[LB_STUB_SIZE];
	unsigned int n;

	(void)state;
	platform(&p);
	memset(hdr, 0x5a, sizeof(hdr));
	hdr[0x211 - 0x1f1] = 0x81; /* LOADED_HIGH, CAN_USE_HEAP */
	memset(low, 0xaa, sizeof(low));
	assert_int_equal(lb_low_memory(&p, &b, low, why, sizeof(why)), 0);
	/* the header copied, the loader's fields over it */
	assert_int_equal(bp[0x1f1], 0x5a);
	assert_int_equal(bp[0x26b], 0x5a);
	assert_int_equal(bp[0x26c], 0);
	assert_int_equal(bp[LB_BP_TYPE_OF_LOADER], 0xff);
	assert_int_equal(bp[LB_BP_LOADFLAGS], 0x01);
	assert_int_equal(get32(bp + LB_BP_CODE32_START), 0x28000000);
	assert_int_equal(get32(bp + LB_BP_RAMDISK_IMAGE), 0x2f000000);
	assert_int_equal(get32(bp + LB_BP_RAMDISK_SIZE), 0x1234);
	assert_int_equal(get32(bp + LB_BP_CMD_LINE_PTR), LB_CMDLINE);
	assert_string_equal((const char *)low + LB_CMDLINE, b.cmdline);
	assert_int_equal(get64(bp + LB_BP_ACPI_RSDP), LB_TABLES);
	assert_memory_equal(low + LB_TABLES, "RSD PTR ", 8);
	assert_int_equal(bp[0x1ef], 0); /* sentinel: the fields are set */
	/* e820: RAM below the tables, the tables as ACPI, ..., 1 MiB on */
	n = bp[LB_BP_E820_ENTRIES];
	assert_true(n >= 4);
	assert_int_equal(get64(bp + LB_BP_E820_TABLE), 0);
	assert_int_equal(get32(bp + LB_BP_E820_TABLE + 16), LT_E820_RAM);
	assert_int_equal(get32(bp + LB_BP_E820_TABLE + 20 + 16), LT_E820_ACPI);
	assert_int_equal(get64(bp + LB_BP_E820_TABLE + 20 * (n - 1)), 0x100000);
	assert_int_equal(get32(bp + LB_BP_E820_TABLE + 20 * (n - 1) + 16),
			 LT_E820_RAM);
	lb_stub32(stub, 0xff000, 0x28000000, LB_BOOT_PARAMS);
	assert_memory_equal(low + 0xff000, stub, LB_STUB_SIZE);
	/* no header, or one too short for cmd_line_ptr: refused */
	b.setup_header = NULL;
	assert_int_equal(lb_low_memory(&p, &b, low, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "setup header"));
	b.setup_header = hdr;
	b.setup_header_len = 0x228 - 0x1f1;
	assert_int_equal(lb_low_memory(&p, &b, low, why, sizeof(why)), -1);
}

/* What the 32-bit boot protocol reads of a bzImage, and its refusals. */
static void test_bzimage_pm(void **state)
{
	static uint8_t f[4096];
	struct bzimage_pm pm;

	(void)state;
	memset(f, 0, sizeof(f));
	f[0x1f1] = 1; /* one setup sector: the code at 1024 */
	memcpy(f + 0x202, "HdrS", 4);
	f[0x201] = 0x6a; /* the header ends at 0x26c */
	f[0x206] = 0x0f;
	f[0x207] = 0x02; /* 2.15 */
	f[0x232] = 0x20; /* kernel_alignment 0x200000 */
	f[0x234] = 1;
	f[0x238] = 0xff;
	f[0x239] = 0x07; /* cmdline_size 2047 */
	f[0x263] = 0x03; /* init_size 0x3000000 */
	assert_int_equal(bzimage_pm_code(f, sizeof(f), &pm, why, sizeof(why)),
			 0);
	assert_int_equal(pm.code_offset, 1024);
	assert_int_equal(pm.code_size, sizeof(f) - 1024);
	assert_int_equal(pm.header_len, 0x26c - 0x1f1);
	assert_int_equal(pm.kernel_alignment, 0x200000);
	assert_int_equal(pm.init_size, 0x3000000);
	assert_int_equal(pm.cmdline_size, 2047);
	f[0x234] = 0;
	assert_int_equal(bzimage_pm_code(f, sizeof(f), &pm, why, sizeof(why)),
			 -1);
	assert_non_null(strstr(why, "not relocatable"));
	f[0x234] = 1;
	f[0x206] = 0x09;
	assert_int_equal(bzimage_pm_code(f, sizeof(f), &pm, why, sizeof(why)),
			 -1);
	assert_non_null(strstr(why, "2.09 is older than 2.10"));
	f[0x206] = 0x0f;
	f[0x1f1] = 8; /* code past the end of the file */
	assert_int_equal(bzimage_pm_code(f, sizeof(f), &pm, why, sizeof(why)),
			 -1);
}

static void test_low_refused(void **state)
{
	struct lb_boot b = { .reset_address = 0, .cmdline = "" };
	struct lt_platform p;
	static char big[LB_CMDLINE_SIZE + 1];

	(void)state;
	platform(&p);
	assert_int_equal(lb_low_memory(&p, &b, low, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "reset address 0x0 is not in 0xf2000"));
	b.reset_address = 0xff000;
	memset(big, 'x', sizeof(big) - 1);
	b.cmdline = big;
	assert_int_equal(lb_low_memory(&p, &b, low, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "4096 characters, at most 4095"));
	b.cmdline = "";
	p.ram[0].start = 0x100000;
	assert_int_equal(lb_low_memory(&p, &b, low, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "covering 0-0x100000"));
}

/* A minimal ELF with a PVH note, wrapped in a bzImage with XZ. */
static size_t make_elf(uint8_t *f)
{
	Elf64_Ehdr *e = (Elf64_Ehdr *)f;
	Elf64_Phdr *ph = (Elf64_Phdr *)(f + sizeof(*e));
	Elf64_Nhdr *nh = (Elf64_Nhdr *)(f + 0x100);

	memset(f, 0, 0x200);
	memcpy(e->e_ident, ELFMAG, SELFMAG);
	e->e_ident[EI_CLASS] = ELFCLASS64;
	e->e_ident[EI_DATA] = ELFDATA2LSB;
	e->e_ident[EI_VERSION] = EV_CURRENT;
	e->e_type = ET_EXEC;
	e->e_machine = EM_X86_64;
	e->e_version = EV_CURRENT;
	e->e_phoff = sizeof(*e);
	e->e_phentsize = sizeof(*ph);
	e->e_phnum = 2;
	ph[0].p_type = PT_LOAD;
	ph[0].p_offset = 0x180;
	ph[0].p_paddr = 0x1000000;
	ph[0].p_filesz = 0x10;
	ph[0].p_memsz = 0x1000;
	ph[1].p_type = PT_NOTE;
	ph[1].p_offset = 0x100;
	/* a note of another name first, then Xen's */
	nh->n_namesz = 4;
	nh->n_descsz = 4;
	nh->n_type = 18;
	memcpy(f + 0x10c, "GNU", 4);
	nh = (Elf64_Nhdr *)(f + 0x114);
	nh->n_namesz = 4;
	nh->n_descsz = 8;
	nh->n_type = 18;
	memcpy(f + 0x120, "Xen", 4);
	memcpy(f + 0x124, "\x23\x01\x00\x01\0\0\0\0", 8);
	ph[1].p_filesz = 0x2c;
	return 0x200;
}

static void test_elf_note(void **state)
{
	uint8_t f[0x200];
	uint64_t v = 0;
	size_t n = make_elf(f);

	(void)state;
	assert_int_equal(elf_note(f, n, "Xen", 18, &v), 0);
	assert_int_equal(v, 0x1000123);
	assert_int_equal(elf_note(f, n, "Xen", 17, &v), -1);
	assert_int_equal(elf_note(f, n, "Linux", 18, &v), -1);
	/* a note that claims more bytes than the segment has */
	((Elf64_Nhdr *)(f + 0x114))->n_descsz = 0x100;
	assert_int_equal(elf_note(f, n, "Xen", 18, &v), -1);
}

static size_t make_bzimage(uint8_t *bz, size_t cap, const uint8_t *elf,
			   size_t n, int xz)
{
	size_t out = 0, pm = 5 * 512;

	memset(bz, 0, pm);
	bz[0x1f1] = 4;
	memcpy(bz + 0x202, "HdrS", 4);
	bz[0x206] = 0x0f; /* protocol 2.15 */
	bz[0x207] = 0x02;
	if (xz)
		assert_int_equal(lzma_easy_buffer_encode(
					 6, LZMA_CHECK_CRC32, NULL, elf, n,
					 bz + pm + 0x40, &out, cap - pm - 0x40),
				 LZMA_OK);
	else {
		memcpy(bz + pm + 0x40, "\x1f\x8b\x08\0", 4);
		out = 4;
	}
	bz[0x248] = 0x40;
	bz[0x24c] = (uint8_t)out;
	bz[0x24d] = (uint8_t)(out >> 8);
	return pm + 0x40 + out + 4; /* padding after the stream */
}

static void test_bzimage(void **state)
{
	static uint8_t bz[0x2000];
	uint8_t elf[0x200];
	size_t n = make_elf(elf), size, got;
	void *out;

	(void)state;
	size = make_bzimage(bz, sizeof(bz), elf, n, 1);
	assert_true(bzimage_is_bzimage(bz, size));
	assert_int_equal(
		bzimage_extract(bz, size, &out, &got, why, sizeof(why)), 0);
	assert_int_equal(got, n);
	assert_memory_equal(out, elf, n);
	free(out);
	/* cut short: the payload past the end */
	assert_int_equal(bzimage_extract(bz, size - 8, &out, &got, why,
					 sizeof(why)),
			 -1);
	assert_non_null(strstr(why, "goes past the end of the file"));
	/* gzip: named */
	size = make_bzimage(bz, sizeof(bz), elf, n, 0);
	assert_int_equal(
		bzimage_extract(bz, size, &out, &got, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "compressed with gzip"));
	/* an ELF is not a bzImage */
	assert_false(bzimage_is_bzimage(elf, n));
}

/* Debian's kernel as shipped, when the test machine's is there. */
static void test_debian_kernel(void **state)
{
	const char *path = WARDEN_ROOT "/build/kernel/vmlinuz";
	struct elf_image img;
	size_t size, elf_size;
	void *data, *elf;
	uint64_t entry;
	FILE *f;

	(void)state;
	f = fopen(path, "rb");
	if (!f) {
		skip();
		return;
	}
	fseek(f, 0, SEEK_END);
	size = (size_t)ftell(f);
	fseek(f, 0, SEEK_SET);
	data = malloc(size);
	assert_non_null(data);
	assert_int_equal(fread(data, 1, size, f), size);
	fclose(f);
	assert_int_equal(bzimage_extract(data, size, &elf, &elf_size, why,
					 sizeof(why)),
			 0);
	assert_int_equal(elf_parse(elf, elf_size, &img, why, sizeof(why)), 0);
	assert_int_equal(img.segments[0].address, 0x1000000);
	assert_int_equal(elf_note(elf, elf_size, "Xen", 18, &entry), 0);
	assert_true(entry > 0x1000000 && entry < 0x4000000);
	/* the 32-bit boot protocol's view of the same file: relocatable,
	 * 2 MiB alignment, init_size above the code's size */
	{
		struct bzimage_pm pm;

		assert_int_equal(
			bzimage_pm_code(data, size, &pm, why, sizeof(why)), 0);
		assert_int_equal(pm.kernel_alignment, 0x200000);
		assert_true(pm.init_size > pm.code_size);
		assert_true(pm.header_len > 0x228 + 4 - 0x1f1);
	}
	free(elf);
	free(data);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rsdp_xsdt),
		cmocka_unit_test(test_fadt),
		cmocka_unit_test(test_madt),
		cmocka_unit_test(test_dsdt),
		cmocka_unit_test(test_too_many),
		cmocka_unit_test(test_iasl),
		cmocka_unit_test(test_iasl_irqs),
		cmocka_unit_test(test_lt_irqs),
		cmocka_unit_test(test_memmap),
		cmocka_unit_test(test_low_memory),
		cmocka_unit_test(test_stub),
		cmocka_unit_test(test_stub32),
		cmocka_unit_test(test_low_memory32),
		cmocka_unit_test(test_bzimage_pm),
		cmocka_unit_test(test_low_refused),
		cmocka_unit_test(test_elf_note),
		cmocka_unit_test(test_bzimage),
		cmocka_unit_test(test_debian_kernel),
	};

	return cmocka_run_group_tests_name("linux_tables", tests, NULL, NULL);
}
