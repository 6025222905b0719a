// SPDX-License-Identifier: GPL-2.0
/*
 * The ICH9's chipset configuration registers in memory (part of the PCI
 * unit; contract in pci_dev.h).  The root complex register block
 * (RCBA, LPC register 0xf0, kept in place by pci_decoders.c) holds the
 * interrupt pin and route registers of the chipset's devices: DxxIP
 * (which INTx pin a device uses) at 0x3100-0x313f, DxxIR (which PIRQ line
 * each pin drives) at 0x3140-0x315f, and OIC (where the IOAPIC decodes) at
 * 0x31fe (ICH9 datasheet 10.1, "Chipset Configuration Registers"; QEMU
 * models D25IR-D31IR).  Rewiring a root device's INTx onto a cell's PIRQ
 * line would make root's device interrupt the cell, so these registers
 * keep their values: root's page of them is mapped read-only, a write
 * that changes one of them is refused and reported, every other write is
 * performed (Linux's iTCO_wdt writes GCS, 0x3410, on the same page).
 */
#include <asm/mmio_rw.h>
#include "pci_dev.h"
#include <asm/percpu.h>
#include <asm/root_page.h>
#include <hv/arch.h>
#include <hv/hypervisor.h>
#include <hv/mmio.h>
#include <hv/paging.h>
#include <hv/printk.h>
#include <warden/config.h>
#include <warden/hypercall.h>

#define ICH9_LPC_BDF 0xf8 /* 00:1f.0 */
#define ICH9_LPC_IDS 0x29188086u
#define ICH9_RCBA 0xf0	      /* base in 31:14, enable bit 0 */
#define RCBA_PAGE 0x3000      /* the page with the interrupt registers */
#define RCBA_IRQ_FIRST 0x3100 /* DxxIP, DxxIR */
#define RCBA_IRQ_END 0x3160
#define RCBA_OIC 0x31fe
/* The hypervisor's mapping of that page (after root's IOMMU page). */
#define RCBA_HV_VIRT 0xffffff80c0002000ul

static u64 page; /* root's page, 0: none */
#define regs ((volatile u8 *)RCBA_HV_VIRT)

static bool moderated(u32 off)
{
	return (off >= RCBA_IRQ_FIRST && off < RCBA_IRQ_END) ||
	       (off >= RCBA_OIC && off < RCBA_OIC + 2);
}

static enum mmio_result rcba_mmio(void *ctx, struct per_cpu *pc,
				  struct mmio_access *a)
{
	u32 off = (u32)a->offset, b;
	u64 old;

	(void)ctx;
	if (!a->write) {
		a->value = mmio_read_sized(regs + off, a->size);
		return MMIO_HANDLED;
	}
	old = mmio_read_sized(regs + off, a->size);
	for (b = 0; b < a->size; b++)
		if (moderated(RCBA_PAGE + off + b) &&
		    ((old ^ a->value) >> (8 * b)) & 0xff) {
			printk("CPU %u: root's write of 0x%llx to the "
			       "chipset's "
			       "register 0x%x (RCBA) refused: the interrupt "
			       "pin and route registers keep their values\n",
			       pc->cpu_id, (unsigned long long)a->value,
			       RCBA_PAGE + off);
			return MMIO_HANDLED;
		}
	mmio_write_sized(regs + off, a->size, a->value);
	return MMIO_HANDLED;
}

int pci_rcba_init(void)
{
	u32 rcba;

	if (pci_phys_read(ICH9_LPC_BDF, 0, 4) != ICH9_LPC_IDS)
		return 0;
	rcba = pci_phys_read(ICH9_LPC_BDF, ICH9_RCBA, 4);
	if (!(rcba & 1))
		return 0; /* not decoded: nothing to reach */
	page = (rcba & ~0x3fffu) + RCBA_PAGE;
	if (pt_map(&hv.hv_pt, RCBA_HV_VIRT, page, PAGE_SIZE,
		   MAP_READ | MAP_WRITE, WARDEN_MEMTYPE_UC) ||
	    root_page_trap_writes(page, rcba_mmio, NULL))
		return -WARDEN_ENOMEM;
	printk("ICH9 chipset registers at 0x%llx: interrupt routes kept\n",
	       (unsigned long long)(page - RCBA_PAGE));
	return 0;
}
