/* SPDX-License-Identifier: GPL-2.0 */
/* "warden hardware check --json": the report of hwcaps_evaluate() as one
 * JSON object (docs/cli.md). */
#ifndef WARDEN_TOOLS_HWCAPS_JSON_H
#define WARDEN_TOOLS_HWCAPS_JSON_H

#include <stddef.h>
#include <stdio.h>

#include "hwcaps.h"

/* rep judged cpus CPUs (skipped more could not be probed), missing
 * required features; "can_run" is true when neither. */
void hwcaps_print_json(FILE *out, const struct hwcap_report *rep, size_t cpus,
		       unsigned int skipped, int missing);

#endif /* WARDEN_TOOLS_HWCAPS_JSON_H */
