// SPDX-License-Identifier: GPL-2.0
/*
 * Root's PCI functions as Linux had them at enable (contracts in
 * pci_dev.h): the driver's list (struct warden_root_function,
 * include/warden/hvheader.h) in hypervisor memory, which root cannot
 * reach once Warden is enabled.  Root is trusted at enable -- it hands
 * over the hypervisor image itself -- so the sizes are Linux's own
 * (pci_resource_len), and checking root's BAR moves with them needs no
 * sizing of live BARs, which would move them while they decode.  The
 * list's place is still checked, as every value the driver gives.
 */
#include "pci_dev.h"
#include <hv/hypervisor.h>
#include <hv/paging.h>
#include <hv/printk.h>
#include <warden/hvheader.h>
#include <warden/hypercall.h>

static const struct warden_root_function *fns;
static u32 num_fns;

int pci_root_fns_init(struct per_cpu *pc)
{
	const struct warden_hv_header *h = hv.header;
	u64 end = h->root_pci_offset +
		  (u64)h->root_pci_count * sizeof(struct warden_root_function);

	if (h->root_pci_entry_size != sizeof(struct warden_root_function) ||
	    h->root_pci_count > WARDEN_ROOT_PCI_MAX ||
	    (h->root_pci_offset & (PAGE_SIZE - 1)) ||
	    h->root_pci_offset < h->config_offset + h->config_size ||
	    end > h->console_offset) {
		hv_set_error(pc, -WARDEN_EINVAL, WARDEN_RULE_CPU_SETUP_FAILED,
			     WARDEN_ITEM_SYSTEM, 0, 4, -WARDEN_EINVAL);
		return -WARDEN_EINVAL;
	}
	fns = (const void *)(WARDEN_HV_BASE + h->root_pci_offset);
	num_fns = h->root_pci_count;
	printk("PCI: %u functions from Linux's enumeration\n", num_fns);
	return 0;
}

const struct warden_root_function *pci_root_fn(u16 bdf)
{
	u32 i;

	for (i = 0; i < num_fns; i++)
		if (fns[i].bdf == bdf)
			return &fns[i];
	return NULL;
}

const struct warden_root_function *pci_root_fn_at(u32 i)
{
	return i < num_fns ? &fns[i] : NULL;
}
