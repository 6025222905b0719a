// SPDX-License-Identifier: GPL-2.0
/*
 * A cell's PCI functions and root Linux, through the PCI core's sysfs
 * files: a function's driver_override naming no driver keeps every
 * driver off it, and its driver's unbind lets go of it; clearing
 * driver_override and writing its name to /sys/bus/pci/drivers_probe
 * binds a driver again.  Linux keeps the function meanwhile, with its
 * BARs where they are (a remove and rescan would make it assign new
 * ones, and the hypervisor keeps a BAR that holds a trapped MSI-X table
 * where it is).  Each is done when the write returns.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <warden/config.h>

#include "pci_linux.h"

void pci_fn_name(const struct pci_fn *fn, char buf[PCI_NAME_LEN])
{
	snprintf(buf, PCI_NAME_LEN, "%04x:%02x:%02x.%u", fn->domain,
		 fn->bdf >> 8, (fn->bdf >> 3) & 0x1f, fn->bdf & 7);
}

int pci_parse_name(const char *s, struct pci_fn *fn)
{
	unsigned int domain, bus, dev, func;
	int end = 0;

	if (sscanf(s, "%4x:%2x:%2x.%1u%n", &domain, &bus, &dev, &func, &end) !=
		    4 ||
	    strlen(s) < 12 || (s[end] && strcmp(s + end, "\n")) || dev > 0x1f ||
	    func > 7)
		return -EINVAL;
	memset(fn, 0, sizeof(*fn));
	fn->domain = (uint16_t)domain;
	fn->bdf = (uint16_t)(bus << 8 | dev << 3 | func);
	return 0;
}

int pci_sysfs_path(char *buf, size_t len, const char *sysfs,
		   const struct pci_fn *fn, const char *attr)
{
	char name[PCI_NAME_LEN];
	int n;

	pci_fn_name(fn, name);
	n = snprintf(buf, len, "%s/bus/pci/devices/%s%s%s", sysfs, name,
		     attr ? "/" : "", attr ? attr : "");
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int pci_config_functions(const void *blob, size_t size, struct pci_fn *out,
			 unsigned int max)
{
	const size_t start = sizeof(struct warden_config_header);
	struct warden_cell_desc desc;
	struct warden_pci_device dev;
	const uint8_t *arr;
	unsigned int i;

	if (!blob || size < start + sizeof(desc))
		return -EINVAL;
	memcpy(&desc, (const uint8_t *)blob + start, sizeof(desc));
	if (start + sizeof(desc) + warden_cell_arrays_size(&desc) > size)
		return -EINVAL;
	if (desc.num_pci_devices > max)
		return -E2BIG;
	/* the arrays follow the descriptor in the blob, not in desc */
	arr = (const uint8_t *)warden_cell_pci_devices(
		(const struct warden_cell_desc *)((const uint8_t *)blob +
						  start));
	for (i = 0; i < desc.num_pci_devices; i++) {
		memcpy(&dev, arr + (size_t)i * sizeof(dev), sizeof(dev));
		out[i].domain = dev.domain;
		out[i].bdf = dev.bdf;
		out[i].vendor = dev.vendor_id;
		out[i].device = dev.device_id;
	}
	return (int)desc.num_pci_devices;
}

int pci_cell_functions(const char *sysfs, uint32_t id, struct pci_fn *out,
		       unsigned int max)
{
	char path[256], line[64];
	unsigned int n = 0;
	FILE *f;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/kernel/warden/cells/%u/pci_devices",
		 sysfs, id);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (!ret && fgets(line, sizeof(line), f)) {
		if (n == max)
			ret = -E2BIG;
		else
			ret = pci_parse_name(line, &out[n++]);
	}
	if (!ret && ferror(f))
		ret = -EIO;
	fclose(f);
	return ret ? ret : (int)n;
}

/* A hexadecimal id file ("0x8086\n"): 0 or a negative errno. */
static int read_id(const char *path, uint16_t *value)
{
	char line[32], *end;
	unsigned long v;
	FILE *f = fopen(path, "r");
	int ret = 0;

	if (!f)
		return -errno;
	if (!fgets(line, sizeof(line), f))
		ret = -EIO;
	fclose(f);
	if (ret)
		return ret;
	v = strtoul(line, &end, 16);
	if (end == line || (*end && *end != '\n') || v > 0xffff)
		return -EINVAL;
	*value = (uint16_t)v;
	return 0;
}

int pci_read_ids(const char *sysfs, const struct pci_fn *fn, uint16_t *vendor,
		 uint16_t *device)
{
	char path[256];
	struct stat st;
	int ret;

	ret = pci_sysfs_path(path, sizeof(path), sysfs, fn, NULL);
	if (ret)
		return ret;
	if (stat(path, &st))
		return -errno;
	ret = pci_sysfs_path(path, sizeof(path), sysfs, fn, "vendor");
	if (!ret)
		ret = read_id(path, vendor);
	if (!ret)
		ret = pci_sysfs_path(path, sizeof(path), sysfs, fn, "device");
	if (!ret)
		ret = read_id(path, device);
	return ret;
}

void pci_driver(const char *sysfs, const struct pci_fn *fn, char *buf,
		size_t len)
{
	char path[256], target[256];
	const char *base;
	ssize_t n;

	buf[0] = 0;
	if (pci_sysfs_path(path, sizeof(path), sysfs, fn, "driver"))
		return;
	n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0)
		return;
	target[n] = 0;
	base = strrchr(target, '/');
	snprintf(buf, len, "%s", base ? base + 1 : target);
}

