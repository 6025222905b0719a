// SPDX-License-Identifier: GPL-2.0
/*
 * The IOAPICs, a unit (hv/unit.h).  Each IOAPIC of the system config
 * (struct warden_ioapic) is taken out of root's second-level tables, so
 * that every access of root's traps and is performed here (MMIO dispatch,
 * hv/mmio.h):
 *
 *  - root reads everything; it writes only the redirection entries of
 *    the pins it owns (all pins no cell has), and only with destinations
 *    among root's CPUs.  A write to a cell's pin or one that would reach a
 *    cell CPU is refused, reported and never applied.  An entry in
 *    remappable format (bit 48: root runs the IOMMU's interrupt
 *    remapping) holds an index into root's remapping table: taken while
 *    an IOMMU remaps root's interrupts, refused where none does
 *    (irq_root_remappable_refused); where the hypervisor owns the
 *    IOMMU, the IOAPIC gets the hypervisor's index for root's instead
 *    (root_hw_entry; root reads back its own entry), and root's own
 *    entries come back at disable (ioapic_root_give_back).
 *  - a cell that owns pins sees each IOAPIC at its address, with its own
 *    select register.  Its pins read and write as on hardware; its entries
 *    must be Fixed or Lowest Priority with a vector 0x10-0xfe and reach
 *    only its CPUs (ioapic.h), else the cell fails, named.  They are
 *    written in physical destination mode to the first CPU the cell's
 *    destination names (the physical logical IDs are root's).  Pins it
 *    does not own read masked and ignore writes: an OS masks every pin at
 *    boot and must not fail for it.
 *  - an EOI-register write goes to the IOAPIC if the writer owns a pin
 *    with that vector (write_eoi).
 *  - where the IOMMU remaps cells' interrupts (iommu_cell_irqs_remapped:
 *    with remapping on, compatibility-format interrupts are blocked), a
 *    cell's pin goes through a remapping entry of its own, reserved at
 *    create: the IOAPIC holds the entry in remappable format naming it,
 *    and the cell's checked entry becomes the remapping entry, verified
 *    against the IOAPIC's source id (see "a cell's pins as remapping
 *    entries" below).  The cell still reads and writes compatibility
 *    format.
 *
 * On create the cell's pins are masked, their Remote IRR cleared and
 * root's programming kept; on destroy they are masked and cleared again
 * and root's programming is written back.  Device interrupts then go from
 * the IOAPIC straight to the cell's CPUs: no exit.  Accesses to the
 * physical select/window pair are serialised per IOAPIC.
 *
 * A system config without IOAPICs leaves root the IOAPIC as before.
 */
#include <asm/apic.h>
#include <asm/arch_cell.h>
#include "ioapic.h"
#include <asm/ioapic.h>
#include <asm/iommu.h>
#include <asm/irq_dest.h>
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
#include <warden/hypercall.h>

DECLARE_UNIT(ioapic);

/* The hypervisor's mappings of the IOAPICs: pages after the APIC's. */
#define IOAPIC_HV_VIRT (APIC_HV_VIRT + PAGE_SIZE)

struct ioapic {
	u64 phys;
	u32 gsi_base;
	unsigned int pins;
	u8 version;
	volatile u32 *regs;
	spinlock_t lock; /* the physical select/window pair */
	u32 root_regsel;
	/* what the owner last wrote (read-only bits clear): root's values
	 * stay here while a cell owns the pin, to be written back */
	u64 root_entry[IOAPIC_MAX_PINS];
	/* ... and what the IOAPIC holds for it (root_hw_entry) */
	u64 root_hw[IOAPIC_MAX_PINS];
	u64 cell_entry[IOAPIC_MAX_PINS];
	struct cell *owner[IOAPIC_MAX_PINS]; /* NULL: root */
	/* a cell's pins where cells' interrupts are remapped: the remapping
	 * entry of each (0: none; cells' entries are far above 0), and
	 * whether its first unmasked entry was named on the console */
	u16 source_id; /* the system config's; WARDEN_NO_SOURCE_ID: none */
	u32 remap[IOAPIC_MAX_PINS];
	bool remap_shown[IOAPIC_MAX_PINS];
};

static struct ioapic ioapics[IOAPIC_MAX];
static unsigned int num_ioapics;

