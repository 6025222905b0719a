// SPDX-License-Identifier: GPL-2.0
/*
 * wdtest mode=dmaapi: QEMU's edu device driven the way a Linux driver
 * drives it, through the DMA API and Linux's own interrupt set-up, so
 * that what Linux's IOMMU driver does shows (tests/system/amdvi-probe.sh,
 * the AMD-Vi probe: is DMA translated, are unmapped addresses refused,
 * do the edu's MSIs arrive).
 * edu registers (QEMU docs/specs/edu.rst): interrupt status 0x24, raise
 * 0x60, acknowledge 0x64; DMA source 0x80, destination 0x88, count 0x90,
 * command 0x98 (bit 0 start, bit 1 buffer to memory); buffer at device
 * address 0x40000.
 */
#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/irq.h>
#include <linux/pci.h>
#include <linux/string.h>

#include "wdtest.h"

#define EDU_IRQ_STATUS 0x24
#define EDU_IRQ_RAISE 0x60
#define EDU_IRQ_ACK 0x64
#define LEN EDU_LEN
#define FIRES 5

/* The physical address behind a coherent buffer (the DMA API may hand
 * out a vmap()ed one). */
static u64 buf_phys(void *p)
{
	if (is_vmalloc_addr(p))
		return page_to_phys(vmalloc_to_page(p)) + offset_in_page(p);
	return virt_to_phys(p);
}

/*
 * how=map: two coherent buffers from the DMA API: their bus addresses
 * (IOVAs in a translated domain) against their physical ones, a copy
 * through the edu compared; then a read and a write of addr (default:
 * the physical address of a page of this module's), a bus address the
 * DMA API did not hand out, which a translating IOMMU must
 * refuse (the buffer keeps the pattern, the destination page of the
 * write stays untouched as far as this module can see).
 */
static void dmaapi_map(struct pci_dev *pdev, void __iomem *bar, u64 stray)
{
	struct device *dev = &pdev->dev;
	dma_addr_t da, db;
	u8 *a, *b, *c = NULL;
	unsigned int i;

	if (dma_set_mask_and_coherent(dev, DMA_BIT_MASK(32))) {
		pr_err("wdtest: dmaapi: no 32-bit DMA mask\n");
		return;
	}
	a = dma_alloc_coherent(dev, PAGE_SIZE, &da, GFP_KERNEL);
	b = dma_alloc_coherent(dev, PAGE_SIZE, &db, GFP_KERNEL);
	if (!a || !b) {
		pr_err("wdtest: dmaapi: no coherent buffers\n");
		goto out;
	}
	/* no addr: a page of this module's own, never given to the DMA
	 * API (a stray write through an unenforcing unit lands there) */
	if (!stray) {
		c = (u8 *)__get_free_page(GFP_KERNEL | GFP_DMA32);
		if (!c) {
			pr_err("wdtest: dmaapi: no page\n");
			goto out;
		}
		memset(c, 0xc3, PAGE_SIZE);
		stray = virt_to_phys(c);
	}
	for (i = 0; i < LEN; i++)
		a[i] = (u8)(0x5a + i * 7);
	memset(b, 0, LEN);
	pr_info("wdtest: dmaapi: bus 0x%llx phys 0x%llx, bus 0x%llx phys "
		"0x%llx\n",
		(u64)da, buf_phys(a), (u64)db, buf_phys(b));
	if (wdtest_edu_xfer(bar, da, EDU_BUFFER, false) &&
	    wdtest_edu_xfer(bar, EDU_BUFFER, db, true))
		pr_info("wdtest: dmaapi: copy: %s\n",
			memcmp(a, b, LEN) ? "mismatch" : "match");
	/* the buffer now holds a's pattern; a refused read leaves it */
	memset(b, 0, LEN);
	if (wdtest_edu_xfer(bar, stray, EDU_BUFFER, false) &&
	    wdtest_edu_xfer(bar, EDU_BUFFER, db, true))
		/* what came in, and what RAM holds at that physical address
		 * (equal: the unit let the address through untranslated) */
		pr_info("wdtest: dmaapi: stray read 0x%llx: buffer %s, got "
			"%*ph, RAM there %*ph\n",
			stray, memcmp(a, b, LEN) ? "changed" : "kept", 8, b, 8,
			(u8 *)phys_to_virt(stray));
	/* the buffer holds a's pattern (or what the read brought) */
	memcpy(b, phys_to_virt(stray), LEN);
	if (wdtest_edu_xfer(bar, EDU_BUFFER, stray, true))
		pr_info("wdtest: dmaapi: stray write 0x%llx: RAM there %s\n",
			stray,
			memcmp(b, phys_to_virt(stray), LEN) ? "changed"
							    : "unchanged");
out:
	free_page((unsigned long)c);
	if (a)
		dma_free_coherent(dev, PAGE_SIZE, a, da);
	if (b)
		dma_free_coherent(dev, PAGE_SIZE, b, db);
}

