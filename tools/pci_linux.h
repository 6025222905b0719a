/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A cell's PCI functions and root Linux: "cell create" makes Linux let go
 * of them (driver_override, the driver unbound), "cell destroy" and
 * "disable" give them back (driver_override cleared, drivers_probe).  Every path is under a sysfs root ("/sys"; a directory
 * of fake files in the unit tests).
 */
#ifndef WARDEN_TOOLS_PCI_LINUX_H
#define WARDEN_TOOLS_PCI_LINUX_H

/* What driver_override holds while a cell has the function: the name of
 * no driver, so that none binds it. */
#define PCI_NO_DRIVER "warden-cell"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define PCI_SYSFS "/sys"
/* "0000:00:02.0" and its NUL */
#define PCI_NAME_LEN 13
/* functions of one cell (CONFIG_CHECK_MAX_PCI_DEVICES) */
#define PCI_MAX_FUNCTIONS 256u

/* A PCI function; the ids are 0 when not known (a cell's sysfs list). */
struct pci_fn {
	uint16_t domain;
	uint16_t bdf; /* bus << 8 | device << 3 | function */
	uint16_t vendor;
	uint16_t device;
};

/* Linux's name of a function: "0000:00:02.0". */
void pci_fn_name(const struct pci_fn *fn, char buf[PCI_NAME_LEN]);

/* Parse Linux's name ("0000:00:02.0", a trailing newline allowed): 0 or
 * -EINVAL. */
int pci_parse_name(const char *s, struct pci_fn *fn);

/* <sysfs>/bus/pci/devices/<name>[/<attr>] in buf: 0, or -ENAMETOOLONG.
 * attr may be NULL (the directory). */
int pci_sysfs_path(char *buf, size_t len, const char *sysfs,
		   const struct pci_fn *fn, const char *attr);

/* The functions a cell config (a compiled blob) takes: their number, or
 * -EINVAL if the blob is too short for its counts, -E2BIG if more than
 * max. */
int pci_config_functions(const void *blob, size_t size, struct pci_fn *out,
			 unsigned int max);

/* The functions of cell id as the driver lists them
 * (<sysfs>/kernel/warden/cells/<id>/pci_devices): their number, or a
 * negative errno (-ENOENT: no such file). */
int pci_cell_functions(const char *sysfs, uint32_t id, struct pci_fn *out,
		       unsigned int max);

/* The vendor and device ids Linux reads for fn: 0, -ENOENT when Linux
 * does not have the function, another negative errno if they cannot be
 * read. */
int pci_read_ids(const char *sysfs, const struct pci_fn *fn, uint16_t *vendor,
		 uint16_t *device);

/* The driver bound to fn ("e1000"), or "" when none. */
void pci_driver(const char *sysfs, const struct pci_fn *fn, char *buf,
		size_t len);

/* Every function is in Linux's PCI tree with the ids fn gives: 0, or
 * -ENOENT / -EINVAL (other ids) / another negative errno after saying
 * "warden: <what>: ..." on err. */
int pci_check(FILE *err, const char *sysfs, const struct pci_fn *fns,
	      unsigned int n, const char *what);

/* Make Linux let go of every function (pci_check first): no driver may
 * bind it (driver_override PCI_NO_DRIVER) and its driver is unbound, said
 * on out ("<what>: 0000:00:02.0 (8086:100e, driver e1000) taken from
 * Linux for cell "name""). 0, or a negative errno after saying why on
 * err and giving back those already taken. */
int pci_give_up(FILE *out, FILE *err, const char *sysfs,
		const struct pci_fn *fns, unsigned int n, const char *what,
		const char *cell);

/* Give the functions back to Linux (driver_override cleared, then
 * drivers_probe) and say for each what driver took it on out ("<what>:
 * 0000:00:02.0 back in Linux (driver e1000)"), or on err that it could
 * not be given back and how to retry: the number not given back. */
unsigned int pci_give_back(FILE *out, FILE *err, const char *sysfs,
			   const struct pci_fn *fns, unsigned int n,
			   const char *what);

#endif /* WARDEN_TOOLS_PCI_LINUX_H */
