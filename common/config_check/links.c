// SPDX-License-Identifier: GPL-2.0
/*
 * Config validation, link rules (link.h, rules 180-186): the links of the
 * system config, and the peers that name a new cell against that cell
 * (docs/validation.md).
 */
#include "check.h"

#define NAME_UNTERMINATED 0x100u /* LINK_BAD_NAME value: no NUL */
#define BELOW_4G 0x100000000ull

/*
 * Is the name at off bad?  *value: 0 empty, the first byte that is not
 * printable, or NAME_UNTERMINATED (no NUL in the field).
 */
static bool name_fault(const uint8_t *p, size_t off, uint64_t *value)
{
	unsigned int i;

	for (i = 0; i < WARDEN_NAME_LEN; i++) {
		if (!p[off + i]) {
			*value = 0;
			return i == 0;
		}
		if (p[off + i] < 0x20 || p[off + i] > 0x7e) {
			*value = p[off + i];
			return true;
		}
	}
	*value = NAME_UNTERMINATED;
	return true;
}

static const uint8_t *root_name(const struct system *sys)
{
	return sys->root.blob + sys->root.desc + CELL_OFF(name);
}

static void get_link(const struct system *sys, uint32_t i, struct link *l)
{
	const uint8_t *p = sys->root.blob;

	l->off = sys->links_off + (size_t)i * LINK_SIZE;
	l->phys = load64(p, l->off + LINK_OFF(phys_start));
	l->size = load64(p, l->off + LINK_OFF(size));
	l->flags = load32(p, l->off + LINK_OFF(flags));
	l->num_peers = load16(p, l->off + LINK_OFF(num_peers));
	l->peers = l->num_peers < WARDEN_LINK_MAX_PEERS ? l->num_peers
							: WARDEN_LINK_MAX_PEERS;
	l->sane = l->size && !wraps(l->phys, l->size);
	/* an aligned power of 2 cannot wrap */
	l->mem_ok = power_of_2(l->size) && l->size >= WARDEN_LINK_MIN_SIZE &&
		    !(l->phys & (l->size - 1));
}

static void get_peer(const struct system *sys, const struct link *l, uint32_t i,
		     struct peer *q)
{
	const uint8_t *p = sys->root.blob;
	uint64_t unused;

	q->off = l->off + LINK_OFF(peers) + (size_t)i * PEER_SIZE;
	q->shmem = load64(p, q->off + PEER_OFF(shmem_address));
	q->regs = load64(p, q->off + PEER_OFF(regs_address));
	q->bdf = load16(p, q->off + PEER_OFF(bdf));
	q->vectors = p[q->off + PEER_OFF(vectors)];
	q->name_ok = !name_fault(p, q->off + PEER_OFF(cell), &unused);
	q->root = cc_names_equal(p + q->off + PEER_OFF(cell), root_name(sys));
	q->regs_ok = page_aligned(q->regs) && q->regs < BELOW_4G &&
		     q->regs + WARDEN_LINK_REGS_SIZE <= BELOW_4G;
	q->shmem_ok = !q->root && l->mem_ok && !(q->shmem & (l->size - 1));
}

static const uint8_t *peer_name(const struct system *sys, const struct peer *q)
{
	return sys->root.blob + q->off + PEER_OFF(cell);
}

static void fail_link(struct checker *ck, uint32_t rule, uint32_t i,
		      uint64_t v0, uint64_t v1, uint64_t v2, uint64_t v3)
{
	cc_fail(ck, rule, WARDEN_ITEM_LINK, i, v0, v1, v2, v3);
}

/* LINK_FIELDS about link i (peer ~0) or one of its peers. */
static void fail_fields(struct checker *ck, uint32_t i, uint64_t what,
			uint64_t value, uint64_t peer)
{
	fail_link(ck, WARDEN_RULE_LINK_FIELDS, i, what, value, peer, 0);
}

/* The offset, inside the link, of the first byte of [off, off + n) that
 * is not 0; 0 when they all are (no offset inside a link is 0 there). */
static uint64_t nonzero_at(const struct system *sys, const struct link *l,
			   size_t off, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (sys->root.blob[off + k])
			return off + k - l->off;
	return 0;
}

