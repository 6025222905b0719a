// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * PCI configuration space through configuration mechanism #1: the address
 * (enable bit, bus, device, function, register dword) goes to port 0xcf8,
 * the data comes and goes at 0xcfc + the byte offset within the dword.
 * In a cell the hypervisor emulates both ports: the cell sees its own
 * functions, others read all ones (docs/inmates.md).  MSI-X tables are
 * reached in the function's BAR, as on hardware (the hypervisor checks
 * the messages a cell unmasks).
 */
#include <inmate.h>

static uint64_t save_flags_cli(void)
{
	uint64_t flags;

	asm volatile("pushfq; popq %0; cli" : "=r"(flags) : : "memory");
	return flags;
}

static void restore_flags(uint64_t flags)
{
	if (flags & (1u << 9))
		irq_enable();
}

static void select(uint16_t bdf, unsigned int reg)
{
	outl(PCI_CONFIG_ADDRESS,
	     PCI_CONFIG_ENABLE | (uint32_t)bdf << 8 | (reg & 0xfc));
}

uint8_t pci_read8(uint16_t bdf, unsigned int reg)
{
	uint64_t flags = save_flags_cli();
	uint8_t value;

	select(bdf, reg);
	value = inb(PCI_CONFIG_DATA + (reg & 3));
	restore_flags(flags);
	return value;
}

uint16_t pci_read16(uint16_t bdf, unsigned int reg)
{
	uint64_t flags = save_flags_cli();
	uint16_t value;

	select(bdf, reg);
	value = inw(PCI_CONFIG_DATA + (reg & 2));
	restore_flags(flags);
	return value;
}

uint32_t pci_read32(uint16_t bdf, unsigned int reg)
{
	uint64_t flags = save_flags_cli();
	uint32_t value;

	select(bdf, reg);
	value = inl(PCI_CONFIG_DATA);
	restore_flags(flags);
	return value;
}

void pci_write8(uint16_t bdf, unsigned int reg, uint8_t value)
{
	uint64_t flags = save_flags_cli();

	select(bdf, reg);
	outb(PCI_CONFIG_DATA + (reg & 3), value);
	restore_flags(flags);
}

void pci_write16(uint16_t bdf, unsigned int reg, uint16_t value)
{
	uint64_t flags = save_flags_cli();

	select(bdf, reg);
	outw(PCI_CONFIG_DATA + (reg & 2), value);
	restore_flags(flags);
}

void pci_write32(uint16_t bdf, unsigned int reg, uint32_t value)
{
	uint64_t flags = save_flags_cli();

	select(bdf, reg);
	outl(PCI_CONFIG_DATA, value);
	restore_flags(flags);
}

bool pci_present(uint16_t bdf)
{
	return pci_read16(bdf, PCI_VENDOR_ID) != 0xffff;
}

int pci_next_function(int bdf, unsigned int last_bus, bool all_functions)
{
	unsigned int next = bdf < 0 ? 0 : (unsigned int)bdf + 1;

	if (last_bus > 0xff)
		last_bus = 0xff;
	for (; next <= (last_bus << 8 | 0xff); next++) {
		uint16_t dev0 = (uint16_t)(next & ~7u);

		if (PCI_FN(next) != 0) {
			/* functions 1-7: when function 0 allows them */
			if (pci_present(dev0)) {
				if (!(pci_read8(dev0, PCI_HEADER_TYPE) &
				      PCI_HEADER_MULTI_FN)) {
					next |= 7; /* next device */
					continue;
				}
			} else if (!all_functions) {
				next |= 7;
				continue;
			}
		}
		if (pci_present((uint16_t)next))
			return (int)next;
	}
	return -1;
}

int pci_find_device(uint16_t vendor, uint16_t device, int bdf,
		    unsigned int last_bus)
{
	while ((bdf = pci_next_function(bdf, last_bus, true)) >= 0)
		if (pci_read16((uint16_t)bdf, PCI_VENDOR_ID) == vendor &&
		    pci_read16((uint16_t)bdf, PCI_DEVICE_ID) == device)
			return bdf;
	return -1;
}

