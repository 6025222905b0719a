// SPDX-License-Identifier: GPL-2.0
/*
 * PCI configuration space, a unit (hv/unit.h).  The hypervisor keeps both
 * ways to reach it: the ports 0xcf8-0xcff (mechanism #1) exit for root
 * and for every cell with PCI functions (the port registry, hv/mmio.h),
 * and root's MMCONFIG window is taken out of its second-level tables (the
 * MMIO registry).  Every access is performed here, on the function it
 * names:
 *
 *  - a function a cell owns (its config's pci_devices) reads as absent
 *    (all ones) to root and to every other cell, and ignores their
 *    writes;
 *  - root reaches every other function as on hardware, except that an
 *    MSI message it programs must not reach a cell's CPU
 *    (irq_root_msi_refused: a message in remappable format holds an
 *    index into root's interrupt-remapping table, taken while an IOMMU
 *    remaps root's interrupts -- where the hypervisor owns it, the
 *    device gets the hypervisor's index for root's, pci_msi_root.c --
 *    refused where none does, as for the IOAPIC), every BAR it
 *    decodes, the expansion ROM's included, must lie in its device
 *    memory or ports (with the sizes Linux found: pci_root_fns.c), MSI-X
 *    only where its table is trapped, and a chipset or bridge register that places an
 *    address decoder keeps its value (pci_decoders.c): a write that
 *    breaks one is refused, reported, not applied;
 *  - a cell reaches its own functions through 0xcf8/0xcfc (256 bytes
 *    each; it has no MMCONFIG).  Their headers are filtered:
 *    IDs, class and capabilities read as on hardware; the command
 *    register takes decoding, INTx disable and bus mastering (where
 *    the IOMMU confines the function's DMA, asm/iommu.h, or the config
 *    says DMA_UNISOLATED); BARs read where the config maps them in the cell
 *    (asm/pci.h: sizing works, moving them is refused and reported, the
 *    cell never writes the hardware's BARs); the expansion ROM reads 0;
 *    an MSI message must target the cell's CPUs (else the cell fails,
 *    named), and so must every unmasked entry of an MSI-X table, whose
 *    pages trap (pci_msix.c).
 *
 * On create a function's decoding, bus mastering, MSI and MSI-X are
 * switched off and its BARs put where the config says before the cell
 * gets it; on destroy they are switched off again and root's Linux
 * probes a driver for the function, which programs it anew.  Root's own
 * MSI-X tables are trapped by pci_msix_root.c.  Physical
 * accesses go through MMCONFIG where the system config has it, else
 * through 0xcf8/0xcfc, all under one lock.
 */
#include <asm/arch_cell.h>
#include <asm/iommu.h>
#include <asm/irq_dest.h>
#include <asm/pci.h>
#include "pci_dev.h"
#include <asm/pci_virt.h>
#include <asm/percpu.h>
#include <asm/processor.h>
#include <asm/vendor.h>
#include <hv/arch.h>
#include <hv/cell.h>
#include <hv/hypervisor.h>
#include <hv/mmio.h>
#include <hv/printk.h>
#include <hv/spinlock.h>
#include <hv/unit.h>
#include <warden/config.h>
#include <warden/error.h>
#include <warden/hvheader.h>
#include <warden/hypercall.h>

DECLARE_UNIT(pci);

/* The hypervisor's mapping of the MMCONFIG window (at most 256 MiB):
 * its own 1 GiB below the hypervisor's image. */
#define PCI_MMCFG_HV_VIRT 0xffffff8000000000ul

static struct pci_dev devs[PCI_MAX_ASSIGNED];
static struct pci_virt *virts[PCI_MAX_VIRT]; /* NULL: free */
spinlock_t pci_lock; /* physical accesses, MSI-X tables, devs[], virts[] */
static volatile u8 *mmcfg; /* NULL: no MMCONFIG */
static u64 mmcfg_phys, mmcfg_size;

/* ---- physical accesses (pci_lock held) ---- */

static bool use_mmcfg(u16 bdf)
{
	return mmcfg && ((u64)bdf << 12) < mmcfg_size;
}

u32 pci_phys_read(u16 bdf, u16 reg, unsigned int size)
{
	volatile u8 *p;

	if (use_mmcfg(bdf)) {
		p = mmcfg + ((u64)bdf << 12) + reg;
		if (size == 1)
			return *p;
		if (size == 2)
			return *(volatile u16 *)p;
		return *(volatile u32 *)p;
	}
	if (reg >= 0x100)
		return 0xffffffffu;
	port_write(PCI_CF8, 4, PCI_CF8_ENABLE | (u32)bdf << 8 | (reg & 0xfc));
	return port_read(PCI_CFC + (reg & 3), size);
}

void pci_phys_write(u16 bdf, u16 reg, unsigned int size, u32 value)
{
	volatile u8 *p;

	if (use_mmcfg(bdf)) {
		p = mmcfg + ((u64)bdf << 12) + reg;
		if (size == 1)
			*p = (u8)value;
		else if (size == 2)
			*(volatile u16 *)p = (u16)value;
		else
			*(volatile u32 *)p = value;
		return;
	}
	if (reg >= 0x100)
		return;
	port_write(PCI_CF8, 4, PCI_CF8_ENABLE | (u32)bdf << 8 | (reg & 0xfc));
	port_write(PCI_CFC + (reg & 3), size, value);
}

