/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The YAML config front end: a system or cell config in YAML
 * (docs/config.md) compiled to the binary blob of include/warden/config.h,
 * with a map from every item of the blob back to its line, so that the
 * validator's records (common/config_check.c) can be printed as
 * "file:line: sentence".
 *
 * The front end checks only what the YAML says: known keys, numbers, CPU
 * lists, names of flags and types, values that fit their fields.  Whether
 * the config makes sense (overlaps, alignment, CPUs of other cells, ...)
 * is the validator's business, so that every layer refuses a config with
 * the same rule.
 */
#ifndef WARDEN_TOOLS_CONFIG_YAML_H
#define WARDEN_TOOLS_CONFIG_YAML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <warden/config.h>
#include <warden/error.h>

/* Lines (1-based; 0: not in the file) of the parts of a cell. */
struct cy_cell_lines {
	unsigned int cell; /* the "root_cell:" or "cell:" key */
	unsigned int name, flags, cpus, reset, console, memory, ports;
	unsigned int irq_pins, pci_devices;
	unsigned int *regions; /* per memory region */
	unsigned int *pio;     /* per port range */
	unsigned int *pins;    /* per IOAPIC pin */
	unsigned int *pci;     /* per PCI device */
	size_t n_regions, n_pio, n_pins, n_pci;
	unsigned int cpu[WARDEN_MAX_CPUS]; /* the list item naming the CPU */
};

/* Lines of the parts of a link (system config). */
struct cy_link_lines {
	unsigned int link; /* its list item */
	unsigned int name, memory, access, peers;
	unsigned int peer[WARDEN_LINK_MAX_PEERS]; /* each peer's list item */
};

/* A front-end error. */
struct cy_diag {
	unsigned int line; /* 0: no line (e.g. the file cannot be read) */
	char msg[240];
};

#define CY_MAX_DIAGS 64	   /* more are counted, not kept */
#define CY_MAX_ITEMS 16384 /* memory regions or port ranges per cell */
#define CY_MAX_FILE (4u << 20)

struct cy_config {
	char *file;    /* as given, for messages */
	bool system;   /* a system config (else a cell config) */
	bool yaml;     /* compiled from YAML: lines are known */
	uint8_t *blob; /* NULL when the front end failed */
	size_t size;
	unsigned int top;	    /* the "system:" or "cell:" key */
	unsigned int hv_mem;	    /* system.hypervisor_memory */
	unsigned int debug_console; /* system.debug_console */
	unsigned int platform;	    /* system.platform */
	unsigned int ioapics;	    /* system.ioapics */
	unsigned int *ioapic;	    /* per IOAPIC */
	size_t n_ioapics;
	unsigned int iommus; /* system.iommus */
	unsigned int *iommu; /* per IOMMU unit */
	size_t n_iommus;
	unsigned int links;	    /* the top-level "links:" key */
	struct cy_link_lines *link; /* per link */
	size_t n_links;
	struct cy_cell_lines cell; /* root_cell or cell */
	struct cy_diag diags[CY_MAX_DIAGS];
	unsigned int n_diags; /* all front-end errors, kept or not */
};

/*
 * Compiles YAML text of len bytes (need not be NUL-terminated).  file is
 * the name used in messages.  Returns 0 (c->blob is set) or the number of
 * front-end errors (c->diags; c->blob is NULL).  Always cy_free() c.
 */
int cy_compile(struct cy_config *c, const char *file, const char *text,
	       size_t len);

/*
 * Loads a config file: a compiled blob (it starts with "WRDNSYS" or
 * "WRDNCEL" and is taken as it is) or YAML.  Returns 0, or the number of
 * errors (a file that cannot be read is one error without a line).
 */
int cy_load_file(struct cy_config *c, const char *path);

void cy_free(struct cy_config *c);

/* The line a validator record about this config points to (0: none). */
unsigned int cy_error_line(const struct cy_config *c,
			   const struct warden_error *e);

/* "file:line: " (or "file: ") for a record about this config. */
void cy_where(const struct cy_config *c, const struct warden_error *e,
	      char *buf, size_t len);

/* Does a blob of size bytes start with a config signature? */
bool cy_is_blob(const void *data, size_t size);

#endif /* WARDEN_TOOLS_CONFIG_YAML_H */
