// SPDX-License-Identifier: GPL-2.0
/*
 * The YAML front end: the "system:" part of a system config
 * (config_yaml_parts.h): the hypervisor's memory, its console, the
 * platform values and the IOAPICs.
 */
#include <stdio.h>
#include <string.h>

#include <yaml.h>

#include "config_yaml_parts.h"

static void ioapic(struct ctx *x, yaml_node_t *n, const char *what)
{
	static const char *const keys[] = { "address", "id", "gsi_base",
					    "pins" };
	struct warden_ioapic *a;
	int ids[4];
	unsigned int lines[4];
	char sub[96];
	uint64_t v;

	x->ioapics =
		cy_grow(x->ioapics, &x->cap_ioapics, x->n_ioapics, sizeof(*a));
	a = &x->ioapics[x->n_ioapics++];
	memset(a, 0, sizeof(*a));
	if (!cy_fields(x, n, what, keys, 4, ids, lines))
		return;
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

void cy_system_part(struct ctx *x, int id, struct warden_system_desc *s)
{
	static const char *const keys[] = { "hypervisor_memory",
					    "debug_console", "platform",
					    "ioapics" };
	static const char *const hv_keys[] = { "start", "size" };
	static const char *const plat_keys[] = {
		"tsc_khz",	 "apic_khz",	     "pm_timer_port",
		"mmconfig_base", "mmconfig_end_bus", "iommu_base",
		"hpet_base"
	};
	struct warden_platform *p = &s->platform;
	int ids[4], hv[2], pl[7];
	unsigned int lines[4], hv_lines[2], pl_lines[7];
	uint64_t v;

	if (!cy_fields(x, cy_node(x, id), "system", keys, 4, ids, lines))
		return;
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
	    cy_fields(x, cy_node(x, ids[2]), "system.platform", plat_keys, 7,
		      pl, pl_lines)) {
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
