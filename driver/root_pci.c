// SPDX-License-Identifier: GPL-2.0
/*
 * Root's PCI functions, described to the hypervisor at enable.
 *
 * After enable the hypervisor checks every BAR root moves or switches on:
 * it must lie in root's device memory and over no cell's.  The check needs
 * each BAR's size.  The system config lists only some functions, and
 * sizing a live BAR (writing all ones) would move it while it decodes.
 * Linux sized every BAR when it enumerated the bus, so its resources are
 * the sizes: they are handed over here (struct warden_root_function), at
 * enable, when root is trusted (it hands over the image too).  The list
 * also names every function whose MSI-X table the hypervisor must trap,
 * listed in the config or not.
 *
 * Warden's configuration-space traps cover segment 0 only (the ports and
 * the MMCONFIG window of the system config), so a function in another
 * segment would be out of its reach: enable is refused instead.
 */
#include <linux/mm.h>
#include <linux/pci.h>

#include <warden/hvheader.h>

#include "warden-driver.h"

int wd_root_pci_describe(struct warden_error *err,
			 struct warden_root_function **out, u32 *count)
{
	struct wd_reason why = { .rule = WARDEN_RULE_ROOT_PCI_UNDESCRIBED,
				 .item_kind = WARDEN_ITEM_SYSTEM,
				 .cpu = WARDEN_NO_CPU };
	struct warden_root_function *f, *fns;
	struct pci_dev *pdev = NULL;
	unsigned int i, n = 0;
	u16 bdf;

	fns = kvcalloc(WARDEN_ROOT_PCI_MAX, sizeof(*fns), GFP_KERNEL);
	if (!fns) {
		why.rule = WARDEN_RULE_NO_MEMORY;
		return wd_error(err, -ENOMEM, &why, "enable: out of memory");
	}
	for_each_pci_dev(pdev)
	{
		bdf = pci_dev_id(pdev);
		why.values[0] = (u64)pci_domain_nr(pdev->bus) << 16 | bdf;
		why.values[2] = WARDEN_ROOT_PCI_MAX;
		if (pci_domain_nr(pdev->bus) || n == WARDEN_ROOT_PCI_MAX) {
			int ret;

			why.values[1] = n == WARDEN_ROOT_PCI_MAX;
			ret = wd_error(err, -E2BIG, &why,
				       "enable: PCI function %s cannot be "
				       "described to the hypervisor (%s)",
				       pci_name(pdev),
				       why.values[1] ? "too many functions"
						     : "segment other than 0");
			pci_dev_put(pdev);
			kvfree(fns);
			return ret;
		}
		f = &fns[n++];
		f->bdf = bdf;
		for (i = 0; i < ARRAY_SIZE(f->bar_size); i++)
			f->bar_size[i] = pci_resource_len(pdev, i);
		f->rom_size = pci_resource_len(pdev, PCI_ROM_RESOURCE);
	}
	*out = fns;
	*count = n;
	return 0;
}
