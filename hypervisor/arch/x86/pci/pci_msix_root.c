// SPDX-License-Identifier: GPL-2.0
/*
 * Root's MSI-X tables (contracts in pci_dev.h).  Root maps its
 * devices' BARs directly, so the tables in them would let a root driver
 * aim an interrupt at a cell's CPU; the hypervisor traps each table where
 * its BAR is when Warden is enabled (root's CPUs wait in the rendezvous,
 * so no CPU holds a translation of the pages taken away: a trap,
 * hv/ownership.h) and keeps it
 * there: root may not move that BAR.  Accesses beside the table go to the
 * device; a write to an entry is checked on what the entry becomes, as
 * root's MSI messages are (irq_root_msi_refused): an unmasked entry in
 * compatibility format must not reach a cell's CPU, else the write is
 * refused, reported and not applied.  Entries in remappable format hold
 * an index into root's own interrupt-remapping table: taken while an
 * IOMMU remaps root's interrupts (the device gets the hypervisor's index
 * for root's, iommu_root_msi; root reads back its own address), refused
 * where none does.
 * While a cell owns the function, root's accesses read all ones and
 * change nothing.
 */
#include <asm/iommu.h>
#include <asm/irq_dest.h>
#include "pci_dev.h"
#include <asm/percpu.h>
#include <hv/arch.h>
#include <hv/cell.h>
#include <hv/hypervisor.h>
#include <hv/paging.h>
#include <hv/printk.h>
#include <warden/hypercall.h>

/* After the cells' table mappings (pci_msix.c). */
#define ROOT_MSIX_HV_VIRT                                                      \
	(0xffffff8040000000ul +                                                \
	 (u64)PCI_MAX_ASSIGNED * PCI_MSIX_MAX_PAGES * PAGE_SIZE)

#define MSIX_ENTRY_SIZE 16

struct root_msix {
	u16 bdf;
	u8 bar;
	u64 bar_addr; /* where the BAR is, and stays */
	u64 phys;     /* the first trapped page */
	u32 table;    /* the table's offset from phys */
	u32 entries, pages;
	volatile u8 *map;
};

static struct root_msix tables[PCI_ROOT_MSIX_MAX];
static unsigned int num_tables;

unsigned int pci_msix_root_count(void)
{
	return PCI_ROOT_MSIX_MAX;
}

/* Why root may not write entry (address low/high, data, control), or
 * NULL. */
static const char *entry_refused(struct per_cpu *pc, const u32 e[4])
{
	if (e[3] & 1)
		return NULL;
	return irq_root_msi_refused(pc->arch.x2apic, e[0], e[1], e[2]);
}

/* Root's view of the entry at e (the device's): its address as root
 * wrote it (iommu_root_msi_back). */
static void entry_view(u16 bdf, volatile u32 *hw, u32 e[4])
{
	unsigned int i;

	for (i = 0; i < 4; i++)
		e[i] = hw[i];
	e[0] = iommu_root_msi_back(bdf, e[0], e[2]);
}

static enum mmio_result root_msix_mmio(void *ctx, struct per_cpu *pc,
				       struct mmio_access *a)
{
	struct root_msix *t = ctx;
	volatile u8 *p = t->map + a->offset;
	bool table = pci_msix_touches(t->table, t->entries, a->offset, a->size);
	u64 off = a->offset - t->table, value;
	unsigned int i, first = (off % MSIX_ENTRY_SIZE) / 4;
	volatile u32 *hw = NULL;
	const char *why;
	u32 e[4], dev;

