/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The link unit's state (link.c: the unit, configuration space and
 * registers; link_irq.c: MSI-X and delivering interrupts).  Not for other
 * files: they know links only as the virtual PCI functions the PCI unit
 * answers for (asm/pci_virt.h) and by WARDEN_HC_LINK_GET_STATE.
 */
#ifndef WARDEN_ASM_LINK_H
#define WARDEN_ASM_LINK_H

#include "link_rules.h"
#include <asm/pci.h>
#include <asm/pci_virt.h>
#include <hv/spinlock.h>
#include <warden/link.h>

struct cell;
struct link;
struct per_cpu;

/* MSI-X message control (PCI 3.0, 6.8.2.3): enable, function mask. */
#define LINK_MSIX_ENABLE (1u << 15)
#define LINK_MSIX_FMASK (1u << 14)
#define LINK_MSIX_ENTRY_MASKED 1u /* vector control bit 0 */

/* One peer's virtual function.  Guarded by its link's lock. */
struct link_peer {
	struct link *link;
	unsigned int index;
	const struct warden_link_peer *cfg;
	/* the cell that has its function (from create to destroy; root
	 * from enable to disable), NULL: none */
	struct cell *owner;
	/* where its interrupts go: owner, until owner's CPUs leave it
	 * (NULL: nothing is sent to it) */
	struct cell *cell;
	struct pci_virt virt;
	struct pci_bar_view bars[6];
	u32 state;			      /* STATE as the peer wrote it */
	u16 command, msix_ctrl;		      /* configuration space */
	u8 int_line;			      /* a scratch register */
	u32 msix[WARDEN_LINK_MAX_VECTORS][4]; /* address lo/hi, data, ctrl */
	u32 pending; /* PBA: vectors raised while masked */
	/* the bound of its doorbells and state changes: DROPPED, the
	 * receivers owed a vector 0 (link_rules.h) */
	struct link_bound bound;
	bool told_doorbell, told_delivery; /* reported once */
};

struct link {
	const struct warden_link *cfg;
	unsigned int index;
	spinlock_t lock;
	struct link_peer peers[WARDEN_LINK_MAX_PEERS];
};

/*
 * link_irq.c, each with the link's lock held.
 * link_raise: raise vector of peer t, from CPU pc (any cell's): sent now
 * as a fixed IPI to the CPU its MSI-X entry names, or kept pending while
 * masked; nothing for a peer without a cell or a vector it lacks.
 * link_deliver_pending: send what became unmasked.
 * link_msix_access: BAR 0's MSI-X table and PBA (offset from BAR 0);
 * MMIO_CELL_FAILED when a cell's unmasked entry would reach a CPU outside
 * the cell (the cell fails); root's entry aimed at a cell's CPU is
 * reported and stays masked.
 */
void link_raise(struct per_cpu *pc, struct link_peer *t, unsigned int vector);
void link_deliver_pending(struct per_cpu *pc, struct link_peer *t);
enum mmio_result link_msix_access(struct per_cpu *pc, struct link_peer *p,
				  struct mmio_access *a);

#endif /* WARDEN_ASM_LINK_H */
