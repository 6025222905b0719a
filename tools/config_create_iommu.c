// SPDX-License-Identifier: GPL-2.0
/*
 * "warden config create": the IOMMU units and the interrupt source ids
 * (config_create_parts.h), from the ACPI DMAR's DRHDs and their device
 * scopes (VT-d 8.3, 8.3.1).  A unit's PCI scope becomes the config's
 * compact form: an endpoint is one function, a bridge its secondary to
 * subordinate buses (read from the bridge's config space in sysfs, the
 * running system's numbering).  A scope entry the config cannot express
 * -- an endpoint behind a bridge (the path's later hops need the
 * bridges' bus numbers), a bridge whose buses are unreadable, more than
 * WARDEN_IOMMU_MAX_SCOPES entries -- is left out and named in a comment,
 * so the validator refuses the functions it alone covers, by name.  The
 * only unit of its segment whose scope does not fit (QEMU's q35 lists
 * every function of bus 0 in its one unit's scope) is written as
 * include_pci_all instead, as iommu_base already takes it: VT-d 8.3 puts
 * every function of a segment under one of its units.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_create_parts.h"

/* Secondary and subordinate bus of the bridge bdf (segment seg), from its
 * config space (offsets 0x19, 0x1a of a type 1 header); -1 if unread. */
static int bridge_buses(const struct gen *g, uint16_t seg, uint16_t bdf,
			uint8_t *first, uint8_t *last)
{
	char path[96];
	size_t len;
	char *cfg;
	int ret = -1;

	snprintf(path, sizeof(path),
		 "/sys/bus/pci/devices/%04x:%02x:%02x.%u/config", seg, bdf >> 8,
		 (bdf >> 3) & 0x1f, bdf & 7);
	cfg = cc_slurp(g, path, &len);
	if (cfg && len > 0x1a && ((uint8_t)cfg[0x0e] & 0x7f) == 1 &&
	    (uint8_t)cfg[0x19] && (uint8_t)cfg[0x19] <= (uint8_t)cfg[0x1a]) {
		*first = (uint8_t)cfg[0x19];
		*last = (uint8_t)cfg[0x1a];
		ret = 0;
	}
	free(cfg);
	return ret;
}

void cc_note_iommu(struct platform *p, const char *fmt, ...)
{
	size_t used = strlen(p->iommu_notes);
	va_list ap;

	if (used && used + 1 < sizeof(p->iommu_notes))
		p->iommu_notes[used++] = '\n';
	if (used + 1 >= sizeof(p->iommu_notes))
		return;
	va_start(ap, fmt);
	vsnprintf(p->iommu_notes + used, sizeof(p->iommu_notes) - used, fmt,
		  ap);
	va_end(ap);
}

void cc_ioapic_source(struct platform *p, uint8_t id, uint16_t sid)
{
	unsigned int i;

	for (i = 0;
	     p->madt_cpus && i < p->madt.n_ioapics && i < ACPI_MAX_IOAPICS; i++)
		if (p->madt.ioapic[i].id == id)
			p->ioapic_source_id[i] = sid;
}

static void bdf_text(char *buf, size_t len, uint16_t bdf)
{
	snprintf(buf, len, "%02x:%02x.%u", bdf >> 8, (bdf >> 3) & 0x1f,
		 bdf & 7);
}

/* Does unit i's PCI scope need more entries than the config holds? */
static bool too_many(const struct acpi_dmar *d, unsigned int i)
{
	unsigned int k, n = 0;

	for (k = 0; k < d->units[i].num_scopes; k++)
		if (d->units[i].scopes[k].type == ACPI_DMAR_SCOPE_ENDPOINT)
			n++;
		else if (d->units[i].scopes[k].type == ACPI_DMAR_SCOPE_BRIDGE)
			n += 2; /* the bridge and its buses */
	return n > WARDEN_IOMMU_MAX_SCOPES || d->units[i].more_scopes;
}

static bool alone_in_segment(const struct acpi_dmar *d, unsigned int i)
{
	unsigned int k;

	for (k = 0; k < d->num_units; k++)
		if (k != i && d->units[k].segment == d->units[i].segment)
			return false;
	return !d->more_units;
}

