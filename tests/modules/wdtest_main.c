// SPDX-License-Identifier: GPL-2.0
/*
 * A test module for the system tests: it does, as a root-cell kernel
 * module would, what Warden must refuse or survive, and logs the outcome
 * ("wdtest: <mode>: ...") for the scenario to check.
 *
 *   insmod wdtest.ko mode=hvread addr=0x30000000
 *   insmod wdtest.ko mode=hvwrite addr=0x30000000
 *   insmod wdtest.ko mode=msr msr=0x35
 *   insmod wdtest.ko mode=vmxhold     (holds VMX on every CPU until rmmod,
 *                                      like a running KVM guest would)
 *   insmod wdtest.ko mode=svmhold     (the same on AMD: EFER.SVME set on
 *                                      every CPU until rmmod)
 *   insmod wdtest.ko mode=nmi         (NMI IPIs to every other CPU: each
 *                                      must reach Linux's NMI handler)
 *   insmod wdtest.ko mode=ipistorm    (reschedule IPIs with every
 *                                      shorthand and a broadcast: while
 *                                      cells run, none may reach them)
 *   insmod wdtest.ko mode=apicbase how=move|disable|x2apic-elsewhere|
 *                                      extd-only
 *                                     (rewrite IA32_APIC_BASE: move the
 *                                      xAPIC page, disable the APIC, switch
 *                                      to x2APIC at another base, set EXTD
 *                                      without EN; each must be refused)
 *   insmod wdtest.ko mode=apicid      (write the xAPIC ID register: must
 *                                      not change)
 *   insmod wdtest.ko mode=apictimer   (each CPU's APIC timer registers:
 *                                      divide, LVT, initial and current
 *                                      count)
 *   insmod wdtest.ko mode=ioapic pin=3 value=0x...  (write the low
 *                                      half of IOAPIC pin's redirection
 *                                      entry at 0xfec00000 as root's
 *                                      driver would, then read it back;
 *                                      without value: only read; high=
 *                                      writes the high half first)
 *   insmod wdtest.ko mode=msi bdf=00:03.0 dest=1 [value=0x41] [how=remap]
 *                      [fire=1]       (program the function's MSI
 *                                      capability for APIC ID dest with
 *                                      vector value and enable it, as a
 *                                      root driver would; read it back,
 *                                      then disable it again; fire=1:
 *                                      QEMU's edu sends it once first,
 *                                      its interrupt raise register)
 *   insmod wdtest.ko mode=msix bdf=00:04.0 dest=1 [value=0x41]
 *                                     (write MSI-X table entry 0 of the
 *                                      function, unmasked, for APIC ID
 *                                      dest, through its BAR as a root
 *                                      driver would; read it back, then
 *                                      mask it again)
 *   insmod wdtest.ko mode=bar bdf=00:03.0 addr=0x... [pin=BAR]
 *                                     (with memory decoding on, move a
 *                                      memory BAR to addr; read it back,
 *                                      then put it back)
 *   insmod wdtest.ko mode=hpet pin=2 [value=0x...] [addr=0xfed00000]
 *                                     (write the low half of HPET timer
 *                                      pin's configuration register as a
 *                                      root driver would, then read it
 *                                      back; without value: only read)
 *   insmod wdtest.ko mode=hpetfsb pin=2 dest=1 [how=remap] [value=0x41]
 *                    [high=0x4004] [addr=0xfed00000]
 *                                     (write HPET timer pin's FSB route
 *                                      as root's driver would: data value,
 *                                      address for APIC ID dest or, with
 *                                      how=remap, remappable format naming
 *                                      index dest; then high, the low half
 *                                      of its configuration; read all
 *                                      back, then put the configuration
 *                                      back: the route stays)
 *   insmod wdtest.ko mode=vtdoff [addr=0xfed90000]
 *                                     (write the Intel IOMMU's global
 *                                      command with interrupt remapping
 *                                      enable clear, as a driver turning
 *                                      remapping off would (VT-d 10.4.4);
 *                                      log the status before and after)
 *   insmod wdtest.ko mode=hwcr        (AMD: set HWCR.INVDWBINVD, then
 *                                      try to clear it: the clear must be
 *                                      refused where the CPU holds the
 *                                      bit; QEMU 10 reads HWCR as 0 and
 *                                      drops writes, so no group runs it)
 *   insmod wdtest.ko mode=cfg bdf=00:00.0 reg=0x60 value=0x...
 *                                     (write the configuration dword at
 *                                      reg through 0xcf8/0xcfc as a raw
 *                                      driver would, read it back, write
 *                                      the original back, read again)
 *   insmod wdtest.ko mode=rom bdf=00:02.0 addr=0x...
 *                                     (enable the expansion ROM at addr
 *                                      with memory decoding on; read it
 *                                      back; then place it there with
 *                                      decoding off and switch memory
 *                                      space on; put both back)
 *   insmod wdtest.ko mode=msixon bdf=00:04.0 value=1|0
 *                                     (switch MSI-X on, function masked,
 *                                      or off; wdtest_remap.c)
 *   insmod wdtest.ko mode=irte bdf=00:03.0 dest=1 [value=0x55]
 *                                     [addr=0xfed90000] [pin=INDEX]
 *                                     (aim a free entry (or INDEX) of root's own
 *                                      interrupt-remapping table at APIC
 *                                      ID dest, point the edu's MSI at it
 *                                      and raise it; wdtest_remap.c)
 *   insmod wdtest.ko mode=dmaapi bdf=00:03.0 how=map|msi [addr=0x...]
 *                                     (the edu through the DMA API and
 *                                      Linux's IRQ set-up: a compared
 *                                      copy, then a read and a write of
 *                                      bus address addr; or five MSIs
 *                                      counted;
 *                                      wdtest_dmaapi.c)
 *   insmod wdtest.ko mode=mmio addr=0x... [value=0x...]
 *                                     (write the 32-bit device register
 *                                      at addr as a root driver would,
 *                                      then read it back; without value:
 *                                      only read)
 * Loading fails with -EAGAIN after the one-shot modes, so that the
 * module does not stay loaded.
 */
