// SPDX-License-Identifier: GPL-2.0
/*
 * Inter-cell links, a unit (hv/unit.h; the ABI is include/warden/link.h).
 * Each peer of a link sees a virtual PCI function that only the
 * hypervisor implements, so that it works on every machine:
 *
 *  - configuration space (asm/pci_virt.h: the PCI unit's trap calls back
 *    here): IDs, BAR 0 (registers and MSI-X table, trapped through the
 *    peer's MMIO registry), BAR 2 (the shared memory, mapped in the
 *    peer's second-level tables with its rights), the MSI-X capability;
 *    BARs stay where the config puts them (sizing works, a move is
 *    refused and reported);
 *  - BAR 0's registers: identity, states, the doorbell (link_irq.c sends
 *    the interrupt as an IPI: the receiver takes no exit);
 *  - state changes, the peer's own write or its cell stopping, raise
 *    vector 0 of every other peer; the peer's own writes within its
 *    bound like its doorbells (latched over it, never lost).
 *
 * Root's functions exist from enable to disable; a cell's from its
 * create to its destroy.  The memory of a DIRECTIONAL link is writable
 * for each peer in its own section only.  Link memory belongs to its
 * peers only: the memory of a link root is not a peer of, which lies in
 * root's RAM like every link's, is cut from root's tables at enable
 * (cut_from_root) and stays cut until disable.
 */
#include <asm/apic.h>
#include "link.h"
#include <asm/percpu.h>
#include <asm/vendor.h>
#include <hv/arch.h>
#include <hv/cell.h>
#include <hv/hypervisor.h>
#include <hv/mmio.h>
#include <hv/printk.h>
#include <hv/unit.h>
#include <warden/link_self.h>
#include <warden/config.h>
#include <warden/error.h>
#include <warden/hypercall.h>

/* The peer whose function v is. */
#define peer_of(v)                                                             \
	((struct link_peer *)((char *)(v) -                                    \
			      __builtin_offsetof(struct link_peer, virt)))

static struct link links[WARDEN_MAX_LINKS];
static unsigned int num_links;

static bool peer_is(const struct warden_link_peer *p, const struct cell *cell)
{
	const char *a = p->cell, *b = cell->config->name;
	unsigned int i;

	for (i = 0; i < WARDEN_NAME_LEN; i++) {
		if (a[i] != b[i])
			return false;
		if (!a[i])
			return true;
	}
	return true;
}

static u64 section_size(const struct link *l)
{
	return warden_link_section_size(l->cfg->size, l->cfg->num_peers);
}

/* ---- configuration space ---- */

static u32 config_dword(struct link_peer *p, u16 reg)
{
	switch (reg) {
	case PCI_VENDOR_ID:
	case 0x2c: /* subsystem IDs: the same */
		return WARDEN_LINK_VENDOR_ID | (u32)WARDEN_LINK_DEVICE_ID << 16;
	case PCI_COMMAND:
		return p->command | (u32)PCI_STATUS_CAP_LIST << 16;
	case 0x08:
		return (u32)WARDEN_LINK_CLASS << 8; /* revision 0 */
	case PCI_CAP_PTR:
		return WARDEN_LINK_MSIX_CAP;
	case PCI_INT_LINE:
		return p->int_line; /* no INTx pin */
	case WARDEN_LINK_MSIX_CAP:
		return PCI_CAP_ID_MSIX |
		       (u32)(p->msix_ctrl | (p->cfg->vectors - 1)) << 16;
	case WARDEN_LINK_MSIX_CAP + 4:
		return WARDEN_LINK_MSIX_TABLE; /* BIR 0 */
	case WARDEN_LINK_MSIX_CAP + 8:
		return WARDEN_LINK_MSIX_PBA; /* BIR 0 */
	}
	if (reg >= PCI_BAR0 && reg < PCI_BAR_END)
		return pci_bar_read(p->bars, (reg - PCI_BAR0) / 4);
	return 0;
}

static u32 config_read(struct pci_virt *v, u16 reg, unsigned int size)
{
	struct link_peer *p = peer_of(v);
	u32 dw;

	spin_lock(&p->link->lock);
	dw = config_dword(p, reg & ~3);
	spin_unlock(&p->link->lock);
	dw >>= 8 * (reg & 3);
	return size == 4 ? dw : dw & ((1u << (8 * size)) - 1);
}

