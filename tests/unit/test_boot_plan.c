// SPDX-License-Identifier: GPL-2.0
/*
 * The boot sections "warden up" reads (boot_plan.c): images relative to
 * the config's folder, the command line at libinmate's address unless
 * told otherwise, each mistake named with its line and nothing taken
 * from a config that has one; the cell configs of a folder in name order.
 */
#include <stdlib.h>
#include <string.h>

#include "boot_plan.h"
#include "fake_tree.h"

#define CELL "cell:\n  name: demo\n  cpus: 1\n"

static struct boot_plan plan;
static char err[600], path[256];

static int setup(void **state)
{
	(void)state;
	tree_create("boot-plan");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return tree_remove();
}

static int read_plan(const char *text)
{
	put("c.yaml", text);
	snprintf(path, sizeof(path), "%s/c.yaml", root);
	return boot_plan_read(path, &plan, err, sizeof(err));
}

static void full_plan(void **state)
{
	char want[300];

	(void)state;
	assert_int_equal(read_plan(CELL "boot:\n"
					"  start: true\n"
					"  images:\n"
					"    - file: demo.bin\n"
					"    - file: /abs/data.bin\n"
					"      address: 0x80000\n"
					"  cmdline: \"mode=xapic "
					"report=10\"\n"),
			 0);
	assert_string_equal(plan.name, "demo");
	assert_true(plan.start);
	assert_int_equal(plan.n_images, 2);
	snprintf(want, sizeof(want), "%s/demo.bin", root);
	assert_string_equal(plan.images[0].file, want);
	assert_int_equal(plan.images[0].address, 0);
	assert_string_equal(plan.images[1].file, "/abs/data.bin");
	assert_int_equal(plan.images[1].address, 0x80000);
	assert_true(plan.has_cmdline);
	assert_string_equal(plan.cmdline, "mode=xapic report=10");
	assert_int_equal(plan.cmdline_address, BOOT_CMDLINE_ADDRESS);
}

/* A Linux cell: kernel and initrd relative to the config's folder, the
 * command-line words as given; no inmate images. */
static void linux_plan(void **state)
{
	char want[300];

	(void)state;
	assert_int_equal(read_plan(CELL "boot:\n"
					"  start: true\n"
					"  linux:\n"
					"    kernel: /boot/vmlinuz-6.1\n"
					"    initrd: cell.cpio\n"
					"    cmdline: \"quiet loglevel=3\"\n"),
			 0);
	assert_true(plan.start);
	assert_int_equal(plan.n_images, 0);
	assert_false(plan.has_cmdline);
	assert_string_equal(plan.linux_kernel, "/boot/vmlinuz-6.1");
	snprintf(want, sizeof(want), "%s/cell.cpio", root);
	assert_string_equal(plan.linux_initrd, want);
	assert_string_equal(plan.linux_cmdline, "quiet loglevel=3");
	/* only the kernel: no initrd, no words */
	assert_int_equal(read_plan(CELL "boot:\n  start: true\n  linux:\n"
					"    kernel: vmlinuz\n"),
			 0);
	snprintf(want, sizeof(want), "%s/vmlinuz", root);
	assert_string_equal(plan.linux_kernel, want);
	assert_string_equal(plan.linux_initrd, "");
	assert_string_equal(plan.linux_cmdline, "");
}

/* No boot section, or start: false: the cell is not started. */
static void not_started(void **state)
{
	(void)state;
	assert_int_equal(read_plan(CELL), 0);
	assert_false(plan.start);
	assert_int_equal(read_plan(CELL "boot:\n  start: false\n"), 0);
	assert_false(plan.start);
}

static void refusal(const char *boot, const char *want)
{
	char text[400], full[400];

	snprintf(text, sizeof(text), CELL "%s", boot);
	assert_int_equal(read_plan(text), -1);
	snprintf(full, sizeof(full), "%s:%s", path, want);
	assert_string_equal(err, full);
}

static void refusals(void **state)
{
	(void)state;
	refusal("boot:\n  start: yes\n", "5: boot.start: true or false is "
					 "needed");
	refusal("boot:\n  start: true\n  imagez: []\n", "6: unknown key "
							"'imagez' in boot");
	refusal("boot:\n  start: true\n", "5: boot: start: true needs an "
					  "image or linux");
	refusal("boot:\n  linux:\n    initrd: x\n", "6: boot.linux: 'kernel' "
						    "is missing");
	refusal("boot:\n  linux:\n    kernel: k\n    initrd: \"\"\n",
		"7: boot.linux.initrd: a file name is needed");
	refusal("boot:\n  linux:\n    kernel: k\n    image: x\n", "7: unknown "
								  "key 'image' "
								  "in boot");
	refusal("boot:\n  images:\n    - file: x\n  linux:\n    kernel: k\n",
		"8: boot: linux takes no images, cmdline or cmdline_address "
		"(its command line is linux.cmdline)");
	refusal("boot:\n  linux: vmlinuz\n", "5: boot.linux must be a mapping "
					     "(key: value)");
	refusal("boot:\n  images:\n    - address: 0\n", "6: boot.images[]: "
							"'file' is missing");
	refusal("boot:\n  images:\n    - file: x\n      address: zero\n",
		"7: boot.images[].address: a number is needed (e.g. 0 or "
		"0xff000)");
	refusal("boot: [1]\n", "4: boot must be a mapping (key: value)");
	assert_int_equal(read_plan("system:\n  x: 1\n"), -1);
	assert_non_null(strstr(err, "not a cell config with a cell.name"));
	snprintf(path, sizeof(path), "%s/none.yaml", root);
	assert_int_equal(boot_plan_read(path, &plan, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "none.yaml: cannot be read"));
}

static void cells_in_order(void **state)
{
	char **names, want[256];

	(void)state;
	put("20-b.yaml", "");
	put("10-a.yaml", "");
	put("notes.txt", "");
	put("30-c.yaml.example", "");
	assert_int_equal(boot_cells(root, &names, err, sizeof(err)), 2);
	snprintf(want, sizeof(want), "%s/10-a.yaml", root);
	assert_string_equal(names[0], want);
	snprintf(want, sizeof(want), "%s/20-b.yaml", root);
	assert_string_equal(names[1], want);
	assert_null(names[2]);
	free(names);
	assert_int_equal(boot_cells("/nonexistent", &names, err, sizeof(err)),
			 -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(full_plan, setup, teardown),
		cmocka_unit_test_setup_teardown(linux_plan, setup, teardown),
		cmocka_unit_test_setup_teardown(not_started, setup, teardown),
		cmocka_unit_test_setup_teardown(refusals, setup, teardown),
		cmocka_unit_test_setup_teardown(cells_in_order, setup,
						teardown),
	};

	return cmocka_run_group_tests_name("boot_plan", tests, NULL, NULL);
}