/* The offset of capability id in the function's list, or 0.  At most 48
 * entries (the 192 bytes after the header hold no more): a looping list
 * ends. */
u8 pci_find_cap(u16 bdf, u8 id)
{
	unsigned int n;
	u8 pos;

	if (!(pci_phys_read(bdf, PCI_STATUS, 2) & PCI_STATUS_CAP_LIST))
		return 0;
	pos = (u8)pci_phys_read(bdf, PCI_CAP_PTR, 1) & 0xfc;
	for (n = 0; n < 48 && pos >= 0x40; n++) {
		if ((u8)pci_phys_read(bdf, pos, 1) == id)
			return pos;
		pos = (u8)pci_phys_read(bdf, pos + 1, 1) & 0xfc;
	}
	return 0;
}

/* Decoding, bus mastering, MSI and MSI-X off: the function does nothing
 * until its new owner programs it. */
static void quiesce(u16 bdf)
{
	u8 cap;

	pci_phys_write(bdf, PCI_COMMAND, 2,
		       pci_phys_read(bdf, PCI_COMMAND, 2) &
			       ~(PCI_CMD_IO | PCI_CMD_MEMORY | PCI_CMD_MASTER));
	cap = pci_find_cap(bdf, PCI_CAP_ID_MSI);
	if (cap)
		pci_phys_write(bdf, cap + PCI_MSI_CTRL, 2,
			       pci_phys_read(bdf, cap + PCI_MSI_CTRL, 2) &
				       ~PCI_MSI_CTRL_ENABLE);
	cap = pci_find_cap(bdf, PCI_CAP_ID_MSIX);
	if (cap)
		pci_phys_write(bdf, cap + PCI_MSI_CTRL, 2,
			       pci_phys_read(bdf, cap + PCI_MSI_CTRL, 2) &
				       ~PCI_MSIX_CTRL_ENABLE);
}

struct pci_dev *pci_assigned(u16 bdf)
{
	unsigned int i;

	for (i = 0; i < PCI_MAX_ASSIGNED; i++)
		if (devs[i].owner && devs[i].bdf == bdf)
			return &devs[i];
	return NULL;
}

/* ---- what root and cells may write ---- */

/*
 * dw[0..n) := the dwords of bdf's configuration space from offset from
 * (dword aligned), as they will be after the write of size bytes of value
 * at reg.
 */
static void after_write(u16 bdf, u16 from, unsigned int n, u16 reg,
			unsigned int size, u32 value, u32 *dw)
{
	unsigned int i, byte;

	for (i = 0; i < n; i++)
		dw[i] = pci_phys_read(bdf, from + 4 * i, 4);
	for (i = 0; i < size; i++) {
		if (reg + i < from || reg + i >= from + 4 * n)
			continue;
		byte = reg + i - from;
		dw[byte / 4] &= ~(0xffu << (8 * (byte % 4)));
		dw[byte / 4] |= ((value >> (8 * i)) & 0xff) << (8 * (byte % 4));
	}
}

/*
 * The MSI capability at cap as it will be after the write of size bytes
 * of value at reg: *addr, *data, the number of vectors, and whether it is
 * enabled.  False if the write does not touch the capability.
 */
static bool msi_after_write(u16 bdf, u8 cap, u16 reg, unsigned int size,
			    u32 value, u32 *addr, u32 *data,
			    unsigned int *vectors)
{
	u32 dw[4];
	u16 ctrl;

	if (reg + size <= cap || reg >= cap + 16)
		return false;
	after_write(bdf, cap, 4, reg, size, value, dw);
	ctrl = (u16)(dw[0] >> 16);
	*addr = dw[1];
	*data = (ctrl & PCI_MSI_CTRL_64BIT) ? dw[3] & 0xffff : dw[2] & 0xffff;
	/* a 64-bit message above 4 GiB reaches no local APIC */
	if ((ctrl & PCI_MSI_CTRL_64BIT) && dw[2])
		*addr = 0;
	*vectors = 1u << ((ctrl >> PCI_MSI_CTRL_MME_SHIFT) & 7);
	return ctrl & PCI_MSI_CTRL_ENABLE;
}

static bool overlaps(u64 a, u64 a_size, u64 b, u64 b_size)
{
	return a < b + b_size && b < a + a_size;
}

/* Does a live cell own memory (io false) or ports (io true) in
 * [start, start + size)?  Read without cells_lock, which management
 * holds while it waits for CPUs: a cell created or destroyed meanwhile
 * is seen before or after, its config is never unmapped. */
static bool cell_has(u64 start, u64 size, bool io)
{
	const struct warden_mem_region *mem;
	const struct warden_pio_range *pio;
	const struct cell *c;
	unsigned int id, i;

	for (id = 1; id < HV_MAX_CELLS; id++) {
		c = __atomic_load_n(&hv.cells[id], __ATOMIC_ACQUIRE);
		if (!c)
			continue;
		mem = warden_cell_mem_regions(c->config);
		pio = warden_cell_pio_ranges(c->config);
		for (i = 0; !io && i < c->config->num_memory_regions; i++)
			if (!(mem[i].flags & WARDEN_MEM_COMM_REGION) &&
			    overlaps(start, size, mem[i].phys_start,
				     mem[i].size))
				return true;
		for (i = 0; io && i < c->config->num_pio_ranges; i++)
			if (overlaps(start, size, pio[i].base, pio[i].length))
				return true;
	}
	return false;
}