static void report(struct per_cpu *pc, struct link_peer *p, const char *what,
		   u32 value)
{
	cell_printk(pc->cell, "CPU %u: link \"%s\" peer %u: %s (0x%x)",
		    pc->cpu_id, p->link->cfg->name, p->index, what, value);
}

static enum mmio_result config_write(struct pci_virt *v, struct per_cpu *pc,
				     u16 reg, unsigned int size, u32 value)
{
	struct link_peer *p = peer_of(v);
	u16 ctrl_byte = WARDEN_LINK_MSIX_CAP + 3; /* enable, function mask */
	unsigned int i;
	u8 byte;

	spin_lock(&p->link->lock);
	if (reg >= PCI_BAR0 && reg < PCI_BAR_END) {
		if (size == 4 &&
		    !pci_bar_write(p->bars, (reg - PCI_BAR0) / 4, value))
			report(pc, p,
			       "BAR move refused: a link's BARs stay where the "
			       "system config puts them",
			       value);
		goto out;
	}
	for (i = 0; i < size; i++) {
		byte = (u8)(value >> (8 * i));
		if (reg + i == PCI_COMMAND)
			p->command = (p->command & 0xff00) |
				     (byte & (PCI_CMD_MEMORY | PCI_CMD_MASTER));
		else if (reg + i == PCI_COMMAND + 1)
			p->command = (p->command & 0xff) |
				     (u16)(byte & (PCI_CMD_INTX_DISABLE >> 8))
					     << 8;
		else if (reg + i == PCI_INT_LINE)
			p->int_line = byte;
		else if (reg + i == ctrl_byte)
			p->msix_ctrl = (u16)(byte & 0xc0) << 8;
	}
	if (reg <= ctrl_byte && ctrl_byte < reg + size)
		link_deliver_pending(pc, p);
out:
	spin_unlock(&p->link->lock);
	return MMIO_HANDLED;
}

static const struct pci_virt_ops config_ops = {
	.read = config_read,
	.write = config_write,
};

/* ---- BAR 0 ---- */

static u32 peer_states(const struct link *l)
{
	unsigned int i;
	u32 bits = 0;

	for (i = 0; i < l->cfg->num_peers; i++)
		if (l->peers[i].cell && l->peers[i].state)
			bits |= 1u << i;
	return bits;
}

/* Every peer of p's link but p, as a mask. */
static u32 others(const struct link_peer *p)
{
	return ((1u << p->link->cfg->num_peers) - 1) & ~(1u << p->index);
}

/* Vector 0 of the peers in go: p's state changed. */
static void send_state(struct per_cpu *pc, struct link_peer *p, u32 go)
{
	struct link *l = p->link;
	unsigned int i;

	for (i = 0; i < l->cfg->num_peers; i++)
		if (go & (1u << i))
			link_raise(pc, &l->peers[i], 0);
}

/* p wrote a new state: vector 0 of every other peer, within p's bound
 * like a doorbell; over it latched, not lost (link_rules.h). */
static void state_changed(struct per_cpu *pc, struct link_peer *p)
{
	send_state(pc, p,
		   link_bound_state(&p->bound, others(p), arch_timestamp()));
}

/* What p has latched, as far as its bucket has tokens again. */
static void deliver_latched(struct per_cpu *pc, struct link_peer *p)
{
	if (p->bound.latched)
		send_state(pc, p,
			   link_bound_refill(&p->bound, arch_timestamp()));
}

/*
 * p's state write latched a vector 0 (over the bound): the CPU that
 * wrote waits for the bucket's refill and delivers it then, so that a
 * latched vector 0 never waits for an event that may not come (there is
 * no timer to deliver it later: a peer that changed its state in a loop
 * and went quiet, or halts with no exit, would leave it latched for
 * ever).  The wait is the ringer's own: at most one token's time per
 * receiver (1 / doorbell_rate ms, rate >= 1: a millisecond), on its own
 * CPU, without the link's lock, which others take meanwhile; another
 * access of p's (another CPU of its cell) delivers it first if it comes
 * after the refill, and p's cell stopping sends it at once
 * (link_cell_stop).
 */
static void wait_latched(struct per_cpu *pc, struct link_peer *p)
{
	struct link *l = p->link;
	unsigned int round;
	u64 next, start;
	u32 latched;

	for (round = 0; round <= WARDEN_LINK_MAX_PEERS; round++) {
		spin_lock(&l->lock);
		latched = p->bound.latched;
		next = link_bound_next(&p->bound, arch_timestamp());
		spin_unlock(&l->lock);
		if (!latched)
			return;
		/* next may come from another CPU's TSC: a token's time at
		 * most */
		start = arch_timestamp();
		while (arch_timestamp() < next &&
		       arch_timestamp() - start <= hv_ms_ticks(1))
			cpu_relax();
		spin_lock(&l->lock);
		deliver_latched(pc, p);
		spin_unlock(&l->lock);
	}
}

