// SPDX-License-Identifier: GPL-2.0
/*
 * tools/pci_linux.c on a fake sysfs tree in a temporary directory: names
 * and paths of PCI functions, a cell config's functions, the driver's
 * per-cell list, and the checks and messages of "cell create" and "cell
 * destroy".  A fake tree keeps a driver bound after its unbind is
 * written, like a Linux that cannot let go of a function.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <warden/config.h>

#include "cmocka_wrap.h"
#include "fake_tree.h"
#include "pci_linux.h"

/* 0000:00:02.0, an e1000 bound to its driver */
static int setup(void **state)
{
	char link[256];

	(void)state;
	strcpy(root, "/tmp/wd-pci-XXXXXX");
	assert_non_null(mkdtemp(root));
	dir("bus");
	dir("bus/pci");
	dir("bus/pci/devices");
	dir("bus/pci/drivers");
	dir("bus/pci/drivers/e1000");
	dir("bus/pci/devices/0000:00:02.0");
	put("bus/pci/devices/0000:00:02.0/vendor", "0x8086\n");
	put("bus/pci/devices/0000:00:02.0/device", "0x100e\n");
	snprintf(link, sizeof(link), "%s/bus/pci/devices/0000:00:02.0/driver",
		 root);
	/* relative to the fake tree (Linux links from /sys/devices) */
	assert_int_equal(symlink("../../drivers/e1000", link), 0);
	dir("kernel");
	dir("kernel/warden");
	dir("kernel/warden/cells");
	dir("kernel/warden/cells/1");
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
	return 0;
}

/* Output written to a memory stream, as a string. */
struct capture {
	char *buf;
	size_t len;
	FILE *f;
};

static FILE *capture_open(struct capture *c)
{
	c->buf = NULL;
	c->len = 0;
	c->f = open_memstream(&c->buf, &c->len);
	assert_non_null(c->f);
	return c->f;
}

static const char *capture_text(struct capture *c)
{
	fflush(c->f);
	return c->buf;
}

static void capture_close(struct capture *c)
{
	fclose(c->f);
	free(c->buf);
}

static const struct pci_fn e1000 = { 0, 0x0010, 0x8086, 0x100e };

static void names(void **state)
{
	struct pci_fn fn = { 0x1234, 0, 0, 0 };
	char name[PCI_NAME_LEN], path[80];

	(void)state;
	pci_fn_name(&e1000, name);
	assert_string_equal(name, "0000:00:02.0");
	fn.bdf = 0xfe << 8 | 0x1f << 3 | 7;
	pci_fn_name(&fn, name);
	assert_string_equal(name, "1234:fe:1f.7");
	assert_int_equal(pci_parse_name("0000:00:02.0\n", &fn), 0);
	assert_int_equal(fn.domain, 0);
	assert_int_equal(fn.bdf, 0x10);
	assert_int_equal(pci_parse_name("1234:fe:1f.7", &fn), 0);
	assert_int_equal(fn.domain, 0x1234);
	assert_int_equal(fn.bdf, 0xfeff);
	assert_int_equal(pci_parse_name("00:02.0", &fn), -EINVAL);
	assert_int_equal(pci_parse_name("0000:00:20.0", &fn), -EINVAL);
	assert_int_equal(pci_parse_name("0000:00:02.8", &fn), -EINVAL);
	assert_int_equal(pci_parse_name("0000:00:02.0x", &fn), -EINVAL);
	assert_int_equal(pci_sysfs_path(path, sizeof(path), "/sys", &e1000,
					"remove"),
			 0);
	assert_string_equal(path, "/sys/bus/pci/devices/0000:00:02.0/remove");
	assert_int_equal(
		pci_sysfs_path(path, sizeof(path), "/sys", &e1000, NULL), 0);
	assert_string_equal(path, "/sys/bus/pci/devices/0000:00:02.0");
	assert_int_equal(pci_sysfs_path(path, 20, "/sys", &e1000, NULL),
			 -ENAMETOOLONG);
}

