// SPDX-License-Identifier: GPL-2.0
/*
 * The DSDT's AML of a Linux cell (tools/linux_tables.h): a PNP0501 per
 * UART the cell owns, with its interrupt where the cell owns the pin, a
 * PCI host bridge with a _PRT where the cell owns the pin a function's
 * INTx drives, and \_S5.  A hardware-reduced machine has no legacy IRQs
 * (Linux sets legacy_pic to null), so what is not written here has no
 * interrupt in the cell.  Encodings: ACPI 6.4, 20.2 (AML) and 6.4
 * (resource descriptors).
 */
#include <string.h>

#include "linux_tables.h"

/* AML opcodes (20.2.5) and prefixes (20.2.3) used here. */
#define AML_ZERO 0x00
#define AML_NAME 0x08
#define AML_BYTE 0x0a
#define AML_DWORD 0x0c
#define AML_SCOPE 0x10
#define AML_BUFFER 0x11
#define AML_PACKAGE 0x12
#define AML_EXT 0x5b
#define AML_DEVICE 0x82 /* after AML_EXT */

/* EISA IDs as AML integers (PNP0501: "PNP" compressed, then 0x0501). */
#define EISA_PNP0501 0x0105d041u /* 16550-compatible UART */
#define EISA_PNP0A08 0x080ad041u /* PCI Express root bridge */
#define EISA_PNP0A03 0x030ad041u /* PCI root bridge */

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

/* op, PkgLength, then the n bytes of body into p: the bytes taken. */
static size_t wrap(uint8_t *p, const uint8_t *op, size_t op_len,
		   const uint8_t *body, size_t n)
{
	size_t len;

	memcpy(p, op, op_len);
	len = pkg_length(p + op_len, n);
	memmove(p + op_len + len, body, n);
	return op_len + len + n;
}

/* Name (name, DWord v) into p: 10 bytes. */
static size_t name_dword(uint8_t *p, const char *name, uint32_t v)
{
	p[0] = AML_NAME;
	memcpy(p + 1, name, 4);
	p[5] = AML_DWORD;
	lt_put32(p + 6, v);
	return 10;
}

/* Name (name, Zero) into p: 6 bytes. */
static size_t name_zero(uint8_t *p, const char *name)
{
	p[0] = AML_NAME;
	memcpy(p + 1, name, 4);
	p[5] = AML_ZERO;
	return 6;
}

/* Name (name, Buffer () { the n bytes of res, then the end tag }) into
 * p: a resource template (6.4.2.9: end tag, checksum 0 "treat as
 * correct"). */