static u64 reg_read(const struct link_peer *p, u64 off)
{
	const struct link *l = p->link;
	unsigned int i;

	switch (off) {
	case WARDEN_LINK_REG_ID:
		return p->index;
	case WARDEN_LINK_REG_NUM_PEERS:
		return l->cfg->num_peers;
	case WARDEN_LINK_REG_FLAGS:
		return l->cfg->flags;
	case WARDEN_LINK_REG_VECTORS:
		return p->cfg->vectors;
	case WARDEN_LINK_REG_STATE:
		return p->state;
	case WARDEN_LINK_REG_PEER_STATES:
		return peer_states(l);
	case WARDEN_LINK_REG_DROPPED:
		return p->bound.dropped;
	case WARDEN_LINK_REG_SHMEM:
		return p->cfg->shmem_address;
	case WARDEN_LINK_REG_SHMEM_SIZE:
		return l->cfg->size;
	case WARDEN_LINK_REG_SECTION_SIZE:
		return section_size(l);
	case WARDEN_LINK_REG_REVISION:
		return WARDEN_LINK_REGS_REVISION;
	case WARDEN_LINK_REG_LINK_INDEX:
		return l->index;
	}
	/* the name, 4 bytes a word, lowest byte first (link.h) */
	if (off >= WARDEN_LINK_REG_NAME &&
	    off < WARDEN_LINK_REG_NAME + WARDEN_NAME_LEN)
		return warden_link_name_word(l->cfg->name,
					     (u32)(off - WARDEN_LINK_REG_NAME));
	for (i = 0; i < l->cfg->num_peers; i++) {
		if (off == WARDEN_LINK_REG_PEER_STATE(i))
			return l->peers[i].cell ? l->peers[i].state : 0;
		if (off == WARDEN_LINK_REG_PEER_VECTORS(i))
			return l->peers[i].cell ? l->peers[i].cfg->vectors : 0;
	}
	return 0;
}

/* A write to the doorbell: vector of the peer it names, within the
 * bound (link_rules.h). */
static void doorbell(struct per_cpu *pc, struct link_peer *p, u32 value)
{
	struct link *l = p->link;
	unsigned int peer = value >> 16, vector = value & 0xffff;

	if (peer >= l->cfg->num_peers || peer == p->index ||
	    vector >= WARDEN_LINK_MAX_VECTORS) {
		if (!p->told_doorbell)
			report(pc, p,
			       "doorbell names no other peer or no vector; "
			       "ignored (reported once)",
			       value);
		p->told_doorbell = true;
		return;
	}
	if (link_bound_doorbell(&p->bound, arch_timestamp()))
		link_raise(pc, &l->peers[peer], vector);
}

static enum mmio_result regs_access(void *ctx, struct per_cpu *pc,
				    struct mmio_access *a)
{
	struct link_peer *p = ctx;
	enum mmio_result res = MMIO_HANDLED;
	u64 off = a->offset;
	u32 old, latched;

	if (off >= WARDEN_LINK_MSIX_TABLE)
		return link_msix_access(pc, p, a);
	/* whole registers: 4 bytes, or 8 for a 64-bit one */
	if ((a->size != 4 && a->size != 8) || (off & (a->size - 1)) ||
	    (a->size == 8 && (a->write || off < WARDEN_LINK_REG_SHMEM ||
			      off > WARDEN_LINK_REG_SECTION_SIZE)))
		return MMIO_REFUSED;
	spin_lock(&p->link->lock);
	/* a latched vector 0 goes before p's next doorbell takes a token */
	deliver_latched(pc, p);
	if (!a->write && off >= WARDEN_LINK_REG_SHMEM &&
	    off < WARDEN_LINK_REG_SECTION_SIZE + 8) {
		a->value = reg_read(p, off & ~7ull);
		if (a->size == 4)
			a->value = (off & 4) ? a->value >> 32
					     : a->value & 0xffffffffull;
	} else if (!a->write) {
		a->value = reg_read(p, off);
	} else if (off == WARDEN_LINK_REG_STATE) {
		old = p->state;
		p->state = (u32)a->value;
		if (!old != !p->state)
			state_changed(pc, p);
	} else if (off == WARDEN_LINK_REG_DOORBELL) {
		doorbell(pc, p, (u32)a->value);
	} /* other registers are read-only: writes are ignored */
	latched = p->bound.latched;
	spin_unlock(&p->link->lock);
	if (a->write && off == WARDEN_LINK_REG_STATE && latched)
		wait_latched(pc, p);
	return res;
}