/* A cell config blob with one memory region and two PCI functions. */
static void config_functions(void **state)
{
	struct {
		struct warden_config_header h;
		struct warden_cell_desc d;
		struct warden_mem_region m;
		struct warden_pci_device p[2];
	} blob;
	struct pci_fn fns[4];

	(void)state;
	memset(&blob, 0, sizeof(blob));
	blob.d.num_memory_regions = 1;
	blob.d.num_pci_devices = 2;
	blob.p[0].bdf = 0x10;
	blob.p[0].vendor_id = 0x8086;
	blob.p[0].device_id = 0x100e;
	blob.p[1].domain = 1;
	blob.p[1].bdf = 0x18;
	blob.p[1].vendor_id = 0x1234;
	blob.p[1].device_id = 0x11e8;
	assert_int_equal(pci_config_functions(&blob, sizeof(blob), fns, 4), 2);
	assert_memory_equal(&fns[0], &e1000, sizeof(e1000));
	assert_int_equal(fns[1].domain, 1);
	assert_int_equal(fns[1].bdf, 0x18);
	assert_int_equal(fns[1].vendor, 0x1234);
	assert_int_equal(fns[1].device, 0x11e8);
	assert_int_equal(pci_config_functions(&blob, sizeof(blob), fns, 1),
			 -E2BIG);
	assert_int_equal(pci_config_functions(&blob, sizeof(blob) - 1, fns, 4),
			 -EINVAL);
	blob.d.num_pci_devices = 0;
	assert_int_equal(pci_config_functions(&blob, sizeof(blob), fns, 4), 0);
}

static void cell_list(void **state)
{
	struct pci_fn fns[4];

	(void)state;
	assert_int_equal(pci_cell_functions(root, 2, fns, 4), -ENOENT);
	put("kernel/warden/cells/1/pci_devices", "");
	assert_int_equal(pci_cell_functions(root, 1, fns, 4), 0);
	put("kernel/warden/cells/1/pci_devices", "0000:00:02.0\n0001:00:03."
						 "0\n");
	assert_int_equal(pci_cell_functions(root, 1, fns, 4), 2);
	assert_int_equal(fns[0].bdf, 0x10);
	assert_int_equal(fns[1].domain, 1);
	assert_int_equal(fns[1].bdf, 0x18);
	assert_int_equal(pci_cell_functions(root, 1, fns, 1), -E2BIG);
	put("kernel/warden/cells/1/pci_devices", "00:02.0\n");
	assert_int_equal(pci_cell_functions(root, 1, fns, 4), -EINVAL);
}

static void ids_and_driver(void **state)
{
	struct pci_fn other = { 0, 0x18, 0, 0 };
	uint16_t vendor = 0, device = 0;
	char drv[32];

	(void)state;
	assert_int_equal(pci_read_ids(root, &e1000, &vendor, &device), 0);
	assert_int_equal(vendor, 0x8086);
	assert_int_equal(device, 0x100e);
	assert_int_equal(pci_read_ids(root, &other, &vendor, &device), -ENOENT);
	pci_driver(root, &e1000, drv, sizeof(drv));
	assert_string_equal(drv, "e1000");
	pci_driver(root, &other, drv, sizeof(drv));
	assert_string_equal(drv, "");
}

static void check_refusals(void **state)
{
	struct pci_fn wrong = e1000, missing = { 0, 0x28, 0x8086, 0x100e };
	struct capture err;

	(void)state;
	assert_int_equal(pci_check(capture_open(&err), root, &e1000, 1,
				   "cell create"),
			 0);
	assert_string_equal(capture_text(&err), "");
	capture_close(&err);

	wrong.vendor = 0x8087;
	assert_int_equal(pci_check(capture_open(&err), root, &wrong, 1,
				   "cell create"),
			 -EINVAL);
	assert_non_null(strstr(capture_text(&err), "warden: cell create: "
						   "0000:00:02.0 is 8086:100e "
						   "in Linux, the config says "
						   "8087:100e"));
	capture_close(&err);

	assert_int_equal(pci_check(capture_open(&err), root, &missing, 1,
				   "cell create"),
			 -ENOENT);
	assert_non_null(strstr(capture_text(&err), "warden: cell create: "
						   "0000:00:05.0 is not in "
						   "Linux's PCI tree"));
	capture_close(&err);
}

/* The file at rel in the fake tree holds text (its first line). */
static void holds(const char *rel, const char *text)
{
	char path[256], line[64] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "r");
	assert_non_null(f);
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	assert_string_equal(line, text);
}

/* No driver_override attribute: refused, said.  A driver that stays bound
 * after its unbind (the fake tree keeps the link): refused, said, and the
 * function given back (driver_override cleared, drivers_probe written). */
