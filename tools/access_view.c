// SPDX-License-Identifier: GPL-2.0
/* Access-log entries for "warden cell stats" (contract in access_view.h). */
#include "access_view.h"

static const char *const kinds[] = {
	[WARDEN_ACCESS_PORT_IN] = "port in",
	[WARDEN_ACCESS_PORT_OUT] = "port out",
	[WARDEN_ACCESS_MSR_READ] = "rdmsr",
	[WARDEN_ACCESS_MSR_WRITE] = "wrmsr",
	[WARDEN_ACCESS_CPUID] = "cpuid",
};

static const char *const outcomes[] = {
	[WARDEN_ACCESS_DONE] = "done",	   [WARDEN_ACCESS_QUIET] = "quiet",
	[WARDEN_ACCESS_GP] = "#GP",	   [WARDEN_ACCESS_READ_0] = "read 0",
	[WARDEN_ACCESS_FAILED] = "failed", [WARDEN_ACCESS_CHANGED] = "changed",
};

const char *access_kind_name(unsigned int kind)
{
	if (kind < sizeof(kinds) / sizeof(kinds[0]) && kinds[kind])
		return kinds[kind];
	return "?";
}

const char *access_outcome_name(unsigned int outcome)
{
	if (outcome < sizeof(outcomes) / sizeof(outcomes[0]))
		return outcomes[outcome];
	return "?";
}

void access_entry_text(char *buf, size_t len,
		       const struct warden_access_entry *e)
{
	if (e->kind == WARDEN_ACCESS_CPUID)
		snprintf(buf, len,
			 "cpuid 0x%x.%x x%u, first at RIP 0x%llx (%s)",
			 e->number, e->sub, e->count,
			 (unsigned long long)e->first_rip,
			 access_outcome_name(e->outcome));
	else
		snprintf(buf, len, "%s 0x%x x%u, first at RIP 0x%llx (%s)",
			 access_kind_name(e->kind), e->number, e->count,
			 (unsigned long long)e->first_rip,
			 access_outcome_name(e->outcome));
}

void access_entry_json(FILE *out, const struct warden_access_entry *e)
{
	fprintf(out,
		"{\"kind\": \"%s\", \"number\": %u, \"sub\": %u, \"count\": "
		"%u, \"outcome\": \"%s\", \"first_rip\": \"0x%llx\"}",
		access_kind_name(e->kind), e->number, e->sub, e->count,
		access_outcome_name(e->outcome),
		(unsigned long long)e->first_rip);
}
