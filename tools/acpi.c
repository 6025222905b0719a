// SPDX-License-Identifier: GPL-2.0
/* ACPI tables that "warden config create" reads (see acpi.h). */
#include <string.h>

#include "acpi.h"

#define HEADER_LEN 36 /* the System Description Table Header */

static uint64_t get(const uint8_t *p, size_t off, unsigned int n)
{
	uint64_t v = 0;

	while (n--)
		v = (v << 8) | p[off + n];
	return v;
}

/* Checks signature, length and checksum; *len becomes the table's own. */
static int header(const uint8_t *t, size_t *len, const char *sig, size_t min,
		  const char **why)
{
	uint32_t length;
	uint8_t sum = 0;
	size_t i;

	if (*len < HEADER_LEN || memcmp(t, sig, 4)) {
		*why = "not the expected ACPI table";
		return -1;
	}
	length = (uint32_t)get(t, 4, 4);
	if (length > *len || length < min) {
		*why = "the table's length is wrong";
		return -1;
	}
	for (i = 0; i < length; i++)
		sum = (uint8_t)(sum + t[i]);
	if (sum) {
		*why = "the table's checksum is wrong";
		return -1;
	}
	*len = length;
	return 0;
}

int acpi_parse_madt(const void *table, size_t len, struct acpi_madt *m,
		    const char **why)
{
	const uint8_t *t = table;
	size_t off;
	uint8_t type, elen;

	memset(m, 0, sizeof(*m));
	if (header(t, &len, "APIC", HEADER_LEN + 8, why))
		return -1;
	m->lapic = get(t, 36, 4);
	for (off = HEADER_LEN + 8; off + 2 <= len; off += elen) {
		type = t[off];
		elen = t[off + 1];
		if (elen < 2 || off + elen > len) {
			*why = "an entry of the table is damaged";
			return -1;
		}
		switch (type) {
		case 0: /* Processor Local APIC */
			if (elen >= 8 && (get(t, off + 4, 4) & 1))
				m->cpus++;
			break;
		case 1: /* I/O APIC */
			if (elen >= 12 && m->n_ioapics < ACPI_MAX_IOAPICS) {
				m->ioapic[m->n_ioapics].id = t[off + 2];
				m->ioapic[m->n_ioapics].address =
					(uint32_t)get(t, off + 4, 4);
				m->ioapic[m->n_ioapics].gsi_base =
					(uint32_t)get(t, off + 8, 4);
				m->n_ioapics++;
			}
			break;
		case 5: /* Local APIC Address Override */
			if (elen >= 12)
				m->lapic = get(t, off + 4, 8);
			break;
		case 9: /* Processor Local x2APIC */
			if (elen >= 16 && (get(t, off + 8, 4) & 1))
				m->cpus++;
			break;
		default:
			break;
		}
	}
	return 0;
}

int acpi_parse_hpet(const void *table, size_t len, uint64_t *base,
		    const char **why)
{
	const uint8_t *t = table;

	if (header(t, &len, "HPET", 56, why))
		return -1;
	if (t[40] != 0) { /* Generic Address Structure: space id */
		*why = "the HPET is not in memory space";
		return -1;
	}
	*base = get(t, 44, 8);
	return 0;
}

int acpi_parse_mcfg(const void *table, size_t len, struct acpi_mcfg *e,
		    unsigned int max, unsigned int *n, const char **why)
{
	const uint8_t *t = table;
	size_t off;

	*n = 0;
	if (header(t, &len, "MCFG", HEADER_LEN + 8, why))
		return -1;
	for (off = HEADER_LEN + 8; off + 16 <= len && *n < max; off += 16) {
		e[*n].base = get(t, off, 8);
		e[*n].segment = (uint16_t)get(t, off + 8, 2);
		e[*n].start_bus = t[off + 10];
		e[*n].end_bus = t[off + 11];
		if (e[*n].end_bus < e[*n].start_bus) {
			*why = "an entry has its end bus below its start bus";
			return -1;
		}
		(*n)++;
	}
	return 0;
}

int acpi_parse_fadt(const void *table, size_t len, uint16_t *port,
		    const char **why)
{
	const uint8_t *t = table;
	uint64_t x;

	if (header(t, &len, "FACP", 80, why))
		return -1;
	*port = 0;
	x = get(t, 76, 4); /* PM_TMR_BLK */
	if (x && x <= 0xffff) {
		*port = (uint16_t)x;
		return 0;
	}
	/* X_PM_TMR_BLK, ACPI 2.0+: a Generic Address Structure at 208 */
	if (len >= 220 && t[208] == 1) {
		x = get(t, 212, 8);
		if (x <= 0xffff)
			*port = (uint16_t)x;
	}
	return 0;
}

