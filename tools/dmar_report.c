// SPDX-License-Identifier: GPL-2.0
/* The Intel IOMMU in words (dmar_report.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "dmar_report.h"

void dmar_caps_decode(uint64_t cap, uint64_t ecap, struct dmar_caps *out)
{
	unsigned int sagaw = (unsigned int)(cap >> 8) & 0x1f;

	memset(out, 0, sizeof(*out));
	out->domain_bits = 4 + 2 * (unsigned int)(cap & 7);
	out->levels3 = sagaw & 0x2;
	out->levels4 = sagaw & 0x4;
	out->levels5 = sagaw & 0x8;
	out->pages_2m = (cap >> 34) & 1;
	out->pages_1g = (cap >> 35) & 1;
	out->fault_records = (unsigned int)((cap >> 40) & 0xff) + 1;
	out->qi = (ecap >> 1) & 1;
	out->device_tlb = (ecap >> 2) & 1;
	out->ir = (ecap >> 3) & 1;
	out->eim = (ecap >> 4) & 1;
}

struct text {
	char *buf;
	size_t len, used;
};

static void add(struct text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->used >= t->len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(t->buf + t->used, t->len - t->used, fmt, ap);
	va_end(ap);
	if (n > 0)
		t->used += (size_t)n;
}

static void bdf(struct text *t, uint16_t sid)
{
	add(t, "%02x:%02x.%u", sid >> 8, (sid >> 3) & 0x1f, sid & 7);
}

static void unit_caps(struct text *t, const struct dmar_caps *c)
{
	add(t,
	    "; %s tables, %s pages, %u domains, %s%s%s%s, %u fault "
	    "record%s",
	    c->levels4	 ? "4-level"
	    : c->levels3 ? "3-level only"
			 : "no 3- or 4-level",
	    c->pages_1g	  ? "2M/1G"
	    : c->pages_2m ? "2M"
			  : "4K",
	    1u << c->domain_bits, c->qi ? "QI" : "no QI",
	    c->ir ? ", IR" : ", no IR", c->eim ? "+EIM" : "",
	    c->device_tlb ? ", device-TLB" : "", c->fault_records,
	    c->fault_records == 1 ? "" : "s");
}

static void unit(struct text *t, const struct acpi_dmar_unit *u)
{
	unsigned int i, listed = 0;

	add(t, "; unit 0x%llx: ", (unsigned long long)u->base);
	if (u->include_all)
		add(t, "every function of segment %u no other unit lists",
		    u->segment);
	for (i = 0; i < u->num_scopes; i++) {
		const struct acpi_dmar_scope *s = &u->scopes[i];

		if (s->type == ACPI_DMAR_SCOPE_ENDPOINT ||
		    s->type == ACPI_DMAR_SCOPE_BRIDGE) {
			add(t, "%s", listed++ ? ", " : "");
			bdf(t, s->source_id);
			if (s->type == ACPI_DMAR_SCOPE_BRIDGE)
				add(t, " and below");
			else if (s->hops > 1)
				add(t, " (behind a bridge)");
		}
	}
	if (!u->include_all && !listed)
		add(t, "no function");
	for (i = 0; i < u->num_scopes; i++) {
		const struct acpi_dmar_scope *s = &u->scopes[i];

		if (s->type != ACPI_DMAR_SCOPE_IOAPIC &&
		    s->type != ACPI_DMAR_SCOPE_HPET)
			continue;
		add(t, ", %s %u at ",
		    s->type == ACPI_DMAR_SCOPE_IOAPIC ? "IOAPIC" : "HPET",
		    s->enum_id);
		bdf(t, s->source_id);
	}
	if (u->more_scopes)
		add(t, ", more scopes");
}

void dmar_describe(const struct acpi_dmar *d, const struct dmar_caps *caps,
		   const bool *known, char *buf, size_t len)
{
	struct text t = { buf, len, 0 };
	unsigned int i;

	if (!len)
		return;
	buf[0] = '\0';
	add(&t, "%u-bit DMA addresses, %s%s, %u unit%s", d->host_address_width,
	    d->flags & ACPI_DMAR_INTR_REMAP ? "interrupt remapping"
					    : "no interrupt remapping",
	    d->flags & ACPI_DMAR_X2APIC_OPT_OUT ? " (x2APIC opt-out)" : "",
	    d->num_units, d->num_units == 1 ? "" : "s");
	for (i = 0; i < d->num_units; i++) {
		unit(&t, &d->units[i]);
		if (caps && known && known[i])
			unit_caps(&t, &caps[i]);
	}
	if (d->more_units)
		add(&t, "; more units");
	if (t.used >= len && len > 4)
		memcpy(buf + len - 4, "...", 4);
}