/* Why root may not decode a memory BAR at [start, start + size), or
 * NULL: it must lie in one of its config's device-memory regions, in no
 * cell's memory, and clear of what the hypervisor traps (IOAPICs,
 * MMCONFIG, the local APICs' window). */
const char *pci_root_memory_refused(u64 start, u64 size)
{
	const struct warden_mem_region *mem =
		warden_cell_mem_regions(&hv.config->root_cell);
	const struct warden_ioapic *io = warden_system_ioapics(hv.config);
	unsigned int i;
	bool inside = false;

	for (i = 0; i < hv.config->root_cell.num_memory_regions; i++)
		if ((mem[i].flags & WARDEN_MEM_IO) &&
		    mem[i].phys_start <= start &&
		    start + size <= mem[i].phys_start + mem[i].size)
			inside = true;
	if (!inside || start + size < start)
		return "a BAR over memory that is not root's device memory";
	if (cell_has(start, size, false))
		return "a BAR over a cell's memory";
	for (i = 0; i < hv.config->platform.num_ioapics; i++)
		if (overlaps(start, size, io[i].address, PAGE_SIZE))
			return "a BAR over an IOAPIC";
	if ((mmcfg && overlaps(start, size, mmcfg_phys, mmcfg_size)) ||
	    overlaps(start, size, MSI_ADDR_BASE, 0x100000))
		return "a BAR over MMCONFIG or the local APICs' window";
	return NULL;
}

/* Why root may not decode an I/O BAR at ports [base, base + n), or
 * NULL: they must be root's ports (its config's, no cell's). */
static const char *root_bar_ports_refused(u64 base, u64 n)
{
	const struct warden_pio_range *pio =
		warden_cell_pio_ranges(&hv.config->root_cell);
	unsigned int i;

	for (i = 0; i < hv.config->root_cell.num_pio_ranges; i++)
		if (pio[i].base <= base &&
		    base + n <= (u64)pio[i].base + pio[i].length)
			return cell_has(base, n, true) ? "an I/O BAR over a "
							 "cell's ports"
						       : NULL;
	return "an I/O BAR over ports root does not have";
}

/*
 * Why root may not give the BARs of bdf the values bar[0..n), or NULL: a
 * BAR that holds a trapped MSI-X table stays where it is
 * (pci_msix_root.c).  A half with all its address bits set is being
 * sized, not moved (Linux sizes the low half, puts it back, then the high
 * one).
 */
static const char *bars_kept(u16 bdf, const u32 *bar, unsigned int n)
{
	unsigned int i;
	const char *why;
	bool mem64;
	u64 addr;

	for (i = 0; i < n; i++) {
		if (bar[i] & PCI_BAR_IO_SPACE)
			continue;
		mem64 = (bar[i] & 0x6) == PCI_BAR_MEM_TYPE_64 && i + 1 < n;
		addr = (bar[i] & ~0xfull) | (mem64 ? (u64)bar[i + 1] << 32 : 0);
		if ((bar[i] | 0xf) != 0xffffffffu &&
		    !(mem64 && bar[i + 1] == 0xffffffffu)) {
			why = pci_msix_root_bar_refused(bdf, i, addr);
			if (why)
				return why;
		}
		i += mem64;
	}
	return NULL;
}

/*
 * Why root may not decode the expansion ROM of bdf at rom, or NULL: the
 * ROM is a BAR, under the same rule as the others, its size Linux's
 * (f: the function at enable; NULL: unknown, refused).
 */
static const char *root_rom_refused(const struct warden_root_function *f,
				    u32 rom)
{
	if (!f)
		return "a function the hypervisor had no sizes for at enable";
	return f->rom_size ? pci_root_memory_refused(rom & PCI_ROM_ADDR_MASK,
						     f->rom_size)
			   : NULL;
}

static bool touches(u16 reg, unsigned int size, u16 start, unsigned int len)
{
	return reg < start + len && start < reg + size;
}

/*
 * Why root may not make a write to the command register, a BAR or the
 * expansion ROM BAR of a type 0 function or a bridge (type 1: two BARs,
 * the ROM BAR at 0x38), or NULL: after it, every BAR the function
 * decodes (memory BARs and an enabled ROM with memory space on, I/O BARs
 * with I/O space on) must lie in root's device memory or ports.  The
 * sizes are Linux's, handed over at enable (pci_root_fns.c); a function
 * Linux did not have then may decode nothing, as its sizes are unknown.
 * While decoding is off any value is taken, which is how Linux sizes and
 * moves BARs, and Linux sets the ROM's enable bit to read it
 * (pci_map_rom).
 */
