// SPDX-License-Identifier: GPL-2.0
/*
 * edu-dma: QEMU's edu device (1234:11e8) DMAs for its cell, through the
 * IOMMU (tests/system/iommu.sh).  The edu copies between its 4 KiB
 * buffer (device address 0x40000) and any address (QEMU
 * docs/specs/edu.rst: source 0x80, destination 0x88, count 0x90,
 * command 0x98: bit 0 start, bit 1 buffer to memory; a transfer starts
 * about 100 ms after the command).  Addresses are the cell's
 * guest-physical ones: the IOMMU translates them through the cell's
 * domain.
 *
 *   own:   a pattern in a page of the cell's RAM to the buffer and back
 *          to another page: "edu-dma: own memory: match" when equal.
 *   read=ADDR: the buffer filled with the pattern, then a transfer from
 *          ADDR into it, then the buffer back to the second page:
 *          "edu-dma: read 0xADDR: got" and its first 8 bytes (QEMU's
 *          edu stores zeros where the IOMMU refused the read).
 *   write=ADDR: the buffer to ADDR, count times ("edu-dma: write 0xADDR
 *          (I of N): done").
 * Command line: own=1 read=ADDR write=ADDR count=N (writes repeated N
 * times, default 1) last_bus=B (the edu is looked for on buses 0 to B,
 * default 0; behind a bridge on tests/system/iommu-bridge.sh's machine).  Then "edu-dma: done", and the cell reports itself
 * shut down.
 */
#include <inmate.h>

#define EDU_VENDOR 0x1234
#define EDU_DEVICE 0x11e8
#define EDU_SRC 0x80
#define EDU_DST 0x88
#define EDU_COUNT 0x90
#define EDU_CMD 0x98
#define EDU_CMD_START 0x1
#define EDU_CMD_TO_RAM 0x2
#define EDU_BUFFER 0x40000ull
#define LEN 256

/* guest-physical = virtual in an inmate */
static uint8_t src_page[4096] __attribute__((aligned(4096)));
static uint8_t dst_page[4096] __attribute__((aligned(4096)));
#define SRC_PAGE ((uint64_t)(unsigned long)src_page)
#define DST_PAGE ((uint64_t)(unsigned long)dst_page)

static uint64_t bar0;

/* One transfer; false if the device did not finish within 2 s. */
static bool dma(uint64_t src, uint64_t dst, bool to_ram)
{
	unsigned int i;

	mmio_write32(bar0 + EDU_SRC, (uint32_t)src);
	mmio_write32(bar0 + EDU_DST, (uint32_t)dst);
	mmio_write32(bar0 + EDU_COUNT, LEN);
	mmio_write32(bar0 + EDU_CMD,
		     EDU_CMD_START | (to_ram ? EDU_CMD_TO_RAM : 0));
	for (i = 0; i < 2000; i++) {
		if (!(mmio_read32(bar0 + EDU_CMD) & EDU_CMD_START))
			return true;
		delay_us(1000);
	}
	printk("edu-dma: transfer 0x%llx -> 0x%llx did not finish\n",
	       (unsigned long long)src, (unsigned long long)dst);
	return false;
}

static void fill(volatile uint8_t *p, uint8_t seed)
{
	unsigned int i;

	for (i = 0; i < LEN; i++)
		p[i] = (uint8_t)(seed + i * 7);
}

static bool same(const volatile uint8_t *a, const volatile uint8_t *b)
{
	unsigned int i;

	for (i = 0; i < LEN; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

static void read_probe(uint64_t addr)
{
	volatile uint8_t *src = (volatile uint8_t *)SRC_PAGE;
	volatile uint8_t *dst = (volatile uint8_t *)DST_PAGE;

	fill(src, 0x5a);
	fill(dst, 0);
	if (!dma(SRC_PAGE, EDU_BUFFER, false) ||
	    !dma(addr, EDU_BUFFER, false) || !dma(EDU_BUFFER, DST_PAGE, true))
		return;
	printk("edu-dma: read 0x%llx: got %02x %02x %02x %02x %02x %02x %02x "
	       "%02x%s\n",
	       (unsigned long long)addr, dst[0], dst[1], dst[2], dst[3], dst[4],
	       dst[5], dst[6], dst[7], same(src, dst) ? " (the pattern)" : "");
}

void inmate_main(void)
{
	volatile uint8_t *src = (volatile uint8_t *)SRC_PAGE;
	volatile uint8_t *dst = (volatile uint8_t *)DST_PAGE;
	uint64_t addr, count = cmdline_uint("count", 1), i;
	struct pci_bar bar;
	int bdf = pci_find_device(EDU_VENDOR, EDU_DEVICE, -1,
				  (unsigned int)cmdline_uint("last_bus", 0));

	if (bdf < 0 || !pci_bar_read((uint16_t)bdf, 0, &bar) || !bar.address ||
	    bar.address + bar.size > INMATE_MAP_SIZE ||
	    paging_set_uc(bar.address, bar.size, true) < 0) {
		printk("edu-dma: no edu device with a memory BAR 0\n");
		comm_set_state(WARDEN_CELL_SHUT_DOWN);
		return;
	}
	bar0 = bar.address;
	pci_enable_device((uint16_t)bdf);
	printk("edu-dma: edu at 0x%llx, command 0x%x\n",
	       (unsigned long long)bar0, pci_read16((uint16_t)bdf, 4));
	if (cmdline_uint("own", 0)) {
		fill(src, 0x11);
		fill(dst, 0);
		if (dma(SRC_PAGE, EDU_BUFFER, false) &&
		    dma(EDU_BUFFER, DST_PAGE, true))
			printk("edu-dma: own memory: %s\n",
			       same(src, dst) ? "match" : "mismatch");
	}
	addr = cmdline_uint("read", 0);
	if (addr)
		read_probe(addr);
	addr = cmdline_uint("write", 0);
	for (i = 0; addr && i < count; i++)
		if (dma(EDU_BUFFER, addr, true))
			printk("edu-dma: write 0x%llx (%llu of %llu): done\n",
			       (unsigned long long)addr,
			       (unsigned long long)i + 1,
			       (unsigned long long)count);
	printk("edu-dma: done\n");
	comm_set_state(WARDEN_CELL_SHUT_DOWN);
	for (;;)
		cpu_wait_for_interrupt();
}