static u32 phys_read(struct ioapic *io, u32 reg)
{
	io->regs[IOAPIC_REGSEL / 4] = reg;
	return io->regs[IOAPIC_WINDOW / 4];
}

static void phys_write(struct ioapic *io, u32 reg, u32 value)
{
	io->regs[IOAPIC_REGSEL / 4] = reg;
	io->regs[IOAPIC_WINDOW / 4] = value;
}

static u64 phys_entry(struct ioapic *io, unsigned int pin)
{
	return phys_read(io, IOAPIC_REG_REDIR + 2 * pin) |
	       (u64)phys_read(io, IOAPIC_REG_REDIR + 2 * pin + 1) << 32;
}

/* A whole entry, masked while it changes (lock held). */
static void phys_set_entry(struct ioapic *io, unsigned int pin, u64 entry)
{
	u32 low = (u32)entry & ~(u32)IOAPIC_READ_ONLY;

	phys_write(io, IOAPIC_REG_REDIR + 2 * pin, low | (u32)IOAPIC_MASKED);
	phys_write(io, IOAPIC_REG_REDIR + 2 * pin + 1, (u32)(entry >> 32));
	phys_write(io, IOAPIC_REG_REDIR + 2 * pin, low);
}

/*
 * Mask the pin and clear a Remote IRR left set by a level-triggered
 * interrupt its old owner never acknowledged (lock held): with the EOI
 * register (version 0x20 and later), else by switching the masked entry
 * to edge and back, which ends the level cycle on IOAPICs without one.
 */
static void phys_quiesce(struct ioapic *io, unsigned int pin)
{
	u64 entry = phys_entry(io, pin);
	u32 low = (u32)entry | (u32)IOAPIC_MASKED;

	phys_write(io, IOAPIC_REG_REDIR + 2 * pin, low);
	if (!(entry & IOAPIC_REMOTE_IRR))
		return;
	if (io->version >= 0x20) {
		io->regs[IOAPIC_EOI / 4] = (u32)(entry & IOAPIC_VECTOR_MASK);
		return;
	}
	phys_write(io, IOAPIC_REG_REDIR + 2 * pin, low & ~(u32)IOAPIC_LEVEL);
	phys_write(io, IOAPIC_REG_REDIR + 2 * pin, low);
}

static struct ioapic *ioapic_of_gsi(u32 gsi, unsigned int *pin)
{
	unsigned int i;

	*pin = 0;
	for (i = 0; i < num_ioapics; i++)
		if (gsi >= ioapics[i].gsi_base &&
		    gsi - ioapics[i].gsi_base < ioapics[i].pins) {
			*pin = gsi - ioapics[i].gsi_base;
			return &ioapics[i];
		}
	return NULL;
}

static void read_window(struct ioapic *io, struct cell *cell, u32 reg,
			struct mmio_access *a)
{
	unsigned int pin = (reg - IOAPIC_REG_REDIR) / 2;
	u64 entry, live;

	if (reg < IOAPIC_REG_REDIR) {
		spin_lock(&io->lock);
		a->value = phys_read(io, reg);
		spin_unlock(&io->lock);
		return;
	}
	if (pin >= io->pins)
		return;
	if (io->owner[pin] != (cell == &hv.root ? NULL : cell)) {
		entry = IOAPIC_MASKED;
	} else {
		spin_lock(&io->lock);
		live = phys_read(io, IOAPIC_REG_REDIR + 2 * pin);
		spin_unlock(&io->lock);
		entry = (io->owner[pin] ? io->cell_entry[pin]
					: io->root_entry[pin]) |
			(live & IOAPIC_READ_ONLY);
	}
	a->value = (reg & 1) ? (u32)(entry >> 32) : (u32)entry;
}

/* An entry with the half written at reg replaced by value. */
static u64 with_half(u64 entry, u32 reg, u32 value)
{
	if (reg & 1)
		return (entry & 0xffffffffull) | (u64)value << 32;
	return (entry & ~0xffffffffull) | (value & ~(u32)IOAPIC_READ_ONLY);
}

/*
 * Root's entry as the IOAPIC gets it: in remappable format (VT-d 5.1.5.1:
 * interrupt index[14:0] in bits 63:49, index[15] in bit 11) root's index
 * is replaced by the hypervisor's for it (iommu_root_index) once the pin
 * is unmasked, so that root's indexes may lie anywhere in its own table.
 * NULL with *hw, or why not.
 */