static const char *root_bar_refused(u16 bdf, u16 reg, unsigned int size,
				    u32 value)
{
	const struct warden_root_function *f = pci_root_fn(bdf);
	u32 dw[(PCI_BAR_END - PCI_COMMAND) / 4], lo, rom;
	u8 type = (u8)pci_phys_read(bdf, PCI_HEADER_TYPE, 1) & 0x7f;
	unsigned int i, n = type ? 2 : WARDEN_PCI_BARS;
	u16 rom_reg = type ? PCI_BRIDGE_ROM_BAR : PCI_ROM_BAR;
	const char *why;
	u64 addr, len;
	u16 cmd;

	if (type > 1 || !(touches(reg, size, PCI_COMMAND, 2) ||
			  touches(reg, size, PCI_BAR0, 4 * n) ||
			  touches(reg, size, rom_reg, 4)))
		return NULL;
	after_write(bdf, PCI_COMMAND, (PCI_BAR0 - PCI_COMMAND) / 4 + n, reg,
		    size, value, dw);
	after_write(bdf, rom_reg, 1, reg, size, value, &rom);
	cmd = (u16)dw[0];
	why = bars_kept(bdf, dw + (PCI_BAR0 - PCI_COMMAND) / 4, n);
	if (why)
		return why;
	for (i = 0; i < n; i++) {
		lo = dw[(PCI_BAR0 - PCI_COMMAND) / 4 + i];
		len = f ? f->bar_size[i] : 0;
		if (!f && (cmd & (PCI_CMD_IO | PCI_CMD_MEMORY)) && lo & ~0xfu)
			return "a function the hypervisor had no sizes for at "
			       "enable";
		if (lo & PCI_BAR_IO_SPACE) {
			addr = lo & 0xfffcu;
			why = !(cmd & PCI_CMD_IO) || !len
				      ? NULL
				      : root_bar_ports_refused(addr, len);
		} else {
			addr = lo & ~0xfu;
			if ((lo & 0x6) == PCI_BAR_MEM_TYPE_64 && i + 1 < n)
				addr |= (u64)dw[(PCI_BAR0 - PCI_COMMAND) / 4 +
						++i]
					<< 32;
			why = !(cmd & PCI_CMD_MEMORY) || !len
				      ? NULL
				      : pci_root_memory_refused(addr, len);
		}
		if (why)
			return why;
	}
	return pci_rom_decodes(cmd, rom) ? root_rom_refused(f, rom) : NULL;
}

/* Why root may not make the write (a register that places an address
 * decoder changed, a BAR it may not decode, an MSI to a cell's CPU), or
 * NULL. */
/*
 * Root's write to extended configuration space (MMCONFIG only): the
 * extended capability it falls in, found by walking the list from 100h
 * (PCIe Base 7.6: ID in 15:0, next offset in 31:20; the capabilities do
 * not overlap, so it is the last one starting at or below reg), decides.
 */
static const char *root_ext_refused(u16 bdf, u16 reg, unsigned int size,
				    u32 value)
{
	u16 pos = 0x100, cap = 0, id = 0;
	unsigned int n;
	u32 hdr;

	for (n = 0; n < 64 && pos >= 0x100 && pos <= reg; n++) {
		hdr = pci_phys_read(bdf, pos, 4);
		if (!hdr || hdr == 0xffffffff)
			break;
		cap = pos;
		id = (u16)hdr;
		pos = (u16)(hdr >> 20) & 0xffc;
	}
	if (!cap)
		return NULL;
	return pci_ext_moderated_refused(id, reg - cap, size,
					 pci_phys_read(bdf, reg, size), value);
}

static const char *root_write_refused(u16 bdf, u16 reg, unsigned int size,
				      u32 value)
{
	const char *why;
	u8 cap;

	if (reg >= 0x100)
		return root_ext_refused(bdf, reg, size, value);
	why = pci_pirq_root_refused(bdf, reg, size, value);
	if (why)
		return why;
	why = pci_moderated_refused(pci_phys_read(bdf, PCI_VENDOR_ID, 4),
				    (u8)pci_phys_read(bdf, PCI_HEADER_TYPE, 1),
				    reg, size, pci_phys_read(bdf, reg, size),
				    value);
	if (why)
		return why;
	if (reg < 0x40)
		return root_bar_refused(bdf, reg, size, value);
	cap = pci_find_cap(bdf, PCI_CAP_ID_MSIX);
	/* the byte holding MSI-X enable (bit 15 of the control word) */
	if (cap && touches(reg, size, cap + PCI_MSI_CTRL + 1, 1) &&
	    (value >> (8 * (cap + PCI_MSI_CTRL + 1 - reg))) & 0x80) {
		why = pci_msix_root_enable_refused(bdf);
		if (why)
			return why;
	}
	/* the MSI capability: pci_msi_root_write */
	return NULL;
}

/* ---- accesses ---- */

static void report(struct per_cpu *pc, u16 bdf, u16 reg, u32 value,
		   const char *why)
{
	cell_printk(pc->cell,
		    "CPU %u: write of 0x%x to PCI %02x:%02x.%x register 0x%x "
		    "refused: %s",
		    pc->cpu_id, value, bdf >> 8, (bdf >> 3) & 0x1f, bdf & 7,
		    reg, why);
}

static enum mmio_result root_access(struct per_cpu *pc, u16 bdf, u16 reg,
				    struct mmio_access *a)
{
	const char *why;

	bool done = false;

	if (!a->write) {
		if (!pci_msi_root_read(bdf, reg, a->size, &a->value))
			a->value = pci_phys_read(bdf, reg, a->size);
		return MMIO_HANDLED;
	}
	why = root_write_refused(bdf, reg, a->size, (u32)a->value);
	if (!why)
		why = pci_msi_root_write(pc, bdf, reg, a->size, (u32)a->value,
					 &done);
	if (why)
		report(pc, bdf, reg, (u32)a->value, why);
	else if (!done)
		pci_phys_write(bdf, reg, a->size, (u32)a->value);
	return MMIO_HANDLED;
}

