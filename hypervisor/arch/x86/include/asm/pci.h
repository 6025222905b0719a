/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PCI configuration space (PCI Local Bus Specification 3.0, chapter 6;
 * PCI Express Base Specification, 7.2 for MMCONFIG) and the rules the
 * hypervisor applies to it: how the two access mechanisms name a
 * register, what a cell may write to its own function's header, and what
 * an MSI message may hold (SDM Vol. 3, 11.11 "Message Signalled
 * Interrupts").  Plain C without hardware access (pci_rules.c), also
 * compiled into the unit tests.  The unit itself is pci.c.
 */
#ifndef WARDEN_ASM_PCI_H
#define WARDEN_ASM_PCI_H

#include <hv/types.h>

/* Configuration mechanism #1: the address port and the data ports. */
#define PCI_CF8 0xcf8
#define PCI_CFC 0xcfc
#define PCI_CF8_ENABLE (1u << 31)

/* Type 0 header registers. */
#define PCI_VENDOR_ID 0x00
#define PCI_COMMAND 0x04
#define PCI_STATUS 0x06
#define PCI_HEADER_TYPE 0x0e
#define PCI_BAR0 0x10
#define PCI_BAR_END 0x28 /* after BAR5 */
#define PCI_ROM_BAR 0x30
#define PCI_BRIDGE_ROM_BAR 0x38 /* type 1 header (PCI-to-PCI Bridge 1.2) */
#define PCI_CAP_PTR 0x34
#define PCI_INT_LINE 0x3c

#define PCI_STATUS_CAP_LIST (1u << 4)

/* Command register bits (PCI 3.0, 6.2.2). */
#define PCI_CMD_IO (1u << 0)
#define PCI_CMD_MEMORY (1u << 1)
#define PCI_CMD_MASTER (1u << 2)
#define PCI_CMD_PARITY (1u << 6)
#define PCI_CMD_SERR (1u << 8)
#define PCI_CMD_INTX_DISABLE (1u << 10)

/* BAR low bits. */
#define PCI_BAR_IO_SPACE 0x1u
#define PCI_BAR_MEM_TYPE_64 0x4u

/* Expansion ROM BAR (PCI 3.0, 6.2.5.2): address bits 31:11, enable bit
 * 0; the ROM decodes only with both it and memory space enabled. */
#define PCI_ROM_ENABLE 0x1u
#define PCI_ROM_ADDR_MASK 0xfffff800u
#define PCI_ROM_MIN_SIZE 0x800u

/* Capabilities. */
#define PCI_CAP_ID_MSI 0x05
#define PCI_CAP_ID_MSIX 0x11

/* MSI capability: control (16 bits at +2), address (+4), upper address
 * (+8, 64-bit capable), data (+8 or +0xc). */
#define PCI_MSI_CTRL 2
#define PCI_MSI_ADDR 4
#define PCI_MSI_CTRL_ENABLE (1u << 0)
#define PCI_MSI_CTRL_64BIT (1u << 7)
#define PCI_MSI_CTRL_MME_SHIFT 4 /* multiple message enable, 6:4 */
#define PCI_MSIX_CTRL_ENABLE (1u << 15)

/* MSI address and data (SDM Vol. 3, 11.11.1 and 11.11.2). */
#define MSI_ADDR_BASE 0xfee00000u
#define MSI_ADDR_BASE_MASK 0xfff00000u
#define MSI_ADDR_DEST_SHIFT 12	      /* destination ID, bits 19:12 */
#define MSI_ADDR_REMAPPABLE (1u << 4) /* Intel interrupt-remapping format */
#define MSI_ADDR_DEST_LOGICAL (1u << 2)
#define MSI_DATA_VECTOR_MASK 0xffu
#define MSI_DATA_DM_SHIFT 8 /* delivery mode, bits 10:8 */
#define MSI_DATA_LEVEL (1u << 15)

/* A register named by an access: bus/device/function and the offset of
 * its first byte. */
struct pci_reg {
	u16 bdf;
	u16 reg;
};

/*
 * Mechanism #1: the data-port access at port (0xcfc-0xcff) with address
 * register cf8.  False if it names no register (enable bit clear, or a
 * reserved bit set: then the access goes nowhere, reads give all ones).
 * The byte offset within the dword is the port's (port - 0xcfc).
 */
bool pci_cf8_decode(u32 cf8, u16 port, struct pci_reg *out);

/* MMCONFIG: the register at offset off into a segment's window. */
static inline struct pci_reg pci_mmcfg_decode(u64 off)
{
	struct pci_reg r = { (u16)(off >> 12), (u16)(off & 0xfff) };

	return r;
}

/*
 * The bits of the command register a cell may set on its own function:
 * I/O and memory decoding, bus mastering (only if dma_ok: the config
 * declared its DMA unisolated), parity and SERR reporting, and INTx
 * disable.  Others (special cycles, memory write and invalidate, palette
 * snooping, fast back-to-back) are not needed and stay 0.
 */
u16 pci_cell_command(u16 value, bool dma_ok);

/*
 * The six BARs of a function as a cell sees them, one slot per register.
 * A 64-bit BAR takes two slots: the lower holds it (addr, size, flags),
 * the next one has upper set and nothing else.  size: a power of 2 (0: no
 * BAR, reads 0); addr: where the cell sees it (guest-physical, or the
 * first port); flags: the low bits the device reports (I/O space; memory
 * type and prefetchable).  sizing: the cell last wrote all ones to this
 * register, so it reads the size mask.
 */
struct pci_bar_view {
	u64 addr;
	u64 size;
	u32 flags;
	bool upper;
	bool sizing;
};

/* What the cell reads from BAR register i (0-5) of bars[6]. */
u32 pci_bar_read(const struct pci_bar_view *bars, unsigned int i);

/*
 * The cell writes value to BAR register i of bars[6].  Sizing (the
 * address bits all ones) and writing back the address it has are taken
 * (true); any other address is refused (false) and changes nothing: BARs
 * stay where the config puts them, and the hardware's BARs are never
 * written for a cell.  Writes to a register without a BAR are ignored
 * (true).
 */
bool pci_bar_write(struct pci_bar_view *bars, unsigned int i, u32 value);

/* An MSI message in ICR form (asm/apic_dest.h): the ICR low half (vector,
 * delivery mode, destination mode) and the destination ID. */
static inline u32 msi_as_icr(u32 addr, u32 data)
{
	return (data & 0x7ff) | ((addr & MSI_ADDR_DEST_LOGICAL) ? 0x800 : 0);
}

static inline u32 msi_dest(u32 addr)
{
	return (addr >> MSI_ADDR_DEST_SHIFT) & 0xff;
}

/*
 * A cell's MSI message with vectors vectors (1 to 32, multiple message
 * enable): NULL if it may be sent, else what is wrong: the address is
 * not in the local APICs' window, remappable, or logical (a cell names
 * its CPUs by APIC ID); the delivery mode is not Fixed or Lowest
 * Priority; a vector is outside 0x10-0xfe; or it is level-triggered
 * (MSIs are edges, SDM 11.11.2).  Its destination is the caller's to
 * check.
 */
const char *msi_cell_refused(u32 addr, u32 data, unsigned int vectors);

/* Does a function with command register cmd decode its expansion ROM
 * BAR rom (PCI 3.0, 6.2.5.2)? */
static inline bool pci_rom_decodes(u16 cmd, u32 rom)
{
	return (cmd & PCI_CMD_MEMORY) && (rom & PCI_ROM_ENABLE);
}

/*
 * The size of an expansion ROM whose BAR reads sized after
 * PCI_ROM_ADDR_MASK was written to it: the address bits that stayed 0
 * (PCI 3.0, 6.2.5.2).  A function without a ROM (the register reads 0)
 * counts as the smallest ROM, 2 KiB: what it would decode if it had one.
 */
u64 pci_rom_size(u32 sized);

/*
 * Does an access of size bytes at offset into the pages of an MSI-X
 * table that starts at table with entries entries touch the table, by
 * one byte or more?  Such an access is the table's (checked, or refused
 * when not an aligned dword or qword, PCI 3.0, 6.8.2), however it starts.
 */
bool pci_msix_touches(u64 table, u64 entries, u64 offset, unsigned int size);

/*
 * Root writes value (size bytes) at reg of a function whose dword 0 reads
 * ids (vendor | device << 16) with header type header_type, where old is
 * what those bytes hold: NULL if it may, else why not.  A register that
 * places an address decoder outside the BARs (pci_decoders.c: chipset
 * registers of the test machines' host bridges and LPC/ISA/PM functions,
 * a bridge's bus numbers and windows) may be written with the value it
 * has, never changed.
 */
const char *pci_moderated_refused(u32 ids, u8 header_type, u16 reg,
				  unsigned int size, u32 old, u32 value);

/*
 * Root writes value (size bytes) at offset (from the capability's header)
 * of an extended capability with ID cap_id, where old is what those bytes
 * hold: NULL if it may, else why not.  SR-IOV's VF enable, NumVFs and VF
 * BARs and the Resizable BAR sizes place address decoders: they keep
 * their values (pci_decoders.c).
 */
const char *pci_ext_moderated_refused(u16 cap_id, u16 offset, unsigned int size,
				      u32 old, u32 value);

/*
 * The chipset's PCI interrupt routing (pci_pirq.c, the rules in
 * pci_pirq_rules.c): a PIRQ line drives IOAPIC input 16 + n and, through
 * its routing register, an ISA IRQ (bit 7 clear: routed to the IRQ in bits
 * 3:0; PIIX3 datasheet 4.1.10 PIRQRC[A:D], ICH9 datasheet 13.1.13
 * PIRQ[n]_ROUT).  A cell that owns input 16 + n owns the line: its ISA
 * route stays off while the cell exists.  A cell that owns an ISA input
 * (below 16) owns it alone: no PIRQ may be routed there.
 */
#define PCI_PIRQ_MAX 8
#define PCI_PIRQ_OFF 0x80u /* IRQEN#: not routed */
#define PCI_PIRQ_IRQ 0x0fu

struct pci_pirq_router {
	u32 ids;	      /* vendor | device << 16 */
	unsigned int n;	      /* PIRQ lines */
	u8 reg[PCI_PIRQ_MAX]; /* routing register of line n */
};

/* The router of a function (ids as dword 0 reads), or NULL. */
const struct pci_pirq_router *pci_pirq_router_of(u32 ids);

/* The lines cells own (bit n: input 16 + n) and the ISA inputs cells own
 * (bit i: input i, i < 16). */
struct pci_pirq_cells {
	u32 lines;
	u32 isa;
};

/*
 * Root writes the routing register of line n, which holds old, with value:
 * NULL if it may, else why not.  A cell's line keeps its value (off);
 * another line may not be routed to an ISA input a cell owns.
 */
const char *pci_pirq_write_refused(const struct pci_pirq_cells *c,
				   unsigned int n, u8 old, u8 value);

/*
 * The line of r that root routes to one of the ISA inputs isa (bit i:
 * input i), reading each line's register through value[n]; -1 if none.
 */
int pci_pirq_routed_to(const struct pci_pirq_router *r, const u8 *value,
		       u32 isa);

/*
 * At disable, called by the IOMMU unit before its interrupt remapping
 * goes back to root's table: every MSI and MSI-X message of root's
 * functions holds root's own remapping index again (pci_msi_root.c).
 */
void pci_root_msi_give_back(void);

#endif /* WARDEN_ASM_PCI_H */