static const char *root_hw_entry(struct per_cpu *pc, u16 sid, u64 entry,
				 u64 *hw)
{
	u32 r = (u32)(entry >> 49) | ((u32)(entry >> 11) & 1) << 15, h;
	const char *why;

	*hw = entry;
	/* a masked pin sends nothing: it keeps root's index until it is
	 * unmasked (Linux masks a pin before it frees the index) */
	if (!(entry & IOAPIC_REMAPPABLE) || (entry & IOAPIC_MASKED))
		return NULL;
	why = iommu_root_index(pc, sid, r, &h);
	if (!why)
		*hw = (entry & ~(0x7fffull << 49 | 1ull << 11)) |
		      (u64)(h & 0x7fff) << 49 | (u64)((h >> 15) & 1) << 11;
	return why;
}

/* Root wrote the half reg of an entry the IOAPIC gets as hw (lock held):
 * that half, and the other where hw changed it too -- the upper before a
 * lower half (its mask bit), so that no unmasked pin names a stale
 * index. */
static void root_hw_write(struct ioapic *io, u32 reg, u64 hw)
{
	u32 low = (u32)hw & ~(u32)IOAPIC_READ_ONLY, high = (u32)(hw >> 32);

	if (!(reg & 1)) {
		if (phys_read(io, reg + 1) != high)
			phys_write(io, reg + 1, high);
		phys_write(io, reg, low);
		return;
	}
	phys_write(io, reg, high);
	if ((phys_read(io, reg - 1) & ~(u32)IOAPIC_READ_ONLY) != low)
		phys_write(io, reg - 1, low);
}

void ioapic_root_give_back(void)
{
	struct ioapic *io;
	unsigned int i, pin;

	for (i = 0; i < num_ioapics; i++) {
		io = &ioapics[i];
		spin_lock(&io->lock);
		for (pin = 0; pin < io->pins; pin++)
			if (!io->owner[pin] &&
			    io->root_hw[pin] != io->root_entry[pin]) {
				io->root_hw[pin] = io->root_entry[pin];
				phys_set_entry(io, pin, io->root_hw[pin]);
			}
		spin_unlock(&io->lock);
	}
}

static enum mmio_result write_root(struct ioapic *io, struct per_cpu *pc,
				   u32 reg, u32 value)
{
	unsigned int pin = (reg - IOAPIC_REG_REDIR) / 2;
	const char *why;
	u64 entry, hw = 0;

	if (reg < IOAPIC_REG_REDIR) {
		spin_lock(&io->lock);
		phys_write(io, reg, value);
		spin_unlock(&io->lock);
		return MMIO_HANDLED;
	}
	if (pin >= io->pins)
		return MMIO_HANDLED;
	entry = with_half(io->root_entry[pin], reg, value);
	if (io->owner[pin])
		why = "the pin belongs to a cell";
	else if (entry & IOAPIC_MASKED)
		why = NULL;
	else if (entry & IOAPIC_REMAPPABLE)
		why = irq_root_remappable_refused();
	else
		why = irq_root_dest_refused(pc->arch.x2apic,
					    ioapic_entry_as_icr(entry),
					    ioapic_entry_dest(entry));
	if (!why)
		why = root_hw_entry(pc, io->source_id, entry, &hw);
	if (why) {
		printk("CPU %u: root's write of IOAPIC 0x%llx pin %u entry "
		       "0x%llx refused: %s\n",
		       pc->cpu_id, (unsigned long long)io->phys, pin,
		       (unsigned long long)entry, why);
		return MMIO_HANDLED;
	}
	io->root_entry[pin] = entry;
	spin_lock(&io->lock);
	io->root_hw[pin] = hw;
	root_hw_write(io, reg, hw);
	spin_unlock(&io->lock);
	return MMIO_HANDLED;
}

/* ---- a cell's pins as remapping entries ---- */

