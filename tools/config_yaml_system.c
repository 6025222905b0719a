// SPDX-License-Identifier: GPL-2.0
/*
 * The YAML front end: the "system:" part of a system config
 * (config_yaml_parts.h): the hypervisor's memory, its console, the
 * platform values, the IOAPICs and the IOMMU units.
 */
#include <stdio.h>
#include <string.h>

#include <yaml.h>

#include "config_yaml_parts.h"

/* A requester id ("ff:00.0", segment 0) or null: none. */
static uint16_t source_id(struct ctx *x, int id, const char *what)
{
	const char *s = cy_text(cy_node(x, id)), *why;
	uint16_t domain, bdf;

	if (!id || cy_is_null(cy_node(x, id)))
		return WARDEN_NO_SOURCE_ID;
	if (!s || cv_parse_bdf(s, &domain, &bdf, &why) || domain) {
		cy_diag_add(x, cy_line_of(cy_node(x, id)),
			    "%s: '%s' is not a requester id such as ff:00.0 "
			    "(bus:device.function of segment 0)",
			    what, s ? s : "");
		return WARDEN_NO_SOURCE_ID;
	}
	return bdf;
}

static void ioapic(struct ctx *x, yaml_node_t *n, const char *what)
{
	static const char *const keys[] = { "address", "id", "gsi_base", "pins",
					    "source_id" };
	struct warden_ioapic *a;
	int ids[5];
	unsigned int lines[5];
	char sub[96];
	uint64_t v;

	x->ioapics =
		cy_grow(x->ioapics, &x->cap_ioapics, x->n_ioapics, sizeof(*a));
	a = &x->ioapics[x->n_ioapics++];
	memset(a, 0, sizeof(*a));
	a->source_id = WARDEN_NO_SOURCE_ID;
	if (!cy_fields(x, n, what, keys, 5, ids, lines))
		return;
	snprintf(sub, sizeof(sub), "%s.source_id", what);
	a->source_id = source_id(x, ids[4], sub);
	snprintf(sub, sizeof(sub), "%s.address", what);
	if (!ids[0])
		cy_diag_add(x, cy_line_of(n), "%s: 'address' is missing", what);
	cy_opt_number(x, ids[0], sub, UINT64_MAX, &a->address);
	snprintf(sub, sizeof(sub), "%s.id", what);
	v = 0;
	cy_opt_number(x, ids[1], sub, 0xff, &v);
	a->id = (uint8_t)v;
	snprintf(sub, sizeof(sub), "%s.gsi_base", what);
	v = 0;
	cy_opt_number(x, ids[2], sub, UINT32_MAX, &v);
	a->gsi_base = (uint32_t)v;
	snprintf(sub, sizeof(sub), "%s.pins", what);
	v = 0;
	if (!ids[3])
		cy_diag_add(x, cy_line_of(n), "%s: 'pins' is missing", what);
	cy_opt_number(x, ids[3], sub, 0xff, &v);
	a->num_pins = (uint8_t)v;
}

/* A scope entry: "bb:dd.f" (a function) or "bb-bb" (buses, hex). */
static void scope(struct ctx *x, yaml_node_t *n, const char *what,
		  struct warden_iommu_scope *sc)
{
	const char *s = cy_text(n), *why;
	unsigned int first, last;
	uint16_t domain;
	char end;

	if (s && strchr(s, ':') && !cv_parse_bdf(s, &domain, &sc->bdf, &why) &&
	    !domain) {
		sc->type = WARDEN_IOMMU_SCOPE_FUNCTION;
		return;
	}
	if (s && sscanf(s, "%x-%x%c", &first, &last, &end) == 2 &&
	    first <= last && last <= 0xff) {
		sc->type = WARDEN_IOMMU_SCOPE_BUSES;
		sc->bdf = (uint16_t)(first << 8);
		sc->end_bus = (uint8_t)last;
		return;
	}
	cy_diag_add(x, cy_line_of(n),
		    "%s: '%s' is neither a function such as 00:02.0 nor a bus "
		    "range such as 03-05 (hexadecimal)",
		    what, s ? s : "");
}

