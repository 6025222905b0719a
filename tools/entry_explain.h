/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A failed VM entry in words (entry_explain.c): the checks of SDM Vol. 3C,
 * 27.3.1 (common/vmx_guest_check.c) run on the record the hypervisor kept
 * (warden/vmx_entry.h), for "warden status".
 */
#ifndef WARDEN_TOOLS_ENTRY_EXPLAIN_H
#define WARDEN_TOOLS_ENTRY_EXPLAIN_H

#include <stddef.h>

#include <warden/vmx_entry.h>

/* The first rule the record's state breaks, with its section and the
 * segment it is about, e.g. "reserved access-rights bits set (27.3.1.2),
 * segment CS (SDM Vol. 3C)"; written into buf, which is returned. */
const char *entry_explain(const struct warden_vmx_entry_failure *f, char *buf,
			  size_t len);

#endif /* WARDEN_TOOLS_ENTRY_EXPLAIN_H */