/*
 * Where the IOMMU remaps cells' interrupts, each pin a cell owns has a
 * remapping entry of its own, reserved at create (remap_reserve), so that
 * nothing can fail for want of one at run time.  The cell's entry, checked
 * as in compatibility format (ioapic_cell_entry_refused, irq_cell_dest),
 * becomes the remapping entry: present, Fixed, physical, its vector, to
 * the CPU its destination resolves to, its trigger mode (VT-d 9.10: TM;
 * a level-triggered pin's EOI then reaches the IOAPIC), and verified
 * against the IOAPIC's source id (SVT 01b, SQ 00b, SID: the system
 * config's ioapics[].source_id).  The IOAPIC holds the same entry in
 * remappable format (VT-d 5.1.5.1) naming it, with the vector, polarity,
 * trigger mode and mask the cell wrote.  The IOAPIC is one requester for
 * all its pins, so the source id keeps other devices out and the entry
 * keeps the pins apart: only the hypervisor writes the IOAPIC.
 */

/* The cell's pins get their entries (cell create, after ioapic_cell_check):
 * 0, or -WARDEN_EINVAL/-WARDEN_ENOSPC with *err and nothing reserved. */
static int remap_reserve(struct cell *cell, struct warden_error *err)
{
	const struct warden_irq_pin *pins = warden_cell_irq_pins(cell->config);
	unsigned int i, n = cell->config->num_irq_pins, pin;
	struct ioapic *io;
	u32 first;

	if (!n || !iommu_cell_irqs_remapped())
		return 0;
	for (i = 0; i < n; i++) {
		io = ioapic_of_gsi(pins[i].gsi, &pin);
		if (io && io->source_id == WARDEN_NO_SOURCE_ID) {
			err->code = -WARDEN_EINVAL;
			err->rule = WARDEN_RULE_IOAPIC_NO_SOURCE_ID;
			err->item_kind = WARDEN_ITEM_IOAPIC;
			err->item_index = (u32)(io - ioapics);
			err->values[0] = io->phys;
			err->values[1] = pins[i].gsi;
			return err->code;
		}
	}
	if (iommu_cell_irq_reserve(cell, n, &first)) {
		err->code = -WARDEN_ENOSPC;
		err->rule = WARDEN_RULE_PIN_IRQ_REMAP_FULL;
		err->item_kind = WARDEN_ITEM_IRQ_PIN;
		err->item_index = 0;
		err->values[0] = pins[0].gsi;
		err->values[1] = n;
		err->values[2] = iommu_cell_irqs_used();
		return err->code;
	}
	for (i = 0; i < n; i++) {
		io = ioapic_of_gsi(pins[i].gsi, &pin);
		io->remap[pin] = first + i;
		io->remap_shown[pin] = false;
	}
	io = ioapic_of_gsi(pins[0].gsi, &pin);
	printk("Cell %u \"%s\": IOAPIC pins interrupts remapped: entries "
	       "%u-%u (%u pins, GSI %u first), source id %02x:%02x.%x "
	       "verified\n",
	       cell->id, cell->config->name, first, first + n - 1, n,
	       pins[0].gsi, io->source_id >> 8, (io->source_id >> 3) & 0x1f,
	       io->source_id & 7);
	return 0;
}

/* The pin's entry given back (cell destroy, or a create that failed),
 * after the pin is masked or root's again. */
static void remap_release(struct ioapic *io, unsigned int pin)
{
	if (!io->remap[pin])
		return;
	iommu_cell_irq_release(io->remap[pin], 1);
	io->remap[pin] = 0;
}

/*
 * The cell's checked entry (destination resolved to APIC ID id) through
 * the pin's remapping entry: the remapping entry first, its cached copy
 * invalidated, then the IOAPIC's entry (masked while it changes), so the
 * pin never sends through a stale entry.  An entry that could not be
 * written (its invalidation not confirmed: named by the IOMMU) leaves
 * the pin masked.
 */