#include <linux/io.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/smp.h>
#include <linux/uaccess.h>

#include <linux/delay.h>

#include <asm/apic.h>
#include <asm/asm.h>
#include <asm/msr.h>
#include <asm/nmi.h>
#include <asm/tlbflush.h>

#include "wdtest.h"

static char *mode = "";
module_param(mode, charp, 0444);
static unsigned long addr;
module_param(addr, ulong, 0444);
static unsigned int msr;
module_param(msr, uint, 0444);
static char *how = "";
module_param(how, charp, 0444);
static unsigned int pin;
module_param(pin, uint, 0444);
static char *value = "";
module_param(value, charp, 0444);
static char *high = "";
module_param(high, charp, 0444);
static char *bdf = "";
module_param(bdf, charp, 0444);
static unsigned int dest;
module_param(dest, uint, 0444);
static unsigned int reg;
module_param(reg, uint, 0444);
static unsigned int fire;
module_param(fire, uint, 0444);

/* The PCI function bdf names (bus:device.function of segment 0). */
static struct pci_dev *pci_function(void)
{
	unsigned int bus, dev, fn;

	if (sscanf(bdf, "%x:%x.%x", &bus, &dev, &fn) != 3) {
		pr_err("wdtest: bdf '%s' is not bus:device.function\n", bdf);
		return NULL;
	}
	return pci_get_domain_bus_and_slot(0, bus, PCI_DEVFN(dev, fn));
}

/* QEMU's edu sends its MSI once: its interrupt raise register (0x60,
 * QEMU docs/specs/edu.rst), with memory decoding and bus mastering on (an
 * MSI is a memory write of the function's: it carries its requester id),
 * then the acknowledge register (0x64). */
static void edu_fire(struct pci_dev *pdev)
{
	void __iomem *bar = pci_iomap(pdev, 0, 0);
	u16 cmd;

	if (!bar) {
		pr_err("wdtest: msi: no BAR 0 to fire with\n");
		return;
	}
	pci_read_config_word(pdev, PCI_COMMAND, &cmd);
	pci_write_config_word(pdev, PCI_COMMAND,
			      cmd | PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);
	writel(1, bar + 0x60);
	msleep(20);
	writel(1, bar + 0x64);
	pci_write_config_word(pdev, PCI_COMMAND, cmd);
	pci_iounmap(pdev, bar);
	pr_info("wdtest: msi %s: fired\n", bdf);
}