/* A cell's read of its own function. */
static void cell_read(struct pci_dev *d, u16 reg, struct mmio_access *a)
{
	u32 dw;

	if (reg >= PCI_BAR0 && reg < PCI_BAR_END) {
		dw = pci_bar_read(d->bars, (reg - PCI_BAR0) / 4);
		a->value = dw >> (8 * (reg & 3));
	} else if (reg >= PCI_ROM_BAR && reg < PCI_ROM_BAR + 4) {
		a->value = 0; /* no expansion ROM */
	} else if (pci_msi_view_read(d, reg, a->size, &a->value)) {
		/* the message it wrote; the device has a remappable one */
	} else {
		a->value = pci_phys_read(d->bdf, reg, a->size);
	}
}

/* A cell's write to the MSI or MSI-X capability of its function: the
 * MSI message checked; the MSI-X enable bit dropped if the table is not
 * trapped. */
/* A cell's failure found under pci_lock, made after it is released:
 * cell_fail stops the cell's CPUs, and the units' cell_stop hooks take
 * their own locks (hv/unit.h), never under another unit's. */
struct pci_failure {
	const char *what; /* NULL: none */
	u64 value;
};

static enum mmio_result cell_cap_write(struct per_cpu *pc, struct pci_dev *d,
				       u16 reg, unsigned int size, u32 value,
				       struct pci_failure *fail)
{
	u32 addr, data, id;
	unsigned int vectors;
	const char *why = NULL;
	unsigned int hi = d->msix_cap + PCI_MSI_CTRL + 1u; /* enable's byte */
	bool done;

	why = pci_msi_remap_write(d, pc->cell, reg, size, value, &done,
				  &fail->value);
	if (why) {
		report(pc, d->bdf, reg, value, why);
		fail->what = "MSI message";
		return MMIO_CELL_FAILED;
	}
	if (done)
		return MMIO_HANDLED;
	if (!d->remapped && d->msi_cap &&
	    msi_after_write(d->bdf, d->msi_cap, reg, size, value, &addr, &data,
			    &vectors)) {
		why = msi_cell_refused(addr, data, vectors);
		if (!why)
			why = irq_cell_dest(pc->cell, msi_as_icr(addr, data),
					    msi_dest(addr), &id);
		if (why) {
			report(pc, d->bdf, reg, value, why);
			fail->what = "MSI message";
			fail->value = (u64)addr << 32 | data;
			return MMIO_CELL_FAILED;
		}
	}
	/* the byte holding MSI-X enable (bit 15 of the control word) */
	if (d->msix_cap && !pci_msix_usable(d) && reg <= hi &&
	    hi < reg + size && (value >> (8 * (hi - reg))) & 0x80) {
		report(pc, d->bdf, reg, value,
		       "MSI-X table outside the memory the config maps for "
		       "the function; the enable bit is dropped");
		value &= ~(0x80u << (8 * (hi - reg)));
	}
	pci_phys_write(d->bdf, reg, size, value);
	return MMIO_HANDLED;
}

/* A cell's write to its own function (see the top of the file). */
static enum mmio_result cell_write(struct per_cpu *pc, struct pci_dev *d,
				   u16 reg, struct mmio_access *a,
				   struct pci_failure *fail)
{
	/* bus mastering: where an IOMMU confines the function's DMA to
	 * the cell's memory, or the config accepts it unconfined */
	bool dma_ok = (d->cfg->flags & WARDEN_PCI_DMA_UNISOLATED) ||
		      iommu_dma_confined(d->bdf);
	u32 value = (u32)a->value, byte;
	unsigned int i;

	if (reg >= PCI_COMMAND && reg < PCI_COMMAND + 4) {
		/* command (filtered) and status (write 1 to clear): each
		 * byte written goes to its own register */
		for (i = 0; i < a->size; i++, reg++, value >>= 8) {
			byte = value & 0xff;
			if (reg == PCI_COMMAND)
				byte = pci_cell_command((u16)byte, dma_ok);
			else if (reg == PCI_COMMAND + 1)
				byte = pci_cell_command((u16)(byte << 8),
							dma_ok) >>
				       8;
			pci_phys_write(d->bdf, reg, 1, byte);
		}
		return MMIO_HANDLED;
	}
	if (reg >= PCI_BAR0 && reg < PCI_BAR_END) {
		if (a->size != 4)
			return MMIO_HANDLED; /* BARs are written whole */
		if (!pci_bar_write(d->bars, (reg - PCI_BAR0) / 4, value))
			report(pc, d->bdf, reg, value,
			       "a BAR stays where the config maps it");
		return MMIO_HANDLED;
	}
	if (reg == PCI_INT_LINE && a->size == 1) {
		pci_phys_write(d->bdf, reg, 1, value); /* a scratch register */
		return MMIO_HANDLED;
	}
	if (reg < 0x40)
		return MMIO_HANDLED; /* IDs, class, ROM, ...: read-only here */
	return cell_cap_write(pc, d, reg, a->size, value, fail);
}

/* The virtual function cell sees at bdf, or NULL (pci_lock held). */
static struct pci_virt *virt_at(const struct cell *cell, u16 bdf)
{
	unsigned int i;

	for (i = 0; i < PCI_MAX_VIRT; i++)
		if (virts[i] && virts[i]->cell == cell && virts[i]->bdf == bdf)
			return virts[i];
	return NULL;
}

