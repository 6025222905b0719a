// SPDX-License-Identifier: GPL-2.0
/*
 * wdtest modes on root's MSI-X enable bit and root's own
 * interrupt-remapping table (tests/system/isolation.sh).
 */
#include <linux/irqflags.h>
#include <linux/delay.h>
#include <linux/io.h>
#include <linux/pci.h>

#include "wdtest.h"

void wdtest_msix_on(struct pci_dev *pdev, bool on)
{
	int cap = pci_find_capability(pdev, PCI_CAP_ID_MSIX);
	u16 ctrl;

	if (!cap) {
		pr_err("wdtest: msixon: %s has no MSI-X capability\n",
		       pci_name(pdev));
		return;
	}
	pci_read_config_word(pdev, cap + PCI_MSIX_FLAGS, &ctrl);
	if (on)
		ctrl |= PCI_MSIX_FLAGS_ENABLE | PCI_MSIX_FLAGS_MASKALL;
	else
		ctrl &= ~(PCI_MSIX_FLAGS_ENABLE | PCI_MSIX_FLAGS_MASKALL);
	pci_write_config_word(pdev, cap + PCI_MSIX_FLAGS, ctrl);
	pci_read_config_word(pdev, cap + PCI_MSIX_FLAGS, &ctrl);
	pr_info("wdtest: msixon %s: control 0x%x, %s\n", pci_name(pdev), ctrl,
		(ctrl & PCI_MSIX_FLAGS_ENABLE) ? "enabled" : "not enabled");
}

/* VT-d 10.4.29: the Interrupt Remapping Table Address register. */
#define VTD_IRTA 0xb8
/* the edu device's registers (QEMU docs/specs/edu.rst): status bit 7
 * raises an interrupt when a DMA ends; 0x60 raises one directly */
#define EDU_RAISE 0x60
#define EDU_ACK 0x64

/* VT-d 10.4.22-25: the invalidation queue's tail and address */
#define VTD_IQT 0x88
#define VTD_IQA 0x90

/*
 * An index-selective interrupt entry cache invalidation (VT-d 6.5.2.7:
 * type 4, granularity bit 4, index 47:32) on the unit's queue, as Linux's
 * qi_flush_iec does after it changes an entry: what makes a unit (or the
 * hypervisor that owns it) take the new entry.
 *
 * Linux's queue is Linux's: it writes its next descriptor where its own
 * record says the queue's tail is, and never learns of one written here.
 * So the queue is left where Linux left it: the invalidation goes in the
 * slot at the tail, every other slot of the queue gets a harmless one
 * (index 0 again), and the tail goes one on (the invalidation is carried
 * out), then all the way round to where it was (the others are): head
 * and tail end where Linux's record has them.  Linux reads back no
 * descriptor it wrote, only the status words of its waits, which stay
 * untouched.  Interrupts stay off meanwhile, so that no submission of
 * Linux's on this CPU comes between; the test runs with root on one CPU
 * (the other is the cell's), so none comes from another.
 */
static void iec_invalidate(void __iomem *regs, unsigned int idx)
{
	u64 iqa = readq(regs + VTD_IQA), *q;
	u32 tail, n = 256u << (iqa & 7), i;
	unsigned long flags;

	q = memremap(iqa & ~0xfffull, n * 16ull, MEMREMAP_WB);
	if (!q) {
		pr_err("wdtest: irte: queue at 0x%llx not mapped\n", iqa);
		return;
	}
	local_irq_save(flags);
	tail = readl(regs + VTD_IQT) >> 4;
	for (i = 0; i < n; i++) {
		q[2 * ((tail + i) % n)] = 0x4ull | 1ull << 4 |
					  (u64)(i ? 0 : idx) << 32;
		q[2 * ((tail + i) % n) + 1] = 0;
	}
	wmb();
	writel(((tail + 1) % n) << 4, regs + VTD_IQT);
	writel(tail << 4, regs + VTD_IQT);
	local_irq_restore(flags);
	memunmap(q);
}