/* Program and enable MSI for APIC ID dest, read back, disable. */
static void pci_msi(void)
{
	struct pci_dev *pdev = pci_function();
	unsigned int vector = 0x41;
	u32 address = 0xfee00000u | (dest & 0xff) << 12, got;
	u16 ctrl, data_reg;
	int cap;

	if (*value && kstrtouint(value, 0, &vector))
		return;
	/* how=remap: Intel's remappable format (VT-d 5.1.5.2: bit 4, SHV
	 * bit 3), the handle dest in bits 19:5 */
	if (!strcmp(how, "remap"))
		address = 0xfee00000u | (dest & 0x7fff) << 5 | 0x18;
	if (!pdev) {
		pr_err("wdtest: msi: no function %s\n", bdf);
		return;
	}
	cap = pci_find_capability(pdev, PCI_CAP_ID_MSI);
	if (!cap) {
		pr_err("wdtest: msi: %s has no MSI capability\n", bdf);
		pci_dev_put(pdev);
		return;
	}
	pci_read_config_word(pdev, cap + PCI_MSI_FLAGS, &ctrl);
	data_reg = cap + ((ctrl & PCI_MSI_FLAGS_64BIT) ? PCI_MSI_DATA_64
						       : PCI_MSI_DATA_32);
	pci_write_config_dword(pdev, cap + PCI_MSI_ADDRESS_LO, address);
	if (ctrl & PCI_MSI_FLAGS_64BIT)
		pci_write_config_dword(pdev, cap + PCI_MSI_ADDRESS_HI, 0);
	pci_write_config_word(pdev, data_reg, vector);
	pci_write_config_word(pdev, cap + PCI_MSI_FLAGS,
			      (ctrl & ~PCI_MSI_FLAGS_QSIZE) |
				      PCI_MSI_FLAGS_ENABLE);
	pci_read_config_dword(pdev, cap + PCI_MSI_ADDRESS_LO, &got);
	pci_read_config_word(pdev, cap + PCI_MSI_FLAGS, &ctrl);
	pr_info("wdtest: msi %s dest %u: address 0x%x, %s\n", bdf, dest, got,
		(ctrl & PCI_MSI_FLAGS_ENABLE) ? "enabled" : "not enabled");
	if (fire)
		edu_fire(pdev);
	pci_write_config_word(pdev, cap + PCI_MSI_FLAGS,
			      ctrl & ~PCI_MSI_FLAGS_ENABLE);
	pci_dev_put(pdev);
}

/* Entry 0 of the MSI-X table for APIC ID dest, unmasked; read back. */
static void pci_msix(void)
{
	struct pci_dev *pdev = pci_function();
	unsigned int vector = 0x41;
	void __iomem *table;
	u32 where;
	u16 cmd;
	int cap;

	if (*value && kstrtouint(value, 0, &vector))
		return;
	if (!pdev) {
		pr_err("wdtest: msix: no function %s\n", bdf);
		return;
	}
	cap = pci_find_capability(pdev, PCI_CAP_ID_MSIX);
	if (!cap) {
		pr_err("wdtest: msix: %s has no MSI-X capability\n", bdf);
		pci_dev_put(pdev);
		return;
	}
	pci_read_config_dword(pdev, cap + PCI_MSIX_TABLE, &where);
	/* the table answers only while memory decoding is on */
	pci_read_config_word(pdev, PCI_COMMAND, &cmd);
	pci_write_config_word(pdev, PCI_COMMAND, cmd | PCI_COMMAND_MEMORY);
	table = ioremap(pci_resource_start(pdev, where & PCI_MSIX_TABLE_BIR) +
				(where & PCI_MSIX_TABLE_OFFSET),
			PCI_MSIX_ENTRY_SIZE);
	if (!table) {
		pci_write_config_word(pdev, PCI_COMMAND, cmd);
		pci_dev_put(pdev);
		return;
	}
	writel(0xfee00000u | (dest & 0xff) << 12,
	       table + PCI_MSIX_ENTRY_LOWER_ADDR);
	writel(0, table + PCI_MSIX_ENTRY_UPPER_ADDR);
	writel(vector, table + PCI_MSIX_ENTRY_DATA);
	writel(0, table + PCI_MSIX_ENTRY_VECTOR_CTRL);
	pr_info("wdtest: msix %s dest %u: entry 0 address 0x%x, data 0x%x, "
		"control 0x%x\n",
		bdf, dest, readl(table + PCI_MSIX_ENTRY_LOWER_ADDR),
		readl(table + PCI_MSIX_ENTRY_DATA),
		readl(table + PCI_MSIX_ENTRY_VECTOR_CTRL));
	writel(PCI_MSIX_ENTRY_CTRL_MASKBIT, table + PCI_MSIX_ENTRY_VECTOR_CTRL);
	iounmap(table);
	pci_write_config_word(pdev, PCI_COMMAND, cmd);
	pci_dev_put(pdev);
}

