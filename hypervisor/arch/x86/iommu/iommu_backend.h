/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the IOMMU unit (iommu.c, vendor-neutral) asks of a backend (the
 * vendor's hardware: vtd.c, Intel VT-d).  Private to
 * hypervisor/arch/x86/iommu/.  An AMD-Vi backend would fill the same
 * table; the domain, its tables and the announcements stay the unit's.
 */
#ifndef WARDEN_IOMMU_BACKEND_H
#define WARDEN_IOMMU_BACKEND_H

#include <hv/paging.h>
#include <hv/types.h>

struct cell;
struct per_cpu;

/* A DMA domain: one per cell, root included. */
struct iommu_domain {
	struct page_table pt; /* second-level tables, the backend's format */
	u16 id;		      /* the hardware's domain id: cell id + 1 */
	bool live;	      /* pt exists */
	bool broken;	      /* a change ran out of pool pages */
};

/* A recorded DMA fault, as the backend read it. */
struct iommu_fault {
	u64 unit; /* the unit that recorded it: its register base */
	u16 bdf;
	bool read;	 /* else a write */
	u8 reason;	 /* the vendor's code */
	const char *why; /* the code in words */
	u64 addr;	 /* the page the request named */
	bool irq;	 /* an interrupt request: addr is its remapping
			  * index */
};

struct iommu_backend {
	const char *name;
	/*
	 * Find the hardware the system config names and decide whether the
	 * hypervisor can own its DMA remapping (every unit the config
	 * lists): the paging format for the domains, or NULL (no unit, or
	 * one that cannot be used: said on the console, and absent() names
	 * it).  Called once, before init may run (from the first announced
	 * mapping of root's).  Changes nothing in the hardware.
	 */
	const struct paging_format *(*probe)(void);
	/* After a probe that found a listed unit not present or not
	 * usable: its register base (0: every unit answered). */
	u64 (*absent)(void);
	/*
	 * At enable, root's CPUs in the rendezvous, root's domain complete:
	 * take every unit over (every function known at enable in root's
	 * domain, translation on).  0, or a negative errno with the reason
	 * recorded (hv_set_error, naming the unit) and every unit as root
	 * had it.
	 */
	int (*take_over)(struct per_cpu *pc, const struct iommu_domain *root);
	/* At disable, the last CPU: every unit as root had it.  Cannot
	 * fail (a unit that does not answer is named on the console). */
	void (*hand_back)(void);
	/*
	 * Requests of bdf go through dom from now on (quiet: their faults
	 * are not recorded), with the invalidations the hardware needs done.
	 * 0, or -WARDEN_ENOMEM (the pool has no page for a context table;
	 * nothing changed).  Callers serialise (cells_lock, enable).
	 */
	int (*assign)(u16 bdf, const struct iommu_domain *dom, bool quiet);
	/* dom's tables changed: no cached translation of dom survives. */
	void (*flush)(const struct iommu_domain *dom);
	/* Read and clear every unit's fault records, report(f) for each,
	 * in order;
	 * returns how many overflows the hardware signalled since the last
	 * call (faults it could not record). */
	unsigned int (*poll)(void (*report)(const struct iommu_fault *f));
	/* Whether the unit translates bdf's requests now. */
	bool (*covers)(u16 bdf);
	/* Whether interrupt remapping is on. */
	bool (*remaps_interrupts)(void);
	/*
	 * A cell is being created (cell_init) with CPUs still root's: no
	 * remapping entry of root's reaches them from now on (each one that
	 * would is made not present and named on the console).  Callers
	 * serialise (cells_lock).
	 */
	void (*cpus_leave_root)(const struct cell *cell);
	/* A cell's CPUs are root's again (cell_exit, on root's CPU pc):
	 * every copy of root's entries is made anew from root's table,
	 * checked (what was refused for that cell's sake comes back). */
	void (*cpus_back_to_root)(struct per_cpu *pc);
	/* Root's remapping entry index, of the unit covering requester bdf
	 * (root's indexes are per unit), as the hypervisor's table holds it
	 * (checked): NULL with its low quadword and the x2APIC mode, or why
	 * there is none. */
	const char *(*root_irte)(u16 bdf, u32 index, u64 *lo, bool *x2apic);
	/* Root's messages of requester bdf translated to the hypervisor's
	 * indexes of its unit and back (asm/iommu.h, iommu_root_msi). */
	const char *(*root_msi)(struct per_cpu *pc, u16 bdf, u32 addr, u32 data,
				unsigned int n, u32 *out);
	u32 (*root_msi_back)(u16 bdf, u32 addr, u32 data);
	const char *(*root_index)(struct per_cpu *pc, u16 bdf, u32 r,
				  unsigned int n, u32 *h);
	u32 (*root_index_back)(u16 bdf, u32 h);
	/* Cells' interrupts (asm/iommu.h, iommu_cell_irq_*): whether they
	 * go through remapping entries the backend writes; reserve n
	 * consecutive entries for cell id cell (0 with *first, or
	 * -WARDEN_ENOSPC), give them back (a range, or all of a cell's),
	 * write one (in the table of the unit of its source id sid, its
	 * cache line invalidated before return), count the reserved; the
	 * remappable message naming an entry. */
	bool (*cell_irqs)(void);
	int (*cell_irq_alloc)(unsigned int cell, unsigned int n, u32 *first);
	void (*cell_irq_free)(u32 first, unsigned int n);
	void (*cell_irq_free_all)(unsigned int cell);
	int (*cell_irq_set)(u32 index, bool present, u32 vector, u32 dest,
			    u16 sid, bool level);
	unsigned int (*cell_irq_used)(void);
	/* entries cell id cell holds now */
	unsigned int (*cell_irq_held)(unsigned int cell);
	void (*msi_remappable)(u32 handle, u32 *addr, u32 *data);
	/* an IOAPIC redirection entry in remappable format naming handle,
	 * from the compatibility-format entry (its vector, polarity,
	 * trigger mode, mask) */
	u64 (*ioapic_remappable)(u32 handle, u64 entry);
};

extern const struct iommu_backend vtd_backend;

/* The unit's fault path, for a backend that sees a fault signalled
 * (root's read of the fault status): poll now.  iommu.c. */
void iommu_poll(void);

#endif /* WARDEN_IOMMU_BACKEND_H */
