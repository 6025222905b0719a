/* SPDX-License-Identifier: GPL-2.0 */
/* The system-test helper's modes kept outside wdtest_main.c. */
#ifndef WDTEST_H
#define WDTEST_H

#include <linux/pci.h>

/* QEMU's edu device (docs/test-machine.md): its DMA engine's registers,
 * in BAR 0, and its 4 KiB buffer at this device address. */
#define EDU_SRC 0x80
#define EDU_DST 0x88
#define EDU_COUNT 0x90
#define EDU_CMD 0x98
#define EDU_CMD_START 0x1
#define EDU_CMD_TO_RAM 0x2
#define EDU_BUFFER 0x40000ull
#define EDU_LEN 256 /* bytes per transfer of these tests */

/* One edu transfer of EDU_LEN bytes, src to dst (to_ram: from its buffer
 * to memory), waited for (it starts about 100 ms after the command);
 * false, said in the kernel log, when it does not finish in 2 s
 * (wdtest_dma.c). */
bool wdtest_edu_xfer(void __iomem *bar, u64 src, u64 dst, bool to_ram);

/* mode=msixon: switch MSI-X of pdev on (with the function mask set, so
 * that no entry fires) or off, as a root driver would; log the control
 * word read back. */
void wdtest_msix_on(struct pci_dev *pdev, bool on);

/* mode=irte: aim an entry of root's own interrupt-remapping table (the
 * Intel IOMMU's registers at iommu) at APIC ID dest with vector (entry
 * index if not 0, else the lowest free one), point the edu function
 * pdev's MSI at it, raise the edu's interrupt, then undo it all; log
 * what was done and the MSI address read back. */
void wdtest_irte(struct pci_dev *pdev, unsigned long iommu, unsigned int dest,
		 unsigned int vector, unsigned int index);

/* mode=dma: the edu function pdev DMAs (how: "own" root's RAM to its
 * buffer and back, compared; "read" target into its buffer, reported
 * with the first bytes it then holds; "write" its buffer to
 * target); log what happened. */
void wdtest_dma(struct pci_dev *pdev, const char *how, unsigned long target);

/* mode=dmaapi: the edu function pdev driven through the DMA API and
 * Linux's interrupt set-up (how: "map" a compared copy between coherent
 * buffers, then a read and a write of the bus address addr that the DMA
 * API did not hand out; "msi" five MSIs, counted);
 * log what happened (wdtest_dmaapi.c). */
void wdtest_dmaapi(struct pci_dev *pdev, const char *how, unsigned long addr);

#endif