/* The modes in wdtest_remap.c, on function bdf. */
static void pci_remap_modes(void)
{
	struct pci_dev *pdev = pci_function();
	unsigned int n = 0;

	if (!pdev) {
		pr_err("wdtest: %s: no function %s\n", mode, bdf);
		return;
	}
	if (*value && kstrtouint(value, 0, &n))
		n = 0;
	if (!strcmp(mode, "msixon"))
		wdtest_msix_on(pdev, n);
	else if (!strcmp(mode, "dma"))
		wdtest_dma(pdev, how, addr);
	else if (!strcmp(mode, "dmaapi"))
		wdtest_dmaapi(pdev, how, addr);
	else
		wdtest_irte(pdev, addr ? addr : 0xfed90000, dest, n ? n : 0x55,
			    pin);
	pci_dev_put(pdev);
}

/* Move memory BAR pin to addr with decoding on, read back, restore. */
static void pci_bar(void)
{
	struct pci_dev *pdev = pci_function();
	int reg = PCI_BASE_ADDRESS_0 + 4 * (pin % 6);
	u32 orig, got;
	u16 cmd;

	if (!pdev) {
		pr_err("wdtest: bar: no function %s\n", bdf);
		return;
	}
	pci_read_config_dword(pdev, reg, &orig);
	pci_read_config_word(pdev, PCI_COMMAND, &cmd);
	pci_write_config_word(pdev, PCI_COMMAND, cmd | PCI_COMMAND_MEMORY);
	pci_write_config_dword(pdev, reg, (u32)addr);
	pci_read_config_dword(pdev, reg, &got);
	pr_info("wdtest: bar %s BAR%u: 0x%x, wrote 0x%lx with decoding on, "
		"reads 0x%x\n",
		bdf, pin % 6, orig, addr, got);
	pci_write_config_dword(pdev, reg, orig);
	pci_write_config_word(pdev, PCI_COMMAND, cmd);
	pci_dev_put(pdev);
}

/* The configuration dword at reg of bdf through mechanism #1, as a raw
 * driver reaches it (the hypervisor traps the ports). */
static u32 cf8_address(void)
{
	unsigned int bus, dev, fn;

	if (sscanf(bdf, "%x:%x.%x", &bus, &dev, &fn) != 3)
		return 0;
	return 0x80000000u | bus << 16 | dev << 11 | fn << 8 | (reg & 0xfc);
}

static void pci_cfg(void)
{
	u32 a = cf8_address(), orig, got, back, v;

	if (!a || kstrtou32(value, 0, &v)) {
		pr_err("wdtest: cfg: bdf '%s' or value '%s' invalid\n", bdf,
		       value);
		return;
	}
	outl(a, 0xcf8);
	orig = inl(0xcfc);
	outl(v, 0xcfc);
	got = inl(0xcfc);
	outl(orig, 0xcfc);
	back = inl(0xcfc);
	pr_info("wdtest: cfg %s 0x%x: 0x%x, wrote 0x%x, reads 0x%x, "
		"restored 0x%x\n",
		bdf, reg & 0xfc, orig, v, got, back);
}

/* The expansion ROM at addr: enabled with memory decoding on, then
 * placed with decoding off and memory space switched on; restored. */
static void pci_rom(void)
{
	struct pci_dev *pdev = pci_function();
	u32 orig, got, placed;
	u16 cmd, cmd2;

	if (!pdev) {
		pr_err("wdtest: rom: no function %s\n", bdf);
		return;
	}
	pci_read_config_dword(pdev, PCI_ROM_ADDRESS, &orig);
	pci_read_config_word(pdev, PCI_COMMAND, &cmd);
	pci_write_config_word(pdev, PCI_COMMAND, cmd | PCI_COMMAND_MEMORY);
	pci_write_config_dword(pdev, PCI_ROM_ADDRESS, (u32)addr | 1);
	pci_read_config_dword(pdev, PCI_ROM_ADDRESS, &got);
	pci_write_config_dword(pdev, PCI_ROM_ADDRESS, orig);
	pci_write_config_word(pdev, PCI_COMMAND, cmd & ~PCI_COMMAND_MEMORY);
	pci_write_config_dword(pdev, PCI_ROM_ADDRESS, (u32)addr | 1);
	pci_read_config_dword(pdev, PCI_ROM_ADDRESS, &placed);
	pci_write_config_word(pdev, PCI_COMMAND, cmd | PCI_COMMAND_MEMORY);
	pci_read_config_word(pdev, PCI_COMMAND, &cmd2);
	pci_write_config_word(pdev, PCI_COMMAND, cmd & ~PCI_COMMAND_MEMORY);
	pci_write_config_dword(pdev, PCI_ROM_ADDRESS, orig);
	pci_write_config_word(pdev, PCI_COMMAND, cmd);
	pr_info("wdtest: rom %s: 0x%x, wrote 0x%lx with decoding on, reads "
		"0x%x; placed with decoding off, reads 0x%x, memory space on: "
		"command 0x%x\n",
		bdf, orig, addr | 1, got, placed, cmd2);
	pci_dev_put(pdev);
}