/* ---- mapping the peers ---- */

/* A trap of root's over [start, start + size) (hv/ownership.h). */
static int root_trap(u64 start, u64 size, u32 kind)
{
	const struct own_trap trap = {
		.start = start,
		.size = size,
		.flags = WARDEN_MEM_READ,
		.mem_type = WARDEN_MEMTYPE_WB,
		.kind = kind,
	};

	return size ? ownership_trap(&hv.root, &trap) : 0;
}

/*
 * Map the link's memory into cell at guest with p's rights: a
 * DIRECTIONAL link writable only in p's own section, else all of it.
 * Root's is identity-mapped in its RAM region already: the sections it
 * may not write become read-only traps of its.
 */
static int map_shmem(struct cell *cell, const struct link_peer *p)
{
	const struct warden_link *c = p->link->cfg;
	u64 s = section_size(p->link), own = p->index * s, g, ph;
	u32 rw = WARDEN_MEM_READ | WARDEN_MEM_WRITE, ro = WARDEN_MEM_READ;
	int err = 0;

	g = p->cfg->shmem_address;
	ph = c->phys_start;
	if (cell == &hv.root) {
		if (!(c->flags & WARDEN_LINK_DIRECTIONAL))
			return 0; /* mapped already */
		err |= root_trap(ph, own, OWN_TRAP_READ_ONLY);
		err |= root_trap(ph + own + s, c->size - own - s,
				 OWN_TRAP_READ_ONLY);
		return err ? -WARDEN_ENOMEM : 0;
	}
	if (!(c->flags & WARDEN_LINK_DIRECTIONAL))
		return ownership_map_shared(cell, g, ph, c->size, rw);
	if (own)
		err |= ownership_map_shared(cell, g, ph, own, ro);
	err |= ownership_map_shared(cell, g + own, ph + own, s, rw);
	if (own + s < c->size)
		err |= ownership_map_shared(cell, g + own + s, ph + own + s,
					    c->size - own - s, ro);
	return err ? -WARDEN_ENOMEM : 0;
}

static void peer_reset(struct link_peer *p)
{
	const struct warden_link_peer *c = p->cfg;

	p->state = 0;
	p->command = 0;
	p->msix_ctrl = 0;
	p->int_line = 0;
	p->pending = 0;
	p->told_doorbell = false;
	p->told_delivery = false;
	for (unsigned int v = 0; v < WARDEN_LINK_MAX_VECTORS; v++) {
		p->msix[v][0] = p->msix[v][1] = p->msix[v][2] = 0;
		p->msix[v][3] = LINK_MSIX_ENTRY_MASKED;
	}
	for (unsigned int i = 0; i < 6; i++)
		p->bars[i] = (struct pci_bar_view){ 0 };
	p->bars[0].addr = c->regs_address;
	p->bars[0].size = WARDEN_LINK_REGS_SIZE;
	p->bars[2].addr = c->shmem_address;
	p->bars[2].size = p->link->cfg->size;
	p->bars[2].flags = PCI_BAR_MEM_TYPE_64 | 0x8; /* prefetchable */
	p->bars[3].upper = true;
	link_bound_init(&p->bound, arch_timestamp(), hv_ms_ticks(1),
			p->link->cfg->doorbell_rate
				? p->link->cfg->doorbell_rate
				: WARDEN_LINK_RATE,
			WARDEN_LINK_BURST);
}

/* Give p to cell: its function, BAR 0's trap, its memory.  0 or a
 * negative errno (-WARDEN_ENOMEM, -WARDEN_ENOSPC); undone by
 * peer_leave. */
static int peer_join(struct cell *cell, struct link_peer *p)
{
	int err;

	peer_reset(p);
	p->virt.cell = cell;
	p->virt.bdf = p->cfg->bdf;
	p->virt.ops = &config_ops;
	err = map_shmem(cell, p);
	if (!err && cell == &hv.root)
		err = root_trap(p->cfg->regs_address, WARDEN_LINK_REGS_SIZE,
				OWN_TRAP_ABSENT);
	if (!err)
		err = mmio_register(&cell->mmio, p->cfg->regs_address,
				    WARDEN_LINK_REGS_SIZE, regs_access, p);
	if (!err)
		err = pci_virt_add(&p->virt);
	if (err) {
		mmio_unregister_ctx(&cell->mmio, p);
		return err;
	}
	spin_lock(&p->link->lock);
	p->owner = cell;
	p->cell = cell;
	spin_unlock(&p->link->lock);
	return 0;
}

