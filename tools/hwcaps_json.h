/* SPDX-License-Identifier: GPL-2.0 */
/* "warden hardware check --json" and "hardware dump --json" (docs/cli.md). */
#ifndef WARDEN_TOOLS_HWCAPS_JSON_H
#define WARDEN_TOOLS_HWCAPS_JSON_H

#include <stddef.h>
#include <stdio.h>

#include "hwcaps.h"

/* rep judged cpus CPUs (skipped more could not be probed), missing
 * required features; "can_run" is true when neither. */
void hwcaps_print_json(FILE *out, const struct hwcap_report *rep, size_t cpus,
		       unsigned int skipped, int missing);

/* The raw facts of "hardware dump" as one JSON object: {"abi": N,
 * "cpus": [{"cpu", "vmx_state", "cr0", "cr4", "cpuid": [{"leaf",
 * "subleaf", "eax", "ebx", "ecx", "edx"}], "msrs": [{"index", "value"}
 * or {"index", "fault": true}]}]}, every number in decimal. */
void hwcaps_write_dump_json(FILE *out, const struct warden_hw_probe *probes,
			    size_t num);

#endif /* WARDEN_TOOLS_HWCAPS_JSON_H */