/* Name, flags, peer count, reserved bytes and unused peer entries. */
static void check_link_fields(struct checker *ck, const struct system *sys,
			      uint32_t i, const struct link *l)
{
	const uint8_t *p = sys->root.blob;
	const uint64_t none = ~(uint64_t)0;
	struct link o;
	uint64_t value, at;
	uint32_t j;

	if (name_fault(p, l->off + LINK_OFF(name), &value)) {
		fail_fields(ck, i, WARDEN_LINK_BAD_NAME, value, none);
	} else {
		for (j = 0; j < i; j++) {
			get_link(sys, j, &o);
			if (!name_fault(p, o.off + LINK_OFF(name), &value) &&
			    cc_names_equal(p + o.off + LINK_OFF(name),
					   p + l->off + LINK_OFF(name))) {
				fail_fields(ck, i,
					    WARDEN_LINK_BAD_NAME_DUPLICATE, j,
					    none);
				break;
			}
		}
	}
	if (l->flags & ~WARDEN_LINK_FLAGS_ALL)
		fail_fields(ck, i, WARDEN_LINK_BAD_FLAGS, l->flags, none);
	if (l->num_peers < 2 || l->num_peers > WARDEN_LINK_MAX_PEERS)
		fail_fields(ck, i, WARDEN_LINK_BAD_NUM_PEERS, l->num_peers,
			    none);
	for (j = 0; j < WARDEN_LINK_MAX_PEERS; j++) {
		size_t off = l->off + LINK_OFF(peers) + (size_t)j * PEER_SIZE;

		/* a peer's reserved bytes; every byte of an entry not in
		 * use */
		at = j < l->peers ? nonzero_at(sys, l, off + PEER_OFF(reserved),
					       PEER_SIZE - PEER_OFF(reserved))
				  : nonzero_at(sys, l, off, PEER_SIZE);
		if (at)
			fail_fields(ck, i, WARDEN_LINK_BAD_RESERVED, at, j);
		if (j < l->peers && name_fault(p, off + PEER_OFF(cell), &value))
			fail_fields(ck, i, WARDEN_LINK_BAD_PEER_NAME, value, j);
	}
}

/* Is the range inside one of root's RAM regions (read and write, not
 * device memory)? */
static bool in_root_ram(const struct cell *root, uint64_t start, uint64_t size)
{
	const uint32_t rw = WARDEN_MEM_READ | WARDEN_MEM_WRITE;
	struct region r;
	uint32_t i;

	for (i = 0; i < root->num_regions; i++) {
		cc_get_region(root, i, &r);
		if (region_sane(&r) && !is_comm(&r) && (r.flags & rw) == rw &&
		    !(r.flags & WARDEN_MEM_IO) &&
		    inside(start, size, r.phys, r.size))
			return true;
	}
	return false;
}

static void check_link_memory(struct checker *ck, const struct system *sys,
			      uint32_t i, const struct link *l)
{
	struct link o;
	uint32_t j;

	if (!l->mem_ok || !in_root_ram(&sys->root, l->phys, l->size))
		fail_link(ck, WARDEN_RULE_LINK_MEMORY, i, l->phys, l->size, 0,
			  0);
	if (!l->sane)
		return;
	if (sys->hv_usable &&
	    overlap(l->phys, l->size, sys->hv_start, sys->hv_size))
		fail_link(ck, WARDEN_RULE_LINK_MEMORY_OVERLAP, i, l->phys,
			  l->size, 0, 0);
	for (j = 0; j < i; j++) {
		get_link(sys, j, &o);
		if (o.sane && overlap(l->phys, l->size, o.phys, o.size)) {
			fail_link(ck, WARDEN_RULE_LINK_MEMORY_OVERLAP, i,
				  l->phys, l->size, 1, j);
			break;
		}
	}
}

static void fail_address(struct checker *ck, uint32_t i, uint32_t p,
			 uint64_t address, uint64_t what)
{
	fail_link(ck, WARDEN_RULE_LINK_PEER_ADDRESS, i, p, address, what, 0);
}

/* Does the page at regs overlap a valid memory BAR of root's devices? */
static bool over_root_bar(const struct system *sys, uint64_t regs)
{
	const struct cell *root = &sys->root;
	struct pci d;
	uint64_t value;
	unsigned int b;
	uint32_t j;
	bool upper;

	for (j = 0; j < root->num_pci; j++) {
		cc_get_pci(root, j, &d);
		upper = false;
		for (b = 0; b < WARDEN_PCI_BARS; b++) {
			const struct pci_bar *bar = &d.bars[b];
			bool ok = !cc_bar_fault(&d, b, upper, &value) &&
				  !upper && bar->size &&
				  !(bar->flags & WARDEN_PCI_BAR_IO);

			upper = !upper && (bar->flags & WARDEN_PCI_BAR_MEM64);
			if (ok && overlap(regs, WARDEN_LINK_REGS_SIZE,
					  bar->address, bar->size))
				return true;
		}
	}
	return false;
}

