// SPDX-License-Identifier: GPL-2.0
/*
 * The YAML front end: a cell, a system config's root_cell or a cell
 * config's cell (config_yaml_parts.h): its name, flags, CPUs, console,
 * memory regions, port ranges and IOAPIC pins; its PCI devices are read
 * by config_yaml_pci.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "config_yaml_parts.h"

void cy_console(struct ctx *x, int id, const char *what,
		struct warden_console *con)
{
	static const char *const keys[] = { "type", "port", "baud" };
	yaml_node_t *n = cy_node(x, id);
	int ids[3];
	unsigned int lines[3];
	uint32_t type;
	uint64_t v;
	char sub[64];

	memset(con, 0, sizeof(*con));
	if (!n || cy_is_null(n))
		return;
	if (cy_text(n)) {
		/* "none", "hypercall", or a type and no port */
		if (!cy_named_value(x, id, what, cv_console_types, 0xffff,
				    &type))
			con->type = (uint16_t)type;
		return;
	}
	if (!cy_fields(x, n, what, keys, 3, ids, lines))
		return;
	snprintf(sub, sizeof(sub), "%s.type", what);
	if (!ids[0])
		cy_diag_add(x, cy_line_of(n), "%s: 'type' is missing", what);
	else if (!cy_named_value(x, ids[0], sub, cv_console_types, 0xffff,
				 &type))
		con->type = (uint16_t)type;
	snprintf(sub, sizeof(sub), "%s.port", what);
	v = 0;
	cy_opt_number(x, ids[1], sub, UINT64_MAX, &v);
	con->address = v;
	snprintf(sub, sizeof(sub), "%s.baud", what);
	v = 0;
	cy_opt_number(x, ids[2], sub, UINT32_MAX, &v);
	con->baud = (uint32_t)v;
}

/* CPUs from a list, a value ("0-3,5") or a number. */
static void cpus(struct ctx *x, int id, const char *what,
		 struct warden_cpu_set *set, struct cy_cell_lines *l)
{
	yaml_node_t *n = cy_node(x, id), *item;
	struct warden_cpu_set one;
	const char *why;
	unsigned int cpu, w;
	size_t i, count;

	if (!n || cy_is_null(n))
		return;
	if (n->type == YAML_MAPPING_NODE) {
		cy_diag_add(x, cy_line_of(n),
			    "%s: a CPU list such as 0-3,5 is needed", what);
		return;
	}
	count = cy_items(n);
	for (i = 0; i < count; i++) {
		item = cy_item_of(x, n, i);
		memset(&one, 0, sizeof(one));
		if (!cy_text(item))
			cy_diag_add(x, cy_line_of(item),
				    "%s: a CPU number is needed, not %s", what,
				    cy_kind_name(item));
		else if (cv_parse_cpus(cy_text(item), &one, &why))
			cy_diag_add(x, cy_line_of(item), "%s: '%s' %s", what,
				    cy_text(item), why);
		for (cpu = 0; cpu < WARDEN_MAX_CPUS; cpu++)
			if (cv_cpu_in(&one, cpu) && cv_cpu_in(set, cpu))
				cy_diag_add(x, cy_line_of(item),
					    "%s: CPU %u is listed twice (first "
					    "on "
					    "line %u)",
					    what, cpu, l->cpu[cpu]);
		for (w = 0; w < WARDEN_CPU_SET_WORDS; w++)
			set->bits[w] |= one.bits[w];
		for (cpu = 0; cpu < WARDEN_MAX_CPUS; cpu++)
			if (cv_cpu_in(&one, cpu) && !l->cpu[cpu])
				l->cpu[cpu] = cy_line_of(item);
	}
}