unsigned int pci_find_cap(uint16_t bdf, uint8_t cap_id)
{
	unsigned int pos, hops;

	if (!(pci_read16(bdf, PCI_STATUS) & PCI_STATUS_CAP_LIST))
		return 0;
	pos = pci_read8(bdf, PCI_CAP_PTR) & 0xfc;
	/* at most 48 capabilities fit in 192 bytes: a loop ends there */
	for (hops = 0; pos >= 0x40 && hops < 48; hops++) {
		uint16_t header = pci_read16(bdf, pos);

		if ((header & 0xff) == cap_id)
			return pos;
		if ((header & 0xff) == 0xff)
			break; /* all ones: the function went away */
		pos = (header >> 8) & 0xfc;
	}
	return 0;
}

/* all ones written to a BAR register, the value read back; restored */
static uint32_t bar_probe(uint16_t bdf, unsigned int reg)
{
	uint32_t old = pci_read32(bdf, reg), mask;

	pci_write32(bdf, reg, 0xffffffff);
	mask = pci_read32(bdf, reg);
	pci_write32(bdf, reg, old);
	return mask;
}

unsigned int pci_bar_read(uint16_t bdf, unsigned int bar, struct pci_bar *out)
{
	unsigned int reg = PCI_BAR0 + 4 * bar, used = 1;
	uint32_t low, mask_low;
	uint64_t mask;
	uint16_t cmd;

	memset(out, 0, sizeof(*out));
	if (bar > 5)
		return 0;
	low = pci_read32(bdf, reg);
	/* decoding off while the BAR holds all ones */
	cmd = pci_read16(bdf, PCI_COMMAND);
	pci_write16(bdf, PCI_COMMAND,
		    cmd & (uint16_t) ~(PCI_CMD_IO | PCI_CMD_MEMORY));
	mask_low = bar_probe(bdf, reg);
	if (low & PCI_BAR_IO) {
		out->type = PCI_BAR_PIO;
		out->address = low & ~3u;
		/* the upper 16 bits of an I/O BAR may read back zero */
		mask = mask_low & ~3u;
		if (!(mask & 0xffff0000u))
			mask |= 0xffff0000u;
		mask |= 0xffffffff00000000ull;
	} else if ((low & PCI_BAR_MEM_TYPE) == PCI_BAR_MEM_64 && bar < 5) {
		out->type = PCI_BAR_MEM64;
		out->address = (low & ~0xfu) |
			       (uint64_t)pci_read32(bdf, reg + 4) << 32;
		mask = (mask_low & ~0xfu) | (uint64_t)bar_probe(bdf, reg + 4)
						    << 32;
		used = 2;
	} else {
		out->type = PCI_BAR_MEM32;
		out->address = low & ~0xfu;
		mask = (mask_low & ~0xfu) | 0xffffffff00000000ull;
	}
	pci_write16(bdf, PCI_COMMAND, cmd);
	if (out->type != PCI_BAR_PIO)
		out->prefetch = low & PCI_BAR_PREFETCH;
	if (!(uint32_t)mask && !(mask >> 32 && out->type == PCI_BAR_MEM64)) {
		/* nothing writable: the BAR is not implemented */
		memset(out, 0, sizeof(*out));
		return 0;
	}
	out->size = ~mask + 1;
	return used;
}

const char *pci_bar_type_name(unsigned int type)
{
	switch (type) {
	case PCI_BAR_MEM32:
		return "mem32";
	case PCI_BAR_MEM64:
		return "mem64";
	case PCI_BAR_PIO:
		return "io";
	default:
		return "none";
	}
}

void pci_command(uint16_t bdf, uint16_t set, uint16_t clear)
{
	uint16_t cmd = pci_read16(bdf, PCI_COMMAND);

	pci_write16(bdf, PCI_COMMAND, (uint16_t)((cmd & ~clear) | set));
}

