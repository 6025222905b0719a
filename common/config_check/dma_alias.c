// SPDX-License-Identifier: GPL-2.0
/*
 * Rule PCI_DMA_ALIAS: functions the IOMMU cannot tell apart have one
 * owner.
 *
 * The IOMMU picks a function's domain by the requester id of its DMA
 * (VT-d specification, chapter 3: bus, device and function index the
 * root and context tables).  A bridge may put another id on the requests
 * it forwards: a PCIe-to-PCI bridge the id of its secondary bus with
 * device and function 0 (requests from conventional PCI carry no
 * requester id, the bridge makes one), a conventional PCI-to-PCI bridge
 * its own -- the aliases Linux maps too (pci_for_each_dma_alias,
 * drivers/pci/search.c).  Such a function's DMA may
 * carry either id (the system config's dma_alias), and every function
 * that shares one with it -- behind the same bridge, or the one whose
 * own id the alias is -- lands in the same context entry.  So a cell
 * takes such a function only with all of them; the hypervisor points the
 * alias's context entry at the owner's domain with the function's own
 * (iommu.c, move).  Without an IOMMU the rule has no object: the cell
 * takes the function with dma_unisolated, confined by nothing.
 */
#include "check.h"

/* Function j of c's list: its id (segment << 16 | bdf), and its alias as
 * the same (its segment's), or its id again when it has none. */
static uint32_t ids(const struct cell *c, uint32_t j, uint32_t *alias)
{
	size_t off = c->pci_off + (size_t)j * PCI_SIZE;
	uint32_t id = cc_pci_id_at(c, j);

	*alias = load32(c->blob, off + PCI_OFF(flags)) & WARDEN_PCI_DMA_ALIAS
			 ? (id & 0xffff0000u) |
				   load16(c->blob, off + PCI_OFF(dma_alias))
			 : id;
	return id;
}

void cc_check_pci_alias(struct checker *ck, const struct cell *c,
			const struct system *sys)
{
	const struct cell *root = &sys->root;
	uint32_t i, j, id, alias, other, other_alias, rid;
	int64_t k;

	if (!sys->iommu_base)
		return;
	for (i = 0; i < c->num_pci; i++) {
		k = cc_find_pci(root, cc_pci_id_at(c, i));
		if (k < 0)
			continue; /* PCI_NOT_IN_SYSTEM */
		/* the system's entry: its alias is the machine's */
		id = ids(root, (uint32_t)k, &alias);
		for (j = 0; j < root->num_pci; j++) {
			other = ids(root, j, &other_alias);
			/* another function aliased to its id, or carrying
			 * its alias (as its own id or alias) */
			rid = other_alias == id ? id : alias;
			if ((other_alias == id || other == alias ||
			     other_alias == alias) &&
			    cc_find_pci(c, other) < 0) {
				cc_fail(ck, WARDEN_RULE_PCI_DMA_ALIAS,
					WARDEN_ITEM_PCI_DEVICE, i, id,
					rid & 0xffff, other, 0);
				break;
			}
		}
	}
}
