// SPDX-License-Identifier: GPL-2.0
/*
 * The platform tables of a Linux cell (linux_tables.h).  Layouts from the
 * ACPI specification 6.4: RSDP 5.2.5.3, table header 5.2.6, XSDT 5.2.8,
 * FADT 5.2.9 (Table 5.9; the hardware-reduced model 4.1), MADT 5.2.12
 * (processor local APIC 5.2.12.2, x2APIC 5.2.12.12), DSDT 5.2.11.1 with
 * AML 20.2; resource descriptors 6.4.2.5 (I/O port) and 6.4.2.9 (end
 * tag); EISA IDs 6.1.5.  What Linux needs of them is in
 * docs/linux-cell.md.
 */
#include <string.h>

#include <warden/config.h>

#include "linux_tables.h"

uint8_t lt_checksum(const uint8_t *bytes, size_t len)
{
	uint8_t sum = 0;
	size_t i;

	for (i = 0; i < len; i++)
		sum += bytes[i];
	return (uint8_t)(0 - sum);
}

void lt_put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

void lt_put32(uint8_t *p, uint32_t v)
{
	lt_put16(p, (uint16_t)v);
	lt_put16(p + 2, (uint16_t)(v >> 16));
}

void lt_put64(uint8_t *p, uint64_t v)
{
	lt_put32(p, (uint32_t)v);
	lt_put32(p + 4, (uint32_t)(v >> 32));
}

/* A table header (5.2.6) with the checksum left to finish(). */
static void header(uint8_t *t, const char *sig, uint32_t len, uint8_t rev)
{
	memcpy(t, sig, 4);
	lt_put32(t + 4, len);
	t[8] = rev;
	memcpy(t + 10, "WARDEN", 6);
	memcpy(t + 16, "WARDENLX", 8);
	lt_put32(t + 24, 1);
	memcpy(t + 28, "WRDN", 4);
	lt_put32(t + 32, 1);
}

static void finish(uint8_t *t, uint32_t len)
{
	t[9] = 0;
	t[9] = lt_checksum(t, len);
}

/* A generic address (5.2.3.2) of one byte in I/O space. */
static void gas_io8(uint8_t *g, uint16_t port)
{
	g[0] = 1; /* system I/O */
	g[1] = 8; /* bit width */
	g[2] = 0; /* bit offset */
	g[3] = 1; /* byte access */
	lt_put64(g + 4, port);
}

/* The FADT (Table 5.9), revision 6: hardware-reduced, no legacy devices
 * but what the cell owns (no 8042, no VGA, no CMOS RTC), the DSDT's
 * 64-bit address; every fixed register block 0.  The sleep control and
 * status registers (4.8.3.7) and the reset register (4.8.3.6) are ports
 * the hypervisor emulates for a Linux cell (WARDEN_LINUX_*_PORT): soft-off
 * and reset shut the cell down. */
static void fadt(uint8_t *t, uint64_t dsdt)
{
	memset(t, 0, LT_FADT_SIZE);
	header(t, "FACP", LT_FADT_SIZE, LT_FADT_REVISION);
	lt_put32(t + 40, (uint32_t)dsdt); /* DSDT, below 4 GiB here */
	/* IAPC_BOOT_ARCH: LEGACY_DEVICES and 8042 clear */
	lt_put16(t + 109, LT_IAPC_NO_VGA | LT_IAPC_NO_CMOS_RTC);
	/* Flags: WBINVD works, power and sleep buttons are not fixed
	 * features, HW_REDUCED_ACPI */
	lt_put32(t + 112, (1u << 0) | (1u << 4) | (1u << 5) |
				  LT_FADT_RESET_REG_SUP | LT_FADT_HW_REDUCED);
	gas_io8(t + 116, WARDEN_LINUX_RESET_PORT);
	t[128] = WARDEN_LINUX_RESET_VALUE;
	t[131] = 4;		 /* FADT minor version: ACPI 6.4 */
	lt_put64(t + 140, dsdt); /* X_DSDT */
	gas_io8(t + 244, WARDEN_LINUX_SLEEP_CONTROL_PORT);
	gas_io8(t + 256, WARDEN_LINUX_SLEEP_STATUS_PORT);
	memcpy(t + 268, "WARDEN\0\0", 8); /* hypervisor vendor identity */
	finish(t, LT_FADT_SIZE);
}

/* The MADT: the local APIC address, flags 0 (no PC-AT PICs: Linux then
 * probes no 8259), an enabled local APIC entry per CPU (x2APIC entries
 * for IDs the 8-bit one cannot hold), an I/O APIC entry (5.2.12.3) per
 * IOAPIC the cell has pins on. */
static size_t madt(const struct lt_platform *p, uint8_t *t)
{
	size_t n = LT_HEADER_SIZE + 8;
	unsigned int i;

	memset(t, 0, n);
	lt_put32(t + 36, 0xfee00000);
	for (i = 0; i < p->num_cpus; i++) {
		if (p->apic_ids[i] < 0xff) {
			t[n] = 0; /* processor local APIC */
			t[n + 1] = 8;
			t[n + 2] = (uint8_t)i; /* ACPI processor UID */
			t[n + 3] = (uint8_t)p->apic_ids[i];
			lt_put32(t + n + 4, 1); /* enabled */
			n += 8;
		} else {
			t[n] = 9; /* processor local x2APIC */
			t[n + 1] = 16;
			lt_put16(t + n + 2, 0);
			lt_put32(t + n + 4, p->apic_ids[i]);
			lt_put32(t + n + 8, 1);
			lt_put32(t + n + 12, i);
			n += 16;
		}
	}
	for (i = 0; i < p->num_ioapics; i++) {
		t[n] = 1; /* I/O APIC */
		t[n + 1] = 12;
		t[n + 2] = p->ioapics[i].id;
		t[n + 3] = 0;
		lt_put32(t + n + 4, p->ioapics[i].address);
		lt_put32(t + n + 8, p->ioapics[i].gsi_base);
		n += 12;
	}
	header(t, "APIC", (uint32_t)n, 5);
	finish(t, (uint32_t)n);
	return n;
}

