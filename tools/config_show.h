/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Binary config → YAML ("warden config show"): the inverse of the YAML
 * front end (config_yaml.h).  For a blob the YAML can express (reserved
 * fields and header, region and console flags that YAML has no key for
 * are 0, the counts match the blob), compiling the output gives the same
 * bytes back.
 */
#ifndef WARDEN_TOOLS_CONFIG_SHOW_H
#define WARDEN_TOOLS_CONFIG_SHOW_H

#include <stddef.h>
#include <stdio.h>

/*
 * Writes the YAML of blob (size bytes) to out; source names it in the
 * first comment (may be NULL).  Returns 0; 1 when parts of the blob
 * cannot be written in YAML (each is named in a comment); -1 when the
 * blob is not a config this Warden reads (*why says why, nothing is
 * written).
 */
int config_show(FILE *out, const void *blob, size_t size, const char *source,
		const char **why);

#endif /* WARDEN_TOOLS_CONFIG_SHOW_H */
