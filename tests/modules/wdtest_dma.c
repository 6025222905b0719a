// SPDX-License-Identifier: GPL-2.0
/*
 * wdtest mode=dma: QEMU's edu device, root's, DMAs as a root driver
 * (or an attacker in root) would program it (tests/system/iommu.sh).
 * The edu copies between its 4 KiB buffer (device address 0x40000) and
 * any bus address (QEMU docs/specs/edu.rst: source 0x80, destination
 * 0x88, count 0x90, command 0x98: bit 0 start, bit 1 buffer to memory).
 */
#include <linux/delay.h>
#include <linux/gfp.h>
#include <linux/io.h>
#include <linux/pci.h>
#include <linux/string.h>

#include "wdtest.h"

#define LEN EDU_LEN

bool wdtest_edu_xfer(void __iomem *bar, u64 src, u64 dst, bool to_ram)
{
	unsigned int i;

	writel((u32)src, bar + EDU_SRC);
	writel((u32)dst, bar + EDU_DST);
	writel(LEN, bar + EDU_COUNT);
	writel(EDU_CMD_START | (to_ram ? EDU_CMD_TO_RAM : 0), bar + EDU_CMD);
	for (i = 0; i < 200; i++) {
		if (!(readl(bar + EDU_CMD) & EDU_CMD_START))
			return true;
		msleep(10);
	}
	pr_err("wdtest: edu transfer 0x%llx -> 0x%llx did not finish\n", src,
	       dst);
	return false;
}

static void fill(u8 *p, u8 seed)
{
	unsigned int i;

	for (i = 0; i < LEN; i++)
		p[i] = (u8)(seed + i * 7);
}

void wdtest_dma(struct pci_dev *pdev, const char *how, unsigned long target)
{
	u8 *src = (u8 *)__get_free_page(GFP_KERNEL | GFP_DMA32);
	u8 *dst = (u8 *)__get_free_page(GFP_KERNEL | GFP_DMA32);
	unsigned long s, d;
	void __iomem *bar;
	u16 cmd;

	bar = pci_iomap(pdev, 0, 0);
	if (!src || !dst || !bar) {
		pr_err("wdtest: dma: no pages or no BAR 0\n");
		goto out;
	}
	s = virt_to_phys(src);
	d = virt_to_phys(dst);
	pci_read_config_word(pdev, PCI_COMMAND, &cmd);
	pci_write_config_word(pdev, PCI_COMMAND,
			      cmd | PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);
	if (!strcmp(how, "own")) {
		/* root's RAM to the buffer and back to another page */
		fill(src, 0x22);
		memset(dst, 0, LEN);
		if (wdtest_edu_xfer(bar, s, EDU_BUFFER, false) &&
		    wdtest_edu_xfer(bar, EDU_BUFFER, d, true))
			pr_info("wdtest: dma: own memory 0x%lx: %s\n", d,
				memcmp(src, dst, LEN) ? "mismatch" : "match");
	} else if (!strcmp(how, "read")) {
		/* the buffer holds a pattern; a read of target into it,
		 * then the buffer back: what the read brought */
		fill(src, 0x5a);
		memset(dst, 0, LEN);
		if (wdtest_edu_xfer(bar, s, EDU_BUFFER, false) &&
		    wdtest_edu_xfer(bar, target, EDU_BUFFER, false) &&
		    wdtest_edu_xfer(bar, EDU_BUFFER, d, true))
			pr_info("wdtest: dma: read 0x%lx: got %*ph\n", target,
				8, dst);
	} else if (!strcmp(how, "write")) {
		fill(src, 0x33);
		if (wdtest_edu_xfer(bar, s, EDU_BUFFER, false) &&
		    wdtest_edu_xfer(bar, EDU_BUFFER, target, true))
			pr_info("wdtest: dma: write 0x%lx: done\n", target);
	} else {
		pr_err("wdtest: dma: how=own|read|write\n");
	}
	pci_write_config_word(pdev, PCI_COMMAND, cmd);
out:
	if (bar)
		pci_iounmap(pdev, bar);
	free_page((unsigned long)src);
	free_page((unsigned long)dst);
}
