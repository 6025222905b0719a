// SPDX-License-Identifier: GPL-2.0
/*
 * The IOMMU unit, vendor-neutral (contracts in asm/iommu.h): a DMA
 * domain per cell mirrored from the ownership path's announcements, the
 * functions' assignment to domains, the fault path.  The hardware is the
 * backend's (iommu_backend.h).
 *
 * Root's domain is built from the announcements of root's initial map,
 * which come before the units' init: the first one probes the hardware.
 * Every change after the take-over is followed by the backend's flush of
 * that domain, so no translation the map no longer has survives in the
 * IOTLB.  A domain that runs out of pool pages while unmapping keeps no
 * access it should lose: the whole 1 GiB around the failed piece is
 * unmapped instead (which needs no new page), and the console says so.
 *
 * Faults: read and cleared by polling -- on each hypercall of root's (so
 * every warden command, cell stats included) and each read of the fault
 * status by root (its fault interrupt handler's: the unit raises root's
 * fault interrupt on every fault) -- never by a cell.  Each is named on
 * the console and counted for the function's owner.  A function whose
 * faults reach IOMMU_QUIET_AFTER is made quiet: its requests still go
 * through its owner's domain (what is outside stays blocked), but the
 * unit records its faults no more, so that one device cannot keep the
 * fault records full and hide every other device's faults.  The console
 * says so once; the owner's count stops there.
 */
#include "iommu_backend.h"

#include <asm/hpet.h>
#include <asm/ioapic.h>
#include <asm/iommu.h>
#include <asm/pci.h>
#include <hv/cell.h>
#include <hv/hypervisor.h>
#include <hv/ownership.h>
#include <hv/percpu.h>
#include <hv/printk.h>
#include <hv/spinlock.h>
#include <hv/unit.h>
#include <warden/cell.h>
#include <warden/config.h>
#include <warden/error.h>
#include <warden/hypercall.h>

#define IOMMU_QUIET_AFTER 16
/* functions whose faults are counted (the most recent owners) */
#define IOMMU_FN_MAX 64
#define GIB (1ull << 30)

static const struct iommu_backend *const backend = &vtd_backend;

struct fn_faults {
	u16 bdf;
	u16 cell; /* owner's id + 1; 0: a free slot */
	u32 count;
};

static struct {
	bool probed;
	const struct paging_format *fmt; /* NULL: no DMA remapping */
	bool on;			 /* the backend took the unit over */
	struct iommu_domain dom[HV_MAX_CELLS];
	u64 faults[HV_MAX_CELLS];
	u64 recorded; /* faults read since enable */
	u64 overflows;
	spinlock_t lock; /* faults, fn, owner */
	struct fn_faults fn[IOMMU_FN_MAX];
	/* the cell each assigned function belongs to (cell id, 0: root) */
	u16 owner_bdf[IOMMU_FN_MAX];
	u8 owner_cell[IOMMU_FN_MAX];
} iommu;

static bool probed(void)
{
	if (!iommu.probed) {
		iommu.probed = true;
		if (hv.config->platform.iommu_base)
			iommu.fmt = backend->probe();
	}
	return iommu.fmt != NULL;
}

/* cell's domain, its tables made if need be (NULL: none, no pages). */
static struct iommu_domain *domain(const struct cell *cell, bool make)
{
	struct iommu_domain *d = &iommu.dom[cell->id];

	if (!probed())
		return NULL;
	if (!d->live && make) {
		if (pt_init(&d->pt, iommu.fmt, &hv.pool))
			return NULL;
		d->id = (u16)(cell->id + 1); /* 0 is reserved (caching mode) */
		d->live = true;
		d->broken = false;
	}
	return d->live ? d : NULL;
}

