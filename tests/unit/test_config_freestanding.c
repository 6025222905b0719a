// SPDX-License-Identifier: GPL-2.0
/*
 * The validator as the hypervisor runs it: common/config_check/ compiled
 * with the hypervisor's flags (-ffreestanding -mno-red-zone
 * -mgeneral-regs-only -mcmodel=kernel ..., $(HV_CFLAGS) in
 * hypervisor/build.mk) into one object, its two entry points renamed
 * hv_config_check_* and its other symbols made local by objcopy
 * (tests/unit/build.mk), and linked next to the hosted build.  Both must
 * give the same verdicts, record for record:
 *
 *  - on every config of the YAML corpus (yaml_corpus.c), valid and
 *    invalid, compiled by the front end, with the same context;
 *  - on the shipped configs/ and their sets;
 *  - on 20 000 randomly damaged blobs of the corpus.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_wrap.h"
#include "config_yaml.h"
#include "yaml_corpus.h"
#include <config_check.h>

unsigned int hv_config_check_system(const void *blob, size_t size,
				    config_report_fn report, void *ctx);
unsigned int hv_config_check_cell(const void *blob, size_t size,
				  const void *system_blob, size_t system_size,
				  const void *const *others,
				  const size_t *other_sizes, size_t n_others,
				  config_report_fn report, void *ctx);

#define MAX_LOG 256

struct log {
	struct warden_error e[MAX_LOG];
	unsigned int n;
};

static void collect(void *ctx, const struct warden_error *err)
{
	struct log *log = ctx;

	if (log->n < MAX_LOG)
		log->e[log->n] = *err;
	log->n++;
}

static unsigned int compared;

static void same(const char *what, const struct log *a, unsigned int na,
		 const struct log *b, unsigned int nb)
{
	unsigned int i;

	if (na != nb || a->n != b->n)
		fail_msg("%s: hosted %u errors, freestanding %u", what, na, nb);
	for (i = 0; i < a->n && i < MAX_LOG; i++)
		if (memcmp(&a->e[i], &b->e[i], sizeof(a->e[i])))
			fail_msg("%s: record %u differs (rule %u / %u)", what,
				 i, a->e[i].rule, b->e[i].rule);
	compared++;
}

static unsigned int system_both(const char *what, const void *blob, size_t size)
{
	struct log a = { .n = 0 }, b = { .n = 0 };
	unsigned int na, nb;

	na = config_check_system(blob, size, collect, &a);
	nb = hv_config_check_system(blob, size, collect, &b);
	same(what, &a, na, &b, nb);
	return na;
}

static unsigned int cell_both(const char *what, const void *blob, size_t size,
			      const void *sys, size_t sys_size,
			      const void *const *others, const size_t *sizes,
			      size_t n)
{
	struct log a = { .n = 0 }, b = { .n = 0 };
	unsigned int na, nb;

	na = config_check_cell(blob, size, sys, sys_size, others, sizes, n,
			       collect, &a);
	nb = hv_config_check_cell(blob, size, sys, sys_size, others, sizes, n,
				  collect, &b);
	same(what, &a, na, &b, nb);
	return na;
}

static void compile(struct cy_config *c, const char *text)
{
	assert_int_equal(cy_compile(c, "corpus.yaml", text, strlen(text)), 0);
}

static void corpus(void **state)
{
	struct cy_config sys, cell, other, base;
	size_t k;
	unsigned int n;

	(void)state;
	compile(&base, yc_system);
	assert_int_equal(system_both("base", base.blob, base.size), 0);
	for (k = 0; k < yc_n_invalid; k++) {
		const struct yc_invalid *t = &yc_invalid[k];
		const void *ob[1] = { NULL };
		size_t os[1] = { 0 };

		compile(&sys, t->system ? t->system : yc_system);
		n = system_both(t->name, sys.blob, sys.size);
		if (!t->cell) {
			assert_true(n > 0); /* a system case is invalid */
			cy_free(&sys);
			continue;
		}
		compile(&cell, t->cell);
		if (t->other) {
			compile(&other, t->other);
			ob[0] = other.blob;
			os[0] = other.size;
		}
		n = cell_both(t->name, cell.blob, cell.size, sys.blob, sys.size,
			      ob, os, t->other ? 1 : 0);
		assert_true(n > 0);
		/* alone, and against the base system only */
		cell_both(t->name, cell.blob, cell.size, NULL, 0, NULL, NULL,
			  0);
		cell_both(t->name, cell.blob, cell.size, base.blob, base.size,
			  NULL, NULL, 0);
		if (t->other)
			cy_free(&other);
		cy_free(&cell);
		cy_free(&sys);
	}
	for (k = 0; k < yc_n_valid; k++) {
		compile(&cell, yc_valid[k]);
		if (cell.system)
			system_both("valid", cell.blob, cell.size);
		else
			cell_both("valid", cell.blob, cell.size, base.blob,
				  base.size, NULL, NULL, 0);
		cy_free(&cell);
	}
	cy_free(&base);
}