static void peer_leave(struct link_peer *p)
{
	struct cell *cell = p->owner;

	pci_virt_remove(&p->virt);
	mmio_unregister_ctx(&cell->mmio, p);
	spin_lock(&p->link->lock);
	p->cell = NULL;
	p->owner = NULL;
	spin_unlock(&p->link->lock);
}

/* ---- the unit ---- */

static unsigned int link_root_count(void);

static bool root_is_peer(const struct link *l)
{
	unsigned int j;

	for (j = 0; j < l->cfg->num_peers; j++)
		if (peer_is(&l->cfg->peers[j], &hv.root))
			return true;
	return false;
}

/*
 * Link memory belongs to its peers only.  Every link's memory lies in
 * root's RAM (the validator's rule: it comes from the memmap=
 * reservation), so root's identity mapping covers it; where root is not
 * a peer it is an ABSENT trap of root's (hv/ownership.h), so it stays
 * cut whatever root gets back, and root's access to it faults: refused with #GP and named
 * (mmio_exit.c, link_fault_reason).  Disable gives it back with the rest
 * of the machine (root runs on no second-level tables then).
 */
static int cut_from_root(const struct link *l)
{
	return root_trap(l->cfg->phys_start, l->cfg->size, OWN_TRAP_ABSENT);
}

static int link_unit_init(struct per_cpu *pc)
{
	const struct warden_link *cfg = warden_system_links(hv.config);
	struct link_peer *p;
	unsigned int i, j, cut = 0;

	num_links = hv.config->platform.num_links;
	if (num_links > WARDEN_MAX_LINKS)
		num_links = WARDEN_MAX_LINKS; /* the validator allows no more */
	for (i = 0; i < num_links; i++) {
		links[i].cfg = &cfg[i];
		links[i].index = i;
		for (j = 0; j < cfg[i].num_peers; j++) {
			p = &links[i].peers[j];
			p->link = &links[i];
			p->index = j;
			p->cfg = &cfg[i].peers[j];
			if (peer_is(p->cfg, &hv.root) && peer_join(&hv.root, p))
				return hv_no_memory(pc, 4);
		}
		if (root_is_peer(&links[i]))
			continue;
		if (cut_from_root(&links[i]))
			return hv_no_memory(pc, 4);
		cut++;
	}
	if (num_links)
		printk("Links: %u, root a peer of %u, the memory of %u cut "
		       "from root\n",
		       num_links, link_root_count(), cut);
	return 0;
}

static unsigned int link_root_count(void)
{
	unsigned int i, j, n = 0;

	for (i = 0; i < num_links; i++)
		for (j = 0; j < links[i].cfg->num_peers; j++)
			n += peer_is(links[i].peers[j].cfg, &hv.root);
	return n;
}

static void link_unit_shutdown(void)
{
	unsigned int i, j;

	for (i = 0; i < num_links; i++)
		for (j = 0; j < links[i].cfg->num_peers; j++)
			if (links[i].peers[j].owner == &hv.root)
				peer_leave(&links[i].peers[j]);
}

static void link_cell_exit(struct cell *cell)
{
	unsigned int i, j;

	for (i = 0; i < num_links; i++)
		for (j = 0; j < links[i].cfg->num_peers; j++)
			if (links[i].peers[j].owner == cell)
				peer_leave(&links[i].peers[j]);
}

/* A peer's function could not be added (its bdf is taken: the validator
 * keeps it free, so only if the system changed). */
static int join_refused(struct warden_error *err, unsigned int link,
			unsigned int peer, int code)
{
	if (code == -WARDEN_ENOMEM || code == -WARDEN_ENOSPC)
		return cell_error_no_memory(err);
	err->code = code;
	err->rule = WARDEN_RULE_LINK_PEER_BDF;
	err->item_kind = WARDEN_ITEM_LINK;
	err->item_index = link;
	err->values[0] = peer;
	err->values[1] = links[link].peers[peer].cfg->bdf;
	return code;
}