void cc_iommu_units(const struct gen *g, struct platform *p)
{
	const struct acpi_dmar *d = &p->dmar;
	struct warden_iommu_unit *u;
	const struct acpi_dmar_scope *s;
	uint8_t first, last;
	char name[16];
	unsigned int i, k;

	p->n_iommus = 0;
	p->iommu_notes[0] = '\0';
	p->hpet_source_id = WARDEN_NO_SOURCE_ID;
	for (i = 0; i < ACPI_MAX_IOAPICS; i++)
		p->ioapic_source_id[i] = WARDEN_NO_SOURCE_ID;
	if (!p->have_dmar)
		return;
	for (i = 0; i < d->num_units && i < ACPI_DMAR_MAX_UNITS; i++) {
		u = &p->iommus[p->n_iommus++];
		memset(u, 0, sizeof(*u));
		u->base = d->units[i].base;
		u->segment = d->units[i].segment;
		if (d->units[i].include_all)
			u->flags = WARDEN_IOMMU_INCLUDE_PCI_ALL;
		if (!u->flags && too_many(d, i) && alone_in_segment(d, i)) {
			u->flags = WARDEN_IOMMU_INCLUDE_PCI_ALL;
			cc_note_iommu(p,
				      "unit 0x%llx lists more functions "
				      "than %u: the only unit of segment %u, "
				      "written as include_pci_all",
				      (unsigned long long)u->base,
				      WARDEN_IOMMU_MAX_SCOPES, u->segment);
		}
		for (k = 0; k < d->units[i].num_scopes; k++) {
			s = &d->units[i].scopes[k];
			if (s->type == ACPI_DMAR_SCOPE_IOAPIC && s->hops == 1)
				cc_ioapic_source(p, s->enum_id, s->source_id);
			if (s->type == ACPI_DMAR_SCOPE_HPET && s->hops == 1 &&
			    !s->enum_id)
				p->hpet_source_id = s->source_id;
			if (u->flags || (s->type != ACPI_DMAR_SCOPE_ENDPOINT &&
					 s->type != ACPI_DMAR_SCOPE_BRIDGE))
				continue;
			bdf_text(name, sizeof(name), s->source_id);
			if (s->hops != 1) {
				cc_note_iommu(p,
					      "%s of unit 0x%llx is behind a "
					      "bridge: not listed",
					      name,
					      (unsigned long long)u->base);
				continue;
			}
			if (u->num_scopes >= WARDEN_IOMMU_MAX_SCOPES) {
				cc_note_iommu(p,
					      "%s of unit 0x%llx: more than "
					      "%u scope entries, not listed",
					      name, (unsigned long long)u->base,
					      WARDEN_IOMMU_MAX_SCOPES);
				continue;
			}
			if (s->type == ACPI_DMAR_SCOPE_ENDPOINT) {
				u->scopes[u->num_scopes].type =
					WARDEN_IOMMU_SCOPE_FUNCTION;
				u->scopes[u->num_scopes++].bdf = s->source_id;
				continue;
			}
			/* a bridge: the function itself and its buses */
			u->scopes[u->num_scopes].type =
				WARDEN_IOMMU_SCOPE_FUNCTION;
			u->scopes[u->num_scopes++].bdf = s->source_id;
			if (bridge_buses(g, u->segment, s->source_id, &first,
					 &last)) {
				cc_note_iommu(p,
					      "the buses below bridge %s of "
					      "unit 0x%llx are unknown "
					      "(sysfs): not listed",
					      name,
					      (unsigned long long)u->base);
				continue;
			}
			if (u->num_scopes >= WARDEN_IOMMU_MAX_SCOPES) {
				cc_note_iommu(p,
					      "the buses below %s of unit "
					      "0x%llx: more than %u scope "
					      "entries, not listed",
					      name, (unsigned long long)u->base,
					      WARDEN_IOMMU_MAX_SCOPES);
				continue;
			}
			u->scopes[u->num_scopes].type =
				WARDEN_IOMMU_SCOPE_BUSES;
			u->scopes[u->num_scopes].bdf = (uint16_t)(first << 8);
			u->scopes[u->num_scopes++].end_bus = last;
		}
	}
	if (d->more_units)
		cc_note_iommu(p, "more than %u units: the rest not listed",
			      ACPI_DMAR_MAX_UNITS);
}