/* An access to register r of a function, from root or a cell. */
static enum mmio_result config_access(struct per_cpu *pc, struct pci_reg r,
				      struct mmio_access *a)
{
	struct pci_failure fail = { NULL, 0 };
	struct cell *cell = pc->cell;
	enum mmio_result res = MMIO_HANDLED;
	struct pci_virt *v;
	struct pci_dev *d;

	if ((r.reg & 3) + a->size > 4)
		return MMIO_REFUSED; /* within one dword */
	spin_lock(&pci_lock);
	v = virt_at(cell, r.bdf);
	d = pci_assigned(r.bdf);
	if (v) {
		if (a->write)
			res = v->ops->write(v, pc, r.reg, a->size,
					    (u32)a->value);
		else
			a->value = v->ops->read(v, r.reg, a->size);
	} else if (cell == &hv.root ? d != NULL : (!d || d->owner != cell)) {
		if (!a->write)
			a->value = ~0ull; /* absent */
	} else if (cell == &hv.root) {
		res = root_access(pc, r.bdf, r.reg, a);
	} else if (a->write) {
		res = cell_write(pc, d, r.reg, a, &fail);
	} else {
		cell_read(d, r.reg, a);
	}
	spin_unlock(&pci_lock);
	if (fail.what)
		cell_fail(pc, fail.what, fail.value, vcpu_rip());
	return res;
}

/* Ports 0xcf8-0xcff.  Root's accesses to 0xcf8-0xcfb other than the
 * dword address register (0xcf9 is the chipset's reset control) go to
 * the hardware; a cell's are ignored. */
static enum mmio_result pci_ports(void *ctx, struct per_cpu *pc,
				  struct mmio_access *a)
{
	/* 0xcf8 as this cell sees it: the unit's per-cell state */
	u32 *cf8 = UNIT_STATE(pc->cell, pci);
	struct pci_reg r;

	(void)ctx;
	if (a->addr == PCI_CF8 && a->size == 4) {
		if (a->write)
			*cf8 = (u32)a->value;
		else
			a->value = *cf8;
		return MMIO_HANDLED;
	}
	if (a->addr < PCI_CFC) {
		if (pc->cell != &hv.root) {
			a->value = ~0ull;
			return MMIO_HANDLED;
		}
		spin_lock(&pci_lock);
		if (a->write)
			port_write((u16)a->addr, a->size, (u32)a->value);
		else
			a->value = port_read((u16)a->addr, a->size);
		spin_unlock(&pci_lock);
		return MMIO_HANDLED;
	}
	if (!pci_cf8_decode(*cf8, (u16)a->addr, &r)) {
		a->value = ~0ull;
		return MMIO_HANDLED;
	}
	return config_access(pc, r, a);
}

/* Root's MMCONFIG window. */
static enum mmio_result pci_mmcfg(void *ctx, struct per_cpu *pc,
				  struct mmio_access *a)
{
	(void)ctx;
	return config_access(pc, pci_mmcfg_decode(a->offset), a);
}

/* The configuration ports trap for cell (root, or a cell with functions
 * or virtual functions): 0, or -WARDEN_ENOSPC (its port registry is
 * full). */
static int trap_ports(struct cell *cell)
{
	if (mmio_lookup(&cell->pio, PCI_CF8, 1))
		return 0;
	return mmio_register(&cell->pio, PCI_CF8, 8, pci_ports, NULL);
}

int pci_virt_add(struct pci_virt *v)
{
	unsigned int i;
	int err = -WARDEN_ENOSPC;

	spin_lock(&pci_lock);
	if (virt_at(v->cell, v->bdf) ||
	    (v->cell != &hv.root && pci_assigned(v->bdf) &&
	     pci_assigned(v->bdf)->owner == v->cell)) {
		err = -WARDEN_EBUSY;
		goto out;
	}
	for (i = 0; i < PCI_MAX_VIRT; i++)
		if (!virts[i])
			break;
	if (i == PCI_MAX_VIRT || trap_ports(v->cell))
		goto out;
	virts[i] = v;
	err = 0;
out:
	spin_unlock(&pci_lock);
	return err;
}

void pci_virt_remove(struct pci_virt *v)
{
	unsigned int i;

	spin_lock(&pci_lock);
	for (i = 0; i < PCI_MAX_VIRT; i++)
		if (virts[i] == v)
			virts[i] = NULL;
	spin_unlock(&pci_lock);
}

/* ---- the unit ---- */

static int pci_unit_init(struct per_cpu *pc)
{
	const struct warden_platform *p = &hv.config->platform;
	struct own_trap trap = { .kind = OWN_TRAP_ABSENT };
	int err;

	if (p->mmconfig_base) {
		mmcfg_phys = p->mmconfig_base;
		mmcfg_size = ((u64)p->mmconfig_end_bus + 1) << 20;
		mmcfg = (volatile u8 *)PCI_MMCFG_HV_VIRT;
		trap.start = mmcfg_phys;
		trap.size = mmcfg_size;
		if (pt_map(&hv.hv_pt, PCI_MMCFG_HV_VIRT, mmcfg_phys, mmcfg_size,
			   MAP_READ | MAP_WRITE, WARDEN_MEMTYPE_UC) ||
		    ownership_trap(&hv.root, &trap) ||
		    mmio_register(&hv.root.mmio, mmcfg_phys, mmcfg_size,
				  pci_mmcfg, NULL))
			return hv_no_memory(pc, 3);
	}
	arch_set_ports(&hv.root, PCI_CF8, 8, false);
	if (trap_ports(&hv.root))
		return hv_no_memory(pc, 3);
	err = pci_root_fns_init(pc);
	if (!err)
		err = pci_msix_root_init(pc);
	if (err)
		return err;
	pci_pirq_init();
	if (pci_rcba_init())
		return hv_no_memory(pc, 3);
	printk("PCI configuration space trapped: ports 0xcf8-0xcff%s\n",
	       mmcfg ? " and MMCONFIG" : "");
	return 0;
}