/* One function is there with the config's ids; else say why. */
static int check_one(FILE *err, const char *sysfs, const struct pci_fn *fn,
		     const char *what)
{
	char name[PCI_NAME_LEN], path[256];
	uint16_t vendor, device;
	int ret = pci_read_ids(sysfs, fn, &vendor, &device);

	pci_fn_name(fn, name);
	if (ret == -ENOENT) {
		fprintf(err,
			"warden: %s: %s is not in Linux's PCI tree; the "
			"config names a function this machine does not have "
			"(see /sys/bus/pci/devices), or it was removed "
			"by hand (echo 1 > /sys/bus/pci/rescan gives it "
			"back)\n",
			what, name);
		return ret;
	}
	if (ret) {
		pci_sysfs_path(path, sizeof(path), sysfs, fn, NULL);
		fprintf(err,
			"warden: %s: cannot read the ids of %s in %s: %s\n",
			what, name, path, strerror(-ret));
		return ret;
	}
	if (vendor != fn->vendor || device != fn->device) {
		fprintf(err,
			"warden: %s: %s is %04x:%04x in Linux, the config "
			"says %04x:%04x: another device than the config's "
			"(is the config for this machine?)\n",
			what, name, vendor, device, fn->vendor, fn->device);
		return -EINVAL;
	}
	return 0;
}

int pci_check(FILE *err, const char *sysfs, const struct pci_fn *fns,
	      unsigned int n, const char *what)
{
	unsigned int i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = check_one(err, sysfs, &fns[i], what);
		if (ret)
			return ret;
	}
	return 0;
}

/* Write "1" to path: 0 or a negative errno. */
/* Write text to the sysfs attribute at path: 0 or a negative errno. */
static int write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	size_t len = strlen(text);
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, text, len) != (ssize_t)len)
		ret = errno ? -errno : -EIO;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

/*
 * Take one function from Linux: driver_override names no driver, so that
 * none binds it while the cell has it, then its driver (if any) is
 * unbound.  Linux keeps the function and its BARs where they are.
 */
static int release_one(FILE *out, FILE *err, const char *sysfs,
		       const struct pci_fn *fn, const char *what,
		       const char *cell)
{
	char name[PCI_NAME_LEN], path[256], drv[64], bound[80];
	int ret;

	pci_fn_name(fn, name);
	pci_driver(sysfs, fn, drv, sizeof(drv));
	snprintf(bound, sizeof(bound), drv[0] ? "driver %s" : "no driver%s",
		 drv);
	ret = pci_sysfs_path(path, sizeof(path), sysfs, fn, "driver_override");
	if (!ret)
		ret = write_text(path, PCI_NO_DRIVER);
	if (!ret && drv[0]) {
		ret = pci_sysfs_path(path, sizeof(path), sysfs, fn,
				     "driver/unbind");
		if (!ret)
			ret = write_text(path, name);
	}
	if (ret) {
		fprintf(err,
			"warden: %s: Linux could not let go of %s (%04x:%04x, "
			"%s): writing %s: %s\n",
			what, name, fn->vendor, fn->device, bound, path,
			strerror(-ret));
		return ret;
	}
	pci_driver(sysfs, fn, drv, sizeof(drv));
	if (drv[0]) {
		fprintf(err,
			"warden: %s: Linux did not let go of %s (%04x:%04x, "
			"%s): driver %s is still bound after its unbind\n",
			what, name, fn->vendor, fn->device, bound, drv);
		return -EBUSY;
	}
	fprintf(out,
		"%s: %s (%04x:%04x, %s) taken from Linux for cell \"%s\"\n",
		what, name, fn->vendor, fn->device, bound, cell);
	return 0;
}

int pci_give_up(FILE *out, FILE *err, const char *sysfs,
		const struct pci_fn *fns, unsigned int n, const char *what,
		const char *cell)
{
	unsigned int i;
	int ret;

	ret = pci_check(err, sysfs, fns, n, what);
	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		ret = release_one(out, err, sysfs, &fns[i], what, cell);
		if (ret)
			goto give_back;
	}
	return 0;
give_back:
	/* the one that failed may be half released: give it back too */
	pci_give_back(out, err, sysfs, fns, i + 1, what);
	return ret;
}

unsigned int pci_give_back(FILE *out, FILE *err, const char *sysfs,
			   const struct pci_fn *fns, unsigned int n,
			   const char *what)
{
	char name[PCI_NAME_LEN], path[256], drv[64];
	unsigned int i, missing = 0;
	int ret;

	for (i = 0; i < n; i++) {
		pci_fn_name(&fns[i], name);
		ret = pci_sysfs_path(path, sizeof(path), sysfs, &fns[i],
				     "driver_override");
		if (!ret)
			ret = write_text(path, "\n");
		if (!ret) {
			snprintf(path, sizeof(path), "%s/bus/pci/drivers_probe",
				 sysfs);
			ret = write_text(path, name);
			/* no driver for it is not a failure */
			if (ret == -ENODEV || ret == -EINVAL)
				ret = 0;
		}
		if (ret) {
			fprintf(err,
				"warden: %s: warning: %s not given back to "
				"Linux (writing %s: %s); retry: echo > "
				"%s/bus/pci/devices/%s/driver_override; echo "
				"%s > %s/bus/pci/drivers_probe\n",
				what, name, path, strerror(-ret), sysfs, name,
				name, sysfs);
			missing++;
			continue;
		}
		pci_driver(sysfs, &fns[i], drv, sizeof(drv));
		fprintf(out, "%s: %s back in Linux (%s%s)\n", what, name,
			drv[0] ? "driver " : "no driver", drv);
	}
	return missing;
}