/* One IOAPIC entry as root sees it (select, window: 32 bits each). */
static void ioapic_pin(void)
{
	void __iomem *io = ioremap(0xfec00000, PAGE_SIZE);
	u32 before, after, hi, v, h;
	bool write = value[0] && !kstrtou32(value, 0, &v);
	bool write_high = high[0] && !kstrtou32(high, 0, &h);

	if (!io)
		return;
	writel(0x10 + 2 * pin, io);
	before = readl(io + 0x10);
	if (write_high) {
		writel(0x11 + 2 * pin, io);
		writel(h, io + 0x10);
	}
	if (write) {
		writel(0x10 + 2 * pin, io);
		writel(v, io + 0x10);
	}
	writel(0x10 + 2 * pin, io);
	after = readl(io + 0x10);
	writel(0x11 + 2 * pin, io);
	hi = readl(io + 0x10);
	pr_info("wdtest: ioapic pin %u: before 0x%x, after 0x%x, high 0x%x\n",
		pin, before, after, hi);
	iounmap(io);
}

/* One 32-bit device register. */
static void mmio_reg(void)
{
	void __iomem *p = ioremap(addr & PAGE_MASK, PAGE_SIZE);
	u32 before, after, v;
	bool write = value[0] && !kstrtou32(value, 0, &v);

	if (!p)
		return;
	before = readl(p + (addr & ~PAGE_MASK));
	if (write)
		writel(v, p + (addr & ~PAGE_MASK));
	after = readl(p + (addr & ~PAGE_MASK));
	pr_info("wdtest: mmio 0x%lx: before 0x%x, after 0x%x\n", addr, before,
		after);
	iounmap(p);
}

/* One HPET timer's configuration (low half), HPET spec 2.3.8. */
static void hpet_timer(void)
{
	void __iomem *hpet = ioremap(addr ? addr : 0xfed00000, 0x400);
	u32 before, after, v;
	bool write = value[0] && !kstrtou32(value, 0, &v);

	if (!hpet)
		return;
	before = readl(hpet + 0x100 + 0x20 * pin);
	if (write)
		writel(v, hpet + 0x100 + 0x20 * pin);
	after = readl(hpet + 0x100 + 0x20 * pin);
	pr_info("wdtest: hpet timer %u: before 0x%x, after 0x%x\n", pin, before,
		after);
	iounmap(hpet);
}

/* One HPET timer's FSB route (HPET spec 2.3.12: FSB_INT_VAL at 0x10,
 * FSB_INT_ADDR at 0x14 of the timer's registers), written data first as
 * Linux's hpet_msi_write does, then its configuration (2.3.8). */
static void hpet_fsb(void)
{
	void __iomem *hpet = ioremap(addr ? addr : 0xfed00000, 0x400);
	void __iomem *t = hpet + 0x100 + 0x20 * pin;
	u32 data = 0, conf, conf0, msg;

	if (!hpet)
		return;
	if (*value && kstrtou32(value, 0, &data))
		goto out;
	/* VT-d 5.1.5.2: handle in bits 19:5, format bit 4, SHV bit 3 (the
	 * data, 0, is the subhandle) */
	msg = !strcmp(how, "remap") ? 0xfee00018u | (dest & 0x7fff) << 5
				    : 0xfee00000u | (dest & 0xff) << 12;
	conf0 = readl(t);
	writel(data, t + 0x10);
	writel(msg, t + 0x14);
	if (*high && !kstrtou32(high, 0, &conf))
		writel(conf, t);
	pr_info("wdtest: hpetfsb timer %u: addr 0x%x data 0x%x conf 0x%x\n",
		pin, readl(t + 0x14), readl(t + 0x10), readl(t));
	writel(conf0, t);
out:
	iounmap(hpet);
}

/* Turn the IOMMU's interrupt remapping off: GCMD from the status's
 * persistent bits (VT-d 10.4.4: not the one-shot ones) without IRE. */
