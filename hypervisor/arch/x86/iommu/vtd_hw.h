/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The VT-d backend's state and its files' doors to each other, private
 * to hypervisor/arch/x86/iommu/: vtd.c (probe, take-over, hand-back,
 * context entries, faults), vtd_qi.c (the hypervisor's invalidation
 * queue and root's, carried out), vtd_root_regs.c (root's view of the
 * registers).
 */
#ifndef WARDEN_IOMMU_VTD_HW_H
#define WARDEN_IOMMU_VTD_HW_H

#include "vtd.h"

#include <hv/spinlock.h>

struct cell;
struct per_cpu;

struct irt_map;

/* What root had at take-over, and root's view since (its shadows). */
struct vtd_root_state {
	u64 iqa;	/* root's queue: base, DW, QS */
	u32 entries;	/* ... its descriptors: 256 << QS */
	u32 head;	/* the index root's IQH shows */
	bool qi_on;	/* root had queued invalidation on */
	u64 rtaddr;	/* its root-table address register */
	bool rtps;	/* ... latched (GSTS.RTPS) */
	u32 fsts;	/* its fault status: the hypervisor takes faults */
	u64 fsts_reads; /* ... read by root (its fault handler) */
	u64 exits;	/* root's accesses to the register pages */
	u64 iqt_writes; /* ... of which tail writes */
	u64 irta;	/* its interrupt remapping table, as its SIRTP
			 * latched it (take-over: the hardware's) */
	u64 irta_reg;	/* its IRTA register (written, not latched) */
	u32 fe_data, fe_addr, fe_uaddr; /* its fault event message */
	struct vtd_desc *queue; /* root's queue, mapped for the hypervisor */
	struct vtd_desc *saved; /* room for it at hand-back */
};

/*
 * The units the hypervisor drives: every unit the system config lists
 * (system.iommus; platform.iommu_base alone where it lists none), in
 * its order.  A unit's registers span up to VTD_REG_PAGES pages: the
 * first, the fault records (CAP.FRO, CAP.NFR) and the IOTLB registers
 * (ECAP.IRO), 10.4; a unit whose registers lie further is refused.
 */
#define VTD_UNITS_MAX 8
#define VTD_REG_PAGES 4

struct vtd_unit {
	volatile u8 *regs; /* NULL: no unit */
	u64 base;	   /* physical */
	u64 cap, ecap;
	u32 fro, nfr;  /* fault records: offset, count */
	u32 pages;     /* register pages mapped (and trapped for root) */
	bool coherent; /* ECAP.C: the unit snoops the tables it walks */
	bool taken;    /* the hypervisor owns DMA remapping */
	/* the hypervisor's invalidation queue: one page, 256 entries */
	struct vtd_desc *queue;
	u32 tail;	      /* next free index */
	volatile u32 *status; /* wait descriptors write here */
	u32 seq;	      /* ... the value of the last one */
	/* the hypervisor's interrupt remapping table for this unit
	 * (vtd_irt.c): VTD_IRT_ENTRIES entries, lo and hi; NULL while
	 * root's interrupt remapping was off at take-over.  Root's Linux
	 * has one table per unit (one per DRHD), so root's indexes are
	 * per unit and so are their copies and translations (rootmap). */
	u64 *irt;
	bool irt_installed; /* the unit was pointed at irt (or may be) */
	u64 irt_refused;    /* root's entries refused since take-over */
	struct irt_map *rootmap;
	struct vtd_root_state root;
};

struct vtd {
	struct vtd_unit unit[VTD_UNITS_MAX];
	unsigned int n; /* units listed (probed) */
	u64 absent;	/* the first listed unit that is not usable: its
			 * base (0: none) */
	bool coherent;	/* every unit snoops */
	/* root table (9.1): 256 entries of 16 bytes; a context table per
	 * bus that has one (9.3).  Shared by every unit: an entry is keyed
	 * by bus and devfn, the units' scopes are disjoint (8.3), and a
	 * unit only walks the entries of the requests it translates (3.4.1),
	 * so one set of tables serves all (one write per move, not one per
	 * unit). */
	u64 *root_table;
	u64 *ctx[256];
	spinlock_t qi_lock; /* every unit's queue, root's queues, the
			     * context tables, the remapping tables */
};

extern struct vtd vtd;

#define for_each_unit(u) for (u = vtd.unit; u < vtd.unit + vtd.n; u++)

/* The unit whose scope holds function bdf (8.3: a function or bus
 * scope, else the INCLUDE_PCI_ALL unit), or NULL. */
struct vtd_unit *vtd_unit_of(u16 bdf);

#ifdef WARDEN_VTD_MODEL
/* The unit tests' register model (tests/unit/test_vtd.c): every access
 * goes to it, so that writes have the hardware's effects. */