/* Does the page at regs overlap an IOAPIC or the MMCONFIG window, which
 * the hypervisor traps for root? */
static bool over_trapped(const struct system *sys, uint64_t regs)
{
	struct ioapic a;
	uint32_t i;

	if (sys->mmconfig_size &&
	    overlap(regs, WARDEN_LINK_REGS_SIZE, sys->mmconfig_base,
		    sys->mmconfig_size))
		return true;
	for (i = 0; sys->ioapics && i < sys->num_ioapics; i++) {
		cc_get_ioapic(sys, sys->root.blob, i, &a);
		if (a.address && !wraps(a.address, CONFIG_CHECK_PAGE_SIZE) &&
		    overlap(regs, WARDEN_LINK_REGS_SIZE, a.address,
			    CONFIG_CHECK_PAGE_SIZE))
			return true;
	}
	return false;
}

/* A peer's own BAR addresses (the system config alone). */
static void check_peer_address(struct checker *ck, const struct system *sys,
			       uint32_t i, const struct link *l, uint32_t p,
			       const struct peer *q)
{
	if (!q->regs_ok)
		fail_address(ck, i, p, q->regs, WARDEN_LINK_BAD_REGS_ALIGN);
	if (q->root) {
		/* root sees the link where it is, in its own RAM, and the
		 * registers in its device memory where nothing else is */
		if (q->regs_ok && !cc_mmio_in_cell(&sys->root, q->regs,
						   WARDEN_LINK_REGS_SIZE))
			fail_address(ck, i, p, q->regs,
				     WARDEN_LINK_BAD_REGS_NOT_DEVICE);
		else if (q->regs_ok && over_root_bar(sys, q->regs))
			fail_address(ck, i, p, q->regs,
				     WARDEN_LINK_BAD_REGS_OVER_BAR);
		else if (q->regs_ok && over_trapped(sys, q->regs))
			fail_address(ck, i, p, q->regs,
				     WARDEN_LINK_BAD_REGS_TRAPPED);
		if (q->shmem != l->phys)
			fail_address(ck, i, p, q->shmem,
				     WARDEN_LINK_BAD_ROOT_SHMEM);
		return;
	}
	/* BAR 2 is naturally aligned, as every BAR */
	if (l->mem_ok && !q->shmem_ok)
		fail_address(ck, i, p, q->shmem, WARDEN_LINK_BAD_SHMEM_ALIGN);
	if (q->regs_ok && q->shmem_ok &&
	    overlap(q->regs, WARDEN_LINK_REGS_SIZE, q->shmem, l->size))
		fail_address(ck, i, p, q->regs, WARDEN_LINK_BAD_OVER_OTHER);
}

/* Do the BARs of peer q (of link l) and peer o (of link m), both of the
 * same cell, overlap?  *at: the address of q's at fault.  Root's BAR 2 is
 * the link memory itself, which LINK_MEMORY_OVERLAP covers. */
static bool bars_overlap(const struct link *l, const struct peer *q,
			 const struct link *m, const struct peer *o,
			 uint64_t *at)
{
	const uint64_t page = WARDEN_LINK_REGS_SIZE;

	if (q->regs_ok &&
	    ((o->regs_ok && overlap(q->regs, page, o->regs, page)) ||
	     (o->shmem_ok && overlap(q->regs, page, o->shmem, m->size)))) {
		*at = q->regs;
		return true;
	}
	if (q->shmem_ok &&
	    ((o->regs_ok && overlap(q->shmem, l->size, o->regs, page)) ||
	     (o->shmem_ok && overlap(q->shmem, l->size, o->shmem, m->size)))) {
		*at = q->shmem;
		return true;
	}
	return false;
}

/* Is bdf one of the cell's functions in PCI segment 0 (where links put
 * their virtual functions)? */
static bool bdf_in_cell(const struct cell *c, uint16_t bdf)
{
	return cc_find_pci(c, bdf) >= 0;
}

/*
 * Peer p of link i against the peers before it (every peer of an
 * earlier link, the earlier peers of its own) that name the same cell:
 * not twice in one link, another virtual function address, other BAR
 * addresses.  Root's also against root's functions.
 */