static void vtd_off(void)
{
	void __iomem *regs = ioremap(addr ? addr : 0xfed90000, PAGE_SIZE);
	u32 before, after;

	if (!regs)
		return;
	before = readl(regs + 0x1c);
	writel((before & 0x96ffffff) & ~BIT(25), regs + 0x18);
	udelay(100);
	after = readl(regs + 0x1c);
	pr_info("wdtest: vtdoff: status before 0x%x, after 0x%x\n", before,
		after);
	iounmap(regs);
}

#define APIC_BASE_EXTD BIT_ULL(10)
#define APIC_BASE_EN BIT_ULL(11)

/* One rewrite of IA32_APIC_BASE as a root module might try it. */
static void apic_base(void)
{
	u64 old, new, now;
	int err;

	rdmsrl(MSR_IA32_APICBASE, old);
	if (!strcmp(how, "move"))
		new = (old & 0xfff) | 0xfed80000ull;
	else if (!strcmp(how, "disable"))
		new = old & ~(APIC_BASE_EN | APIC_BASE_EXTD);
	else if (!strcmp(how, "x2apic-elsewhere"))
		new = (old & 0xfff) | 0xfed80000ull | APIC_BASE_EXTD;
	else if (!strcmp(how, "extd-only"))
		new = (old & ~APIC_BASE_EN) | APIC_BASE_EXTD;
	else {
		pr_err("wdtest: apicbase: unknown how '%s'\n", how);
		return;
	}
	err = wrmsrl_safe(MSR_IA32_APICBASE, new);
	rdmsrl(MSR_IA32_APICBASE, now);
	pr_info("wdtest: apicbase %s 0x%llx -> 0x%llx: %s (%d), now 0x%llx\n",
		how, old, new, err ? "refused" : "accepted", err, now);
	if (!err && now != old)
		wrmsrl_safe(MSR_IA32_APICBASE, old); /* try to survive */
}

#define HWCR_MSR 0xc0010015
#define HWCR_INVDWBINVD (1ull << 4)

/* root's HWCR writes: setting INVDWBINVD is root's business, clearing it
 * is refused by the hypervisor (#GP: -EIO) */
static void hwcr(void)
{
	u64 old, set_now = 0, now = 0;
	int err, set_err = -1;

	err = rdmsrl_safe(HWCR_MSR, &old);
	if (!err) {
		set_err = wrmsrl_safe(HWCR_MSR, old | HWCR_INVDWBINVD);
		rdmsrl_safe(HWCR_MSR, &set_now);
		err = wrmsrl_safe(HWCR_MSR, set_now & ~HWCR_INVDWBINVD);
		rdmsrl_safe(HWCR_MSR, &now);
	}
	pr_info("wdtest: hwcr 0x%llx: set %s (%d), now 0x%llx; clear %s "
		"(%d), now 0x%llx\n",
		old, set_err ? "refused" : "accepted", set_err, set_now,
		err ? "refused" : "accepted", err, now);
}

static void apic_timer_regs(void *unused)
{
	unsigned long flags;
	u32 c0, c1;
	u64 t0, t1, k0, k1;

	/* how fast the timer counts against Linux's clock and the TSC:
	 * a fresh count, interrupts off, about 200 us of ktime */
	local_irq_save(flags);
	apic_write(APIC_TMICT, 0x7fffffff);
	c0 = apic_read(APIC_TMCCT);
	k0 = ktime_get_ns();
	t0 = rdtsc();
	do
		k1 = ktime_get_ns();
	while (k1 - k0 < 200000);
	c1 = apic_read(APIC_TMCCT);
	t1 = rdtsc();
	apic_write(APIC_TMICT, 1000);
	local_irq_restore(flags);
	pr_info("wdtest: apictimer: cpu %u TDCR 0x%x LVTT 0x%x: counted %u "
		"in %llu ns of ktime, %llu TSC ticks\n",
		smp_processor_id(), apic_read(APIC_TDCR), apic_read(APIC_LVTT),
		c0 - c1, k1 - k0, t1 - t0);
}

/* Write this CPU's xAPIC ID register: it must keep its ID. */
static void apic_id(void)
{
	u32 old, now;

	old = apic_read(APIC_ID);
	apic_write(APIC_ID, old ^ (0x5u << 24));
	now = apic_read(APIC_ID);
	pr_info("wdtest: apicid: 0x%x, wrote 0x%x, reads 0x%x: %s\n", old,
		old ^ (0x5u << 24), now, now == old ? "unchanged" : "changed");
	if (now != old)
		apic_write(APIC_ID, old);
}

static void *vmxon_pages[NR_CPUS];
static bool holding, holding_svm;

static void hold_svm(void *unused)
{
	u64 efer;

	rdmsrl(MSR_EFER, efer);
	wrmsrl(MSR_EFER, efer | EFER_SVME);
}