u32 vtd_read32(struct vtd_unit *u, u32 reg);
u64 vtd_read64(struct vtd_unit *u, u32 reg);
void vtd_write32(struct vtd_unit *u, u32 reg, u32 v);
void vtd_write64(struct vtd_unit *u, u32 reg, u64 v);
#else
static inline u32 vtd_read32(struct vtd_unit *u, u32 reg)
{
	return *(volatile u32 *)(u->regs + reg);
}

static inline u64 vtd_read64(struct vtd_unit *u, u32 reg)
{
	return *(volatile u64 *)(u->regs + reg);
}

static inline void vtd_write32(struct vtd_unit *u, u32 reg, u32 v)
{
	*(volatile u32 *)(u->regs + reg) = v;
}

static inline void vtd_write64(struct vtd_unit *u, u32 reg, u64 v)
{
	*(volatile u64 *)(u->regs + reg) = v;
}
#endif

/*
 * A global command (10.4.4): the persistent enables as GSTS shows them,
 * bit set or cleared (a one-shot command bit: set), then wait up to
 * 100 ms for GSTS to show status (want: its bit set or clear).  0 or
 * -WARDEN_ETIMEDOUT.
 */
int vtd_command(struct vtd_unit *u, u32 bit, bool set, u32 status, bool want);

/*
 * Make the hypervisor's writes of tables and descriptors visible to a
 * unit that does not snoop them (ECAP.C clear): write back the caches.
 */
void vtd_sync(void);

/* ---- vtd_qi.c ---- */

/*
 * Carry out n descriptors on the hypervisor's queue and wait (bounded)
 * until the unit has done them: 0, or -WARDEN_ETIMEDOUT / -WARDEN_EIO
 * (the unit reported a queue error; named on the console).  qi_lock
 * held; n < 255.
 */
int vtd_qi_run(struct vtd_unit *u, const struct vtd_desc *d, unsigned int n);

/*
 * At take-over, root's CPUs in the rendezvous: move queued invalidation
 * from root's queue to the hypervisor's (root's head and tail kept in
 * u->root).  0 or -WARDEN_ETIMEDOUT (root's queue as it was).
 */
int vtd_qi_take(struct vtd_unit *u);

/* At hand-back: queued invalidation on root's queue again, its head and
 * tail where root left them (vtd_qi.c says how). */
void vtd_qi_give_back(struct vtd_unit *u);

/*
 * Root wrote its queue tail (IQT) with value: carry out its descriptors
 * from its head to the new tail, in order, on the hypervisor's queue
 * (interrupt entry cache invalidations forwarded, wait descriptors
 * completed with their status write into root's memory, anything else
 * skipped and named on the console).  Its head then equals its tail.
 */
void vtd_qi_root_tail(struct vtd_unit *u, struct per_cpu *pc, u64 value);

/* ---- vtd_irt.c ---- */

/*
 * The hypervisor's interrupt remapping table, 2^(S + 1) entries (S =
 * VTD_IRT_S).  Root's range is 0 .. VTD_IRT_ROOT_ENTRIES - 1: below
 * VTD_IRT_IDENT root's indexes are copied one to one (an IOAPIC or HPET
 * entry of root's names the same entry in both tables: Linux allocates
 * from the lowest free index); from VTD_IRT_IDENT, the translated part
 * (irt_map.h): the hypervisor's own indexes for root's indexes that the
 * MSI and MSI-X messages it rewrites name, whatever root's index.  Cells'
 * entries from VTD_IRT_CELL_FIRST to the end (vtd_irt_cell.c), written by
 * the hypervisor only.
 */
#define VTD_IRT_S 12
#define VTD_IRT_ENTRIES (2u << VTD_IRT_S)
#define VTD_IRT_ROOT_ENTRIES 4096u
#define VTD_IRT_IDENT 2048u
#define VTD_IRT_CELL_FIRST VTD_IRT_ROOT_ENTRIES

/* Write entry i of the hypervisor's table whole (cmpxchg16b: the unit
 * never reads half an old and half a new entry).  qi_lock held, or the
 * entry not in use. */
void vtd_irte_store(struct vtd_unit *u, u32 i, u64 lo, u64 hi);

/* At take-over, before the unit's pool pages are allocated: the table's
 * pages, or NULL (the pool is out of pages). */
int vtd_irt_alloc(struct vtd_unit *u);

/*
 * At take-over, the hypervisor's queue on, root's CPUs in the rendezvous:
 * if root's interrupt remapping is on, copy root's entries 0 ..
 * VTD_IRT_ENTRIES - 1 (each checked: vtd_irt.c) into the hypervisor's
 * table and point the unit at
 * it (IRTA with root's x2APIC mode, SIRTP, then the global interrupt
 * entry cache invalidation SIRTP requires).  0 or -WARDEN_ETIMEDOUT.
 */
int vtd_irt_take(struct vtd_unit *u, struct per_cpu *pc);

/* At hand-back, the hypervisor's queue still on: the unit points at
 * root's table again (its IRTA, SIRTP, a global invalidation). */
void vtd_irt_give_back(struct vtd_unit *u);