static void write_cell_remapped(struct ioapic *io, struct cell *cell,
				unsigned int pin, u64 entry, u32 id)
{
	bool masked = entry & IOAPIC_MASKED;
	bool shown = io->remap_shown[pin];
	u64 rte;

	if (!masked &&
	    iommu_cell_pin_set(io->remap[pin], true,
			       (u32)(entry & IOAPIC_VECTOR_MASK), id,
			       io->source_id, entry & IOAPIC_LEVEL)) {
		printk("Cell %u \"%s\": IOAPIC pin %u (GSI %u) stays masked: "
		       "its remapping entry %u could not be written\n",
		       cell->id, cell->config->name, pin, io->gsi_base + pin,
		       io->remap[pin]);
		masked = true;
	}
	rte = iommu_cell_pin_entry(io->remap[pin],
				   entry | (masked ? IOAPIC_MASKED : 0));
	spin_lock(&io->lock);
	phys_set_entry(io, pin, rte);
	/* the IOAPIC's own entry, read back once: what the hardware holds */
	if (!masked && !shown)
		rte = phys_entry(io, pin);
	spin_unlock(&io->lock);
	if (masked || shown)
		return;
	io->remap_shown[pin] = true;
	printk("Cell %u \"%s\": IOAPIC pin %u (GSI %u) remapped: IOAPIC "
	       "entry 0x%llx (remappable: %s, index %u), vector 0x%x to APIC "
	       "%u, %s, source id %02x:%02x.%x verified\n",
	       cell->id, cell->config->name, pin, io->gsi_base + pin,
	       (unsigned long long)rte, rte & IOAPIC_REMAPPABLE ? "yes" : "no",
	       io->remap[pin], (u32)(entry & IOAPIC_VECTOR_MASK), id,
	       entry & IOAPIC_LEVEL ? "level" : "edge", io->source_id >> 8,
	       (io->source_id >> 3) & 0x1f, io->source_id & 7);
}

/* The cell is being destroyed (its CPUs stopped): its pins masked, so no
 * interrupt reaches a CPU about to be root's, nor a remapping entry the
 * IOMMU frees before cell_exit (units exit in reverse order). */
static void ioapic_cell_stop(struct cell *cell, bool destroy)
{
	unsigned int i, pin;
	struct ioapic *io;

	if (!destroy)
		return;
	for (i = 0; i < num_ioapics; i++) {
		io = &ioapics[i];
		for (pin = 0; pin < io->pins; pin++) {
			if (io->owner[pin] != cell || !io->remap[pin])
				continue;
			spin_lock(&io->lock);
			phys_write(io, IOAPIC_REG_REDIR + 2 * pin,
				   phys_read(io, IOAPIC_REG_REDIR + 2 * pin) |
					   (u32)IOAPIC_MASKED);
			spin_unlock(&io->lock);
		}
	}
}

static enum mmio_result write_cell(struct ioapic *io, struct per_cpu *pc,
				   u32 reg, u32 value)
{
	unsigned int pin = (reg - IOAPIC_REG_REDIR) / 2;
	struct cell *cell = pc->cell;
	const char *why;
	u64 entry;
	/* where a masked entry points: the cell's first CPU */
	u32 id = cell_first_cpu(cell)->apic_id;

	if (reg < IOAPIC_REG_REDIR || pin >= io->pins || io->owner[pin] != cell)
		return MMIO_HANDLED; /* not its to change */
	entry = with_half(io->cell_entry[pin], reg, value);
	why = ioapic_cell_entry_refused(entry);
	if (!why && !(entry & IOAPIC_MASKED))
		why = irq_cell_dest(cell, ioapic_entry_as_icr(entry),
				    ioapic_entry_dest(entry), &id);
	if (why) {
		printk("Cell %u \"%s\", CPU %u: IOAPIC pin %u (GSI %u) entry "
		       "refused: %s\n",
		       cell->id, cell->config->name, pc->cpu_id, pin,
		       io->gsi_base + pin, why);
		cell_fail(pc, "IOAPIC redirection entry", entry, vcpu_rip());
		return MMIO_CELL_FAILED;
	}
	io->cell_entry[pin] = entry;
	if (io->remap[pin]) {
		write_cell_remapped(io, cell, pin, entry, id);
		return MMIO_HANDLED;
	}
	spin_lock(&io->lock);
	phys_set_entry(io, pin, ioapic_entry_physical(entry, id));
	spin_unlock(&io->lock);
	return MMIO_HANDLED;
}

/*
 * An EOI by vector reaches every pin with that vector: it goes to the
 * IOAPIC when the writer owns a pin with that vector, else it is dropped.
 * A pin of another owner with the same vector may see its Remote IRR
 * cleared too; a level-triggered line still asserted is then sent again
 * (one interrupt more, none lost), which is why owners should not share
 * level-triggered vectors (docs/hypervisor.md).
 */
