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

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)v);
	put16(p + 2, (uint16_t)(v >> 16));
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

/* A table header (5.2.6) with the checksum left to finish(). */
static void header(uint8_t *t, const char *sig, uint32_t len, uint8_t rev)
{
	memcpy(t, sig, 4);
	put32(t + 4, len);
	t[8] = rev;
	memcpy(t + 10, "WARDEN", 6);
	memcpy(t + 16, "WARDENLX", 8);
	put32(t + 24, 1);
	memcpy(t + 28, "WRDN", 4);
	put32(t + 32, 1);
}

static void finish(uint8_t *t, uint32_t len)
{
	t[9] = 0;
	t[9] = lt_checksum(t, len);
}

/* AML PkgLength (20.2.4) of a package whose contents take n bytes: the
 * encoding's bytes into p, their count returned. */
static unsigned int pkg_length(uint8_t *p, size_t n)
{
	size_t total;

	if (n + 1 < 0x40) {
		p[0] = (uint8_t)(n + 1);
		return 1;
	}
	total = n + 2;
	if (total < 0x1000) {
		p[0] = (uint8_t)(0x40 | (total & 0xf));
		p[1] = (uint8_t)(total >> 4);
		return 2;
	}
	total = n + 3;
	p[0] = (uint8_t)(0x80 | (total & 0xf));
	p[1] = (uint8_t)(total >> 4);
	p[2] = (uint8_t)(total >> 12);
	return 3;
}

/* The legacy names of the four COM ports, else "URTn". */
static void uart_name(uint16_t port, unsigned int index, char name[4])
{
	static const struct {
		uint16_t port;
		const char *name;
	} known[] = { { 0x3f8, "COM1" },
		      { 0x2f8, "COM2" },
		      { 0x3e8, "COM3" },
		      { 0x2e8, "COM4" } };
	unsigned int i;

	for (i = 0; i < 4; i++)
		if (known[i].port == port) {
			memcpy(name, known[i].name, 4);
			return;
		}
	memcpy(name, "URT0", 4);
	name[3] = (char)('0' + index);
}

/*
 * One UART device into p (the bytes it takes returned):
 *   Device (COMn) { Name (_HID, EisaId ("PNP0501")) Name (_UID, n)
 *     Name (_CRS, ResourceTemplate () { IO (Decode16, port, port, 1, 8) }) }
 * No interrupt: Linux's 8250 driver then polls the port
 * (drivers/tty/serial/8250/8250_pnp.c), as a cell owns no IOAPIC pin for
 * it.
 */
static size_t aml_uart(uint8_t *p, uint16_t port, unsigned int index)
{
	uint8_t body[64];
	size_t n = 0, len;
	char name[4];

	uart_name(port, index, name);
	memcpy(body + n, name, 4);
	n += 4;
	body[n++] = 0x08; /* NameOp */
	memcpy(body + n, "_HID", 4);
	n += 4;
	body[n++] = 0x0c; /* DWordPrefix: EISA ID PNP0501 */
	put32(body + n, 0x0105d041);
	n += 4;
	body[n++] = 0x08;
	memcpy(body + n, "_UID", 4);
	n += 4;
	body[n++] = 0x0a; /* BytePrefix */
	body[n++] = (uint8_t)index;
	body[n++] = 0x08;
	memcpy(body + n, "_CRS", 4);
	n += 4;
	body[n++] = 0x11; /* BufferOp */
	body[n++] = 13;	  /* PkgLength: itself, BytePrefix size, 10 bytes */
	body[n++] = 0x0a;
	body[n++] = 10;	  /* buffer size */
	body[n++] = 0x47; /* I/O port descriptor, 7 bytes */
	body[n++] = 0x01; /* 16-bit decode */
	put16(body + n, port);
	put16(body + n + 2, port);
	n += 4;
	body[n++] = 1;	  /* alignment */
	body[n++] = 8;	  /* ports */
	body[n++] = 0x79; /* end tag */
	body[n++] = 0x00; /* checksum 0: "treat as correct" */
	p[0] = 0x5b;	  /* ExtOpPrefix */
	p[1] = 0x82;	  /* DeviceOp */
	len = pkg_length(p + 2, n);
	memcpy(p + 2 + len, body, n);
	return 2 + len + n;
}

/* The DSDT's AML: Scope (\_SB) { the UARTs } and
 * Name (\_S5, Package () { 5, 5, 0, 0 }), the soft-off sleep type Linux
 * looks up to power off. */
