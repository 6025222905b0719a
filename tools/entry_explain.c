// SPDX-License-Identifier: GPL-2.0
/*
 * A failed VM entry in words (contract in entry_explain.h).
 */
#include <stdio.h>

#include <x86/vmx_guest_check.h>

#include "entry_explain.h"

const char *entry_explain(const struct warden_vmx_entry_failure *f, char *buf,
			  size_t len)
{
	int seg, rule = vmx_guest_check(&f->state, &f->limits, &seg);
	const char *name = vmx_seg_name(seg);

	if (!rule)
		snprintf(buf, len,
			 "invalid guest state, no rule the checks know is "
			 "broken (SDM Vol. 3C)");
	else
		snprintf(buf, len, "%s%s%s (SDM Vol. 3C)",
			 vmx_guest_rule_name(rule), *name ? ", segment " : "",
			 name);
	return buf;
}
