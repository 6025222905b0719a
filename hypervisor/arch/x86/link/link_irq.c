// SPDX-License-Identifier: GPL-2.0
/*
 * A link peer's interrupts (contracts in link.h): its MSI-X table,
 * emulated in BAR 0, and the delivery of a vector as a fixed IPI that the
 * hypervisor sends on the CPU that rang (or changed state), so that the
 * receiving CPU takes no VM exit (PCI 3.0, 6.8.2 for the table; SDM
 * Vol. 3, 11.11 for the message format).
 *
 * A cell's entry is checked when it is unmasked: it must be an MSI the
 * cell may send to its own CPUs (msi_cell_refused, irq_cell_dest), else
 * the cell fails.  Root's entry is checked by root's MSI rule
 * (irq_root_msi_refused: refused, reported, kept masked): in
 * compatibility format it must not reach a cell's CPU, in remappable
 * format an IOMMU must remap root's interrupts.
 * Root's entry in remappable format (root Linux runs the Intel IOMMU's
 * interrupt remapping, as on the qemu-svm machine) holds an index into
 * root's remapping table: the hypervisor gives it an index of its own
 * when root unmasks the entry (iommu_root_msi, as for root's devices'
 * messages) and reads that entry when it delivers -- its own checked
 * copy in the IOMMU unit's table (iommu_root_irte, which follows root's
 * index to the hypervisor's), never root's memory -- and sends to the
 * root CPU it names; an entry naming no root CPU is dropped and
 * reported.
 * Reading it at delivery, not at the MSI-X write, follows Linux, which
 * moves an interrupt by rewriting only the remapping entry.  The
 * alternative, keeping the function out of the remapping scope, does not
 * work with Linux: a unit that covers all
 * devices (INCLUDE_PCI_ALL) covers it, and outside every unit's scope
 * Linux 6.1 finds no MSI domain for it while remapping is on (warden.ko
 * then lends it a neighbour's: its entries are remappable either way).
 */
#include <asm/apic.h>
#include <asm/apic_dest.h>
#include <asm/guest.h>
#include <asm/iommu.h>
#include <asm/irq_dest.h>
#include "link.h"
#include <asm/percpu.h>
#include <asm/vendor.h>
#include <hv/cell.h>
#include <hv/hypervisor.h>
#include <hv/paging.h>
#include <hv/printk.h>
#include <warden/config.h>
#include <warden/hypercall.h>

static void tell(struct per_cpu *pc, struct link_peer *t, unsigned int vector,
		 const char *why)
{
	if (t->told_delivery)
		return;
	t->told_delivery = true;
	printk("CPU %u: link \"%s\": vector %u of peer %u (cell \"%s\") not "
	       "delivered: %s (reported once)\n",
	       pc->cpu_id, t->link->cfg->name, vector, t->index,
	       t->cell->config->name, why);
}

/* Root's remappable message (addr, data) through the hypervisor's copy
 * of root's remapping entry: NULL with *low and *dest, or why not. */
static const char *remap(u16 bdf, u32 addr, u32 data, u32 *low, u32 *dest)
{
	const char *why;
	bool x2apic;
	u64 irte;

	why = iommu_root_irte(bdf, vtd_msi_index(addr, data), &irte, &x2apic);
	if (why)
		return why;
	return vtd_irte_decode(irte, x2apic, low, dest);
}

/* The APIC ID of the root CPU that (low, dest) names first, or why
 * none. */
static const char *root_target(u32 low, u32 dest, u32 *apic_id)
{
	struct apic_target t;
	struct per_cpu *c;
	unsigned int cpu;

	for (cpu = 0; cpu < hv.num_cpus; cpu++) {
		if (!cpu_in_set(&hv.root.cpus, cpu))
			continue;
		c = per_cpu(cpu);
		t.apic_id = c->apic_id;
		t.ldr = c->arch.ldr;
		t.dfr = c->arch.dfr;
		if (apic_is_destination(c->arch.x2apic, low, dest, &t, false)) {
			*apic_id = c->apic_id;
			return NULL;
		}
	}
	return "its destination names none of root's CPUs";
}

/* Where vector of t goes: NULL with the target's APIC ID and vector, or
 * why it cannot go. */
static const char *resolve(struct link_peer *t, unsigned int vector,
			   u32 *apic_id, u32 *vec)
{
	u32 addr = t->msix[vector][0], data = t->msix[vector][2], low, dest;
	const char *why;

	if (t->msix[vector][1])
		return "its message address is above 4 GiB";
	if (t->cell != &hv.root) { /* checked at unmask, resolved again */
		*vec = data & MSI_DATA_VECTOR_MASK;
		return irq_cell_dest(t->cell, msi_as_icr(addr, data),
				     msi_dest(addr), apic_id);
	}
	if (addr & MSI_ADDR_REMAPPABLE) {
		why = remap(t->cfg->bdf, addr, data, &low, &dest);
		if (why)
			return why;
	} else {
		if ((addr & MSI_ADDR_BASE_MASK) != MSI_ADDR_BASE)
			return "its address is not the local APICs' window";
		low = msi_as_icr(addr, data);
		dest = msi_dest(addr);
		if (((low >> 8) & 7) > APIC_DM_LOWEST || (low & 0xff) < 0x10 ||
		    (data & MSI_DATA_LEVEL))
			return "it is not a fixed or lowest-priority edge "
			       "message with a vector from 0x10";
	}
	*vec = low & 0xff;
	return root_target(low, dest, apic_id);
}