static size_t dsdt_aml(const struct lt_platform *p, uint8_t *out)
{
	uint8_t devices[LT_MAX_UARTS * 64];
	size_t n = 0, d = 0, len;
	unsigned int i;

	for (i = 0; i < p->num_uarts; i++)
		d += aml_uart(devices + d, p->uart_ports[i], i);
	if (d) {
		out[n++] = 0x10; /* ScopeOp */
		len = pkg_length(out + n, 5 + d);
		n += len;
		memcpy(out + n, "\\_SB_", 5);
		n += 5;
		memcpy(out + n, devices, d);
		n += d;
	}
	out[n++] = 0x08; /* NameOp */
	memcpy(out + n, "\\_S5_", 5);
	n += 5;
	out[n++] = 0x12; /* PackageOp */
	out[n++] = 8;	 /* PkgLength: itself, count, 6 bytes of elements */
	out[n++] = 4;	 /* NumElements */
	out[n++] = 0x0a;
	out[n++] = 5;
	out[n++] = 0x0a;
	out[n++] = 5;
	out[n++] = 0x00; /* ZeroOp */
	out[n++] = 0x00;
	return n;
}

/* A generic address (5.2.3.2) of one byte in I/O space. */
static void gas_io8(uint8_t *g, uint16_t port)
{
	g[0] = 1; /* system I/O */
	g[1] = 8; /* bit width */
	g[2] = 0; /* bit offset */
	g[3] = 1; /* byte access */
	put64(g + 4, port);
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
	put32(t + 40, (uint32_t)dsdt); /* DSDT, below 4 GiB here */
	/* IAPC_BOOT_ARCH: LEGACY_DEVICES and 8042 clear */
	put16(t + 109, LT_IAPC_NO_VGA | LT_IAPC_NO_CMOS_RTC);
	/* Flags: WBINVD works, power and sleep buttons are not fixed
	 * features, HW_REDUCED_ACPI */
	put32(t + 112, (1u << 0) | (1u << 4) | (1u << 5) |
			       LT_FADT_RESET_REG_SUP | LT_FADT_HW_REDUCED);
	gas_io8(t + 116, WARDEN_LINUX_RESET_PORT);
	t[128] = WARDEN_LINUX_RESET_VALUE;
	t[131] = 4;	      /* FADT minor version: ACPI 6.4 */
	put64(t + 140, dsdt); /* X_DSDT */
	gas_io8(t + 244, WARDEN_LINUX_SLEEP_CONTROL_PORT);
	gas_io8(t + 256, WARDEN_LINUX_SLEEP_STATUS_PORT);
	memcpy(t + 268, "WARDEN\0\0", 8); /* hypervisor vendor identity */
	finish(t, LT_FADT_SIZE);
}

/* The MADT: the local APIC address, flags 0 (no PC-AT PICs: Linux then
 * probes no 8259), an enabled local APIC entry per CPU (x2APIC entries
 * for IDs the 8-bit one cannot hold); no IOAPIC. */
static size_t madt(const struct lt_platform *p, uint8_t *t)
{
	size_t n = LT_HEADER_SIZE + 8;
	unsigned int i;

	memset(t, 0, n);
	put32(t + 36, 0xfee00000);
	for (i = 0; i < p->num_cpus; i++) {
		if (p->apic_ids[i] < 0xff) {
			t[n] = 0; /* processor local APIC */
			t[n + 1] = 8;
			t[n + 2] = (uint8_t)i; /* ACPI processor UID */
			t[n + 3] = (uint8_t)p->apic_ids[i];
			put32(t + n + 4, 1); /* enabled */
			n += 8;
		} else {
			t[n] = 9; /* processor local x2APIC */
			t[n + 1] = 16;
			put16(t + n + 2, 0);
			put32(t + n + 4, p->apic_ids[i]);
			put32(t + n + 8, 1);
			put32(t + n + 12, i);
			n += 16;
		}
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
	size_t madt_max = LT_HEADER_SIZE + 8 + 16 * LT_MAX_CPUS;
	size_t dsdt_max = LT_HEADER_SIZE + 16 + LT_MAX_UARTS * 64 + 16;
	uint8_t *r = buf;

	if (p->num_cpus > LT_MAX_CPUS || p->num_uarts > LT_MAX_UARTS ||
	    len < fadt_at + LT_FADT_SIZE + 12 + madt_max + dsdt_max)
		return 0;
	memset(buf, 0, fadt_at + LT_FADT_SIZE + 12 + madt_max + dsdt_max);
	madt_at = (fadt_at + LT_FADT_SIZE + 15) & ~(size_t)15;
	n = madt(p, buf + madt_at);
	dsdt_at = (madt_at + n + 15) & ~(size_t)15;
	n = LT_HEADER_SIZE + dsdt_aml(p, buf + dsdt_at + LT_HEADER_SIZE);
	header(buf + dsdt_at, "DSDT", (uint32_t)n, 2);
	finish(buf + dsdt_at, (uint32_t)n);
	fadt(buf + fadt_at, base + dsdt_at);

	header(buf + xsdt, "XSDT", LT_HEADER_SIZE + 16, 1);
	put64(buf + xsdt + 36, base + fadt_at);
	put64(buf + xsdt + 44, base + madt_at);
	finish(buf + xsdt, LT_HEADER_SIZE + 16);

	memcpy(r, "RSD PTR ", 8);
	memcpy(r + 9, "WARDEN", 6);
	r[15] = 2; /* revision: ACPI 2.0 and later */
	put32(r + 20, LT_RSDP_SIZE);
	put64(r + 24, base + xsdt);
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