static void unmap_range(struct iommu_domain *d, u64 start, u64 size)
{
	u64 s, e;

	if (!pt_unmap(&d->pt, start, size))
		return;
	/* a split found no page: lose the whole GiB rather than keep it */
	s = start & ~(GIB - 1);
	e = (start + size + GIB - 1) & ~(GIB - 1);
	pt_unmap(&d->pt, s, e - s);
	d->broken = true;
	printk("IOMMU: domain %u out of pool pages: DMA to 0x%llx-0x%llx "
	       "blocked for its owner\n",
	       d->id, (unsigned long long)s, (unsigned long long)e - 1);
}

static void iommu_map(struct cell *cell, u64 guest, u64 phys, u64 size,
		      u32 flags, u32 kind)
{
	u32 rights = flags & (WARDEN_MEM_READ | WARDEN_MEM_WRITE);
	struct iommu_domain *d = domain(cell, kind == OWN_MAPPED && rights);

	if (!d)
		return;
	/* every trap kind is a hole (hv/unit.h) */
	if (kind != OWN_MAPPED || !rights) {
		unmap_range(d, guest, size);
	} else if (pt_map(&d->pt, guest, phys, size,
			  (rights & WARDEN_MEM_READ ? MAP_READ : 0) |
				  (rights & WARDEN_MEM_WRITE ? MAP_WRITE : 0),
			  WARDEN_MEMTYPE_WB)) {
		/* partly mapped: less than the owner may reach, never more */
		d->broken = true;
		printk("IOMMU: domain %u out of pool pages: DMA to "
		       "0x%llx+0x%llx may fault\n",
		       d->id, (unsigned long long)guest,
		       (unsigned long long)size);
	}
	if (iommu.on)
		backend->flush(d);
}

static void iommu_unmap(struct cell *cell, u64 start, u64 size)
{
	struct iommu_domain *d = domain(cell, false);

	if (!d)
		return;
	unmap_range(d, start, size);
	if (iommu.on)
		backend->flush(d);
}

/* The owner of bdf (lock held): a cell's id, or 0 (root). */
static unsigned int owner_of(u16 bdf)
{
	unsigned int i;

	for (i = 0; i < IOMMU_FN_MAX; i++)
		if (iommu.owner_cell[i] && iommu.owner_bdf[i] == bdf)
			return iommu.owner_cell[i];
	return 0;
}

static void set_owner(u16 bdf, unsigned int cell)
{
	unsigned int i, free = IOMMU_FN_MAX;

	spin_lock(&iommu.lock);
	for (i = 0; i < IOMMU_FN_MAX; i++) {
		if (iommu.owner_cell[i] && iommu.owner_bdf[i] == bdf)
			iommu.owner_cell[i] = 0;
		if (!iommu.owner_cell[i] && free == IOMMU_FN_MAX)
			free = i;
		if (iommu.fn[i].cell && iommu.fn[i].bdf == bdf)
			iommu.fn[i].cell = 0; /* a new owner: count anew */
	}
	if (cell && free < IOMMU_FN_MAX) {
		iommu.owner_bdf[free] = bdf;
		iommu.owner_cell[free] = (u8)cell;
	}
	spin_unlock(&iommu.lock);
}

/* bdf's fault count for its owner (lock held), after this one. */
static u32 count_fn(u16 bdf, unsigned int cell)
{
	struct fn_faults *f, *slot = NULL;
	unsigned int i;

	for (i = 0; i < IOMMU_FN_MAX; i++) {
		f = &iommu.fn[i];
		if (f->cell == cell + 1 && f->bdf == bdf)
			return ++f->count;
		if (!f->cell && !slot)
			slot = f;
	}
	if (!slot)
		slot = &iommu.fn[bdf % IOMMU_FN_MAX];
	slot->bdf = bdf;
	slot->cell = (u16)(cell + 1);
	slot->count = 1;
	return 1;
}

