/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The PCI unit's state of a function assigned to a cell, shared by its
 * two files: pci.c (configuration space, the unit's hooks) and
 * pci_msix.c (the MSI-X table, emulated through the cell's MMIO
 * registry).  Not for other files: they reach PCI through the unit.
 */
#ifndef WARDEN_ASM_PCI_DEV_H
#define WARDEN_ASM_PCI_DEV_H

#include <asm/pci.h>
#include <hv/mmio.h>
#include <hv/spinlock.h>
#include <warden/config.h>

struct cell;
struct per_cpu;
struct warden_error;
struct warden_root_function;

/* Functions assigned to cells at once, all cells together. */
#define PCI_MAX_ASSIGNED 32
/* Root's functions whose MSI-X tables the hypervisor traps (root's MMIO
 * registry has room for them: HV_ROOT_MMIO_REGIONS). */
#define PCI_ROOT_MSIX_MAX 32

/* The most table pages trapped per function: 2048 entries of 16 bytes
 * (PCI 3.0, 6.8.2) on 8 pages, and one more when it starts mid-page. */
#define PCI_MSIX_MAX_PAGES 9

/* A function's entries in the hypervisor's remapping table (asm/iommu.h):
 * msi for its MSI vectors from first, then msix for its MSI-X entries;
 * first 0: none (not remapped). */
struct pci_irq_range {
	u32 first, msi, msix;
};

struct pci_dev {
	struct cell *owner; /* NULL: a free slot */
	const struct warden_pci_device *cfg;
	u16 bdf;
	u8 msi_cap, msix_cap; /* config-space offsets, 0: none */
	struct pci_bar_view bars[WARDEN_PCI_BARS];
	/* MSI-X (pci_msix.c), when msix_map is set: the table's pages at
	 * msix_guest in the cell and msix_phys in memory, mapped for the
	 * hypervisor at msix_map; the table starts msix_table bytes in and
	 * has msix_entries entries */
	volatile u8 *msix_map;
	u64 msix_guest, msix_phys;
	u32 msix_table, msix_entries, msix_pages;
	/* remapped interrupts (pci_msi_remap.c): the function's entries,
	 * and the cell's view of its MSI message (dwords of the
	 * capability) and of its MSI-X entries (msix_view: 4 dwords an
	 * entry, the fourth unused: vector control is the device's) */
	bool remapped;
	struct pci_irq_range irq;
	u32 msi_view[4];
	u32 *msix_view;
	u32 msix_view_pages;
};

/* Serialises physical configuration accesses, the MSI-X tables and the
 * assignments (pci.c). */
extern spinlock_t pci_lock;

/* Configuration space of function bdf: MMCONFIG where there is one,
 * else 0xcf8/0xcfc (pci_lock held; size 1, 2 or 4, within a dword). */
u32 pci_phys_read(u16 bdf, u16 reg, unsigned int size);
void pci_phys_write(u16 bdf, u16 reg, unsigned int size, u32 value);

/* The offset of capability id in bdf's list, or 0 (pci_lock held). */
u8 pci_find_cap(u16 bdf, u8 id);

/* The entries of the MSI-X table of bdf, whose MSI-X capability is at
 * cap: message control bits 10:0, plus one (PCI 3.0, 6.8.2.3). */
static inline u32 pci_msix_entries(u16 bdf, u8 cap)
{
	return (pci_phys_read(bdf, cap + PCI_MSI_CTRL, 2) & 0x7ff) + 1;
}

/* The function bdf if a cell has it, else NULL (pci_lock held). */
struct pci_dev *pci_assigned(u16 bdf);

/* Why root may not decode memory at [start, start + size), or NULL: it
 * must be root's device memory (pci.c). */
const char *pci_root_memory_refused(u64 start, u64 size);

/*
 * Root's functions as Linux had them at enable (pci_root_fns.c).
 * pci_root_fns_init: take the driver's list (hv.header) after checking
 * its place; 0 or -WARDEN_EINVAL with the reason recorded.  pci_root_fn:
 * the entry of bdf, NULL if Linux did not have it at enable.
 * pci_root_fn_at: the i-th entry, NULL past the last.
 */
int pci_root_fns_init(struct per_cpu *pc);
const struct warden_root_function *pci_root_fn(u16 bdf);
const struct warden_root_function *pci_root_fn_at(u32 i);

/*
 * Root's MSI capabilities with translated remapping indexes
 * (pci_msi_root.c), pci_lock held.  pci_msi_root_read: root's read of
 * bdf's configuration space at reg that touches the MSI address: true
 * with *value as root wrote it, else false (read the device).
 * pci_msi_root_write: root's write that touches bdf's MSI capability:
 * checked on the message it makes (irq_root_msi_refused, once enabled)
 * and made, with the address the device gets in place of root's
 * (iommu_root_msi): NULL with *done, or why it is refused (nothing
 * written); *done false: not the capability's, the caller writes.
 */
bool pci_msi_root_read(u16 bdf, u16 reg, unsigned int size, u64 *value);
const char *pci_msi_root_write(struct per_cpu *pc, u16 bdf, u16 reg,
			       unsigned int size, u32 value, bool *done);

/*
 * Root's MSI-X tables (pci_msix_root.c).  pci_msix_root_init: at enable,
 * while root's CPUs wait in the rendezvous, trap the table of every
 * function Linux has (pci_root_fn_at) with MSI-X, where its BAR puts it:
 * the pages leave root's tables and join its MMIO registry, so that each
 * entry root writes is checked (an unmasked entry must not reach a cell's
 * CPU; remappable messages only where an IOMMU remaps them).  A table
 * that cannot be trapped (not in root's device memory, or more than
 * PCI_ROOT_MSIX_MAX) fails enable while MSI-X is on, and otherwise stays
 * off: pci_msix_root_enable_refused.  0 or a negative errno with the
 * reason recorded.
 * pci_msix_root_bar_refused: why root may not give BAR bar of bdf the
 * address addr (it holds a trapped table, which stays where it is), or
 * NULL.  pci_msix_root_enable_refused: why root may not switch MSI-X of
 * bdf on (its table is not trapped), or NULL.  pci_msix_root_count: the
 * MMIO regions init registers (at most).
 */
int pci_msix_root_init(struct per_cpu *pc);
/* At disable (pci_lock held): every trapped table's entries get root's
 * own addresses back (iommu_root_msi_back). */
void pci_msix_root_give_back(void);
const char *pci_msix_root_bar_refused(u16 bdf, unsigned int bar, u64 addr);
const char *pci_msix_root_enable_refused(u16 bdf);
unsigned int pci_msix_root_count(void);

/*
 * MSI-X of d, just taken by cell (pci_lock held; slot: d's index, for the
 * hypervisor's mapping): locate the table in the BAR its capability
 * names, map it, mask every entry and make the table's pages a trap of
 * the cell (hv/ownership.h) and a region of its MMIO registry, so that
 * every access of the cell exits.  0, or a
 * negative errno (the registry is full): MSI-X then stays unusable.
 * False from pci_msix_usable while the table is not trapped: the cell's
 * MSI-X enable bit is then dropped.
 */
int pci_msix_take(struct cell *cell, struct pci_dev *d, unsigned int slot);
/* The cell's view of d's table goes back to the pool (release). */
void pci_msix_give_back(struct pci_dev *d);
static inline bool pci_msix_usable(const struct pci_dev *d)
{
	return d->msix_map != NULL;
}

/*
 * What a cell's MSI-X table entry may become: NULL, or why not.  entry:
 * address low, address high, data, vector control, after the write.  A
 * masked entry may hold anything; an unmasked one must be an MSI the cell
 * may send (msi_cell_refused) to its own CPUs.
 */
const char *pci_msix_entry_refused(const struct cell *cell, const u32 entry[4]);

/*
 * Remapped interrupts of cells' functions (pci_msi_remap.c), all under
 * pci_lock.  pci_irq_reserve: at create, before anything is taken,
 * reserve the entries of the cell's n functions cfg (r[i] for each: none
 * where cells' interrupts are not remapped); 0, or -WARDEN_ENOSPC with
 * the error filled (PCI_IRQ_REMAP_FULL) and nothing reserved.
 * pci_irq_take: d gets r, its MSI message (off) becomes the fixed
 * remappable one.  pci_irq_give_back: the entries go back.
 * pci_msi_view_read: a cell's read of reg in its function's MSI message
 * (the value it wrote): true with *value, or false (not shadowed).
 * pci_msi_remap_write: a cell's write to its function's MSI capability:
 * NULL, with *done when the write went to the view only (the message);
 * else why the cell fails (*bad the message), nothing changed.  The
 * entries of an enabled MSI are written before the caller writes the
 * control word.  pci_msix_remap_entry: MSI-X entry i became entry (the
 * cell's view, checked by pci_msix_entry_refused): its remapping entry
 * written when unmasked; NULL or why not.  pci_msix_remap_message: the
 * device's entry i (its address and data dwords at entry) gets its fixed
 * remappable message -- at each write of the cell's, since the table
 * reaches the device only while the cell has memory decoding on.
 */
struct warden_error;
int pci_irq_reserve(const struct cell *cell,
		    const struct warden_pci_device *cfg, unsigned int n,
		    struct pci_irq_range *r, struct warden_error *err);
void pci_irq_take(struct pci_dev *d, const struct pci_irq_range *r);
void pci_irq_give_back(struct pci_dev *d);
bool pci_msi_view_read(const struct pci_dev *d, u16 reg, unsigned int size,
		       u64 *value);
const char *pci_msi_remap_write(struct pci_dev *d, const struct cell *cell,
				u16 reg, unsigned int size, u32 value,
				bool *done, u64 *bad);
const char *pci_msix_remap_entry(struct pci_dev *d, const struct cell *cell,
				 u32 i, const u32 entry[4]);
void pci_msix_remap_message(const struct pci_dev *d, u32 i,
			    volatile u32 *entry);

/*
 * The chipset's PIRQ routing (pci_pirq.c), all under pci_lock:
 * pci_pirq_init finds the router at enable (after MMCONFIG is set up);
 * pci_pirq_check refuses a cell (PIRQ_ROUTES_CELL_PIN, nothing changed)
 * while a line is routed to one of its ISA inputs; pci_pirq_take turns
 * the ISA route of the cell's lines off and marks its inputs, and
 * pci_pirq_give_back undoes it (cannot fail); pci_pirq_root_refused is
 * root's write check of the router's registers (NULL: may).
 */
void pci_pirq_init(void);

/* The ICH9's interrupt pin and route registers in memory (pci_rcba.c):
 * pci_rcba_init traps root's writes to their page at enable (0, or
 * -WARDEN_ENOMEM). */
int pci_rcba_init(void);

int pci_pirq_check(const struct cell *cell, struct warden_error *err);
void pci_pirq_take(const struct cell *cell);
void pci_pirq_give_back(const struct cell *cell);
const char *pci_pirq_root_refused(u16 bdf, u16 reg, unsigned int size,
				  u32 value);

#endif /* WARDEN_ASM_PCI_DEV_H */