static void region(struct ctx *x, yaml_node_t *n, const char *what)
{
	static const char *const keys[] = { "phys", "guest", "size", "flags",
					    "type" };
	struct warden_mem_region *r;
	int ids[5];
	unsigned int lines[5];
	uint32_t type;
	char sub[96];
	uint64_t v;

	x->regions =
		cy_grow(x->regions, &x->cap_regions, x->n_regions, sizeof(*r));
	r = &x->regions[x->n_regions++];
	memset(r, 0, sizeof(*r));
	if (!cy_fields(x, n, what, keys, 5, ids, lines))
		return;
	snprintf(sub, sizeof(sub), "%s.flags", what);
	if (!ids[3])
		cy_diag_add(x, cy_line_of(n),
			    "%s: 'flags' is missing (e.g. [read, "
			    "write])",
			    what);
	r->flags = cy_flag_set(x, ids[3], sub, cv_mem_flags);
	snprintf(sub, sizeof(sub), "%s.phys", what);
	if (ids[0])
		cy_opt_number(x, ids[0], sub, UINT64_MAX, &r->phys_start);
	else if (!(r->flags & WARDEN_MEM_COMM_REGION))
		cy_diag_add(x, cy_line_of(n), "%s: 'phys' is missing", what);
	snprintf(sub, sizeof(sub), "%s.guest", what);
	r->guest_start = r->phys_start;
	cy_opt_number(x, ids[1], sub, UINT64_MAX, &r->guest_start);
	snprintf(sub, sizeof(sub), "%s.size", what);
	if (!ids[2])
		cy_diag_add(x, cy_line_of(n), "%s: 'size' is missing", what);
	else if (!cy_number(x, ids[2], sub, UINT64_MAX, &v))
		r->size = v;
	snprintf(sub, sizeof(sub), "%s.type", what);
	r->mem_type = r->flags & WARDEN_MEM_IO ? WARDEN_MEMTYPE_UC
					       : WARDEN_MEMTYPE_WB;
	if (ids[4] &&
	    !cy_named_value(x, ids[4], sub, cv_mem_types, 0xff, &type))
		r->mem_type = (uint8_t)type;
}

static void port_range(struct ctx *x, yaml_node_t *n, const char *what)
{
	static const char *const keys[] = { "base", "length" };
	struct warden_pio_range *p;
	int ids[2];
	unsigned int lines[2];
	uint64_t base = 0, length = 0;
	uint32_t b;
	const char *why;
	char sub[96];

	x->pio = cy_grow(x->pio, &x->cap_pio, x->n_pio, sizeof(*p));
	p = &x->pio[x->n_pio++];
	memset(p, 0, sizeof(*p));
	if (cy_text(n)) {
		if (cv_parse_ports(cy_text(n), &b, &length, &why))
			cy_diag_add(x, cy_line_of(n), "%s: '%s' %s", what,
				    cy_text(n), why);
		base = b;
	} else if (cy_fields(x, n, what, keys, 2, ids, lines)) {
		snprintf(sub, sizeof(sub), "%s.base", what);
		if (!ids[0])
			cy_diag_add(x, cy_line_of(n), "%s: 'base' is missing",
				    what);
		cy_opt_number(x, ids[0], sub, 0xffff, &base);
		snprintf(sub, sizeof(sub), "%s.length", what);
		if (!ids[1])
			cy_diag_add(x, cy_line_of(n), "%s: 'length' is missing",
				    what);
		cy_opt_number(x, ids[1], sub, UINT32_MAX, &length);
	}
	if (length > UINT32_MAX) {
		cy_diag_add(x, cy_line_of(n),
			    "%s: the length 0x%llx is too large", what,
			    (unsigned long long)length);
		length = 0;
	}
	p->base = (uint16_t)base;
	p->length = (uint32_t)length;
}