void pci_enable_device(uint16_t bdf)
{
	uint16_t set = PCI_CMD_MEMORY | PCI_CMD_MASTER;
	unsigned int bar;

	for (bar = 0; bar < 6; bar++) {
		uint32_t value = pci_read32(bdf, PCI_BAR0 + 4 * bar);

		if (value & PCI_BAR_IO) {
			if (value & ~3u)
				set |= PCI_CMD_IO;
		} else if ((value & PCI_BAR_MEM_TYPE) == PCI_BAR_MEM_64) {
			bar++;
		}
	}
	pci_command(bdf, set, 0);
}

void pci_intx_enable(uint16_t bdf, bool enable)
{
	if (enable)
		pci_command(bdf, 0, PCI_CMD_INTX_DISABLE);
	else
		pci_command(bdf, PCI_CMD_INTX_DISABLE, 0);
}

int pci_msi_enable(uint16_t bdf, uint32_t apic_id, unsigned int vector)
{
	unsigned int cap = pci_find_cap(bdf, PCI_CAP_ID_MSI);
	uint16_t ctrl;

	if (!cap || vector < 0x10 || vector > 0xfe || apic_id > 0xff)
		return -1;
	ctrl = pci_read16(bdf, cap + PCI_MSI_CTRL);
	/* disabled while the message changes; one message */
	ctrl &= (uint16_t) ~(PCI_MSI_CTRL_ENABLE | PCI_MSI_CTRL_MME);
	pci_write16(bdf, cap + PCI_MSI_CTRL, ctrl);
	pci_write32(bdf, cap + PCI_MSI_ADDR_LO,
		    PCI_MSI_ADDRESS_BASE | apic_id << 12);
	if (ctrl & PCI_MSI_CTRL_64) {
		pci_write32(bdf, cap + PCI_MSI_ADDR_HI, 0);
		pci_write16(bdf, cap + PCI_MSI_DATA_64, (uint16_t)vector);
		if (ctrl & PCI_MSI_CTRL_MASKABLE)
			pci_write32(bdf, cap + PCI_MSI_MASK_64,
				    pci_read32(bdf, cap + PCI_MSI_MASK_64) &
					    ~1u);
	} else {
		pci_write16(bdf, cap + PCI_MSI_DATA_32, (uint16_t)vector);
		if (ctrl & PCI_MSI_CTRL_MASKABLE)
			pci_write32(bdf, cap + PCI_MSI_MASK_32,
				    pci_read32(bdf, cap + PCI_MSI_MASK_32) &
					    ~1u);
	}
	pci_write16(bdf, cap + PCI_MSI_CTRL,
		    (uint16_t)(ctrl | PCI_MSI_CTRL_ENABLE));
	return 0;
}

void pci_msi_disable(uint16_t bdf)
{
	unsigned int cap = pci_find_cap(bdf, PCI_CAP_ID_MSI);

	if (cap)
		pci_write16(bdf, cap + PCI_MSI_CTRL,
			    pci_read16(bdf, cap + PCI_MSI_CTRL) &
				    (uint16_t)~PCI_MSI_CTRL_ENABLE);
}

int pci_msix_find(uint16_t bdf, struct pci_msix *msix)
{
	unsigned int cap = pci_find_cap(bdf, PCI_CAP_ID_MSIX);
	uint32_t table, pba;

	memset(msix, 0, sizeof(*msix));
	if (!cap)
		return -1;
	table = pci_read32(bdf, cap + PCI_MSIX_TABLE);
	pba = pci_read32(bdf, cap + PCI_MSIX_PBA);
	msix->bdf = bdf;
	msix->cap = cap;
	msix->entries =
		(pci_read16(bdf, cap + PCI_MSIX_CTRL) & PCI_MSIX_CTRL_SIZE) + 1;
	msix->bir = table & PCI_MSIX_BIR_MASK;
	msix->offset = table & ~PCI_MSIX_BIR_MASK;
	msix->pba_bir = pba & PCI_MSIX_BIR_MASK;
	msix->pba_offset = pba & ~PCI_MSIX_BIR_MASK;
	return 0;
}