static void release_refused(void **state)
{
	struct capture out, err;

	(void)state;
	assert_int_equal(pci_give_up(capture_open(&out), capture_open(&err),
				     root, &e1000, 1, "cell create",
				     "pci-demo"),
			 -ENOENT);
	assert_non_null(strstr(capture_text(&err), "warden: cell create: Linux "
						   "could not let go "
						   "of 0000:00:02.0 "
						   "(8086:100e, driver e1000): "
						   "writing "));
	assert_non_null(strstr(capture_text(&err), "driver_override: No such"));
	capture_close(&out);
	capture_close(&err);

	put("bus/pci/devices/0000:00:02.0/driver_override", "");
	put("bus/pci/drivers/e1000/unbind", "");
	put("bus/pci/drivers_probe", "");
	assert_int_equal(pci_give_up(capture_open(&out), capture_open(&err),
				     root, &e1000, 1, "cell create",
				     "pci-demo"),
			 -EBUSY);
	assert_non_null(strstr(capture_text(&err), "warden: cell create: Linux "
						   "did not let go of "
						   "0000:00:02.0 (8086:100e, "
						   "driver e1000): driver "
						   "e1000 is still bound"));
	assert_non_null(strstr(capture_text(&out), "cell create: 0000:00:02.0 "
						   "back in Linux "
						   "(driver e1000)\n"));
	capture_close(&out);
	capture_close(&err);
	holds("bus/pci/drivers/e1000/unbind", "0000:00:02.0");
	holds("bus/pci/devices/0000:00:02.0/driver_override", "\n");
	holds("bus/pci/drivers_probe", "0000:00:02.0");
}

/* A function without a driver is taken: driver_override set, no unbind. */
static void release_taken(void **state)
{
	struct pci_fn edu = { 0, 0x18, 0x1234, 0x11e8 };
	struct capture out, err;

	(void)state;
	dir("bus/pci/devices/0000:00:03.0");
	put("bus/pci/devices/0000:00:03.0/vendor", "0x1234\n");
	put("bus/pci/devices/0000:00:03.0/device", "0x11e8\n");
	put("bus/pci/devices/0000:00:03.0/driver_override", "");
	assert_int_equal(pci_give_up(capture_open(&out), capture_open(&err),
				     root, &edu, 1, "cell create", "pci-demo"),
			 0);
	assert_string_equal(capture_text(&out), "cell create: 0000:00:03.0 "
						"(1234:11e8, no driver) "
						"taken from Linux for cell "
						"\"pci-demo\"\n");
	capture_close(&out);
	capture_close(&err);
	holds("bus/pci/devices/0000:00:03.0/driver_override", PCI_NO_DRIVER);
}

/* Given back with its driver or none; one whose attributes cannot be
 * written is counted and said, with how to retry. */
static void give_back(void **state)
{
	struct pci_fn fns[2] = { e1000, { 0, 0x18, 0, 0 } };
	struct capture out, err;

	(void)state;
	assert_int_equal(pci_give_back(capture_open(&out), capture_open(&err),
				       root, fns, 2, "cell destroy"),
			 2);
	assert_non_null(strstr(capture_text(&err), "warden: cell destroy: "
						   "warning: 0000:00:02.0 not "
						   "given back to Linux"));
	assert_non_null(strstr(capture_text(&err), "drivers_probe"));
	capture_close(&out);
	capture_close(&err);

	put("bus/pci/devices/0000:00:02.0/driver_override", PCI_NO_DRIVER);
	dir("bus/pci/devices/0000:00:03.0");
	put("bus/pci/devices/0000:00:03.0/driver_override", PCI_NO_DRIVER);
	put("bus/pci/drivers_probe", "");
	assert_int_equal(pci_give_back(capture_open(&out), capture_open(&err),
				       root, fns, 2, "cell destroy"),
			 0);
	assert_string_equal(capture_text(&out), "cell destroy: 0000:00:02.0 "
						"back in Linux (driver "
						"e1000)\ncell destroy: "
						"0000:00:03.0 back in Linux "
						"(no driver)\n");
	capture_close(&out);
	capture_close(&err);
	holds("bus/pci/devices/0000:00:03.0/driver_override", "\n");
	holds("bus/pci/drivers_probe", "0000:00:03.0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names),
		cmocka_unit_test(config_functions),
		cmocka_unit_test_setup_teardown(cell_list, setup, teardown),
		cmocka_unit_test_setup_teardown(ids_and_driver, setup,
						teardown),
		cmocka_unit_test_setup_teardown(check_refusals, setup,
						teardown),
		cmocka_unit_test_setup_teardown(release_refused, setup,
						teardown),
		cmocka_unit_test_setup_teardown(release_taken, setup, teardown),
		cmocka_unit_test_setup_teardown(give_back, setup, teardown),
	};

	return cmocka_run_group_tests_name("pci_linux", tests, NULL, NULL);
}