/* One item of system.iommus: {base, segment, include_pci_all, scope}. */
static void iommu(struct ctx *x, yaml_node_t *n, const char *what)
{
	static const char *const keys[] = { "base", "segment",
					    "include_pci_all", "scope" };
	struct warden_iommu_unit *u;
	yaml_node_t *list;
	int ids[4];
	unsigned int lines[4];
	char sub[96];
	const char *why, *text;
	uint64_t v;
	bool all = false;
	size_t i, k;

	x->iommus = cy_grow(x->iommus, &x->cap_iommus, x->n_iommus, sizeof(*u));
	u = &x->iommus[x->n_iommus++];
	memset(u, 0, sizeof(*u));
	if (!cy_fields(x, n, what, keys, 4, ids, lines))
		return;
	snprintf(sub, sizeof(sub), "%s.base", what);
	if (!ids[0])
		cy_diag_add(x, cy_line_of(n), "%s: 'base' is missing", what);
	cy_opt_number(x, ids[0], sub, UINT64_MAX, &u->base);
	snprintf(sub, sizeof(sub), "%s.segment", what);
	v = 0;
	cy_opt_number(x, ids[1], sub, 0xffff, &v);
	u->segment = (uint16_t)v;
	text = cy_text(cy_node(x, ids[2]));
	if (ids[2] && cv_parse_bool(text ? text : "", &all, &why))
		cy_diag_add(x, lines[2], "%s.include_pci_all: %s", what, why);
	u->flags = all ? WARDEN_IOMMU_INCLUDE_PCI_ALL : 0;
	if (!ids[3])
		return;
	list = cy_node(x, ids[3]);
	k = cy_is_null(list) ? 0 : cy_items(list);
	if (k > WARDEN_IOMMU_MAX_SCOPES) {
		cy_diag_add(x, lines[3],
			    "%s.scope: %zu entries, at most %u (a bus range "
			    "covers a bridge's buses)",
			    what, k, WARDEN_IOMMU_MAX_SCOPES);
		return;
	}
	for (i = 0; i < k; i++) {
		snprintf(sub, sizeof(sub), "%s.scope[%zu]", what, i);
		scope(x, cy_item_of(x, list, i), sub, &u->scopes[i]);
	}
	u->num_scopes = (uint8_t)k;
}

void cy_system_part(struct ctx *x, int id, struct warden_system_desc *s)
{
	static const char *const keys[] = { "hypervisor_memory",
					    "debug_console", "platform",
					    "ioapics", "iommus" };
	static const char *const hv_keys[] = { "start", "size" };
	static const char *const plat_keys[] = {
		"tsc_khz",	 "apic_khz",	     "pm_timer_port",
		"mmconfig_base", "mmconfig_end_bus", "iommu_base",
		"hpet_base",	 "hpet_source_id"
	};
	struct warden_platform *p = &s->platform;
	int ids[5], hv[2], pl[8];
	unsigned int lines[5], hv_lines[2], pl_lines[8];
	uint64_t v;

	p->hpet_source_id = WARDEN_NO_SOURCE_ID;
	if (!cy_fields(x, cy_node(x, id), "system", keys, 5, ids, lines))
		return;
	x->c->iommus = lines[4];
	x->c->n_iommus = cy_list(x, ids[4], "iommus", &x->c->iommu, iommu);
	if (x->c->n_iommus > 0xffff) {
		cy_diag_add(x, lines[4], "system.iommus: more than 65535");
		x->c->n_iommus = 0;
	}
	p->num_iommus = (uint16_t)x->c->n_iommus;
	x->c->ioapics = lines[3];
	x->c->n_ioapics = cy_list(x, ids[3], "ioapics", &x->c->ioapic, ioapic);
	if (x->c->n_ioapics > 0xffff) {
		cy_diag_add(x, lines[3], "system.ioapics: more than 65535");
		x->c->n_ioapics = 0;
	}
	p->num_ioapics = (uint16_t)x->c->n_ioapics;
	x->c->hv_mem = lines[0];
	x->c->debug_console = lines[1];
	x->c->platform = lines[2];
	if (!ids[0])
		cy_diag_add(x, x->c->top,
			    "system: 'hypervisor_memory' is missing");
	else if (cy_fields(x, cy_node(x, ids[0]), "system.hypervisor_memory",
			   hv_keys, 2, hv, hv_lines)) {
		if (!hv[0] || !hv[1])
			cy_diag_add(x, lines[0],
				    "system.hypervisor_memory: 'start' and "
				    "'size' "
				    "are needed");
		cy_opt_number(x, hv[0], "system.hypervisor_memory.start",
			      UINT64_MAX, &s->hv_mem_start);
		cy_opt_number(x, hv[1], "system.hypervisor_memory.size",
			      UINT64_MAX, &s->hv_mem_size);
	}
	cy_console(x, ids[1], "system.debug_console", &s->debug_console);
	if (ids[2] && !cy_is_null(cy_node(x, ids[2])) &&
	    cy_fields(x, cy_node(x, ids[2]), "system.platform", plat_keys, 8,
		      pl, pl_lines)) {
		p->hpet_source_id =
			source_id(x, pl[7], "platform.hpet_source_id");
		v = 0;
		cy_opt_number(x, pl[0], "platform.tsc_khz", UINT32_MAX, &v);
		p->tsc_khz = (uint32_t)v;
		v = 0;
		cy_opt_number(x, pl[1], "platform.apic_khz", UINT32_MAX, &v);
		p->apic_khz = (uint32_t)v;
		v = 0;
		cy_opt_number(x, pl[2], "platform.pm_timer_port", 0xffff, &v);
		p->pm_timer_port = (uint16_t)v;
		cy_opt_number(x, pl[3], "platform.mmconfig_base", UINT64_MAX,
			      &p->mmconfig_base);
		v = 0;
		cy_opt_number(x, pl[4], "platform.mmconfig_end_bus", 0xff, &v);
		p->mmconfig_end_bus = (uint8_t)v;
		cy_opt_number(x, pl[5], "platform.iommu_base", UINT64_MAX,
			      &p->iommu_base);
		cy_opt_number(x, pl[6], "platform.hpet_base", UINT64_MAX,
			      &p->hpet_base);
	}
}