static void write_eoi(struct ioapic *io, struct per_cpu *pc, u32 vector)
{
	struct cell *me = pc->cell == &hv.root ? NULL : pc->cell;
	unsigned int pin;
	u64 entry;

	if (io->version < 0x20)
		return;
	for (pin = 0; pin < io->pins; pin++) {
		if (io->owner[pin] != me)
			continue;
		entry = me ? io->cell_entry[pin] : io->root_entry[pin];
		if ((entry & IOAPIC_VECTOR_MASK) == (vector & 0xff)) {
			spin_lock(&io->lock);
			io->regs[IOAPIC_EOI / 4] = vector & 0xff;
			spin_unlock(&io->lock);
			return;
		}
	}
}

static enum mmio_result ioapic_mmio(void *ctx, struct per_cpu *pc,
				    struct mmio_access *a)
{
	struct ioapic *io = ctx;
	/* the select register of each IOAPIC as this cell sees it (root's
	 * CPUs share one, as on hardware): the unit's per-cell state */
	u32 *regsel = (u32 *)UNIT_STATE(pc->cell, ioapic) + (io - ioapics);
	bool root = pc->cell == &hv.root;

	/* the registers are 32 bits wide and accessed as such */
	if (a->size != 4 || (a->offset & 3))
		return MMIO_REFUSED;
	switch (a->offset) {
	case IOAPIC_REGSEL:
		if (a->write)
			*regsel = (u32)a->value & 0xff;
		else
			a->value = *regsel;
		return MMIO_HANDLED;
	case IOAPIC_WINDOW:
		if (!a->write) {
			read_window(io, pc->cell, *regsel, a);
			return MMIO_HANDLED;
		}
		return root ? write_root(io, pc, *regsel, (u32)a->value)
			    : write_cell(io, pc, *regsel, (u32)a->value);
	case IOAPIC_EOI:
		if (a->write)
			write_eoi(io, pc, (u32)a->value);
		return MMIO_HANDLED;
	}
	return MMIO_HANDLED; /* other offsets: reads 0, writes ignored */
}

/* ---- the unit ---- */

static int ioapic_unit_init(struct per_cpu *pc)
{
	const struct warden_ioapic *cfg = warden_system_ioapics(hv.config);
	struct own_trap trap = { .size = PAGE_SIZE, .kind = OWN_TRAP_ABSENT };
	struct ioapic *io;
	unsigned int i, pin;
	u32 version;

	num_ioapics = hv.config->platform.num_ioapics;
	if (num_ioapics > IOAPIC_MAX)
		num_ioapics = IOAPIC_MAX; /* the validator allows no more */
	for (i = 0; i < num_ioapics; i++) {
		io = &ioapics[i];
		io->phys = cfg[i].address;
		io->gsi_base = cfg[i].gsi_base;
		io->source_id = cfg[i].source_id;
		io->regs = (volatile u32 *)(IOAPIC_HV_VIRT + i * PAGE_SIZE);
		if (pt_map(&hv.hv_pt, (u64)io->regs, io->phys, PAGE_SIZE,
			   MAP_READ | MAP_WRITE, WARDEN_MEMTYPE_UC))
			return hv_no_memory(pc, 2);
		version = phys_read(io, IOAPIC_REG_VERSION);
		io->version = (u8)version;
		io->pins = ((version >> 16) & 0xff) + 1;
		if (io->pins != cfg[i].num_pins) {
			printk("IOAPIC at 0x%llx has %u pins, the system "
			       "config says %u\n",
			       (unsigned long long)io->phys, io->pins,
			       cfg[i].num_pins);
			hv_set_error(pc, -WARDEN_EINVAL,
				     WARDEN_RULE_IOAPIC_PINS_FOUND,
				     WARDEN_ITEM_SYSTEM, i, io->pins,
				     cfg[i].num_pins);
			return -WARDEN_EINVAL;
		}
		for (pin = 0; pin < io->pins; pin++)
			io->root_hw[pin] = io->root_entry[pin] =
				phys_entry(io, pin) & ~IOAPIC_READ_ONLY;
		trap.start = io->phys;
		if (ownership_trap(&hv.root, &trap) ||
		    mmio_register(&hv.root.mmio, io->phys, PAGE_SIZE,
				  ioapic_mmio, io))
			return hv_no_memory(pc, 2);
		printk("IOAPIC at 0x%llx: version 0x%x, %u pins from GSI %u, "
		       "trapped\n",
		       (unsigned long long)io->phys, io->version, io->pins,
		       io->gsi_base);
	}
	return 0;
}