static atomic_t edu_irqs = ATOMIC_INIT(0);

static irqreturn_t edu_irq(int irq, void *bar)
{
	u32 status = readl((void __iomem *)bar + EDU_IRQ_STATUS);

	if (!status)
		return IRQ_NONE;
	writel(status, (void __iomem *)bar + EDU_IRQ_ACK);
	atomic_inc(&edu_irqs);
	return IRQ_HANDLED;
}

/*
 * how=msi: FIRES MSIs, each raised and given 50 ms; log how many the
 * handler saw and through which interrupt chip Linux routed them
 * (PCI-MSI, IR-PCI-MSI).  Not INTx: where the IOAPIC's message is lost
 * a level pin keeps its Remote IRR set, and free_irq() then waits for
 * it forever (seen: a soft lockup in __synchronize_hardirq); the probe
 * counts the e1000's INTx instead, whose handler stays.
 */
static void dmaapi_msi(struct pci_dev *pdev, void __iomem *bar)
{
	struct irq_chip *chip;
	unsigned int i;
	int irq;

	if (pci_alloc_irq_vectors(pdev, 1, 1, PCI_IRQ_MSI) != 1) {
		pr_err("wdtest: dmaapi: msi: no vector\n");
		return;
	}
	irq = pci_irq_vector(pdev, 0);
	if (request_irq(irq, edu_irq, 0, "wdtest-edu", (void __force *)bar)) {
		pr_err("wdtest: dmaapi: msi: irq %d not taken\n", irq);
		pci_free_irq_vectors(pdev);
		return;
	}
	atomic_set(&edu_irqs, 0);
	for (i = 0; i < FIRES; i++) {
		writel(1u << i, bar + EDU_IRQ_RAISE);
		msleep(50);
	}
	chip = irq_get_chip(irq);
	pr_info("wdtest: dmaapi: msi irq %d chip %s: %d of %d\n", irq,
		chip && chip->name ? chip->name : "?", atomic_read(&edu_irqs),
		FIRES);
	writel(readl(bar + EDU_IRQ_STATUS), bar + EDU_IRQ_ACK);
	free_irq(irq, (void __force *)bar);
	pci_free_irq_vectors(pdev);
}

void wdtest_dmaapi(struct pci_dev *pdev, const char *how, unsigned long addr)
{
	void __iomem *bar;

	if (pci_enable_device(pdev)) {
		pr_err("wdtest: dmaapi: cannot enable %s\n", pci_name(pdev));
		return;
	}
	pci_set_master(pdev);
	bar = pci_iomap(pdev, 0, 0);
	if (!bar) {
		pr_err("wdtest: dmaapi: no BAR 0\n");
		goto out;
	}
	if (!strcmp(how, "map"))
		dmaapi_map(pdev, bar, addr);
	else if (!strcmp(how, "msi"))
		dmaapi_msi(pdev, bar);
	else
		pr_err("wdtest: dmaapi: how=map|msi\n");
	pci_iounmap(pdev, bar);
out:
	pci_clear_master(pdev);
	pci_disable_device(pdev);
}