static size_t name_template(uint8_t *p, const char *name, const uint8_t *res,
			    size_t n)
{
	uint8_t body[256];
	size_t b = 0;
	uint8_t op = AML_BUFFER;

	p[0] = AML_NAME;
	memcpy(p + 1, name, 4);
	body[b++] = AML_BYTE; /* the buffer size, < 256 here */
	body[b++] = (uint8_t)(n + 2);
	memcpy(body + b, res, n);
	b += n;
	body[b++] = 0x79;
	body[b++] = 0x00;
	return 5 + wrap(p + 5, &op, 1, body, b);
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

/* An Extended Interrupt Descriptor (6.4.3.6) of one GSI into p, 9 bytes:
 * consumer, exclusive, edge and active high (an ISA UART's line) or level
 * and active low (a PCI INTx line). */
static size_t irq_descriptor(uint8_t *p, uint32_t gsi, int level)
{
	p[0] = 0x89;
	lt_put16(p + 1, 6);
	p[3] = level ? 0x05 : 0x03; /* bit 0 consumer, 1 edge, 2 low */
	p[4] = 1;		    /* one interrupt */
	lt_put32(p + 5, gsi);
	return 9;
}

/*
 * One UART device into p (the bytes it takes returned):
 *   Device (COMn) { Name (_HID, EisaId ("PNP0501")) Name (_UID, n)
 *     Name (_CRS, ResourceTemplate () { IO (Decode16, port, port, 1, 8)
 *       [Interrupt (ResourceConsumer, Edge, ActiveHigh, Exclusive) {gsi}]
 *     }) }
 * With no interrupt Linux's 8250 driver polls the port
 * (drivers/tty/serial/8250/8250_pnp.c), as where the cell does not own
 * the UART's IOAPIC pin.
 */
static size_t aml_uart(uint8_t *p, uint16_t port, uint32_t gsi,
		       unsigned int index)
{
	static const uint8_t op[] = { AML_EXT, AML_DEVICE };
	uint8_t body[96], res[32];
	size_t n = 0, r = 0;

	uart_name(port, index, (char *)body);
	n += 4;
	n += name_dword(body + n, "_HID", EISA_PNP0501);
	body[n++] = AML_NAME;
	memcpy(body + n, "_UID", 4);
	n += 4;
	body[n++] = AML_BYTE;
	body[n++] = (uint8_t)index;
	res[r++] = 0x47; /* I/O port descriptor (6.4.2.5) */
	res[r++] = 0x01; /* 16-bit decode */
	lt_put16(res + r, port);
	lt_put16(res + r + 2, port);
	r += 4;
	res[r++] = 1; /* alignment */
	res[r++] = 8; /* ports */
	if (gsi != LT_POLLED)
		r += irq_descriptor(res + r, gsi, 0);
	n += name_template(body + n, "_CRS", res, r);
	return wrap(p, op, sizeof(op), body, n);
}

/* An address space descriptor (6.4.3.5: Word 0x88, DWord 0x87, QWord
 * 0x8a) the bridge produces, min and max fixed, into p: the bytes taken.
 * type 0 memory (read-write, non-cacheable), 1 I/O (entire range), 2 bus
 * numbers. */
static size_t window(uint8_t *p, uint8_t tag, uint8_t type, uint64_t min,
		     uint64_t max)
{
	unsigned int w = tag == 0x88 ? 2 : tag == 0x87 ? 4 : 8, i;
	uint64_t v[5] = { 0, min, max, 0, max - min + 1 };
	size_t n = 6;

	p[0] = tag;
	lt_put16(p + 1, (uint16_t)(3 + 5 * w));
	p[3] = type;
	p[4] = 0x0c; /* producer, positive decode, min and max fixed */
	p[5] = type == 0 ? 0x01 : type == 1 ? 0x03 : 0x00;
	for (i = 0; i < 5; i++, n += w)
		if (w == 2)
			lt_put16(p + n, (uint16_t)v[i]);
		else if (w == 4)
			lt_put32(p + n, (uint32_t)v[i]);
		else
			lt_put64(p + n, v[i]);
	return n;
}

/*
 * The PCI host bridge of bus 0, for its _PRT (6.2.13), into p:
 *   Device (PCI0) { _HID PNP0A08, _CID PNP0A03, _UID 0, _SEG 0, _BBN 0,
 *     _CRS: bus 0, I/O 0xd00-0xffff, memory from the top of the cell's
 *       RAM to 0xfebfffff (the BARs stay where they are: Linux claims
 *       them inside the windows) and from 4 GiB (or the RAM's top) to
 *       1 TiB,
 *     _PRT: Package () { Package () { 0xDDDDFFFF, pin, Zero, gsi } ... }
 *   }
 * Source Zero: the fourth field is a GSI, level-triggered and active low
 * (6.2.13, table 6.78).  Only bus 0 is described: functions behind other
 * buses stay Linux's peer buses ("pci=lastbus"), without INTx.
 */
static size_t aml_host_bridge(const struct lt_platform *p, uint8_t *out)
{
	static const uint8_t op[] = { AML_EXT, AML_DEVICE };
	uint8_t body[LT_DSDT_AML_MAX], res[128], prt[16 * LT_MAX_PRT];
	uint64_t top = 0, end;
	size_t n = 0, r = 0, q = 0, len;
	unsigned int i;

	for (i = 0; i < p->num_ram; i++) {
		end = p->ram[i].start + p->ram[i].size;
		if (end > top)
			top = end;
	}
	top = (top + 0xfffff) & ~(uint64_t)0xfffff;
	memcpy(body, "PCI0", 4);
	n += 4;
	n += name_dword(body + n, "_HID", EISA_PNP0A08);
	n += name_dword(body + n, "_CID", EISA_PNP0A03);
	n += name_zero(body + n, "_UID");
	n += name_zero(body + n, "_SEG");
	n += name_zero(body + n, "_BBN");
	r += window(res + r, 0x88, 2, 0, 0);
	r += window(res + r, 0x88, 1, 0xd00, 0xffff);
	if (top < 0xfec00000)
		r += window(res + r, 0x87, 0, top, 0xfebfffff);
	r += window(res + r, 0x8a, 0, top > (1ull << 32) ? top : 1ull << 32,
		    (1ull << 40) - 1);
	n += name_template(body + n, "_CRS", res, r);
	for (i = 0; i < p->num_prt; i++) {
		prt[q++] = AML_PACKAGE;
		prt[q++] = 15; /* PkgLength: itself and 14 bytes */
		prt[q++] = 4;  /* NumElements */
		prt[q++] = AML_DWORD;
		lt_put32(prt + q, (uint32_t)p->prt[i].device << 16 | 0xffff);
		q += 4;
		prt[q++] = AML_BYTE;
		prt[q++] = p->prt[i].pin; /* 0 INTA ... 3 INTD */
		prt[q++] = AML_ZERO;
		prt[q++] = AML_DWORD;
		lt_put32(prt + q, p->prt[i].gsi);
		q += 4;
	}
	body[n++] = AML_NAME;
	memcpy(body + n, "_PRT", 4);
	n += 4;
	/* Package (num_prt) { ... }: PkgLength covers NumElements too */
	body[n] = AML_PACKAGE;
	len = pkg_length(body + n + 1, q + 1);
	body[n + 1 + len] = (uint8_t)p->num_prt;
	memcpy(body + n + 2 + len, prt, q);
	n += 2 + len + q;
	return wrap(out, op, sizeof(op), body, n);
}

size_t lt_dsdt_aml(const struct lt_platform *p, uint8_t *out)
{
	static const uint8_t scope[] = { AML_SCOPE };
	uint8_t devices[LT_DSDT_AML_MAX];
	size_t n = 0, d = 0;
	unsigned int i;

	for (i = 0; i < p->num_uarts; i++)
		d += aml_uart(devices + d, p->uart_ports[i], p->uart_gsi[i], i);
	if (p->num_prt)
		d += aml_host_bridge(p, devices + d);
	if (d) {
		/* Scope (\_SB) { ... } */
		memmove(devices + 5, devices, d);
		memcpy(devices, "\\_SB_", 5);
		n += wrap(out + n, scope, 1, devices, d + 5);
	}
	/* Name (\_S5, Package () { 5, 5, 0, 0 }), the soft-off sleep type
	 * Linux looks up to power off */
	out[n++] = AML_NAME;
	memcpy(out + n, "\\_S5_", 5);
	n += 5;
	out[n++] = AML_PACKAGE;
	out[n++] = 8; /* PkgLength: itself, count, 6 bytes of elements */
	out[n++] = 4; /* NumElements */
	out[n++] = AML_BYTE;
	out[n++] = 5;
	out[n++] = AML_BYTE;
	out[n++] = 5;
	out[n++] = AML_ZERO;
	out[n++] = AML_ZERO;
	return n;
}
