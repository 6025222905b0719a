// SPDX-License-Identifier: GPL-2.0
/* "warden hardware check --json" and "hardware dump --json" (hwcaps_json.h). */
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

void hwcaps_write_dump_json(FILE *out, const struct warden_hw_probe *probes,
			    size_t num)
{
	size_t c;
	unsigned int i;

	fprintf(out, "{\"abi\": %d, \"cpus\": [", WARDEN_ABI_REVISION);
	for (c = 0; c < num; c++) {
		const struct warden_hw_probe *p = &probes[c];

		fprintf(out,
			"%s\n  {\"cpu\": %u, \"vmx_state\": %u, \"cr0\": %llu, "
			"\"cr4\": %llu,\n   \"cpuid\": [",
			c ? "," : "", p->cpu, p->vmx_state,
			(unsigned long long)p->cr0, (unsigned long long)p->cr4);
		for (i = 0; i < p->num_cpuid && i < WARDEN_PROBE_MAX_CPUID;
		     i++) {
			const struct warden_cpuid_leaf *l = &p->cpuid[i];

			fprintf(out,
				"%s\n    {\"leaf\": %u, \"subleaf\": %u, "
				"\"eax\": %u, \"ebx\": %u, \"ecx\": %u, "
				"\"edx\": %u}",
				i ? "," : "", l->leaf, l->subleaf, l->eax,
				l->ebx, l->ecx, l->edx);
		}
		fprintf(out, "],\n   \"msrs\": [");
		for (i = 0; i < p->num_msrs && i < WARDEN_PROBE_MAX_MSRS; i++) {
			const struct warden_msr_value *m = &p->msrs[i];

			fprintf(out, "%s\n    {\"index\": %u, ", i ? "," : "",
				m->index);
			if (m->valid)
				fprintf(out, "\"value\": %llu}",
					(unsigned long long)m->value);
			else
				fprintf(out, "\"fault\": true}");
		}
		fprintf(out, "]}");
	}
	fprintf(out, "\n]}\n");
}
