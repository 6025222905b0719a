// SPDX-License-Identifier: GPL-2.0
/*
 * Writes the seed corpus of fuzz_config_check into DIR: valid configs of
 * the test machine (tests/unit/config_builder.h), alone and concatenated
 * the way the fuzz target splits its input.  With --yaml, the seeds of
 * fuzz_config_yaml instead: the YAML snippets of tests/unit/yaml_corpus.c
 * (valid, invalid and with front-end errors).
 *
 *   mkcorpus DIR
 *   mkcorpus --yaml DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_builder.h"
#include "yaml_corpus.h"

static void put(const char *dir, const char *name, const struct cb_blob **b,
		int n)
{
	char path[4096];
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f) {
		perror(path);
		exit(1);
	}
	for (i = 0; i < n; i++)
		if (fwrite(b[i]->u.bytes, 1, b[i]->size, f) != b[i]->size) {
			perror(path);
			exit(1);
		}
	if (fclose(f)) {
		perror(path);
		exit(1);
	}
}

static void put_text(const char *dir, const char *name, size_t i,
		     const char *text)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s-%zu.yaml", dir, name, i);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f)) {
		perror(path);
		exit(1);
	}
}

static int yaml_seeds(const char *dir)
{
	size_t i;

	put_text(dir, "system", 0, yc_system);
	put_text(dir, "cell-a", 0, yc_cell_a);
	put_text(dir, "cell-b", 0, yc_cell_b);
	for (i = 0; i < yc_n_valid; i++)
		put_text(dir, "valid", i, yc_valid[i]);
	for (i = 0; i < yc_n_invalid; i++) {
		if (yc_invalid[i].system)
			put_text(dir, "invalid-system", i,
				 yc_invalid[i].system);
		if (yc_invalid[i].cell)
			put_text(dir, "invalid-cell", i, yc_invalid[i].cell);
	}
	for (i = 0; i < yc_n_syntax; i++)
		put_text(dir, "syntax", i, yc_syntax[i].yaml);
	return 0;
}

int main(int argc, char **argv)
{
	static struct cb_blob sys, a, b, sys_split, a_hyper, sys_pci, a_pci,
		b_pci, sys_links;
	const struct cb_blob *list[4];

	if (argc == 3 && !strcmp(argv[1], "--yaml"))
		return yaml_seeds(argv[2]);
	if (argc != 2) {
		fprintf(stderr, "usage: %s [--yaml] DIR\n", argv[0]);
		return 2;
	}
	cb_system(&sys);
	cb_cell(&a, 0);
	cb_cell(&b, 1);
	/* a root cell with more regions and a cell with a hypercall
	 * console and a shared region */
	cb_system(&sys_split);
	cb_region(&sys_split, CB_ROOT_HIGH)->size = 0x4000000;
	cb_add_region(&sys_split, 0x38000000, 0x38000000, 0x8000000,
		      WARDEN_MEM_READ | WARDEN_MEM_WRITE, WARDEN_MEMTYPE_WB);
	cb_cell(&a_hyper, 0);
	cb_desc(&a_hyper)->console.type = WARDEN_CONSOLE_HYPERCALL;
	cb_desc(&a_hyper)->console.address = 0;
	cb_add_region(&a_hyper, 0x38000000, 0x2000000, 0x100000,
		      WARDEN_MEM_READ | WARDEN_MEM_ROOT_SHARED,
		      WARDEN_MEMTYPE_WB);

	list[0] = &sys;
	put(argv[1], "system", list, 1);
	list[0] = &a;
	put(argv[1], "cell-a", list, 1);
	list[0] = &sys;
	list[1] = &a;
	put(argv[1], "system+a", list, 2);
	list[2] = &b;
	put(argv[1], "system+a+b", list, 3);
	list[0] = &sys_split;
	list[1] = &a_hyper;
	list[2] = &b;
	list[3] = &a;
	put(argv[1], "system2+a2+b+a", list, 4);
	/* IOAPICs, pins and PCI devices */
	cb_system_pci(&sys_pci);
	cb_cell_pci(&a_pci, 0);
	cb_cell_pci(&b_pci, 1);
	list[0] = &sys_pci;
	list[1] = &a_pci;
	list[2] = &b_pci;
	put(argv[1], "system-pci+a+b", list, 3);
	/* and links, two of whose peers are the cells */
	cb_system_links(&sys_links);
	list[0] = &sys_links;
	put(argv[1], "system-links+a+b", list, 3);
	return 0;
}