size_t lt_acpi_tables(const struct lt_platform *p, uint64_t base, uint8_t *buf,
		      size_t len)
{
	/* RSDP, XSDT (2 entries), FADT, MADT, DSDT: 16-byte aligned */
	size_t xsdt = 48, fadt_at = xsdt + 64, madt_at, dsdt_at, n;
	size_t madt_max =
		LT_HEADER_SIZE + 8 + 16 * LT_MAX_CPUS + 12 * LT_MAX_IOAPICS;
	size_t dsdt_max = LT_HEADER_SIZE + LT_DSDT_AML_MAX;
	uint8_t *r = buf;

	if (p->num_cpus > LT_MAX_CPUS || p->num_uarts > LT_MAX_UARTS ||
	    p->num_ioapics > LT_MAX_IOAPICS || p->num_prt > LT_MAX_PRT ||
	    len < fadt_at + LT_FADT_SIZE + 12 + madt_max + dsdt_max)
		return 0;
	memset(buf, 0, fadt_at + LT_FADT_SIZE + 12 + madt_max + dsdt_max);
	madt_at = (fadt_at + LT_FADT_SIZE + 15) & ~(size_t)15;
	n = madt(p, buf + madt_at);
	dsdt_at = (madt_at + n + 15) & ~(size_t)15;
	n = LT_HEADER_SIZE + lt_dsdt_aml(p, buf + dsdt_at + LT_HEADER_SIZE);
	header(buf + dsdt_at, "DSDT", (uint32_t)n, 2);
	finish(buf + dsdt_at, (uint32_t)n);
	fadt(buf + fadt_at, base + dsdt_at);

	header(buf + xsdt, "XSDT", LT_HEADER_SIZE + 16, 1);
	lt_put64(buf + xsdt + 36, base + fadt_at);
	lt_put64(buf + xsdt + 44, base + madt_at);
	finish(buf + xsdt, LT_HEADER_SIZE + 16);

	memcpy(r, "RSD PTR ", 8);
	memcpy(r + 9, "WARDEN", 6);
	r[15] = 2; /* revision: ACPI 2.0 and later */
	lt_put32(r + 20, LT_RSDP_SIZE);
	lt_put64(r + 24, base + xsdt);
	r[8] = lt_checksum(r, 20);
	r[32] = lt_checksum(r, LT_RSDP_SIZE);
	return dsdt_at + n;
}

static int add(struct lt_memmap_entry *map, unsigned int *n, unsigned int max,
	       uint64_t addr, uint64_t size, uint32_t type)
{
	if (!size)
		return 0;
	if (*n == max)
		return -1;
	map[*n].addr = addr;
	map[*n].size = size;
	map[*n].type = type;
	map[*n].reserved = 0;
	(*n)++;
	return 0;
}

int lt_memmap(const struct lt_platform *p, const struct lt_hole *holes,
	      unsigned int num_holes, struct lt_memmap_entry *map,
	      unsigned int max)
{
	struct lt_memmap_entry t;
	unsigned int n = 0, i, j, inside;
	uint64_t at, end;

	/* every hole inside one RAM range, no two overlapping */
	for (i = 0; i < num_holes; i++) {
		inside = 0;
		for (j = 0; j < p->num_ram; j++)
			if (holes[i].start >= p->ram[j].start &&
			    holes[i].size <= p->ram[j].size &&
			    holes[i].start - p->ram[j].start <=
				    p->ram[j].size - holes[i].size)
				inside = 1;
		for (j = 0; j < i; j++)
			if (holes[i].start < holes[j].start + holes[j].size &&
			    holes[j].start < holes[i].start + holes[i].size)
				return -1;
		if (!inside || !holes[i].size)
			return -1;
	}
	for (j = 0; j < p->num_ram; j++) {
		at = p->ram[j].start;
		end = at + p->ram[j].size;
		/* the holes of this range in address order: the lowest
		 * start at or above 'at' each time */
		for (;;) {
			const struct lt_hole *next = NULL;

			for (i = 0; i < num_holes; i++)
				if (holes[i].start >= at &&
				    holes[i].start < end &&
				    (!next || holes[i].start < next->start))
					next = &holes[i];
			if (!next)
				break;
			if (add(map, &n, max, at, next->start - at,
				LT_E820_RAM) ||
			    add(map, &n, max, next->start, next->size,
				next->type))
				return -1;
			at = next->start + next->size;
		}
		if (add(map, &n, max, at, end - at, LT_E820_RAM))
			return -1;
	}
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && map[j].addr < map[j - 1].addr; j--) {
			t = map[j];
			map[j] = map[j - 1];
			map[j - 1] = t;
		}
	return (int)n;
}