static void set_error(struct warden_error *err, u32 rule, u32 kind, u32 index,
		      u64 v0, u64 v1, u64 v2, u64 v3)
{
	err->code = -WARDEN_EINVAL;
	err->rule = rule;
	err->item_kind = kind;
	err->item_index = index;
	err->values[0] = v0;
	err->values[1] = v1;
	err->values[2] = v2;
	err->values[3] = v3;
}

/* A cell may hold neither the configuration ports nor MMCONFIG. */
static int check_config_space(const struct cell *cell, struct warden_error *err)
{
	const struct warden_pio_range *pio =
		warden_cell_pio_ranges(cell->config);
	const struct warden_mem_region *mem =
		warden_cell_mem_regions(cell->config);
	unsigned int i;

	for (i = 0; i < cell->config->num_pio_ranges; i++)
		if (pio[i].base < PCI_CF8 + 8 &&
		    PCI_CF8 < pio[i].base + pio[i].length) {
			set_error(err, WARDEN_RULE_PCI_CONFIG_IN_CELL,
				  WARDEN_ITEM_PIO_RANGE, i, PCI_CF8, 0, 0, 0);
			return err->code;
		}
	for (i = 0; i < cell->config->num_memory_regions; i++)
		if (mmcfg && mem[i].phys_start < mmcfg_phys + mmcfg_size &&
		    mmcfg_phys < mem[i].phys_start + mem[i].size &&
		    !(mem[i].flags & WARDEN_MEM_COMM_REGION)) {
			set_error(err, WARDEN_RULE_PCI_CONFIG_IN_CELL,
				  WARDEN_ITEM_MEMORY_REGION, i, mmcfg_phys, 0,
				  0, 0);
			return err->code;
		}
	return 0;
}

/* Each function free, present, of type 0 with the IDs configured, and
 * room for all (pci_lock held). */
static int check_devices(const struct cell *cell, struct warden_error *err)
{
	const struct warden_pci_device *cfg =
		warden_cell_pci_devices(cell->config);
	unsigned int i, free = 0;
	struct pci_dev *d;
	u32 ids, want;
	u8 type;

	for (i = 0; i < PCI_MAX_ASSIGNED; i++)
		free += !devs[i].owner;
	for (i = 0; i < cell->config->num_pci_devices; i++) {
		d = pci_assigned(cfg[i].bdf);
		if (d || i >= free) {
			set_error(err, WARDEN_RULE_PCI_DEVICE_UNAVAILABLE,
				  WARDEN_ITEM_PCI_DEVICE, i, cfg[i].bdf,
				  d ? d->owner->id : 0, PCI_MAX_ASSIGNED, 0);
			return err->code;
		}
		ids = pci_phys_read(cfg[i].bdf, PCI_VENDOR_ID, 4);
		ids = ids == 0xffffffffu ? ids : (ids << 16) | (ids >> 16);
		type = (u8)pci_phys_read(cfg[i].bdf, PCI_HEADER_TYPE, 1) & 0x7f;
		want = (u32)cfg[i].vendor_id << 16 | cfg[i].device_id;
		if (ids != want || type != 0) {
			set_error(err, WARDEN_RULE_PCI_DEVICE_MISMATCH,
				  WARDEN_ITEM_PCI_DEVICE, i, cfg[i].bdf, ids,
				  type, want);
			return err->code;
		}
	}
	return 0;
}

/* Where the cell sees the memory at phys (its region holding it). */
static u64 guest_address(const struct cell *cell, u64 phys)
{
	const struct warden_mem_region *mem =
		warden_cell_mem_regions(cell->config);
	unsigned int i;

	for (i = 0; i < cell->config->num_memory_regions; i++)
		if (mem[i].phys_start <= phys &&
		    phys - mem[i].phys_start < mem[i].size)
			return phys - mem[i].phys_start + mem[i].guest_start;
	return phys; /* the validator requires a region (MEM_PCI_BAR) */
}

/*
 * Put the function's BARs where the config says (decoding off): root's
 * Linux may have moved them (a rescan assigns fresh addresses), and the
 * cell's memory regions map the config's.
 */
static void place_bars(const struct warden_pci_device *cfg)
{
	const struct warden_pci_bar *b;
	unsigned int i;
	u16 reg;

	for (i = 0; i < WARDEN_PCI_BARS; i++) {
		b = &cfg->bars[i];
		reg = PCI_BAR0 + 4 * i;
		if (!b->size)
			continue;
		if (b->flags & WARDEN_PCI_BAR_IO) {
			pci_phys_write(cfg->bdf, reg, 4, (u32)b->address);
			continue;
		}
		pci_phys_write(cfg->bdf, reg, 4, (u32)b->address);
		if ((b->flags & WARDEN_PCI_BAR_MEM64) &&
		    i + 1 < WARDEN_PCI_BARS)
			pci_phys_write(cfg->bdf, reg + 4, 4,
				       (u32)(b->address >> 32));
	}
}

