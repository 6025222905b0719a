/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Validating loaded configs (config_yaml.h) with the shared validator
 * (common/config_check.c) and printing every error as
 * "file:line: sentence" (the sentence from errmsg.c).
 */
#ifndef WARDEN_TOOLS_CONFIG_REPORT_H
#define WARDEN_TOOLS_CONFIG_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "config_yaml.h"

/* Prints c's front-end errors, one "prefixfile:line: message" each. */
void config_print_diags(FILE *out, const char *prefix,
			const struct cy_config *c);

/*
 * Validates c: a system config alone; a cell config alone when sys is
 * NULL, else against sys and the cells others[0..n_others-1] (which take
 * cell ids 1..n_others, c is cell n_others + 1).  Prints each error as
 * "prefixfile:line: sentence" to out (out may be NULL: only count);
 * records about the system or another cell point to that file, and cell
 * ids in sentences are followed by the cell's name and file.  Returns the
 * number of errors.
 */
unsigned int config_validate(FILE *out, const char *prefix,
			     const struct cy_config *c,
			     const struct cy_config *sys,
			     const struct cy_config *const *others,
			     size_t n_others);

/*
 * The sentence of one record about c, as config_validate prints it
 * (without prefix and newline), for callers that get records elsewhere
 * (e.g. from the driver).
 */
void config_describe(const struct cy_config *c, const struct warden_error *e,
		     char *buf, size_t len);

/*
 * For every PCI device of the cell config c that says dma_unisolated, a
 * warning on out, each line starting with prefix: where no IOMMU
 * confines it (the system config names none), its DMA can reach all
 * memory, the hypervisor's and other cells' included.  Returns the
 * number of such devices.
 */
unsigned int config_dma_warnings(FILE *out, const char *prefix,
				 const struct cy_config *c);

/*
 * Is the rule about the config itself (so that a YAML file can point to
 * it, and a refusal for it is a failed check)?  The blob, cell, CPU,
 * memory, port and console rules (below 80), MEM_NOT_RESERVED, and the
 * IOAPIC, pin and PCI rules (130-159), the IOAPIC unit's refusal of a
 * region over an IOAPIC (172), the PCI unit's of configuration space
 * (175) and the link rules (180-186).
 */
bool config_rule(uint32_t rule);

/*
 * For `config check` with cell configs: every peer of the system config
 * sys's links must name the root cell or one of cells[0..n_cells-1] (by
 * name).  Each one that does not is printed as a LINK_PEER record
 * (values[1] = 1) about sys, like config_validate prints.  Returns their
 * number.
 */
unsigned int config_link_peers(FILE *out, const char *prefix,
			       const struct cy_config *sys,
			       const struct cy_config *const *cells,
			       size_t n_cells);

/* Link i of the system config sys, copied into *l: false when sys has no
 * such link (or is not a readable system config). */
bool config_link(const struct cy_config *sys, uint32_t i,
		 struct warden_link *l);

/* The cell name in a loaded config ("" when there is no blob). */
void config_cell_name(const struct cy_config *c, char *buf, size_t len);

#endif /* WARDEN_TOOLS_CONFIG_REPORT_H */