static void report(const struct iommu_fault *f)
{
	unsigned int cell = owner_of(f->bdf);
	u32 n = count_fn(f->bdf, cell);

	iommu.faults[cell]++;
	/* numbered: no two lines alike, so the console never folds them */
	if (f->irq)
		printk("IOMMU: interrupt fault %llu: %02x:%02x.%x of %s %u, "
		       "remapping index %llu: %s (reason 0x%x), unit 0x%llx\n",
		       (unsigned long long)++iommu.recorded, f->bdf >> 8,
		       (f->bdf >> 3) & 0x1f, f->bdf & 7,
		       cell ? "cell" : "root cell", cell,
		       (unsigned long long)f->addr, f->why, f->reason,
		       (unsigned long long)f->unit);
	else
		printk("IOMMU: DMA fault %llu: %02x:%02x.%x of %s %u %s "
		       "0x%llx: %s (reason 0x%x), unit 0x%llx\n",
		       (unsigned long long)++iommu.recorded, f->bdf >> 8,
		       (f->bdf >> 3) & 0x1f, f->bdf & 7,
		       cell ? "cell" : "root cell", cell,
		       f->read ? "read" : "write", (unsigned long long)f->addr,
		       f->why, f->reason, (unsigned long long)f->unit);
	if (n == IOMMU_QUIET_AFTER && iommu.dom[cell].live &&
	    !backend->assign(f->bdf, &iommu.dom[cell], true))
		printk("IOMMU: %02x:%02x.%x faulted %u times: its faults are "
		       "no longer recorded (its DMA outside its owner's "
		       "memory stays blocked)\n",
		       f->bdf >> 8, (f->bdf >> 3) & 0x1f, f->bdf & 7, n);
}

void iommu_poll(void)
{
	unsigned int lost;

	if (!iommu.on || !spin_trylock(&iommu.lock))
		return; /* another CPU polls now */
	lost = backend->poll(report);
	if (lost) {
		iommu.overflows += lost;
		printk("IOMMU: fault records overflowed: faults were dropped "
		       "by the hardware (%llu time(s) since enable)\n",
		       (unsigned long long)iommu.overflows);
	}
	spin_unlock(&iommu.lock);
}

bool iommu_remaps_interrupts(void)
{
	return probed() && backend->remaps_interrupts();
}

const char *iommu_root_irte(u16 bdf, u32 index, u64 *lo, bool *x2apic)
{
	if (!iommu.on)
		return "the IOMMU is not the hypervisor's";
	return backend->root_irte(bdf, index, lo, x2apic);
}

const char *iommu_root_msi(struct per_cpu *pc, u16 bdf, u32 addr, u32 data,
			   unsigned int n, u32 *out)
{
	*out = addr;
	if (!iommu.on)
		return NULL;
	return backend->root_msi(pc, bdf, addr, data, n, out);
}

u32 iommu_root_msi_back(u16 bdf, u32 addr, u32 data)
{
	return iommu.on ? backend->root_msi_back(bdf, addr, data) : addr;
}

const char *iommu_root_index(struct per_cpu *pc, u16 sid, u32 r, u32 *h)
{
	*h = r;
	if (!iommu.on)
		return NULL;
	return backend->root_index(pc, sid, r, 1, h);
}

u32 iommu_root_index_back(u16 sid, u32 h)
{
	return iommu.on ? backend->root_index_back(sid, h) : h;
}

bool iommu_cell_irqs_remapped(void)
{
	return iommu.on && backend->cell_irqs();
}

int iommu_cell_irq_reserve(const struct cell *cell, unsigned int n, u32 *first)
{
	if (!iommu_cell_irqs_remapped())
		return -WARDEN_EINVAL;
	return backend->cell_irq_alloc(cell->id, n, first);
}

void iommu_cell_irq_release(u32 first, unsigned int n)
{
	if (iommu.on && first && n)
		backend->cell_irq_free(first, n);
}

int iommu_cell_irq_set(u32 index, bool present, u32 vector, u32 apic_id,
		       u16 bdf)
{
	if (!iommu_cell_irqs_remapped())
		return -WARDEN_EINVAL;
	return backend->cell_irq_set(index, present, vector, apic_id, bdf,
				     false);
}