static bool cell_has_pins_on(const struct cell *cell, const struct ioapic *io)
{
	const struct warden_irq_pin *pins = warden_cell_irq_pins(cell->config);
	unsigned int i, pin;

	for (i = 0; i < cell->config->num_irq_pins; i++)
		if (ioapic_of_gsi(pins[i].gsi, &pin) == io)
			return true;
	return false;
}

/* Check everything first: a pin no IOAPIC has or another cell owns.  Then
 * nothing can fail.  (An IOAPIC page in the cell's memory is the
 * validator's WARDEN_RULE_MEM_TRAPPED, checked at create before this.) */
static int ioapic_cell_check(const struct cell *cell, struct warden_error *err)
{
	const struct warden_irq_pin *pins = warden_cell_irq_pins(cell->config);
	struct ioapic *io;
	unsigned int i, pin;

	for (i = 0; i < cell->config->num_irq_pins; i++) {
		io = ioapic_of_gsi(pins[i].gsi, &pin);
		if (!io || io->owner[pin]) {
			err->code = -WARDEN_EINVAL;
			err->rule = WARDEN_RULE_IOAPIC_PIN_UNAVAILABLE;
			err->item_kind = WARDEN_ITEM_NONE;
			err->values[0] = pins[i].gsi;
			err->values[1] = io ? io->owner[pin]->id : 0;
			return err->code;
		}
	}
	return 0;
}

static int ioapic_cell_init(struct cell *cell, struct warden_error *err)
{
	const struct warden_irq_pin *pins = warden_cell_irq_pins(cell->config);
	struct ioapic *io;
	unsigned int i, pin;

	if (ioapic_cell_check(cell, err) || remap_reserve(cell, err))
		return err->code;
	for (i = 0; i < num_ioapics; i++)
		if (cell_has_pins_on(cell, &ioapics[i]) &&
		    mmio_register(&cell->mmio, ioapics[i].phys, PAGE_SIZE,
				  ioapic_mmio, &ioapics[i])) {
			/* counted before; nothing kept */
			for (i = 0; i < cell->config->num_irq_pins; i++) {
				io = ioapic_of_gsi(pins[i].gsi, &pin);
				if (io)
					remap_release(io, pin);
			}
			return cell_error_no_memory(err);
		}
	for (i = 0; i < cell->config->num_irq_pins; i++) {
		io = ioapic_of_gsi(pins[i].gsi, &pin);
		if (!io)
			continue; /* checked above */
		spin_lock(&io->lock);
		phys_quiesce(io, pin);
		io->owner[pin] = cell;
		io->cell_entry[pin] = IOAPIC_MASKED;
		spin_unlock(&io->lock);
	}
	return 0;
}

static void ioapic_cell_exit(struct cell *cell)
{
	struct ioapic *io;
	unsigned int i, pin;

	for (i = 0; i < num_ioapics; i++) {
		io = &ioapics[i];
		for (pin = 0; pin < io->pins; pin++) {
			if (io->owner[pin] != cell)
				continue;
			spin_lock(&io->lock);
			phys_quiesce(io, pin);
			io->owner[pin] = NULL;
			phys_set_entry(io, pin, io->root_entry[pin]);
			spin_unlock(&io->lock);
			remap_release(io, pin);
		}
	}
}

static unsigned int ioapic_mmio_count(const struct cell *cell)
{
	unsigned int i, n = 0;

	for (i = 0; i < num_ioapics; i++)
		if (cell == &hv.root || cell_has_pins_on(cell, &ioapics[i]))
			n++;
	return n;
}

DEFINE_UNIT(ioapic) = {
	.name = "IOAPIC",
	.cell_state_size = IOAPIC_MAX * sizeof(u32),
	.init = ioapic_unit_init,
	.cell_init = ioapic_cell_init,
	.cell_exit = ioapic_cell_exit,
	.cell_stop = ioapic_cell_stop,
	.mmio_count = ioapic_mmio_count,
};