static void release_svm(void *unused)
{
	u64 efer;

	rdmsrl(MSR_EFER, efer);
	wrmsrl(MSR_EFER, efer & ~EFER_SVME);
}

static void hold_vmx(void *unused)
{
	void *page = vmxon_pages[smp_processor_id()];
	u64 basic, pa = virt_to_phys(page);

	rdmsrl(MSR_IA32_VMX_BASIC, basic);
	*(u32 *)page = (u32)basic & 0x7fffffff;
	cr4_set_bits_irqsoff(X86_CR4_VMXE);
	asm volatile("vmxon %0" : : "m"(pa) : "cc", "memory");
}

static void release_vmx(void *unused)
{
	asm volatile("vmxoff" ::: "cc", "memory");
	cr4_clear_bits_irqsoff(X86_CR4_VMXE);
}

#define NMI_ROUNDS 5
static atomic_t nmis_seen[NR_CPUS];
static bool nmi_expected;

static int count_nmi(unsigned int type, struct pt_regs *regs)
{
	if (!READ_ONCE(nmi_expected))
		return NMI_DONE;
	atomic_inc(&nmis_seen[smp_processor_id()]);
	return NMI_HANDLED;
}

/* Send NMI_ROUNDS NMIs to every other online CPU, one at a time, each
 * waited for; report how many each CPU's handler saw. */
static void test_nmis(void)
{
	unsigned int self, cpu, round, waited;

	register_nmi_handler(NMI_LOCAL, count_nmi, 0, "wdtest");
	WRITE_ONCE(nmi_expected, true);
	self = get_cpu();
	for_each_online_cpu (cpu) {
		if (cpu == self)
			continue;
		for (round = 1; round <= NMI_ROUNDS; round++) {
			apic->send_IPI(cpu, NMI_VECTOR);
			for (waited = 0; waited < 1000 &&
					 atomic_read(&nmis_seen[cpu]) < round;
			     waited++)
				udelay(100);
		}
	}
	put_cpu();
	WRITE_ONCE(nmi_expected, false);
	unregister_nmi_handler(NMI_LOCAL, "wdtest");
	for_each_online_cpu (cpu)
		if (cpu != self)
			pr_info("wdtest: nmi: cpu %u got %d of %d\n", cpu,
				atomic_read(&nmis_seen[cpu]), NMI_ROUNDS);
}

/* IPI_STORM_ROUNDS reschedule IPIs (harmless for Linux) with each
 * shorthand and to every possible CPU: a cell CPU must see none. */
#define IPI_STORM_ROUNDS 50

static void ipi_storm(void)
{
	unsigned int round;

	for (round = 0; round < IPI_STORM_ROUNDS; round++) {
		apic->send_IPI_allbutself(RESCHEDULE_VECTOR);
		apic->send_IPI_all(RESCHEDULE_VECTOR);
		/* every possible CPU named, the cells' (offline in Linux)
		 * included: logical or physical, as Linux's APIC driver does */
		apic->send_IPI_mask(cpu_possible_mask, RESCHEDULE_VECTOR);
		udelay(200);
	}
	pr_info("wdtest: ipistorm: %d rounds sent\n", IPI_STORM_ROUNDS);
}

