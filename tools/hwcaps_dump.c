// SPDX-License-Identifier: GPL-2.0
/*
 * The dump format of "warden hardware dump" and "hardware check --from"
 * (see hwcaps.h for the contract): one line per raw fact, CPUID leaves
 * and MSRs per CPU, written and read back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwcaps.h"

void hwcaps_write_dump(FILE *out, const struct warden_hw_probe *probes,
		       size_t num)
{
	size_t c;
	unsigned int i;

	fprintf(out, "# warden hardware dump (ABI revision %d)\n",
		WARDEN_ABI_REVISION);
	for (c = 0; c < num; c++) {
		const struct warden_hw_probe *p = &probes[c];

		fprintf(out,
			"cpu %u state vmx_state %u cr0 0x%llx cr4 0x%llx\n",
			p->cpu, p->vmx_state, (unsigned long long)p->cr0,
			(unsigned long long)p->cr4);
		for (i = 0; i < p->num_cpuid && i < WARDEN_PROBE_MAX_CPUID;
		     i++) {
			const struct warden_cpuid_leaf *l = &p->cpuid[i];

			fprintf(out,
				"cpu %u cpuid 0x%x 0x%x 0x%x 0x%x 0x%x 0x%x\n",
				p->cpu, l->leaf, l->subleaf, l->eax, l->ebx,
				l->ecx, l->edx);
		}
		for (i = 0; i < p->num_msrs && i < WARDEN_PROBE_MAX_MSRS; i++) {
			const struct warden_msr_value *m = &p->msrs[i];

			if (m->valid)
				fprintf(out, "cpu %u msr 0x%x 0x%llx\n", p->cpu,
					m->index, (unsigned long long)m->value);
			else
				fprintf(out, "cpu %u msr 0x%x fault\n", p->cpu,
					m->index);
		}
	}
}

static struct warden_hw_probe *probe_of(struct warden_hw_probe *probes,
					size_t max, size_t *num,
					unsigned int cpu)
{
	size_t c;

	for (c = 0; c < *num; c++)
		if (probes[c].cpu == cpu)
			return &probes[c];
	if (*num >= max)
		return NULL;
	memset(&probes[*num], 0, sizeof(probes[*num]));
	probes[*num].cpu = cpu;
	return &probes[(*num)++];
}

int hwcaps_read_dump(FILE *in, struct warden_hw_probe *probes, size_t max,
		     size_t *num)
{
	char line[256], kind[16], val[32];
	unsigned int cpu, a, b, c, d, e, f;
	unsigned long long cr0, cr4;
	int lineno = 0;

	*num = 0;
	while (fgets(line, sizeof(line), in)) {
		struct warden_hw_probe *p;

		lineno++;
		if (line[0] == '#' || line[0] == '\n' || line[0] == '\r')
			continue;
		/* Skip a console prefix such as "  > " in captured logs. */
		if (sscanf(line, " cpu %u %15s", &cpu, kind) != 2 &&
		    sscanf(line, " > cpu %u %15s", &cpu, kind) != 2)
			return lineno;
		p = probe_of(probes, max, num, cpu);
		if (!p)
			return lineno;
		if (!strcmp(kind, "state")) {
			if (sscanf(strstr(line, "state"),
				   "state vmx_state %u cr0 %llx cr4 %llx", &a,
				   &cr0, &cr4) != 3)
				return lineno;
			p->vmx_state = a;
			p->cr0 = cr0;
			p->cr4 = cr4;
		} else if (!strcmp(kind, "cpuid")) {
			if (p->num_cpuid >= WARDEN_PROBE_MAX_CPUID ||
			    sscanf(strstr(line, "cpuid"),
				   "cpuid %x %x %x %x %x %x", &a, &b, &c, &d,
				   &e, &f) != 6)
				return lineno;
			p->cpuid[p->num_cpuid++] =
				(struct warden_cpuid_leaf){ a, b, c, d, e, f };
		} else if (!strcmp(kind, "msr")) {
			struct warden_msr_value *m;

			if (p->num_msrs >= WARDEN_PROBE_MAX_MSRS ||
			    sscanf(strstr(line, "msr"), "msr %x %31s", &a,
				   val) != 2)
				return lineno;
			m = &p->msrs[p->num_msrs++];
			m->index = a;
			m->valid = strcmp(val, "fault") != 0;
			m->value = m->valid ? strtoull(val, NULL, 16) : 0;
		} else {
			return lineno;
		}
	}
	return *num ? 0 : -1;
}
