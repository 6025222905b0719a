/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Virtual PCI functions: configuration space emulated by another unit
 * (the link unit, link.c) and answered by the PCI unit's trap (pci.c) at
 * a bdf of one cell, root included.  The function is seen only by that
 * cell; the validator keeps the bdf clear of the cell's physical
 * functions.
 */
#ifndef WARDEN_ASM_PCI_VIRT_H
#define WARDEN_ASM_PCI_VIRT_H

#include <hv/mmio.h>
#include <hv/types.h>

struct cell;
struct per_cpu;
struct pci_virt;

struct pci_virt_ops {
	/* The size bytes (1, 2 or 4, within a dword) at reg (0-0xfff). */
	u32 (*read)(struct pci_virt *v, u16 reg, unsigned int size);
	/* The cell's write: MMIO_HANDLED, or MMIO_CELL_FAILED after
	 * cell_fail.  Called with the PCI unit's lock held: it must not
	 * call back into the PCI unit. */
	enum mmio_result (*write)(struct pci_virt *v, struct per_cpu *pc,
				  u16 reg, unsigned int size, u32 value);
};

struct pci_virt {
	struct cell *cell; /* the one cell that sees it */
	u16 bdf;
	const struct pci_virt_ops *ops;
};

/* At most, all cells together. */
#define PCI_MAX_VIRT 32

/*
 * Make v appear (cell not running, or root during enable): the cell's
 * configuration ports are trapped if they were not.  0, -WARDEN_ENOSPC
 * (PCI_MAX_VIRT reached, or the cell's port registry full) or
 * -WARDEN_EBUSY (the cell has a function at that bdf).
 * pci_virt_remove: v is gone (nothing if it was not there).
 */
int pci_virt_add(struct pci_virt *v);
void pci_virt_remove(struct pci_virt *v);

#endif /* WARDEN_ASM_PCI_VIRT_H */