static void check_peer_cell(struct checker *ck, const struct system *sys,
			    uint32_t i, const struct link *l, uint32_t p,
			    const struct peer *q)
{
	bool bdf_done = false, bar_done = false;
	struct link m;
	struct peer o;
	uint64_t at;
	uint32_t j, k;

	/* twice in its own link: the rest would only repeat it */
	for (k = 0; k < p; k++) {
		get_peer(sys, l, k, &o);
		if (o.name_ok &&
		    cc_names_equal(peer_name(sys, &o), peer_name(sys, q))) {
			fail_link(ck, WARDEN_RULE_LINK_PEER, i, p, 0, k, 0);
			return;
		}
	}
	if (q->root && bdf_in_cell(&sys->root, q->bdf)) {
		fail_link(ck, WARDEN_RULE_LINK_PEER_BDF, i, p, q->bdf, 0, 0);
		bdf_done = true;
	}
	for (j = 0; j < i; j++) {
		get_link(sys, j, &m);
		for (k = 0; k < m.peers; k++) {
			get_peer(sys, &m, k, &o);
			if (!o.name_ok || !cc_names_equal(peer_name(sys, &o),
							  peer_name(sys, q)))
				continue;
			if (!bdf_done && o.bdf == q->bdf) {
				fail_link(ck, WARDEN_RULE_LINK_PEER_BDF, i, p,
					  q->bdf, 0, 0);
				bdf_done = true;
			}
			if (!bar_done && bars_overlap(l, q, &m, &o, &at)) {
				fail_address(ck, i, p, at,
					     WARDEN_LINK_BAD_OVER_OTHER);
				bar_done = true;
			}
		}
	}
}

void cc_check_links(struct checker *ck, const struct system *sys)
{
	struct link l;
	struct peer q;
	uint32_t i, p;

	for (i = 0; i < sys->num_links; i++) {
		get_link(sys, i, &l);
		check_link_fields(ck, sys, i, &l);
		check_link_memory(ck, sys, i, &l);
		for (p = 0; p < l.peers; p++) {
			get_peer(sys, &l, p, &q);
			if (q.name_ok)
				check_peer_cell(ck, sys, i, &l, p, &q);
			check_peer_address(ck, sys, i, &l, p, &q);
			if (!q.vectors || q.vectors > WARDEN_LINK_MAX_VECTORS)
				fail_link(ck, WARDEN_RULE_LINK_PEER_VECTORS, i,
					  p, q.vectors, 0, 0);
		}
	}
}

/* Does [start, start + size) overlap the guest-physical range of one of
 * the cell's regions (its comm region included)? */
static bool over_guest_memory(const struct cell *c, uint64_t start,
			      uint64_t size)
{
	struct region r;
	uint32_t i;

	for (i = 0; i < c->num_regions; i++) {
		cc_get_region(c, i, &r);
		if (region_sane(&r) && overlap(start, size, r.guest, r.size))
			return true;
	}
	return false;
}

void cc_check_links_cell(struct checker *ck, const struct cell *c,
			 const struct system *sys, bool name_ok)
{
	const uint8_t *name = c->blob + c->desc + CELL_OFF(name);
	struct region r;
	struct link l;
	struct peer q;
	uint32_t i, p;

	for (i = 0; name_ok && i < sys->num_links; i++) {
		get_link(sys, i, &l);
		for (p = 0; p < l.peers; p++) {
			get_peer(sys, &l, p, &q);
			if (!q.name_ok ||
			    !cc_names_equal(peer_name(sys, &q), name))
				continue;
			if (bdf_in_cell(c, q.bdf))
				fail_link(ck, WARDEN_RULE_LINK_PEER_BDF, i, p,
					  q.bdf, 0, 0);
			if (q.regs_ok &&
			    over_guest_memory(c, q.regs, WARDEN_LINK_REGS_SIZE))
				fail_address(ck, i, p, q.regs,
					     WARDEN_LINK_BAD_OVER_MEMORY);
			if (q.shmem_ok && over_guest_memory(c, q.shmem, l.size))
				fail_address(ck, i, p, q.shmem,
					     WARDEN_LINK_BAD_OVER_MEMORY);
		}
	}
	for (p = 0; p < c->num_regions; p++) {
		cc_get_region(c, p, &r);
		if (!region_sane(&r) || is_comm(&r))
			continue;
		for (i = 0; i < sys->num_links; i++) {
			get_link(sys, i, &l);
			if (l.sane && overlap(r.phys, r.size, l.phys, l.size)) {
				cc_fail_region(ck,
					       WARDEN_RULE_LINK_MEMORY_OVERLAP,
					       p, &r, 2, i);
				break;
			}
		}
	}
}