static bool masked(const struct link_peer *t, unsigned int vector)
{
	return !(t->msix_ctrl & LINK_MSIX_ENABLE) ||
	       (t->msix_ctrl & LINK_MSIX_FMASK) ||
	       (t->msix[vector][3] & LINK_MSIX_ENTRY_MASKED);
}

static void send(struct per_cpu *pc, struct link_peer *t, unsigned int vector)
{
	const char *why;
	u32 apic_id, vec;

	why = resolve(t, vector, &apic_id, &vec);
	if (why) {
		tell(pc, t, vector, why);
		return;
	}
	/* fixed, physical destination, edge (SDM Vol. 3, 11.6.1) */
	apic_send(pc, apic_id, vec | APIC_DM_FIXED << 8 | APIC_ICR_ASSERT);
}

void link_raise(struct per_cpu *pc, struct link_peer *t, unsigned int vector)
{
	if (!t->cell || vector >= t->cfg->vectors)
		return;
	if (masked(t, vector)) {
		t->pending |= 1u << vector;
		return;
	}
	send(pc, t, vector);
}

void link_deliver_pending(struct per_cpu *pc, struct link_peer *t)
{
	unsigned int v;

	if (!t->cell)
		return;
	for (v = 0; v < t->cfg->vectors; v++)
		if ((t->pending & (1u << v)) && !masked(t, v)) {
			t->pending &= ~(1u << v);
			send(pc, t, v);
		}
}

/* Why entry (after a write) may not be unmasked by p's cell, or NULL. */
static const char *entry_refused(struct per_cpu *pc, struct link_peer *p,
				 const u32 *e)
{
	u32 id;
	const char *why;

	if (e[3] & LINK_MSIX_ENTRY_MASKED)
		return NULL;
	if (p->cell == &hv.root) {
		/* remappable: the hypervisor's index for root's made now
		 * (iommu_root_msi), the entry resolved at delivery */
		why = irq_root_msi_refused(pc->arch.x2apic, e[0], e[1], e[2]);
		if (!why && !e[1])
			why = iommu_root_msi(pc, p->cfg->bdf, e[0], e[2], 1,
					     &id);
		return why;
	}
	why = e[1] ? "MSI address above 4 GiB"
		   : msi_cell_refused(e[0], e[2], 1);
	if (why)
		return why;
	return irq_cell_dest(p->cell, msi_as_icr(e[0], e[2]), msi_dest(e[0]),
			     &id);
}

enum mmio_result link_msix_access(struct per_cpu *pc, struct link_peer *p,
				  struct mmio_access *a)
{
	u64 off = a->offset - WARDEN_LINK_MSIX_TABLE;
	unsigned int entry = off / 16, word = (off % 16) / 4;
	enum mmio_result res = MMIO_HANDLED;
	const char *why;
	u32 e[4];

	if ((a->size != 4 && a->size != 8) || (a->offset & (a->size - 1)))
		return MMIO_REFUSED;
	spin_lock(&p->link->lock);
	if (a->offset >= WARDEN_LINK_MSIX_PBA) {
		if (!a->write)
			a->value = a->offset == WARDEN_LINK_MSIX_PBA
					   ? p->pending
					   : 0;
		goto out;
	}
	if (entry >= p->cfg->vectors) {
		a->value = 0; /* no entry: reads 0, writes ignored */
		goto out;
	}
	if (!a->write) {
		a->value = p->msix[entry][word];
		if (a->size == 8)
			a->value |= (u64)p->msix[entry][word + 1] << 32;
		goto out;
	}
	e[0] = p->msix[entry][0];
	e[1] = p->msix[entry][1];
	e[2] = p->msix[entry][2];
	e[3] = p->msix[entry][3];
	e[word] = (u32)a->value;
	if (a->size == 8)
		e[word + 1] = (u32)(a->value >> 32);
	why = entry_refused(pc, p, e);
	if (why) {
		cell_printk(pc->cell,
			    "CPU %u: link \"%s\" peer %u: MSI-X entry %u "
			    "refused: %s",
			    pc->cpu_id, p->link->cfg->name, p->index, entry,
			    why);
		if (pc->cell != &hv.root) {
			spin_unlock(&p->link->lock);
			cell_fail(pc, "link MSI-X entry",
				  (u64)e[0] << 32 | e[2], vcpu_rip());
			return MMIO_CELL_FAILED;
		}
		goto out; /* root's: not applied, the entry stays as it was */
	}
	p->msix[entry][0] = e[0];
	p->msix[entry][1] = e[1];
	p->msix[entry][2] = e[2];
	p->msix[entry][3] = e[3] & LINK_MSIX_ENTRY_MASKED;
	link_deliver_pending(pc, p);
out:
	spin_unlock(&p->link->lock);
	return res;
}
