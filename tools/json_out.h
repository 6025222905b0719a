/* SPDX-License-Identifier: GPL-2.0 */
/* JSON output of the read commands' --json (docs/cli.md). */
#ifndef WARDEN_TOOLS_JSON_OUT_H
#define WARDEN_TOOLS_JSON_OUT_H

#include <stddef.h>
#include <stdio.h>

/* str (at most max bytes, or up to its NUL) as a JSON string: quotes,
 * backslashes and control characters escaped. */
void json_str(FILE *out, const char *str, size_t max);

#endif /* WARDEN_TOOLS_JSON_OUT_H */