/*
 * Root's queue carries an interrupt entry cache invalidation (lo: its
 * first quadword, checked by vtd_root_desc_check): the copies of the
 * indexes it names (every index, or 2^IM from IIDX) are taken again from
 * root's table, each checked, before the descriptor itself goes to the
 * hardware: the one-to-one copies and the translated ones.  Whether a
 * translated one was among them (the descriptor names root's indexes;
 * the caller invalidates the hypervisor's too: globally).  qi_lock held.
 */
bool vtd_irt_refresh(struct vtd_unit *u, struct per_cpu *pc, u64 lo);

/*
 * Root set GCMD.SIRTP: the IRTA it wrote becomes its table (the
 * hardware stays on the hypervisor's), every copy taken again from it.
 * Refused and named on the console when it changes the x2APIC mode.
 */
void vtd_irt_root_sirtp(struct vtd_unit *u, struct per_cpu *pc);

/*
 * A cell is being created with CPUs that are still root's: every copy
 * that names one of them is made not present (refused, named on the
 * console) and the unit's interrupt entry cache invalidated.
 */
void vtd_irt_cpus_leave_root(struct vtd_unit *u, const struct cell *cell);

/* A cell's CPUs are root's again (on root's CPU pc): every copy made
 * anew from root's table, checked, and the unit's cache invalidated. */
void vtd_irt_cpus_back_to_root(struct vtd_unit *u, struct per_cpu *pc);

/* The low quadword of the hypervisor's copy of root's entry index
 * (translated, or one to one) and the table's x2APIC mode: NULL, or why
 * there is none. */
const char *vtd_irt_root_entry(struct vtd_unit *u, u32 index, u64 *lo,
			       bool *x2apic);

/*
 * Root's message (addr, data) of n vectors (n > 1: a multiple-message
 * MSI, 2^MME) is about to reach a device (on root's CPU pc): NULL with
 * *out, the address the device gets instead -- in remappable format, the
 * handle naming the hypervisor's index for root's (5.1.5.2: index =
 * handle + subhandle; the data stays root's); made, with its copy
 * checked and the unit's cache invalidated, when no index (or no run of
 * n) is root's index's yet -- or why it cannot be translated (*out is
 * addr).  Any other message: *out = addr.  Takes qi_lock.
 */
const char *vtd_irt_root_msi(struct per_cpu *pc, u16 bdf, u32 addr, u32 data,
			     unsigned int n, u32 *out);
/* The address root wrote for what a device holds (addr, data): the
 * reverse of vtd_irt_root_msi (addr itself if not translated). */
u32 vtd_irt_root_msi_back(u16 bdf, u32 addr, u32 data);
/* The same for a bare index (an IOAPIC entry's, 5.1.5.1): root's
 * indexes r .. r + n - 1 as the hypervisor's *h .. (r itself while the
 * hypervisor's table is not in use); and back. */
const char *vtd_irt_root_index(struct per_cpu *pc, u16 sid, u32 r,
			       unsigned int n, u32 *h);
u32 vtd_irt_root_index_back(u16 sid, u32 h);

/* ---- vtd_irt_cell.c: cells' entries ---- */

/*
 * Reserve n consecutive entries of the cells' range for cell id cell
 * (not present until set): 0 with *first, or -WARDEN_ENOSPC (no run of n
 * free entries left; nothing reserved).  Callers serialise (cells_lock).
 */
int vtd_irt_cell_alloc(unsigned int cell, unsigned int n, u32 *first);
/* Give entries first .. first + n - 1 back (not present, each
 * invalidated in the unit's cache). */
void vtd_irt_cell_free(u32 first, unsigned int n);
/* Give back every entry cell id cell still has (its destruction). */
void vtd_irt_cell_free_all(unsigned int cell);
/*
 * Entry index (reserved) becomes a cell's interrupt: vector to APIC id
 * dest, delivered only for requests of sid (vtd_irte_cell; level: a
 * level-triggered IOAPIC pin's); present
 * false: not present.  The entry's interrupt entry cache line is
 * invalidated (6.5.2.7) before this returns, so the next interrupt uses
 * the new entry.  0, -WARDEN_EINVAL (index not reserved), or the
 * invalidation's error (named on the console).
 */
int vtd_irt_cell_set(u32 index, bool present, u32 vector, u32 dest, u16 sid,
		     bool level);
/* Entries of the cells' range cell id cell holds now. */
unsigned int vtd_irt_cell_held(unsigned int cell);
/* At take-over (the table fresh from the pool): no entry reserved. */
void vtd_irt_cell_reset(void);
/* Entries of the cells' range in use. */
unsigned int vtd_irt_cell_used(void);

/* ---- vtd_root_regs.c ---- */

/* At take-over: root's accesses to every register page of unit u trap
 * (reads and writes).  0 or -WARDEN_ENOMEM. */
int vtd_root_regs_trap(struct vtd_unit *u);

#endif /* WARDEN_IOMMU_VTD_HW_H */