static void shipped(void **state)
{
	static const char *const cells[] = {
		"cells/tiny-demo.yaml",
		"cells/bad/overlap-tiny.yaml",
		"cells/apic-demo.yaml",
		"cells/smp-demo.yaml",
	};
	static const char *const systems[] = {
		"system-bochs.yaml",
		"bad/unreserved.yaml",
		"bad/overlap.yaml",
	};
	struct cy_config sys, c[4];
	const void *blobs[4];
	size_t sizes[4], i, s;
	char path[512];

	(void)state;
	for (i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/%s", WARDEN_CONFIGS, cells[i]);
		assert_int_equal(cy_load_file(&c[i], path), 0);
		blobs[i] = c[i].blob;
		sizes[i] = c[i].size;
	}
	for (s = 0; s < 3; s++) {
		snprintf(path, sizeof(path), "%s/%s", WARDEN_CONFIGS,
			 systems[s]);
		assert_int_equal(cy_load_file(&sys, path), 0);
		system_both(systems[s], sys.blob, sys.size);
		/* each cell against the ones before it */
		for (i = 0; i < 4; i++)
			cell_both(cells[i], blobs[i], sizes[i], sys.blob,
				  sys.size, blobs, sizes, i);
		cy_free(&sys);
	}
	for (i = 0; i < 4; i++)
		cy_free(&c[i]);
}

/* Random damage to compiled corpus configs, context included: every
 * other round the configs with IOAPICs, pins and PCI devices. */
static void damaged(void **state)
{
	struct cy_config cfg[2][3];
	const char *texts[2][3] = {
		{ yc_system, yc_cell_a, yc_cell_b },
		{ yc_system_pci, yc_cell_a_pci, yc_cell_b_pci },
	};
	uint8_t *s, *x, *y;
	uint32_t seed = 4242;
	unsigned int round, k, set, i;

	(void)state;
	for (set = 0; set < 2; set++)
		for (i = 0; i < 3; i++)
			compile(&cfg[set][i], texts[set][i]);
	s = malloc(cfg[1][0].size);
	x = malloc(cfg[1][1].size);
	y = malloc(cfg[1][2].size);
	assert_true(s && x && y);
	for (round = 0; round < 20000; round++) {
		const struct cy_config *sys = &cfg[round % 2][0];
		const struct cy_config *a = &cfg[round % 2][1];
		const struct cy_config *b = &cfg[round % 2][2];
		const void *others[1] = { y };
		size_t sizes[1] = { b->size };
		uint8_t *p;
		size_t len;

		memcpy(s, sys->blob, sys->size);
		memcpy(x, a->blob, a->size);
		memcpy(y, b->blob, b->size);
		for (k = 0; k < 1 + round % 5; k++) {
			seed = seed * 1103515245u + 12345u;
			p = (seed >> 8) % 3 == 0   ? s
			    : (seed >> 8) % 3 == 1 ? x
						   : y;
			len = p == s ? sys->size : p == x ? a->size : b->size;
			seed = seed * 1103515245u + 12345u;
			p[(seed >> 8) % len] ^=
				(uint8_t)(1u << ((seed >> 4) % 8));
		}
		system_both("damaged system", s, sys->size);
		cell_both("damaged cell", x, a->size, s, sys->size, others,
			  sizes, 1);
		/* truncated too */
		cell_both("truncated cell", x, round % a->size, s, sys->size,
			  others, sizes, 1);
	}
	free(s);
	free(x);
	free(y);
	for (set = 0; set < 2; set++)
		for (i = 0; i < 3; i++)
			cy_free(&cfg[set][i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(corpus),
		cmocka_unit_test(shipped),
		cmocka_unit_test(damaged),
	};

	return cmocka_run_group_tests_name("config_freestanding", tests, NULL,
					   NULL);
}