void wdtest_irte(struct pci_dev *pdev, unsigned long iommu, unsigned int dest,
		 unsigned int vector, unsigned int index)
{
	u32 back = 0;
	void __iomem *regs = ioremap(iommu, PAGE_SIZE), *bar;
	u64 irta, *irt, old_lo, old_hi;
	unsigned int entries, idx;
	int cap = pci_find_capability(pdev, PCI_CAP_ID_MSI);
	u16 cmd, ctrl;

	if (!regs || !cap) {
		pr_err("wdtest: irte: no IOMMU registers or no MSI\n");
		goto out_regs;
	}
	irta = readq(regs + VTD_IRTA);
	entries = 2u << (irta & 0xf); /* VT-d 10.4.29: 2^(S+1) */
	irt = memremap(irta & ~0xfffull, entries * 16ull, MEMREMAP_WB);
	if (!(irta & ~0xfffull) || !irt) {
		pr_err("wdtest: irte: IRTA 0x%llx: no table\n", irta);
		goto out_regs;
	}
	/* the lowest entry Linux leaves free (Linux allocates from the
	 * lowest: an index any table that copies Linux's holds) */
	for (idx = 1; idx < entries - 1 && (irt[2 * idx] & 1); idx++)
		;
	/* or the one asked for, if free (one past the indexes a
	 * hypervisor copies one to one shows whether it translates) */
	if (index && index < entries && !(irt[2 * index] & 1))
		idx = index;
	old_lo = irt[2 * idx];
	old_hi = irt[2 * idx + 1];
	/* VT-d 9.10: present, physical, edge, Fixed, the vector in 23:16,
	 * the x2APIC destination in 63:32; no source-id check (SVT 0).
	 * Invalidated as Linux does (QEMU reads the entry at each message,
	 * but a hypervisor that copies the table copies it then). */
	irt[2 * idx + 1] = 0;
	irt[2 * idx] = (u64)dest << 32 | (u64)(vector & 0xff) << 16 | 1;
	wmb();
	iec_invalidate(regs, idx);
	/* the edu's MSI in remappable format (VT-d 5.1.5.2): the handle in
	 * bits 19:5 and 2, bit 4 set, no subhandle */
	pci_read_config_word(pdev, PCI_COMMAND, &cmd);
	pci_write_config_word(pdev, PCI_COMMAND,
			      cmd | PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);
	pci_write_config_dword(pdev, cap + PCI_MSI_ADDRESS_LO,
			       0xfee00000u | (idx & 0x7fff) << 5 |
				       ((idx >> 15) & 1) << 2 | 0x10);
	pci_read_config_word(pdev, cap + PCI_MSI_FLAGS, &ctrl);
	if (ctrl & PCI_MSI_FLAGS_64BIT)
		pci_write_config_dword(pdev, cap + PCI_MSI_ADDRESS_HI, 0);
	pci_write_config_word(pdev,
			      cap + ((ctrl & PCI_MSI_FLAGS_64BIT)
					     ? PCI_MSI_DATA_64
					     : PCI_MSI_DATA_32),
			      0);
	pci_write_config_word(pdev, cap + PCI_MSI_FLAGS,
			      (ctrl & ~PCI_MSI_FLAGS_QSIZE) |
				      PCI_MSI_FLAGS_ENABLE);
	pci_read_config_word(pdev, cap + PCI_MSI_FLAGS, &ctrl);
	pci_read_config_dword(pdev, cap + PCI_MSI_ADDRESS_LO, &back);
	bar = pci_iomap(pdev, 0, 0x100);
	if (bar) {
		iowrite32(1, bar + EDU_RAISE);
		msleep(100);
		iowrite32(1, bar + EDU_ACK);
		pci_iounmap(pdev, bar);
	}
	pr_info("wdtest: irte: entry %u of %u aimed at APIC ID %u vector "
		"0x%x; %s MSI %s, interrupt raised; address read back 0x%x "
		"(index %u)\n",
		idx, entries, dest, vector, pci_name(pdev),
		(ctrl & PCI_MSI_FLAGS_ENABLE) ? "enabled" : "not enabled", back,
		((back >> 5) & 0x7fff) | ((back >> 2) & 1) << 15);
	pci_write_config_word(pdev, cap + PCI_MSI_FLAGS,
			      ctrl & ~PCI_MSI_FLAGS_ENABLE);
	pci_write_config_word(pdev, PCI_COMMAND, cmd);
	irt[2 * idx] = old_lo;
	irt[2 * idx + 1] = old_hi;
	wmb();
	iec_invalidate(regs, idx);
	memunmap(irt);
out_regs:
	if (regs)
		iounmap(regs);
}
