// SPDX-License-Identifier: GPL-2.0
/* "warden hardware check --json" (hwcaps_json.h). */
#include "hwcaps_json.h"
#include "json_out.h"

void hwcaps_print_json(FILE *out, const struct hwcap_report *rep, size_t cpus,
		       unsigned int skipped, int missing)
{
	const struct hwcap_result *r;
	size_t i;

	fprintf(out,
		"{\"cpus\": %zu, \"offline_cpus\": %u, \"table\": \"%s\", "
		"\"can_run\": %s, \"missing\": %d, \"features\": [",
		cpus, skipped, rep->table == HWCAP_TABLE_SVM ? "svm" : "vmx",
		missing || skipped ? "false" : "true", missing);
	for (i = 0; i < rep->num; i++) {
		r = &rep->results[i];
		fprintf(out, "%s{\"name\": ", i ? ", " : "");
		json_str(out, r->name, 256);
		fprintf(out, ", \"status\": \"%s\", \"cpu\": %u, \"detail\": ",
			hwcap_status_name(r->status), r->cpu);
		json_str(out, r->detail, sizeof(r->detail));
		fputc('}', out);
	}
	fprintf(out, "]}\n");
}