static int link_cell_init(struct cell *cell, struct warden_error *err)
{
	unsigned int i, j;
	int ret;

	for (i = 0; i < num_links; i++)
		for (j = 0; j < links[i].cfg->num_peers; j++) {
			if (!peer_is(links[i].peers[j].cfg, cell))
				continue;
			ret = peer_join(cell, &links[i].peers[j]);
			if (ret) {
				link_cell_exit(cell);
				return join_refused(err, i, j, ret);
			}
		}
	return 0;
}

/* The cell's CPUs stopped: its peers are down, and once it is destroyed
 * nothing is sent to its CPUs, which go back to root. */
static void link_cell_stop(struct cell *cell, bool destroy)
{
	struct per_cpu *pc = arch_this_cpu();
	struct link_peer *p;
	unsigned int i, j;
	bool was_up;

	for (i = 0; i < num_links; i++)
		for (j = 0; j < links[i].cfg->num_peers; j++) {
			p = &links[i].peers[j];
			spin_lock(&links[i].lock);
			if (p->cell == cell) {
				was_up = p->state != 0;
				p->state = 0;
				if (destroy)
					p->cell = NULL;
				/* the hypervisor's own announcement, one per
				 * stop (root's command or the cell's
				 * failure): it goes at once, and with it
				 * what p had latched, as p rings no more */
				if (was_up || destroy || p->bound.latched)
					send_state(pc, p, others(p));
				p->bound.latched = 0;
			}
			spin_unlock(&links[i].lock);
		}
}

/* One region (BAR 0) per peer of the cell. */
static unsigned int link_mmio_count(const struct cell *cell)
{
	const struct warden_link *cfg = warden_system_links(hv.config);
	unsigned int i, j, n = 0;

	for (i = 0; i < hv.config->platform.num_links && i < WARDEN_MAX_LINKS;
	     i++)
		for (j = 0; j < cfg[i].num_peers && j < WARDEN_LINK_MAX_PEERS;
		     j++)
			n += peer_is(&cfg[i].peers[j], cell);
	return n;
}

/* Why cell's access to gpa (a write, if write) faulted, if it lies in
 * the memory of a link: a write to another peer's section of a
 * DIRECTIONAL link of the cell's, or root's access to the memory of a
 * link root is not a peer of.  NULL otherwise. */
static const char *link_fault_reason(const struct cell *cell, u64 gpa,
				     bool write)
{
	const struct warden_link_peer *c;
	const struct link *l;
	unsigned int i, j;
	u64 s, off;

	for (i = 0; i < num_links; i++) {
		l = &links[i];
		for (j = 0; j < l->cfg->num_peers; j++) {
			c = l->peers[j].cfg;
			if (l->peers[j].owner != cell ||
			    gpa - c->shmem_address >= l->cfg->size)
				continue;
			s = section_size(l);
			off = gpa - c->shmem_address;
			if (write && off >= j * s && off < (j + 1) * s)
				return NULL; /* its own: not why */
			return write ? "write to a link section of another "
				       "peer (read-only for it)"
				     : NULL;
		}
		if (cell == &hv.root && !root_is_peer(l) &&
		    gpa - l->cfg->phys_start < l->cfg->size)
			return "memory of a link root is not a peer of "
			       "(cut from root)";
	}
	return NULL;
}

/* WARDEN_HC_LINK_GET_STATE: link index's peers, bits 0-3 up and bits
 * 8-11 present, or -WARDEN_ENOENT (include/warden/hypercall.h). */
static long link_get_state(unsigned long index)
{
	struct link *l;
	unsigned int i;
	long bits;

	if (index >= num_links)
		return -WARDEN_ENOENT;
	l = &links[index];
	spin_lock(&l->lock);
	bits = peer_states(l);
	for (i = 0; i < l->cfg->num_peers; i++)
		if (l->peers[i].cell)
			bits |= 1l << (8 + i);
	spin_unlock(&l->lock);
	return bits;
}

static long link_hypercall(struct per_cpu *pc, unsigned long code,
			   unsigned long arg1, unsigned long arg2)
{
	(void)pc;
	(void)arg2;
	return code == WARDEN_HC_LINK_GET_STATE ? link_get_state(arg1)
						: -WARDEN_ENOSYS;
}

DEFINE_UNIT(link) = {
	.hypercall = link_hypercall,
	.fault_reason = link_fault_reason,
	.name = "links",
	.init = link_unit_init,
	.shutdown = link_unit_shutdown,
	.cell_init = link_cell_init,
	.cell_exit = link_cell_exit,
	.cell_stop = link_cell_stop,
	.mmio_count = link_mmio_count,
};
