/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The parts of the YAML front end (config_yaml.h), private to its files:
 * the walk's state and what each file reads.
 *
 *   config_yaml.c         cy_compile(): the document, the top level, the
 *                         blob, and the errors (cy_diag_add)
 *   config_yaml_nodes.c   nodes, mappings with known keys, lists, values
 *   config_yaml_system.c  the "system:" part
 *   config_yaml_cell.c    a cell: CPUs, console, memory, ports, pins
 *   config_yaml_pci.c     a cell's PCI devices and their BARs
 *   config_yaml_links.c   the "links:" list
 */
#ifndef WARDEN_TOOLS_CONFIG_YAML_PARTS_H
#define WARDEN_TOOLS_CONFIG_YAML_PARTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <yaml.h>

#include <warden/config.h>

#include "config_values.h"
#include "config_yaml.h"

/* The walk: the document and the arrays of the blob being collected. */
struct ctx {
	struct cy_config *c;
	yaml_document_t doc;
	struct warden_mem_region *regions;
	size_t n_regions, cap_regions;
	struct warden_pio_range *pio;
	size_t n_pio, cap_pio;
	struct warden_irq_pin *pins;
	size_t n_pins, cap_pins;
	struct warden_pci_device *pci;
	size_t n_pci, cap_pci;
	struct warden_ioapic *ioapics;
	size_t n_ioapics, cap_ioapics;
	struct warden_link *links;
	size_t n_links;
	struct warden_iommu_unit *iommus;
	size_t n_iommus, cap_iommus;
	const char *root_name; /* root_cell.name as compiled, for links */
};

/* config_yaml.c: a front-end error at line (0: none), kept or counted. */
void cy_diag_add(struct ctx *x, unsigned int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* config_yaml_nodes.c */
/* The node of id, or NULL for 0. */
yaml_node_t *cy_node(struct ctx *x, int id);
/* The node's line (1-based; 0 for NULL). */
unsigned int cy_line_of(const yaml_node_t *n);
/* The text of a scalar node, or NULL. */
const char *cy_text(const yaml_node_t *n);
/* "", "~" or "null" written plainly: no value. */
bool cy_is_null(const yaml_node_t *n);
/* "a mapping", "a list" or "a value", for messages. */
const char *cy_kind_name(const yaml_node_t *n);
/* A list's items, or a single value as a list of one. */
size_t cy_items(const yaml_node_t *n);
yaml_node_t *cy_item_of(struct ctx *x, yaml_node_t *n, size_t i);
/*
 * The values of a mapping's known keys: ids[i] is the node of keys[i] (0
 * when absent), lines[i] its key's line.  Unknown and duplicate keys are
 * errors.  Returns false when n is not a mapping.
 */
bool cy_fields(struct ctx *x, yaml_node_t *n, const char *what,
	       const char *const *keys, size_t n_keys, int *ids,
	       unsigned int *lines);
/* A number that fits in max; 0 or -1 (reported). */
int cy_number(struct ctx *x, int id, const char *what, uint64_t max,
	      uint64_t *v);
/* Optional number: left as it is when absent. */
void cy_opt_number(struct ctx *x, int id, const char *what, uint64_t max,
		   uint64_t *v);
/* The OR of names (looked up in table) or raw numbers, listed or in one
 * value ("read, write"). */
uint32_t cy_flag_set(struct ctx *x, int id, const char *what,
		     const struct cv_name *table);
/* A name from table, or a number up to max; 0 or -1 (reported). */
int cy_named_value(struct ctx *x, int id, const char *what,
		   const struct cv_name *table, uint32_t max, uint32_t *v);
/* p with room for item n of elem bytes (*cap doubles when full). */
void *cy_grow(void *p, size_t *cap, size_t n, size_t elem);
/* The items of a list (none when null), each read by one; each one's line
 * in *lines. */
size_t cy_list(struct ctx *x, int id, const char *what, unsigned int **lines,
	       void (*one)(struct ctx *, yaml_node_t *, const char *));

/* config_yaml_system.c: "system:" into s, its lines into x->c. */
void cy_system_part(struct ctx *x, int id, struct warden_system_desc *s);

/* config_yaml_cell.c */
/* A console: a type name, or {type, port, baud}. */
void cy_console(struct ctx *x, int id, const char *what,
		struct warden_console *con);
/* The cell of node id (key at key_line) into d, its lines into l. */
void cy_cell(struct ctx *x, int id, unsigned int key_line, const char *what,
	     struct warden_cell_desc *d, struct cy_cell_lines *l);

/* config_yaml_pci.c: one item of a cell's pci_devices into x->pci. */
void cy_pci_device(struct ctx *x, yaml_node_t *n, const char *what);

/* config_yaml_links.c: the top-level "links:" (key at key_line). */
void cy_links(struct ctx *x, int id, unsigned int key_line);

#endif /* WARDEN_TOOLS_CONFIG_YAML_PARTS_H */