void iommu_cell_irq_message(u32 index, u32 *addr, u32 *data)
{
	backend->msi_remappable(index, addr, data);
}

int iommu_cell_pin_set(u32 index, bool present, u32 vector, u32 apic_id,
		       u16 sid, bool level)
{
	if (!iommu_cell_irqs_remapped())
		return -WARDEN_EINVAL;
	return backend->cell_irq_set(index, present, vector, apic_id, sid,
				     level);
}

u64 iommu_cell_pin_entry(u32 index, u64 entry)
{
	return backend->ioapic_remappable(index, entry);
}

unsigned int iommu_cell_irqs_held(const struct cell *cell)
{
	return iommu_cell_irqs_remapped() ? backend->cell_irq_held(cell->id)
					  : 0;
}

unsigned int iommu_cell_irqs_used(void)
{
	return iommu_cell_irqs_remapped() ? backend->cell_irq_used() : 0;
}

bool iommu_dma_confined(u16 bdf)
{
	return iommu.on && backend->covers(bdf);
}

/* Table pages under table (a level-level table of fmt), itself included:
 * what a domain costs the pool. */
static unsigned long table_pages(const struct paging_format *fmt,
				 const u64 *table, unsigned int level)
{
	unsigned long n = 1;
	unsigned int i;

	for (i = 0; level && i < 512; i++)
		if (fmt->present(table[i]) && !fmt->is_leaf(table[i], level))
			n += table_pages(
				fmt,
				pool_phys_to_virt(&hv.pool,
						  fmt->phys(table[i], level)),
				level - 1);
	return n;
}

static int iommu_init(struct per_cpu *pc)
{
	struct iommu_domain *root = domain(&hv.root, false);
	int err;

	if (!root) {
		if (probed())
			return hv_no_memory(pc, 5);
		/* the config names a unit the probe did not find: enable
		 * would leave every function's DMA unconfined */
		if (hv.config->platform.iommu_base) {
			hv_set_error(pc, -WARDEN_ENODEV,
				     WARDEN_RULE_IOMMU_TAKEOVER,
				     WARDEN_ITEM_SYSTEM, 0,
				     hv.config->platform.iommu_base,
				     WARDEN_IOMMU_ABSENT);
			return -WARDEN_ENODEV;
		}
		return 0;
	}
	if (root->broken)
		return hv_no_memory(pc, 5);
	err = backend->take_over(pc, root);
	if (err)
		return err;
	iommu.on = true;
	printk("IOMMU: DMA remapping is the hypervisor's: root's functions in "
	       "domain %u (%lu table pages)\n",
	       root->id, table_pages(iommu.fmt, root->pt.root, 3));
	return 0;
}

static void iommu_shutdown(void)
{
	if (iommu.on) {
		/* devices name root's own indexes again while the
		 * hypervisor's table still holds copies at them */
		pci_root_msi_give_back();
		ioapic_root_give_back();
		hpet_root_give_back();
		backend->hand_back();
	}
	iommu.on = false;
}

/* Move the cell's functions to dom (n of them, the first n): how many
 * moved whole.  A function's DMA alias (config.h DMA_ALIAS: the requester
 * id a bridge above it gives its DMA; the validator's PCI_DMA_ALIAS gave
 * every function carrying it to this cell) goes with it. */
static int move(const struct cell *cell, const struct iommu_domain *dom,
		unsigned int n)
{
	const struct warden_pci_device *pd =
		warden_cell_pci_devices(cell->config);
	unsigned int i, owner = dom == &iommu.dom[0] ? 0 : cell->id;

	for (i = 0; i < n; i++) {
		if (pd[i].flags & WARDEN_PCI_DMA_ALIAS) {
			if (backend->assign(pd[i].dma_alias, dom, false))
				return (int)i;
			set_owner(pd[i].dma_alias, owner);
		}
		if (backend->assign(pd[i].bdf, dom, false))
			return (int)i;
		set_owner(pd[i].bdf, owner);
	}
	return (int)n;
}