int pci_msix_map(struct pci_msix *msix)
{
	uint64_t size = (uint64_t)msix->entries * PCI_MSIX_ENTRY_SIZE;
	struct pci_bar bar;

	msix->table = 0;
	if (!msix->cap || msix->bir > 5 ||
	    !pci_bar_read(msix->bdf, msix->bir, &bar) ||
	    bar.type == PCI_BAR_PIO || !bar.address ||
	    msix->offset + size > bar.size ||
	    bar.address + bar.size > INMATE_MAP_SIZE ||
	    paging_set_uc(bar.address + msix->offset, size, true) < 0)
		return -1;
	msix->table = bar.address + msix->offset;
	return 0;
}

static uint64_t msix_entry(const struct pci_msix *msix, unsigned int i,
			   unsigned int reg)
{
	return msix->table + (uint64_t)i * PCI_MSIX_ENTRY_SIZE + reg;
}

uint32_t pci_msix_entry_read(const struct pci_msix *msix, unsigned int i,
			     unsigned int reg)
{
	if (!msix->table || i >= msix->entries)
		return ~0u;
	return mmio_read32(msix_entry(msix, i, reg & 0xc));
}

void pci_msix_mask_entry(const struct pci_msix *msix, unsigned int i, bool mask)
{
	uint64_t ctrl = msix_entry(msix, i, PCI_MSIX_ENTRY_CTRL);
	uint32_t value;

	if (!msix->table || i >= msix->entries)
		return;
	value = mmio_read32(ctrl);
	if (mask)
		value |= PCI_MSIX_ENTRY_MASKED;
	else
		value &= ~PCI_MSIX_ENTRY_MASKED;
	mmio_write32(ctrl, value);
	/* read back: the write has reached the function */
	(void)mmio_read32(ctrl);
}

int pci_msix_set_entry(const struct pci_msix *msix, unsigned int i,
		       uint32_t apic_id, unsigned int vector)
{
	if (!msix->table || i >= msix->entries || vector < 0x10 ||
	    vector > 0xfe || apic_id > 0xff)
		return -1;
	/* masked while the message changes, so that no half is sent */
	pci_msix_mask_entry(msix, i, true);
	mmio_write32(msix_entry(msix, i, PCI_MSIX_ENTRY_ADDR_LO),
		     PCI_MSI_ADDRESS_BASE | apic_id << 12);
	mmio_write32(msix_entry(msix, i, PCI_MSIX_ENTRY_ADDR_HI), 0);
	mmio_write32(msix_entry(msix, i, PCI_MSIX_ENTRY_DATA), vector);
	return 0;
}

static void msix_ctrl(const struct pci_msix *msix, uint16_t bit, bool set)
{
	uint16_t ctrl;

	if (!msix->cap)
		return;
	ctrl = pci_read16(msix->bdf, msix->cap + PCI_MSIX_CTRL);
	if (set)
		ctrl |= bit;
	else
		ctrl &= (uint16_t)~bit;
	pci_write16(msix->bdf, msix->cap + PCI_MSIX_CTRL, ctrl);
}

void pci_msix_enable(const struct pci_msix *msix, bool enable)
{
	msix_ctrl(msix, PCI_MSIX_CTRL_ENABLE, enable);
}

void pci_msix_mask_all(const struct pci_msix *msix, bool mask)
{
	msix_ctrl(msix, PCI_MSIX_CTRL_MASKALL, mask);
}

char *pci_bdf_name(uint16_t bdf, char *buf)
{
	snprintf(buf, 8, "%02x:%02x.%x", PCI_BUS(bdf), PCI_DEV(bdf),
		 PCI_FN(bdf));
	return buf;
}
