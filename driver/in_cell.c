// SPDX-License-Identifier: GPL-2.0
/*
 * Where this kernel runs, decided once at module load (main.c), before
 * the link driver registers (docs/driver.md "In a Linux cell"):
 *
 *  - no CPUID leaf 0x40000000 + k * 0x100 (k < 0x100, Linux's own scan
 *    of the hypervisor range) says "WardenWarden": no Warden under this
 *    kernel; it is root before enable (today's path: everything as
 *    before).  On hardware without a hypervisor those leaves return
 *    another leaf's data, never the signature;
 *  - a leaf says it: Warden runs under this kernel.  Root's kernel after
 *    enable sees it at 0x40000000; a Linux cell at 0x40000100 (its
 *    0x40000000 says KVM: docs/linux-cell.md).  The hypervisor's answer
 *    tells the two apart: WARDEN_HC_HYPERVISOR_GET_INFO is a root call,
 *    and a cell gets -EPERM for it (as for every management hypercall;
 *    the call changes nothing).  -EPERM: in a cell; an answer >= 0: root
 *    with Warden enabled, a module loaded again while it runs (root's
 *    path, with a warning: this load does not know that enable).
 *
 * In a cell warden.ko only binds the cell's link functions, which Linux
 * found by its own PCI scan (they describe themselves in BAR 0); every
 * management ioctl is refused, named (WARDEN_RULE_IN_CELL).  The cell
 * makes no hypercall besides this one.
 */
#include <linux/kernel.h>
#include <linux/printk.h>

#include <asm/processor.h>

#include <warden/hypercall.h>

#include "warden-driver.h"

static bool in_cell;
static u32 signature_leaf;

/* The leaf of Warden's signature in the hypervisor range, or 0. */
static u32 find_signature(void)
{
	u32 leaf, a, b, c, d;

	for (leaf = 0x40000000; leaf < 0x40010000; leaf += 0x100) {
		cpuid(leaf, &a, &b, &c, &d);
		/* "Ward" "enWa" "rden", and the range's top leaf at least
		 * this one (Linux's hypervisor_cpuid_base does the same) */
		if (b == 0x64726157 && c == 0x61576e65 && d == 0x6e656472 &&
		    a >= leaf && a - leaf < 0x100)
			return leaf;
	}
	return 0;
}

void wd_detect_cell(void)
{
	long answer;

	signature_leaf = find_signature();
	if (!signature_leaf)
		return; /* root before enable */
	answer = wd_hypercall(WARDEN_HC_HYPERVISOR_GET_INFO,
			      WARDEN_INFO_NUM_CELLS, 0);
	if (answer == -WARDEN_EPERM) {
		in_cell = true;
		pr_info("warden: running in a Warden cell (CPUID 0x%x: "
			"WardenWarden; root's calls refused): binding the "
			"cell's link functions only\n",
			signature_leaf);
	} else {
		pr_warn("warden: Warden is enabled under this kernel (CPUID "
			"0x%x, %ld cells) but this driver did not enable it: "
			"it cannot manage it\n",
			signature_leaf, answer);
	}
}

bool wd_in_cell(void)
{
	return in_cell;
}

int wd_refuse_in_cell(struct warden_error *err, const char *what)
{
	struct wd_reason why = { .rule = WARDEN_RULE_IN_CELL,
				 .cpu = WARDEN_NO_CPU,
				 .values = { signature_leaf },
				 .text = what };

	return wd_error(err, -EPERM, &why,
			"%s: this kernel runs inside a Warden cell; only root "
			"manages Warden",
			what);
}