/* Without an IOMMU taken over (the config names none; one it names but
 * the machine lacks is refused at enable), a function goes to a cell only
 * where its config says dma_unisolated: the validator's rule, kept here
 * too. */
static int unconfined(const struct cell *cell, struct warden_error *err)
{
	const struct warden_pci_device *pd =
		warden_cell_pci_devices(cell->config);
	unsigned int i;

	for (i = 0; i < cell->config->num_pci_devices; i++) {
		if (pd[i].flags & WARDEN_PCI_DMA_UNISOLATED)
			continue;
		err->code = -WARDEN_EINVAL;
		err->rule = WARDEN_RULE_PCI_DMA;
		err->item_kind = WARDEN_ITEM_PCI_DEVICE;
		err->item_index = i;
		err->values[0] = (u32)pd[i].domain << 16 | pd[i].bdf;
		return -WARDEN_EINVAL;
	}
	return 0;
}

static int iommu_cell_init(struct cell *cell, struct warden_error *err)
{
	unsigned int n = cell->config->num_pci_devices;
	struct iommu_domain *d;
	int done;

	if (!iommu.on)
		return unconfined(cell, err);
	d = domain(cell, true);
	if (!d)
		return cell_error_no_memory(err);
	iommu.faults[cell->id] = 0;
	done = move(cell, d, n);
	if ((unsigned int)done < n) {
		/* the one that failed too: its alias may have moved */
		move(cell, &iommu.dom[0], (unsigned int)done + 1);
		pt_destroy(&d->pt);
		d->live = false;
		return cell_error_no_memory(err);
	}
	/* the cell's CPUs are root's until create ends: from here no
	 * remapping entry of root's reaches them */
	backend->cpus_leave_root(cell);
	return 0;
}

static void iommu_cell_exit(struct cell *cell)
{
	struct iommu_domain *d = &iommu.dom[cell->id];

	/* the PCI unit gives back what it reserved; anything left of the
	 * cell's (a create that failed half-way) goes here */
	if (iommu.on)
		backend->cell_irq_free_all(cell->id);
	if (!iommu.on || !d->live)
		return;
	/* the cell's CPUs are root's again (or never left it: a create
	 * that failed): root's remapping entries aimed at them count */
	backend->cpus_back_to_root(this_cpu());
	/* their context entries exist: moving back needs no page */
	move(cell, &iommu.dom[0], cell->config->num_pci_devices);
	backend->flush(d);
	pt_destroy(&d->pt);
	d->live = false;
}

static unsigned int iommu_mmio_count(const struct cell *cell)
{
	/* root's register page */
	return cell == &hv.root && hv.config->platform.iommu_base ? 1 : 0;
}

static long iommu_hypercall(struct per_cpu *pc, unsigned long code,
			    unsigned long arg1, unsigned long arg2)
{
	(void)pc;
	(void)arg2;
	if (code != WARDEN_HC_CELL_DMA_FAULTS &&
	    code != WARDEN_HC_CELL_IRQ_REMAPS)
		return -WARDEN_ENOSYS;
	if (arg1 >= HV_MAX_CELLS || !hv.cells[arg1])
		return -WARDEN_ENOENT;
	if (code == WARDEN_HC_CELL_IRQ_REMAPS)
		return (long)iommu_cell_irqs_held(hv.cells[arg1]);
	return (long)(iommu.faults[arg1] & 0x7fffffffffffffffull);
}

static void iommu_root_call(struct per_cpu *pc)
{
	(void)pc;
	iommu_poll();
}

DEFINE_UNIT(iommu) = {
	.name = "IOMMU",
	.init = iommu_init,
	.shutdown = iommu_shutdown,
	.cell_init = iommu_cell_init,
	.cell_exit = iommu_cell_exit,
	.map = iommu_map,
	.unmap = iommu_unmap,
	.mmio_count = iommu_mmio_count,
	.root_call = iommu_root_call,
	.hypercall = iommu_hypercall,
};