static int __init wdtest_init(void)
{
	unsigned int cpu;
	void *p;
	u64 v = 0;
	int err;

	if (!strcmp(mode, "hvread") || !strcmp(mode, "hvwrite")) {
		p = memremap(addr, PAGE_SIZE, MEMREMAP_WB);
		if (!p)
			return -ENOMEM;
		/* Plain exception-table fixups (not the uaccess kind, which
		 * warns on #GP): err stays -EFAULT if the access faults. */
		err = -EFAULT;
		if (!strcmp(mode, "hvread")) {
			asm volatile("1: movq (%[p]), %[v]\n\t"
				     "movl $0, %[e]\n"
				     "2:\n" _ASM_EXTABLE(1b, 2b)
				     : [v] "+r"(v), [e] "+r"(err)
				     : [p] "r"(p)
				     : "memory");
			pr_info("wdtest: hvread 0x%lx: %s (%d), value 0x%llx\n",
				addr, err ? "refused" : "read", err, v);
		} else {
			v = 0x57415244454e2121ULL;
			asm volatile("1: movq %[v], (%[p])\n\t"
				     "movl $0, %[e]\n"
				     "2:\n" _ASM_EXTABLE(1b, 2b)
				     : [e] "+r"(err)
				     : [p] "r"(p), [v] "r"(v)
				     : "memory");
			pr_info("wdtest: hvwrite 0x%lx: %s (%d)\n", addr,
				err ? "refused" : "written", err);
		}
		memunmap(p);
		return -EAGAIN;
	}
	if (!strcmp(mode, "tsc")) {
		u64 a1, a2, b1, b2;
		volatile unsigned long i;
		unsigned int aux, lo, hi;

		a1 = rdtsc();
		asm volatile("rdtscp" : "=a"(lo), "=d"(hi), "=c"(aux));
		b1 = ((u64)hi << 32) | lo;
		for (i = 0; i < 10000000; i++)
			;
		a2 = rdtsc();
		asm volatile("rdtscp" : "=a"(lo), "=d"(hi), "=c"(aux));
		b2 = ((u64)hi << 32) | lo;
		pr_info("wdtest: tsc: rdtsc +%llu, rdtscp +%llu over a loop\n",
			a2 - a1, b2 - b1);
		return -EAGAIN;
	}
	if (!strcmp(mode, "msr")) {
		err = rdmsrl_safe(msr, &v);
		pr_info("wdtest: msr 0x%x: %s (%d), value 0x%llx\n", msr,
			err ? "refused" : "read", err, v);
		return -EAGAIN;
	}
	if (!strcmp(mode, "vmxhold")) {
		for_each_online_cpu (cpu) {
			vmxon_pages[cpu] = (void *)get_zeroed_page(GFP_KERNEL);
			if (!vmxon_pages[cpu])
				return -ENOMEM;
		}
		on_each_cpu(hold_vmx, NULL, 1);
		holding = true;
		pr_info("wdtest: vmxhold: VMX held on every CPU\n");
		return 0;
	}
	if (!strcmp(mode, "svmhold")) {
		on_each_cpu(hold_svm, NULL, 1);
		holding_svm = true;
		pr_info("wdtest: svmhold: EFER.SVME set on every CPU\n");
		return 0;
	}
	if (!strcmp(mode, "nmi")) {
		test_nmis();
		return -EAGAIN;
	}
	if (!strcmp(mode, "ipistorm")) {
		ipi_storm();
		return -EAGAIN;
	}
	if (!strcmp(mode, "apicbase")) {
		apic_base();
		return -EAGAIN;
	}
	if (!strcmp(mode, "hwcr")) {
		hwcr();
		return -EAGAIN;
	}
	if (!strcmp(mode, "ioapic")) {
		ioapic_pin();
		return -EAGAIN;
	}
	if (!strcmp(mode, "vtdoff")) {
		vtd_off();
		return -EAGAIN;
	}
	if (!strcmp(mode, "mmio")) {
		mmio_reg();
		return -EAGAIN;
	}
	if (!strcmp(mode, "hpet")) {
		hpet_timer();
		return -EAGAIN;
	}
	if (!strcmp(mode, "hpetfsb")) {
		hpet_fsb();
		return -EAGAIN;
	}
	if (!strcmp(mode, "msi")) {
		pci_msi();
		return -EAGAIN;
	}
	if (!strcmp(mode, "msix")) {
		pci_msix();
		return -EAGAIN;
	}
	if (!strcmp(mode, "msixon") || !strcmp(mode, "irte") ||
	    !strcmp(mode, "dma") || !strcmp(mode, "dmaapi")) {
		pci_remap_modes();
		return -EAGAIN;
	}
	if (!strcmp(mode, "bar")) {
		pci_bar();
		return -EAGAIN;
	}
	if (!strcmp(mode, "cfg")) {
		pci_cfg();
		return -EAGAIN;
	}
	if (!strcmp(mode, "rom")) {
		pci_rom();
		return -EAGAIN;
	}
	if (!strcmp(mode, "apicid")) {
		apic_id();
		return -EAGAIN;
	}
	if (!strcmp(mode, "apictimer")) {
		on_each_cpu(apic_timer_regs, NULL, 1);
		return -EAGAIN;
	}
	pr_err("wdtest: unknown mode '%s'\n", mode);
	return -EINVAL;
}

static void __exit wdtest_exit(void)
{
	unsigned int cpu;

	if (holding)
		on_each_cpu(release_vmx, NULL, 1);
	if (holding_svm)
		on_each_cpu(release_svm, NULL, 1);
	for (cpu = 0; cpu < NR_CPUS; cpu++)
		free_page((unsigned long)vmxon_pages[cpu]);
}

module_init(wdtest_init);
module_exit(wdtest_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Warden system-test helper");