static void irq_pin(struct ctx *x, yaml_node_t *n, const char *what)
{
	struct warden_irq_pin *p;
	const char *s = cy_text(n), *why;
	uint64_t v;

	x->pins = cy_grow(x->pins, &x->cap_pins, x->n_pins, sizeof(*p));
	p = &x->pins[x->n_pins++];
	memset(p, 0, sizeof(*p));
	if (!s || cy_is_null(n)) {
		cy_diag_add(x, cy_line_of(n),
			    "%s: a GSI number is needed, not %s", what,
			    s ? "an empty value" : cy_kind_name(n));
		return;
	}
	if (cv_parse_u64(s, &v, &why))
		cy_diag_add(x, cy_line_of(n), "%s: '%s' %s", what, s, why);
	else if (v > UINT32_MAX)
		cy_diag_add(x, cy_line_of(n), "%s: %s is larger than 0x%x",
			    what, s, UINT32_MAX);
	else
		p->gsi = (uint32_t)v;
}

void cy_cell(struct ctx *x, int id, unsigned int key_line, const char *what,
	     struct warden_cell_desc *d, struct cy_cell_lines *l)
{
	static const char *const keys[] = {
		"name",	  "flags", "cpus",     "reset_address", "console",
		"memory", "ports", "irq_pins", "pci_devices",
	};
	enum { NAME, FLAGS, CPUS, RESET, CONSOLE, MEMORY, PORTS, PINS, PCI, N };
	yaml_node_t *n = cy_node(x, id);
	int ids[N];
	unsigned int lines[N];
	char sub[64];
	const char *name;
	size_t len;

	l->cell = key_line;
	if (!cy_fields(x, n, what, keys, N, ids, lines))
		return;
	l->name = lines[NAME];
	l->flags = lines[FLAGS];
	l->cpus = lines[CPUS];
	l->reset = lines[RESET];
	l->console = lines[CONSOLE];
	l->memory = lines[MEMORY];
	l->ports = lines[PORTS];
	l->irq_pins = lines[PINS];
	l->pci_devices = lines[PCI];

	snprintf(sub, sizeof(sub), "%s.name", what);
	name = cy_text(cy_node(x, ids[NAME]));
	if (!ids[NAME]) {
		cy_diag_add(x, key_line, "%s: 'name' is missing", what);
	} else if (!name) {
		cy_diag_add(x, l->name, "%s: a name is needed", sub);
	} else {
		/* A name ends at a NUL ("\0" in YAML); longer names fill the
		 * field without one: the validator says they are too long. */
		len = strnlen(name, cy_node(x, ids[NAME])->data.scalar.length);
		memcpy(d->name, name,
		       len < WARDEN_NAME_LEN ? len : WARDEN_NAME_LEN);
	}
	snprintf(sub, sizeof(sub), "%s.flags", what);
	d->flags = cy_flag_set(x, ids[FLAGS], sub, cv_cell_flags);
	snprintf(sub, sizeof(sub), "%s.cpus", what);
	if (!ids[CPUS])
		cy_diag_add(x, key_line, "%s: 'cpus' is missing", what);
	cpus(x, ids[CPUS], sub, &d->cpus, l);
	snprintf(sub, sizeof(sub), "%s.reset_address", what);
	cy_opt_number(x, ids[RESET], sub, UINT64_MAX, &d->reset_address);
	snprintf(sub, sizeof(sub), "%s.console", what);
	cy_console(x, ids[CONSOLE], sub, &d->console);
	l->n_regions = cy_list(x, ids[MEMORY], "memory", &l->regions, region);
	l->n_pio = cy_list(x, ids[PORTS], "ports", &l->pio, port_range);
	l->n_pins = cy_list(x, ids[PINS], "irq_pins", &l->pins, irq_pin);
	l->n_pci = cy_list(x, ids[PCI], "pci_devices", &l->pci, cy_pci_device);
	d->num_memory_regions = (uint32_t)l->n_regions;
	d->num_pio_ranges = (uint32_t)l->n_pio;
	d->num_irq_pins = (uint32_t)l->n_pins;
	d->num_pci_devices = (uint32_t)l->n_pci;
}