	if (a->size < 4 || (a->offset & (a->size - 1)))
		return MMIO_REFUSED; /* dwords and qwords (PCI 3.0, 6.8.2) */
	spin_lock(&pci_lock);
	if (pci_assigned(t->bdf)) {
		if (!a->write)
			a->value = ~0ull; /* a cell's: absent */
		spin_unlock(&pci_lock);
		return MMIO_HANDLED;
	}
	if (table)
		hw = (volatile u32 *)(t->map + t->table +
				      (off & ~(u64)(MSIX_ENTRY_SIZE - 1)));
	if (!a->write) {
		a->value = a->size == 8 ? *(volatile u64 *)p
					: *(volatile u32 *)p;
		if (table && !first) {
			/* the address root wrote, not the device's */
			entry_view(t->bdf, hw, e);
			a->value = (a->value & ~0xffffffffull) | e[0];
		}
		spin_unlock(&pci_lock);
		return MMIO_HANDLED;
	}
	value = a->value;
	if (table) {
		entry_view(t->bdf, hw, e);
		for (i = 0; i < a->size / 4; i++)
			e[first + i] = (u32)(a->value >> (32 * i));
		why = entry_refused(pc, e);
		/* translated when the message is written or unmasked: a
		 * mask write may leave an index root has freed */
		dev = hw[0];
		if (!why && (first < 3 || !(e[3] & 1)))
			why = iommu_root_msi(pc, t->bdf, e[0], e[2], 1, &dev);
		if (why) {
			spin_unlock(&pci_lock);
			cell_printk(pc->cell,
				    "CPU %u: root's write of PCI %02x:%02x.%x "
				    "MSI-X entry %llu refused: %s",
				    pc->cpu_id, t->bdf >> 8,
				    (t->bdf >> 3) & 0x1f, t->bdf & 7,
				    (unsigned long long)(off / MSIX_ENTRY_SIZE),
				    why);
			return MMIO_HANDLED;
		}
		/* the device holds the hypervisor's index (written before
		 * the rest of the entry when this write leaves the
		 * address: the data changed which index it names) */
		if (!first)
			value = (value & ~0xffffffffull) | dev;
		else if (dev != hw[0])
			hw[0] = dev;
	}
	if (a->size == 8)
		*(volatile u64 *)p = value;
	else
		*(volatile u32 *)p = (u32)value;
	spin_unlock(&pci_lock);
	return MMIO_HANDLED;
}

void pci_msix_root_give_back(void)
{
	unsigned int i, k;
	volatile u32 *hw;
	u32 e[4];

	for (i = 0; i < num_tables; i++) {
		if (pci_assigned(tables[i].bdf))
			continue;
		for (k = 0; k < tables[i].entries; k++) {
			hw = (volatile u32 *)(tables[i].map + tables[i].table +
					      k * MSIX_ENTRY_SIZE);
			entry_view(tables[i].bdf, hw, e);
			if (e[0] != hw[0])
				hw[0] = e[0];
		}
	}
}

/* The address BAR bar of bdf decodes at (0: none, or an I/O BAR). */
static u64 bar_address(u16 bdf, unsigned int bar)
{
	u32 lo = pci_phys_read(bdf, PCI_BAR0 + 4 * bar, 4);
	u64 addr = lo & ~0xfull;

	if (lo & PCI_BAR_IO_SPACE)
		return 0;
	if ((lo & 0x6) == PCI_BAR_MEM_TYPE_64 && bar + 1 < WARDEN_PCI_BARS)
		addr |= (u64)pci_phys_read(bdf, PCI_BAR0 + 4 * (bar + 1), 4)
			<< 32;
	return addr;
}

/*
 * Trap the table of root's function bdf if it has one (pci_lock held): 0
 * when trapped or there is none, -WARDEN_ENOMEM, or -WARDEN_EINVAL when
 * it cannot be (*why: WARDEN_MSIX_UNTRAPPED_*, *where: its address).
 */
