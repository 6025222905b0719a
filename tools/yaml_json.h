/* SPDX-License-Identifier: GPL-2.0 */
/*
 * "warden config show --json": the YAML that config_show() writes, as
 * JSON.  One writer (config_show.c) decides what a config says; this
 * only changes the syntax, so the two outputs cannot disagree.
 */
#ifndef WARDEN_TOOLS_YAML_JSON_H
#define WARDEN_TOOLS_YAML_JSON_H

#include <stddef.h>
#include <stdio.h>

/*
 * Writes the one YAML document in yaml[0..len) to out as JSON (indented
 * by two spaces, a newline at the end).  Mappings become objects,
 * sequences arrays.  A plain scalar the config language reads as a
 * number (4096, 0x1000, 64M: config_values.h) becomes a JSON number in
 * bytes; true/false become booleans; everything else, and every value
 * under the keys "cpus" and "ports" (CPU lists and port ranges, which
 * only look like numbers when they hold one item), stays a string.
 * Comments are dropped.  Returns 0, or -1 with *why set to a static
 * phrase (the YAML cannot be parsed, or uses anchors, tags or complex
 * keys, which config_show never writes); out may then hold a part.
 */
int yaml_to_json(FILE *out, const char *yaml, size_t len, const char **why);

#endif /* WARDEN_TOOLS_YAML_JSON_H */
