/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What "warden up" does with a cell config of /etc/warden/cells/: the
 * cell config's "boot:" section (docs/install.md), which the config
 * compiler leaves alone:
 *
 *   boot:
 *     start: true                 # false or no boot: section: not started
 *     images:                     # "warden cell load" of each, in order
 *       - file: tiny-demo.bin     # relative to the config's folder
 *         address: 0              # guest-physical; default 0
 *     cmdline: "mode=xapic"       # optional: the inmate's command line,
 *     cmdline_address: 0xff000    # at libinmate's address by default
 *
 * or, for a Linux cell ("warden cell linux", docs/linux-cell.md), instead
 * of images, cmdline and cmdline_address:
 *
 *   boot:
 *     start: true
 *     linux:
 *       kernel: /boot/vmlinuz-6.1.0-57-amd64   # relative: the config's
 *       initrd: cell-initrd.cpio               # optional, likewise
 *       cmdline: "quiet"                       # optional: added words
 */
#ifndef WARDEN_TOOLS_BOOT_PLAN_H
#define WARDEN_TOOLS_BOOT_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <warden/config.h>

#define BOOT_MAX_IMAGES 8
#define BOOT_PATH_MAX 512
#define BOOT_CMDLINE_MAX 4096
#define BOOT_CMDLINE_ADDRESS 0xff000 /* INMATE_CMDLINE, docs/inmates.md */

struct boot_image {
	char file[BOOT_PATH_MAX];
	uint64_t address;
};

struct boot_plan {
	char name[WARDEN_NAME_LEN + 1]; /* cell.name */
	bool start;
	struct boot_image images[BOOT_MAX_IMAGES];
	size_t n_images;
	bool has_cmdline;
	char cmdline[BOOT_CMDLINE_MAX];
	uint64_t cmdline_address;
	/* a Linux cell: linux_kernel set; initrd and cmdline optional ("") */
	char linux_kernel[BOOT_PATH_MAX];
	char linux_initrd[BOOT_PATH_MAX];
	char linux_cmdline[BOOT_CMDLINE_MAX];
};

/*
 * Reads the boot plan of the cell config in file.  Returns 0, or -1 with
 * "file:line: reason" in err.  A start: true plan needs at least one
 * image, or a Linux kernel (never both).
 */
int boot_plan_read(const char *file, struct boot_plan *p, char *err,
		   size_t len);

/* Cell configs of dir (*.yaml), sorted by name: their number, or -1 with
 * the reason in err.  *names is one allocation: free(*names). */
int boot_cells(const char *dir, char ***names, char *err, size_t len);

#endif /* WARDEN_TOOLS_BOOT_PLAN_H */