/* DMAR: after the header, host address width (1 byte), flags (1) and 10
 * reserved bytes, then remapping structures of type (2 bytes) and length
 * (2).  A DRHD (type 0): flags (1; bit 0 INCLUDE_PCI_ALL), size (1),
 * segment (2), register base address (8), then its device scopes. */
#define DMAR_STRUCTS 48
#define DMAR_DRHD 0
#define DRHD_INCLUDE_PCI_ALL 0x1

/* A device scope (VT-d 3.4, 8.3.1): type (1), length (1), reserved
 * (2), enumeration id (1), start bus (1), then a path of (device,
 * function) pairs, one per hop from the start bus. */
static void dmar_scopes(const uint8_t *t, size_t off, size_t end,
			struct acpi_dmar_unit *u)
{
	size_t slen;

	for (; off + 6 <= end; off += slen) {
		struct acpi_dmar_scope *sc;

		slen = t[off + 1];
		if (slen < 6 || off + slen > end)
			return; /* a damaged scope: the unit keeps the others */
		if (u->num_scopes >= ACPI_DMAR_MAX_SCOPES) {
			u->more_scopes = true;
			continue;
		}
		sc = &u->scopes[u->num_scopes++];
		sc->type = t[off];
		sc->enum_id = t[off + 4];
		sc->hops = (uint8_t)((slen - 6) / 2);
		/* the first hop's function, on the start bus: the source id
		 * when the path has one hop (behind bridges it needs the
		 * bridges' bus numbers, which only the running system has) */
		sc->source_id = (uint16_t)(t[off + 5] << 8);
		if (sc->hops)
			sc->source_id |=
				(uint16_t)(t[off + 6] << 3 | (t[off + 7] & 7));
	}
}

int acpi_parse_dmar_units(const void *table, size_t len, struct acpi_dmar *out,
			  const char **why)
{
	const uint8_t *t = table;
	size_t off, slen;

	memset(out, 0, sizeof(*out));
	if (header(t, &len, "DMAR", DMAR_STRUCTS, why))
		return -1;
	out->host_address_width = (uint8_t)(t[HEADER_LEN] + 1);
	out->flags = t[HEADER_LEN + 1];
	for (off = DMAR_STRUCTS; off + 4 <= len; off += slen) {
		struct acpi_dmar_unit *u;

		slen = (size_t)get(t, off + 2, 2);
		if (slen < 4 || off + slen > len) {
			*why = "an entry of the table is damaged";
			return -1;
		}
		if (get(t, off, 2) != DMAR_DRHD || slen < 16)
			continue;
		if (out->num_units >= ACPI_DMAR_MAX_UNITS) {
			out->more_units = true;
			continue;
		}
		u = &out->units[out->num_units++];
		u->base = get(t, off + 8, 8);
		u->segment = (uint16_t)get(t, off + 6, 2);
		u->include_all = t[off + 4] & DRHD_INCLUDE_PCI_ALL;
		dmar_scopes(t, off + 16, off + slen, u);
	}
	return 0;
}

static unsigned int dmar_segment0_units(const struct acpi_dmar *d)
{
	unsigned int i, n = 0;

	for (i = 0; i < d->num_units; i++)
		n += d->units[i].segment == 0;
	return n;
}

int acpi_parse_dmar(const void *table, size_t len, uint64_t *iommu_base,
		    const char **why)
{
	struct acpi_dmar d;
	unsigned int i;

	*iommu_base = 0;
	if (acpi_parse_dmar_units(table, len, &d, why))
		return -1;
	for (i = 0; i < d.num_units && !*iommu_base; i++)
		if (d.units[i].include_all && d.units[i].segment == 0)
			*iommu_base = d.units[i].base;
	/* No unit with INCLUDE_PCI_ALL, but one unit alone for segment 0
	 * (QEMU's q35 writes its one unit that way in some set-ups): the
	 * firmware must put every device of the segment in some DRHD's scope
	 * (VT-d 3.4, 8.3), so that unit is the one for all of them. */
	if (!*iommu_base && !d.more_units && dmar_segment0_units(&d) == 1)
		for (i = 0; i < d.num_units; i++)
			if (d.units[i].segment == 0)
				*iommu_base = d.units[i].base;
	return 0;
}
