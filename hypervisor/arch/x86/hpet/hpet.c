// SPDX-License-Identifier: GPL-2.0
/*
 * The HPET, a unit (hpet.h).  With platform.hpet_base set, root's
 * page of the HPET is mapped read-only: reads (Linux's clocksource) go to
 * the device with no exit, writes trap and are performed here if the
 * HPET they leave sends interrupts only where root may (hpet_rules.c):
 *  - an IOAPIC input no cell owns: the unit keeps the inputs 0-31 (all a
 *    timer can name) of every cell's irq_pins, from the cell's creation
 *    (cell_init) to its destruction; create is refused while a timer
 *    drives one of the new cell's pins;
 *  - an FSB message that passes root's MSI rule (irq_root_msi_refused).
 * A refused write is reported and not applied.  The lock orders root's
 * writes against creates, so that neither sees the other half done.
 *
 * FSB messages are rewritten as root's MSIs are (pci_msi_root.c): where
 * the hypervisor owns interrupt remapping, a remappable message names
 * root's index, and the device gets the hypervisor's for it
 * (iommu_root_msi) when root writes the route or sets FSB_EN; a message
 * that cannot be translated is refused.  The checks see root's address
 * (root_addr).  Reads do not exit, so FSB_INT_ADDR reads back the
 * device's (translated) address; Linux writes the route and never reads
 * it.  At disable every timer gets root's address back.
 *
 * The main counter, comparators and status are root's to write: they
 * change when, not where.
 */
#include "hpet.h"
#include <asm/hpet.h>
#include <asm/iommu.h>
#include <asm/irq_dest.h>
#include <asm/mmio_rw.h>
#include <asm/percpu.h>
#include <asm/root_page.h>
#include <hv/arch.h>
#include <hv/cell.h>
#include <hv/hypervisor.h>
#include <hv/mmio.h>
#include <hv/paging.h>
#include <hv/printk.h>
#include <hv/spinlock.h>
#include <hv/unit.h>
#include <warden/cell.h>
#include <warden/config.h>
#include <warden/error.h>
#include <warden/hypercall.h>

/* The hypervisor's mapping of the HPET's page (after the links'). */
#define HPET_HV_VIRT 0xffffff80c0000000ul

static struct {
	u64 page;	     /* root's page of the HPET, 0: no HPET */
	u32 offset;	     /* of the register block in it (1 KiB aligned) */
	unsigned int timers; /* NUM_TIM_CAP + 1 */
	volatile u8 *regs;
	spinlock_t lock;
	u32 cell_gsis; /* inputs 0-31 of existing cells' pins */
	u32 root_addr[HPET_MAX_TIMERS]; /* FSB_INT_ADDR as root wrote it */
} hpet;

static u64 read64(u32 reg)
{
	volatile u32 *p = (volatile u32 *)(hpet.regs + reg);

	/* two 32-bit reads: the spec allows either width */
	return p[0] | (u64)p[1] << 32;
}

static void read_state(struct hpet_state *s)
{
	unsigned int n;

	s->timers = hpet.timers;
	s->gen_conf = read64(HPET_GEN_CONF);
	for (n = 0; n < hpet.timers; n++) {
		s->conf[n] = read64(HPET_TIMER(n) + HPET_TN_CONF);
		s->fsb[n] = (u32)read64(HPET_TIMER(n) + HPET_TN_FSB) |
			    (u64)hpet.root_addr[n] << 32;
	}
}

/* What the checks of a state need: the inputs cells own and the writing
 * CPU (its APIC mode for root's MSI rule; the translation reads root's
 * remapping table through it). */
struct route_ctx {
	u32 cell_gsis;
	struct per_cpu *pc;
};

static const char *gsi_of_cell(void *ctx, u32 gsi)
{
	const struct route_ctx *r = ctx;

	return gsi < 32 && (r->cell_gsis >> gsi) & 1 ? "its IOAPIC input is a "
						       "pin a cell owns"
						     : NULL;
}

static const char *root_msi(void *ctx, u32 addr, u32 data)
{
	const struct route_ctx *r = ctx;

	return irq_root_msi_refused(r->pc->arch.x2apic, addr, 0, data);
}

static const char *translate(void *ctx, u32 addr, u32 data, u32 *out)
{
	const struct route_ctx *r = ctx;

	/* the HPET's requester id names its unit (the DMAR's HPET scope;
	 * none: the unit that covers every device) */
	return iommu_root_msi(r->pc, hv.config->platform.hpet_source_id, addr,
			      data, 1, out);
}

static const char *any_msi(void *ctx, u32 addr, u32 data)
{
	(void)ctx, (void)addr, (void)data;
	return NULL;
}

/* FSB_INT_ADDR of timer n in the device. */
static volatile u32 *fsb_addr(unsigned int n)
{
	return (volatile u32 *)(hpet.regs + HPET_TIMER(n) + HPET_TN_FSB + 4);
}

/* Root's access to its HPET page (only writes exit: the page is mapped
 * for reading). */
