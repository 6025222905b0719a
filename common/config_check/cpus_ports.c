// SPDX-License-Identifier: GPL-2.0
/*
 * Config validation, CPU and port rules: a cell's CPUs against the
 * machine's and the other cells', its port ranges on their own, against
 * root's and against the other cells' (docs/validation.md).
 */
#include "check.h"

bool cc_cpus_empty(const uint64_t *set)
{
	unsigned int i;

	for (i = 0; i < WARDEN_CPU_SET_WORDS; i++)
		if (set[i])
			return false;
	return true;
}

void cc_check_cpus_root(struct checker *ck, const struct cell *c,
			const struct system *sys)
{
	unsigned int cpu;

	for (cpu = 1; cpu < WARDEN_MAX_CPUS; cpu++) {
		if (!cpu_in(c->cpus, cpu))
			continue;
		if (cpu >= sys->machine_cpus)
			cc_fail(ck, WARDEN_RULE_CPU_NOT_PRESENT,
				WARDEN_ITEM_CPU, cpu, sys->machine_cpus, 0, 0,
				0);
		else if (!cpu_in(sys->root.cpus, cpu))
			cc_fail(ck, WARDEN_RULE_CPU_NOT_IN_ROOT,
				WARDEN_ITEM_CPU, cpu, 0, 0, 0, 0);
	}
}

void cc_check_cpus_other(struct checker *ck, const struct cell *c,
			 const struct cell *o)
{
	unsigned int cpu;

	for (cpu = 1; cpu < WARDEN_MAX_CPUS; cpu++)
		if (cpu_in(c->cpus, cpu) && cpu_in(o->cpus, cpu))
			cc_fail(ck, WARDEN_RULE_CPU_IN_OTHER_CELL,
				WARDEN_ITEM_CPU, cpu, o->id, 0, 0, 0);
}

void cc_check_pio(struct checker *ck, const struct cell *c)
{
	struct pio p, q;
	uint32_t i, j;

	for (i = 0; i < c->num_pio; i++) {
		cc_get_pio(c, i, &p);
		if (p.reserved)
			cc_fail_config(ck, WARDEN_RULE_CONFIG_RESERVED,
				       c->pio_off + (size_t)i * PIO_SIZE +
					       PIO_OFF(reserved),
				       p.reserved);
		if (!pio_sane(&p)) {
			cc_fail_pio(ck, WARDEN_RULE_PIO_RANGE, i, &p, 0);
			continue;
		}
		for (j = 0; j < i; j++) {
			cc_get_pio(c, j, &q);
			if (pio_sane(&q) &&
			    overlap(p.base, p.length, q.base, q.length)) {
				cc_fail_pio(ck, WARDEN_RULE_PIO_OVERLAP, i, &p,
					    j);
				break;
			}
		}
	}
}

bool cc_ports_in_cell(const struct cell *c, uint64_t base, uint64_t length)
{
	struct pio p;
	uint32_t i;

	for (i = 0; i < c->num_pio; i++) {
		cc_get_pio(c, i, &p);
		if (pio_sane(&p) && inside(base, length, p.base, p.length))
			return true;
	}
	return false;
}

void cc_check_pio_root(struct checker *ck, const struct cell *c,
		       const struct system *sys)
{
	struct pio p;
	uint32_t i;

	for (i = 0; i < c->num_pio; i++) {
		cc_get_pio(c, i, &p);
		if (pio_sane(&p) &&
		    !cc_ports_in_cell(&sys->root, p.base, p.length))
			cc_fail_pio(ck, WARDEN_RULE_PIO_NOT_IN_ROOT, i, &p, 0);
	}
}

void cc_check_pio_other(struct checker *ck, const struct cell *c,
			const struct cell *o)
{
	struct pio p, q;
	uint32_t i, j;

	for (i = 0; i < c->num_pio; i++) {
		cc_get_pio(c, i, &p);
		if (!pio_sane(&p))
			continue;
		for (j = 0; j < o->num_pio; j++) {
			cc_get_pio(o, j, &q);
			if (pio_sane(&q) &&
			    overlap(p.base, p.length, q.base, q.length)) {
				cc_fail_pio(ck, WARDEN_RULE_PIO_IN_OTHER_CELL,
					    i, &p, o->id);
				break;
			}
		}
	}
}
