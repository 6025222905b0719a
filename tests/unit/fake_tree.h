/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A fake sysfs tree for the unit tests of code that reads /sys
 * (test_pci_linux.c, test_link_sysfs.c): files and folders under root,
 * a temporary folder the test creates.
 */
#ifndef WARDEN_TESTS_FAKE_TREE_H
#define WARDEN_TESTS_FAKE_TREE_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "cmocka_wrap.h"

static char root[64];

/* root/rel := text */
static inline void put(const char *rel, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* root/rel := len bytes of data (a binary file: an ACPI table) */
static inline void put_bytes(const char *rel, const void *data, size_t len)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
}

/* the folder root/rel */
static inline void dir(const char *rel)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	assert_int_equal(mkdir(path, 0755), 0);
}

/* root := a new temporary folder named after the test */
static inline void tree_create(const char *name)
{
	snprintf(root, sizeof(root), "/tmp/wd-%s-XXXXXX", name);
	assert_non_null(mkdtemp(root));
}

/* remove root and everything under it: 0 on success */
static inline int tree_remove(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	return system(cmd);
}

#endif /* WARDEN_TESTS_FAKE_TREE_H */