static void take(struct cell *cell, struct pci_dev *d,
		 const struct warden_pci_device *cfg,
		 const struct pci_irq_range *irq)
{
	const struct warden_pci_bar *b;
	unsigned int i;

	d->owner = cell;
	d->cfg = cfg;
	d->bdf = cfg->bdf;
	quiesce(d->bdf);
	place_bars(cfg);
	d->msi_cap = pci_find_cap(d->bdf, PCI_CAP_ID_MSI);
	d->msix_cap = pci_find_cap(d->bdf, PCI_CAP_ID_MSIX);
	pci_irq_take(d, irq);
	for (i = 0; i < WARDEN_PCI_BARS; i++) {
		b = &cfg->bars[i];
		d->bars[i] = (struct pci_bar_view){ 0 };
		if (i > 0 && (cfg->bars[i - 1].flags & WARDEN_PCI_BAR_MEM64) &&
		    cfg->bars[i - 1].size) {
			d->bars[i].upper = true;
			continue;
		}
		if (!b->size)
			continue;
		d->bars[i].size = b->size;
		if (b->flags & WARDEN_PCI_BAR_IO) {
			d->bars[i].addr = b->address;
			d->bars[i].flags = PCI_BAR_IO_SPACE;
		} else {
			d->bars[i].addr = guest_address(cell, b->address);
			d->bars[i].flags = ((b->flags & WARDEN_PCI_BAR_MEM64)
						    ? PCI_BAR_MEM_TYPE_64
						    : 0) |
					   ((b->flags & WARDEN_PCI_BAR_PREFETCH)
						    ? 0x8
						    : 0);
		}
	}
}

/* Give the cell's functions back, switched off (pci_lock held): undoes
 * pci_cell_init, and is cell_exit. */
static void release(struct cell *cell)
{
	unsigned int i;

	for (i = 0; i < PCI_MAX_ASSIGNED; i++)
		if (devs[i].owner == cell) {
			mmio_unregister_ctx(&cell->mmio, &devs[i]);
			quiesce(devs[i].bdf);
			pci_msix_give_back(&devs[i]);
			pci_irq_give_back(&devs[i]);
			devs[i].owner = NULL;
		}
	mmio_unregister(&cell->pio, PCI_CF8);
	pci_pirq_give_back(cell);
}

static int pci_cell_init(struct cell *cell, struct warden_error *err)
{
	const struct warden_pci_device *cfg =
		warden_cell_pci_devices(cell->config);
	struct pci_irq_range irq[PCI_MAX_ASSIGNED];
	unsigned int i, slot = 0;

	if (check_config_space(cell, err))
		return err->code;
	spin_lock(&pci_lock);
	if (pci_pirq_check(cell, err) ||
	    (cell->config->num_pci_devices && check_devices(cell, err))) {
		spin_unlock(&pci_lock);
		return err->code;
	}
	/* check_devices bounded num_pci_devices by PCI_MAX_ASSIGNED */
	if (pci_irq_reserve(cell, cfg, cell->config->num_pci_devices, irq,
			    err)) {
		spin_unlock(&pci_lock);
		return err->code;
	}
	if (cell->config->num_pci_devices && trap_ports(cell)) {
		for (i = 0; i < cell->config->num_pci_devices; i++)
			iommu_cell_irq_release(irq[i].first,
					       irq[i].msi + irq[i].msix);
		spin_unlock(&pci_lock);
		return cell_error_no_memory(err);
	}
	pci_pirq_take(cell);
	for (i = 0; i < cell->config->num_pci_devices; i++) {
		while (devs[slot].owner)
			slot++; /* check_devices counted the room */
		take(cell, &devs[slot], &cfg[i], &irq[i]);
		if (pci_msix_take(cell, &devs[slot], slot))
			goto fail;
	}
	spin_unlock(&pci_lock);
	return 0;

fail:
	/* counted by pci_mmio_count: the pool had no page for a mapping;
	 * the functions not taken yet give their entries back here */
	release(cell);
	while (++i < cell->config->num_pci_devices)
		iommu_cell_irq_release(irq[i].first, irq[i].msi + irq[i].msix);
	spin_unlock(&pci_lock);
	return cell_error_no_memory(err);
}

static void pci_cell_exit(struct cell *cell)
{
	spin_lock(&pci_lock);
	release(cell);
	spin_unlock(&pci_lock);
}

/* Root: MMCONFIG; a cell: the MSI-X table of each function with one. */
static unsigned int pci_mmio_count(const struct cell *cell)
{
	const struct warden_pci_device *cfg =
		warden_cell_pci_devices(cell->config);
	unsigned int i, n = 0;

	if (cell == &hv.root)
		return (hv.config->platform.mmconfig_base ? 1 : 0) +
		       pci_msix_root_count() + 1; /* + 1: the RCBA page */
	for (i = 0; i < cell->config->num_pci_devices; i++)
		n += !!(cfg[i].flags & WARDEN_PCI_MSIX);
	return n;
}

DEFINE_UNIT(pci) = {
	.name = "PCI",
	.cell_state_size = sizeof(u32),
	.init = pci_unit_init,
	.cell_init = pci_cell_init,
	.cell_exit = pci_cell_exit,
	.mmio_count = pci_mmio_count,
};