static int trap(u16 bdf, u32 *why, u64 *where_phys)
{
	struct own_trap trap = { .kind = OWN_TRAP_ABSENT };
	struct root_msix *t = &tables[num_tables];
	u32 where, entries;
	u64 addr, phys, first, pages, virt;
	u8 cap = pci_find_cap(bdf, PCI_CAP_ID_MSIX);

	if (!cap)
		return 0;
	where = pci_phys_read(bdf, cap + 4, 4);
	entries = pci_msix_entries(bdf, cap);
	addr = (where & 7) < WARDEN_PCI_BARS ? bar_address(bdf, where & 7) : 0;
	phys = addr + (where & ~7u);
	first = phys & ~(u64)(PAGE_SIZE - 1);
	pages = (phys + (u64)MSIX_ENTRY_SIZE * entries - first + PAGE_SIZE -
		 1) /
		PAGE_SIZE;
	*where_phys = addr ? phys : 0;
	*why = WARDEN_MSIX_UNTRAPPED_PLACE;
	if (!addr || pages > PCI_MSIX_MAX_PAGES ||
	    pci_root_memory_refused(first, pages * PAGE_SIZE))
		return -WARDEN_EINVAL;
	*why = WARDEN_MSIX_UNTRAPPED_COUNT;
	if (num_tables == PCI_ROOT_MSIX_MAX)
		return -WARDEN_EINVAL;
	virt = ROOT_MSIX_HV_VIRT +
	       (u64)num_tables * PCI_MSIX_MAX_PAGES * PAGE_SIZE;
	trap.start = first;
	trap.size = pages * PAGE_SIZE;
	if (pt_map(&hv.hv_pt, virt, first, pages * PAGE_SIZE,
		   MAP_READ | MAP_WRITE, WARDEN_MEMTYPE_UC) ||
	    ownership_trap(&hv.root, &trap) ||
	    mmio_register(&hv.root.mmio, first, pages * PAGE_SIZE,
			  root_msix_mmio, t))
		return -WARDEN_ENOMEM;
	t->bdf = bdf;
	t->bar = (u8)(where & 7);
	t->bar_addr = addr;
	t->phys = first;
	t->table = (u32)(phys - first);
	t->entries = entries;
	t->pages = (u32)pages;
	t->map = (volatile u8 *)virt;
	num_tables++;
	printk("PCI %02x:%02x.%x: MSI-X table of %u entries at 0x%llx "
	       "trapped\n",
	       bdf >> 8, (bdf >> 3) & 0x1f, bdf & 7, entries,
	       (unsigned long long)phys);
	return 0;
}

/* Is MSI-X of bdf on (pci_lock held)? */
static bool msix_on(u16 bdf)
{
	u8 cap = pci_find_cap(bdf, PCI_CAP_ID_MSIX);

	return cap && (pci_phys_read(bdf, cap + PCI_MSI_CTRL, 2) & 0x8000);
}

int pci_msix_root_init(struct per_cpu *pc)
{
	const struct warden_root_function *f;
	u64 where = 0;
	u32 i, why = 0;
	int err = 0;

	spin_lock(&pci_lock);
	for (i = 0; !err && (f = pci_root_fn_at(i)); i++) {
		err = trap(f->bdf, &why, &where);
		if (err != -WARDEN_EINVAL)
			continue;
		if (msix_on(f->bdf)) {
			/* live and unchecked: its entries could name any
			 * CPU, so Warden does not start */
			hv_set_error(pc, err, WARDEN_RULE_ROOT_MSIX_UNTRAPPED,
				     WARDEN_ITEM_SYSTEM, 0, f->bdf, where);
			pc->entry->error.values[2] = why;
			pc->entry->error.values[3] = PCI_ROOT_MSIX_MAX;
			break;
		}
		printk("PCI %02x:%02x.%x: MSI-X table at 0x%llx not trapped "
		       "(%s): root may not switch MSI-X on\n",
		       f->bdf >> 8, (f->bdf >> 3) & 0x1f, f->bdf & 7,
		       (unsigned long long)where,
		       why == WARDEN_MSIX_UNTRAPPED_COUNT ? "more tables than "
							    "the hypervisor "
							    "traps"
							  : "not in root's "
							    "device memory");
		err = 0;
	}
	spin_unlock(&pci_lock);
	if (err == -WARDEN_ENOMEM)
		return hv_no_memory(pc, 3);
	return err;
}

const char *pci_msix_root_bar_refused(u16 bdf, unsigned int bar, u64 addr)
{
	unsigned int i;

	for (i = 0; i < num_tables; i++)
		if (tables[i].bdf == bdf && tables[i].bar == bar &&
		    addr != tables[i].bar_addr)
			return "the BAR holds an MSI-X table the hypervisor "
			       "traps where it is";
	return NULL;
}

const char *pci_msix_root_enable_refused(u16 bdf)
{
	unsigned int i;

	for (i = 0; i < num_tables; i++)
		if (tables[i].bdf == bdf)
			return NULL;
	return "MSI-X on a function whose table the hypervisor does not "
	       "trap (it was not in root's device memory at enable)";
}