static enum mmio_result hpet_mmio(void *ctx, struct per_cpu *pc,
				  struct mmio_access *a)
{
	u32 reg = (u32)a->offset - hpet.offset;
	struct route_ctx r = { 0, pc };
	const struct hpet_checks c = { gsi_of_cell, root_msi, &r, translate };
	struct hpet_write w;
	struct hpet_state s;
	unsigned int timer;
	const char *why;

	(void)ctx;
	if (a->offset < hpet.offset || reg >= 0x400)
		return MMIO_REFUSED; /* beside the register block */
	if (!a->write) {
		a->value = mmio_read_sized(hpet.regs + reg, a->size);
		return MMIO_HANDLED;
	}
	spin_lock(&hpet.lock);
	r.cell_gsis = hpet.cell_gsis;
	read_state(&s);
	why = hpet_write_plan(&s, reg, a->size, a->value, &c, &w, &timer);
	if (!why) {
		/* the one timer whose route the write may change */
		if (w.timer >= 0) {
			hpet.root_addr[w.timer] = (u32)(s.fsb[w.timer] >> 32);
			if (w.addr_first)
				*fsb_addr(w.timer) = w.addr;
		}
		mmio_write_sized(hpet.regs + reg, a->size, w.value);
	}
	spin_unlock(&hpet.lock);
	if (why)
		printk("CPU %u: root's write of 0x%llx to HPET register 0x%x "
		       "refused: timer %u: %s\n",
		       pc->cpu_id, (unsigned long long)a->value, reg, timer,
		       why);
	return MMIO_HANDLED;
}

static int hpet_unit_init(struct per_cpu *pc)
{
	u64 base = hv.config->platform.hpet_base;
	unsigned int n;

	if (!base)
		return 0;
	hpet.page = base & ~(u64)(PAGE_SIZE - 1);
	hpet.offset = (u32)(base - hpet.page);
	hpet.regs = (volatile u8 *)HPET_HV_VIRT + hpet.offset;
	if (pt_map(&hv.hv_pt, HPET_HV_VIRT, hpet.page, PAGE_SIZE,
		   MAP_READ | MAP_WRITE, WARDEN_MEMTYPE_UC))
		return hv_no_memory(pc, 1);
	hpet.timers = ((read64(HPET_CAP) >> 8) & 0x1f) + 1;
	for (n = 0; n < hpet.timers; n++)
		hpet.root_addr[n] = *fsb_addr(n);
	if (root_page_trap_writes(hpet.page, hpet_mmio, NULL))
		return hv_no_memory(pc, 1);
	printk("HPET at 0x%llx: %u timers, root's writes checked\n",
	       (unsigned long long)base, hpet.timers);
	return 0;
}

/* The cell's pins among the inputs a timer can name (0-31). */
static u32 cell_gsis(const struct cell *cell)
{
	const struct warden_irq_pin *pins = warden_cell_irq_pins(cell->config);
	unsigned int i;
	u32 gsis = 0;

	for (i = 0; i < cell->config->num_irq_pins; i++)
		if (pins[i].gsi < 32)
			gsis |= 1u << pins[i].gsi;
	return gsis;
}

/* A timer root programmed must not drive a pin the new cell takes: the
 * create is refused, naming the input and the timer (root can move or
 * stop the timer and try again). */
static int hpet_cell_init(struct cell *cell, struct warden_error *err)
{
	u32 gsis = cell_gsis(cell);
	struct hpet_state s;
	unsigned int timer;
	const char *why;

	if (!hpet.page || !gsis)
		return 0;
	spin_lock(&hpet.lock);
	read_state(&s);
	/* the new cell's inputs; FSB messages were checked when written
	 * (and Linux moves its interrupts off a CPU it gives up) */
	why = hpet_state_refused(
		&s,
		&(const struct hpet_checks){ gsi_of_cell, any_msi,
					     &(struct route_ctx){ gsis, NULL },
					     NULL },
		&timer);
	if (!why)
		hpet.cell_gsis |= gsis;
	spin_unlock(&hpet.lock);
	if (!why)
		return 0;
	err->code = -WARDEN_EBUSY;
	err->rule = WARDEN_RULE_HPET_ROUTES_CELL_PIN;
	err->item_kind = WARDEN_ITEM_NONE;
	err->values[0] = timer;
	return err->code;
}

static void hpet_cell_exit(struct cell *cell)
{
	if (!hpet.page)
		return;
	spin_lock(&hpet.lock);
	hpet.cell_gsis &= ~cell_gsis(cell);
	spin_unlock(&hpet.lock);
}

void hpet_root_give_back(void)
{
	unsigned int n;

	for (n = 0; hpet.page && n < hpet.timers; n++)
		if (*fsb_addr(n) != hpet.root_addr[n])
			*fsb_addr(n) = hpet.root_addr[n];
}

static unsigned int hpet_mmio_count(const struct cell *cell)
{
	return cell == &hv.root && hv.config->platform.hpet_base ? 1 : 0;
}

DEFINE_UNIT(hpet) = {
	.name = "HPET",
	.init = hpet_unit_init,
	.shutdown = hpet_root_give_back,
	.cell_init = hpet_cell_init,
	.cell_exit = hpet_cell_exit,
	.mmio_count = hpet_mmio_count,
};
