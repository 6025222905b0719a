/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An access-log entry (warden/access.h) as "warden cell stats" shows it:
 * the words the hypervisor console uses for the same table
 * (hypervisor/arch/x86/exit/access_log.c), and JSON.
 */
#ifndef WARDEN_TOOLS_ACCESS_VIEW_H
#define WARDEN_TOOLS_ACCESS_VIEW_H

#include <stddef.h>
#include <stdio.h>

#include <warden/access.h>

/* "port in", "rdmsr", ...; "?" for a value this CLI does not know. */
const char *access_kind_name(unsigned int kind);
/* "done", "quiet", "#GP", ...; "?" likewise. */
const char *access_outcome_name(unsigned int outcome);

/*
 * The entry as one line without a newline, into buf (truncated to len):
 *   port out 0x70 x11, first at RIP 0xffffffff8103e757 (quiet)
 *   cpuid 0x7.1 x3, first at RIP 0x... (changed)
 */
void access_entry_text(char *buf, size_t len,
		       const struct warden_access_entry *e);

/* The entry as a JSON object: {"kind": "port out", "number": 112,
 * "sub": 0, "count": 11, "outcome": "quiet", "first_rip":
 * "0xffffffff8103e757"} (the RIP a string: above 2^53). */
void access_entry_json(FILE *out, const struct warden_access_entry *e);

#endif /* WARDEN_TOOLS_ACCESS_VIEW_H */
