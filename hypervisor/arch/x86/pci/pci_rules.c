// SPDX-License-Identifier: GPL-2.0
/*
 * The PCI configuration-space rules (contracts in asm/pci.h).  Plain C,
 * also compiled into the unit tests.
 */
#include <asm/pci.h>

bool pci_cf8_decode(u32 cf8, u16 port, struct pci_reg *out)
{
	/* bits 30:24 are reserved, 1:0 are 0 in a valid address (PCI 3.0,
	 * 3.2.2.3.2): such an address is not a configuration access */
	if (!(cf8 & PCI_CF8_ENABLE) || (cf8 & 0x7f000003u) || port < PCI_CFC ||
	    port > PCI_CFC + 3)
		return false;
	out->bdf = (u16)(cf8 >> 8);
	out->reg = (u16)((cf8 & 0xfc) + (port - PCI_CFC));
	return true;
}

u16 pci_cell_command(u16 value, bool dma_ok)
{
	u16 allowed = PCI_CMD_IO | PCI_CMD_MEMORY | PCI_CMD_PARITY |
		      PCI_CMD_SERR | PCI_CMD_INTX_DISABLE;

	if (dma_ok)
		allowed |= PCI_CMD_MASTER;
	return value & allowed;
}

/* The low bits of a BAR that are flags, not address. */
static u32 flag_bits(const struct pci_bar_view *b)
{
	return (b->flags & PCI_BAR_IO_SPACE) ? 0x3u : 0xfu;
}

u32 pci_bar_read(const struct pci_bar_view *bars, unsigned int i)
{
	const struct pci_bar_view *b = &bars[i], *lo;
	u64 mask;

	if (i >= 6)
		return 0;
	if (b->upper) {
		lo = &bars[i - 1];
		mask = ~(lo->size - 1);
		return (u32)((b->sizing ? mask : lo->addr & mask) >> 32);
	}
	if (!b->size)
		return 0;
	mask = ~(b->size - 1) & ~(u64)flag_bits(b);
	return (u32)(b->sizing ? mask : b->addr & mask) | b->flags;
}

bool pci_bar_write(struct pci_bar_view *bars, unsigned int i, u32 value)
{
	struct pci_bar_view *b = &bars[i], *lo;
	u32 addr_bits, mask;

	if (i >= 6)
		return true;
	if (b->upper) {
		lo = &bars[i - 1];
		mask = (u32)(~(lo->size - 1) >> 32);
		if (value == 0xffffffffu || (value & mask) == mask) {
			b->sizing = true;
			return true;
		}
		if ((value & mask) != (u32)(lo->addr >> 32))
			return false;
		b->sizing = false;
		return true;
	}
	if (!b->size)
		return true;
	mask = (u32) ~(b->size - 1) & ~flag_bits(b);
	if (b->flags & PCI_BAR_IO_SPACE)
		mask &= 0xffff; /* ports: 16 bits decoded */
	addr_bits = value & mask;
	if (addr_bits == mask) {
		b->sizing = true;
		return true;
	}
	if (addr_bits != ((u32)b->addr & mask))
		return false;
	b->sizing = false;
	return true;
}

const char *msi_cell_refused(u32 addr, u32 data, unsigned int vectors)
{
	unsigned int mode = (data >> MSI_DATA_DM_SHIFT) & 7;
	unsigned int vector = data & MSI_DATA_VECTOR_MASK;

	if ((addr & MSI_ADDR_BASE_MASK) != MSI_ADDR_BASE)
		return "address outside the local APICs' window 0xfee00000";
	if (addr & MSI_ADDR_REMAPPABLE)
		return "remappable format (a cell writes compatibility format; "
		       "the hypervisor remaps it)";
	if (addr & MSI_ADDR_DEST_LOGICAL)
		return "logical destination mode (a cell names its CPUs by "
		       "APIC ID)";
	if (mode != 0 && mode != 1)
		return "delivery mode other than Fixed or Lowest Priority";
	if (data & MSI_DATA_LEVEL)
		return "level-triggered";
	/* multiple messages vary the low bits of the vector */
	if (!vectors || vectors > 32 || (vector & (vectors - 1)) ||
	    vector < 0x10 || vector + vectors - 1 > 0xfe)
		return "vector outside 0x10-0xfe";
	return NULL;
}

u64 pci_rom_size(u32 sized)
{
	u32 mask = sized & PCI_ROM_ADDR_MASK;

	if (!mask)
		return PCI_ROM_MIN_SIZE;
	/* the lowest address bit that took the 1 is the size */
	return (u64)(mask & -mask);
}

bool pci_msix_touches(u64 table, u64 entries, u64 offset, unsigned int size)
{
	return offset < table + 16 * entries && table < offset + size;
}
