// SPDX-License-Identifier: GPL-2.0
/*
 * The ownership path (hypervisor/core/ownership.c) as the only writer of
 * the second-level tables, replayed on the host: root's map at enable,
 * the units' traps of every kind, a cell created over root's device
 * memory with traps of root's and of its own, load, start and destroy.
 * After every step the view a unit builds from the announcements
 * (hv/unit.h: map, unmap) equals the tables, and every trap page is what
 * its kind says; and no call ever maps a trap page as plain memory, not
 * even for a moment (the fake tables check each call).
 */
#include <string.h>

#include "cmocka_wrap.h"
#include "hv_stubs.h"
#include <hv/arch.h>
#include <hv/cell.h>
#include <hv/hypervisor.h>
#include <hv/unit.h>
#include <warden/cell.h>
#include <warden/hypercall.h>

#define PAGES 8192 /* 32 MiB of guest-physical space per cell */
#define MIB (1ull << 20)

struct pte {
	bool present;
	u64 phys;
	u32 flags, kind; /* kind: the view's only */
};

/* [0]: root's tables, [1]: the cell's; the unit's view of each */
static struct pte tables[2][PAGES], view[2][PAGES];
static struct cell cell;
static struct own_trap cell_storage[HV_CELL_TRAPS];
static struct own_trap root_storage[HV_ROOT_TRAPS];
static int calls;

struct hypervisor hv;
static struct warden_hv_header header;
static struct {
	struct warden_cell_desc d;
	struct warden_mem_region r[4];
} root_cfg, cell_cfg;

static unsigned int which(const struct cell *c)
{
	return c == &cell;
}

/* The trap of c holding page addr, or NULL. */
static const struct own_trap *trap_at(const struct cell *c, u64 addr)
{
	unsigned int i;

	for (i = 0; i < c->traps.count; i++)
		if (addr >= c->traps.trap[i].start &&
		    addr < c->traps.trap[i].start + c->traps.trap[i].size)
			return &c->traps.trap[i];
	return NULL;
}

/* The fake architecture: tables of pages, each call checked against
 * the traps registered (a trap being registered is in the set already:
 * ownership_trap stores it before installing it). */
int arch_map_memory(struct cell *c, u64 guest, u64 phys, u64 size, u32 flags,
		    u32 mem_type)
{
	const struct own_trap *t;
	u64 off;

	(void)mem_type;
	calls++;
	for (off = 0; off < size; off += PAGE_SIZE) {
		assert_true((guest + off) / PAGE_SIZE < PAGES);
		t = trap_at(c, guest + off);
		/* never a plain mapping over a trap */
		if (t) {
			assert_int_not_equal(t->kind, OWN_TRAP_ABSENT);
			if (t->kind == OWN_TRAP_READ_ONLY)
				assert_false(flags & WARDEN_MEM_WRITE);
			if (t->kind == OWN_TRAP_REDIRECT)
				assert_int_equal(
					phys + off,
					t->phys + (guest + off - t->start));
		}
		tables[which(c)][(guest + off) / PAGE_SIZE] =
			(struct pte){ true, phys + off, flags, 0 };
	}
	return 0;
}

int arch_unmap_memory(struct cell *c, u64 guest, u64 size)
{
	u64 off;

	calls++;
	for (off = 0; off < size && (guest + off) / PAGE_SIZE < PAGES;
	     off += PAGE_SIZE)
		tables[which(c)][(guest + off) / PAGE_SIZE].present = false;
	return 0;
}

void arch_set_ports(struct cell *c, u32 base, u32 length, bool allow)
{
	(void)c;
	(void)base;
	(void)length;
	(void)allow;
}

void arch_flush_memory(void)
{
}

/* what arch_clear_memory was asked to clear, in calls */
static struct {
	u64 phys, size;
} cleared[8];
static unsigned int n_cleared;

void arch_clear_memory(u64 phys, u64 size)
{
	assert_true(n_cleared < 8);
	cleared[n_cleared].phys = phys;
	cleared[n_cleared++].size = size;
}

int cell_error_no_memory(struct warden_error *err)
{
	err->code = -WARDEN_ENOMEM;
	return err->code;
}

int hv_no_memory(struct per_cpu *pc, unsigned int stage)
{
	(void)pc;
	(void)stage;
	return -WARDEN_ENOMEM;
}

void printk(const char *fmt, ...)
{
	(void)fmt;
}

/* A unit that mirrors the tables from the announcements. */
static void view_map(struct cell *c, u64 guest, u64 phys, u64 size, u32 flags,
		     u32 kind)
{
	u64 off;

	for (off = 0; off < size && (guest + off) / PAGE_SIZE < PAGES;
	     off += PAGE_SIZE)
		view[which(c)][(guest + off) / PAGE_SIZE] =
			(struct pte){ kind != OWN_TRAP_ABSENT, phys + off,
				      flags, kind };
}

static void view_unmap(struct cell *c, u64 start, u64 size)
{
	u64 off;

	for (off = 0; off < size && (start + off) / PAGE_SIZE < PAGES;
	     off += PAGE_SIZE)
		view[which(c)][(start + off) / PAGE_SIZE] = (struct pte){ 0 };
}

DEFINE_UNIT(mirror) = { .name = "mirror",
			.map = view_map,
			.unmap = view_unmap };

/* The view equals the tables, and each trap page is what its kind
 * says (where the view says the page is one). */
static void check(const struct cell *c)
{
	const struct pte *t = tables[which(c)], *v = view[which(c)];
	const struct own_trap *trap;
	unsigned int p;

	for (p = 0; p < PAGES; p++) {
		assert_int_equal(t[p].present, v[p].present);
		if (t[p].present) {
			assert_int_equal(t[p].phys, v[p].phys);
			assert_int_equal(t[p].flags, v[p].flags);
		}
		trap = trap_at(c, (u64)p * PAGE_SIZE);
		if (!trap)
			continue;
		if (trap->kind == OWN_TRAP_ABSENT)
			assert_false(t[p].present);
		if (trap->kind == OWN_TRAP_REDIRECT) {
			assert_true(t[p].present);
			assert_int_equal(t[p].phys,
					 trap->phys + ((u64)p * PAGE_SIZE -
						       trap->start));
		}
		if (trap->kind == OWN_TRAP_READ_ONLY && t[p].present)
			assert_false(t[p].flags & WARDEN_MEM_WRITE);
		if (t[p].present)
			assert_int_equal(v[p].kind, trap->kind);
	}
}

static void region(struct warden_mem_region *r, u64 phys, u64 guest, u64 size,
		   u32 flags)
{
	memset(r, 0, sizeof(*r));
	r->phys_start = phys;
	r->guest_start = guest;
	r->size = size;
	r->flags = flags;
	r->mem_type = WARDEN_MEMTYPE_WB;
}

static int trap(struct cell *c, u64 start, u64 size, u32 kind, u64 phys,
		u32 flags)
{
	const struct own_trap t = { .start = start,
				    .size = size,
				    .phys = phys,
				    .flags = flags,
				    .mem_type = WARDEN_MEMTYPE_UC,
				    .kind = kind };

	return ownership_trap(c, &t);
}

static int setup(void **state)
{
	const u32 rwx = WARDEN_MEM_READ | WARDEN_MEM_WRITE | WARDEN_MEM_EXECUTE;
	const u32 io = WARDEN_MEM_READ | WARDEN_MEM_WRITE | WARDEN_MEM_IO;

	(void)state;
	memset(tables, 0, sizeof(tables));
	memset(view, 0, sizeof(view));
	memset(&hv, 0, sizeof(hv));
	/* the hypervisor at 8 MiB, its console 1 MiB in */
	header.hv_mem_phys = 8 * MIB;
	header.hv_mem_size = 4 * MIB;
	hv.header = &header;
	hv.console = (void *)(WARDEN_HV_BASE + MIB);
	/* root: RAM 0-16 MiB (the hypervisor's part never root's), device
	 * memory 16-20 MiB */
	root_cfg.d.num_memory_regions = 2;
	region(&root_cfg.r[0], 0, 0, 16 * MIB, rwx);
	region(&root_cfg.r[1], 16 * MIB, 16 * MIB, 4 * MIB, io);
	hv.root.config = &root_cfg.d;
	ownership_traps_init(&hv.root.traps, root_storage, HV_ROOT_TRAPS);
	/* a cell: RAM at 4 MiB (loadable), 64 KiB of root's device memory
	 * at 17 MiB (a BAR with an MSI-X table), seen at 1 MiB */
	cell_cfg.d.num_memory_regions = 2;
	region(&cell_cfg.r[0], 4 * MIB, 0, MIB, rwx | WARDEN_MEM_LOADABLE);
	region(&cell_cfg.r[1], 17 * MIB, MIB, 64 * 1024, io);
	memset(&cell, 0, sizeof(cell));
	cell.config = &cell_cfg.d;
	ownership_traps_init(&cell.traps, cell_storage, HV_CELL_TRAPS);
	return 0;
}

static void replay_create_load_destroy(void **state)
{
	struct warden_error err = { 0 };
	u64 console = 8 * MIB + MIB;

	(void)state;
	assert_int_equal(ownership_root_init(NULL), 0);
	check(&hv.root);
	/* the hypervisor's memory is not root's, its console is readable */
	assert_false(tables[0][(9 * MIB + 512 * 1024) / PAGE_SIZE].present);
	assert_true(tables[0][console / PAGE_SIZE].present);
	assert_int_equal(tables[0][console / PAGE_SIZE].flags, WARDEN_MEM_READ);
	assert_false(tables[0][(8 * MIB) / PAGE_SIZE].present);

	/* root's traps at enable: an emulated page, a write-checked page, an
	 * xAPIC-like page, and an MSI-X table inside the cell-to-be's BAR */
	assert_int_equal(
		trap(&hv.root, 16 * MIB, PAGE_SIZE, OWN_TRAP_ABSENT, 0, 0), 0);
	assert_int_equal(trap(&hv.root, 16 * MIB + PAGE_SIZE, PAGE_SIZE,
			      OWN_TRAP_READ_ONLY, 0,
			      WARDEN_MEM_READ | WARDEN_MEM_IO),
			 0);
	assert_int_equal(trap(&hv.root, 16 * MIB + 2 * PAGE_SIZE, PAGE_SIZE,
			      OWN_TRAP_REDIRECT, 19 * MIB,
			      WARDEN_MEM_READ | WARDEN_MEM_WRITE),
			 0);
	assert_int_equal(trap(&hv.root, 17 * MIB + 8 * PAGE_SIZE, 2 * PAGE_SIZE,
			      OWN_TRAP_ABSENT, 0, 0),
			 0);
	check(&hv.root);
	/* refused: over another trap, unaligned, no kind */
	assert_int_equal(trap(&hv.root, 16 * MIB, PAGE_SIZE, OWN_TRAP_ABSENT, 0,
			      0),
			 -WARDEN_EINVAL);
	assert_int_equal(trap(&hv.root, 18 * MIB + 1, PAGE_SIZE,
			      OWN_TRAP_ABSENT, 0, 0),
			 -WARDEN_EINVAL);
	assert_int_equal(trap(&hv.root, 18 * MIB, PAGE_SIZE, 0, 0, 0),
			 -WARDEN_EINVAL);

	/* create: the cell's own traps first (its units' cell_init), then
	 * its memory, taken from root */
	assert_int_equal(trap(&cell, MIB + 8 * PAGE_SIZE, 2 * PAGE_SIZE,
			      OWN_TRAP_ABSENT, 0, 0),
			 0);
	assert_int_equal(trap(&cell, 30 * MIB, PAGE_SIZE, OWN_TRAP_REDIRECT,
			      19 * MIB, WARDEN_MEM_READ | WARDEN_MEM_WRITE),
			 0);
	assert_int_equal(ownership_take(&cell, &err), 0);
	check(&cell);
	check(&hv.root);
	assert_false(tables[0][(4 * MIB) / PAGE_SIZE].present);
	assert_false(tables[0][(17 * MIB) / PAGE_SIZE].present);
	assert_true(tables[1][0].present);
	assert_false(tables[1][(MIB + 8 * PAGE_SIZE) / PAGE_SIZE].present);
	assert_true(tables[1][(MIB + 7 * PAGE_SIZE) / PAGE_SIZE].present);

	/* load lends the loadable RAM to root, start takes it again */
	ownership_lend_loadable(&cell, true);
	check(&hv.root);
	assert_true(tables[0][(4 * MIB) / PAGE_SIZE].present);
	ownership_lend_loadable(&cell, false);
	check(&hv.root);
	assert_false(tables[0][(4 * MIB) / PAGE_SIZE].present);

	/* destroy: root gets everything back, its MSI-X trap with it; the
	 * cell's RAM cleared first, its device memory left alone */
	n_cleared = 0;
	ownership_clear(&cell);
	assert_int_equal(n_cleared, 1);
	assert_true(cleared[0].phys == 4 * MIB && cleared[0].size == MIB);
	ownership_give_back(&cell);
	assert_int_equal(n_cleared, 1);
	check(&hv.root);
	assert_true(tables[0][(17 * MIB) / PAGE_SIZE].present);
	assert_false(tables[0][(17 * MIB + 8 * PAGE_SIZE) / PAGE_SIZE].present);
	assert_false(tables[0][(17 * MIB + 9 * PAGE_SIZE) / PAGE_SIZE].present);
	assert_true(tables[0][(17 * MIB + 10 * PAGE_SIZE) / PAGE_SIZE].present);
	assert_int_equal(tables[0][(16 * MIB + PAGE_SIZE) / PAGE_SIZE].flags,
			 WARDEN_MEM_READ | WARDEN_MEM_IO);
	assert_true(calls > 0);
}

/* Shared memory (a link's) keeps the traps under it, and a trap over
 * memory the config does not give stays unmapped (READ_ONLY). */
static void shared_keeps_traps(void **state)
{
	(void)state;
	assert_int_equal(ownership_root_init(NULL), 0);
	/* a READ_ONLY trap where root has nothing: nothing is mapped */
	assert_int_equal(trap(&hv.root, 20 * MIB, PAGE_SIZE, OWN_TRAP_READ_ONLY,
			      0, WARDEN_MEM_READ),
			 0);
	assert_false(tables[0][(20 * MIB) / PAGE_SIZE].present);
	assert_int_equal(trap(&hv.root, 2 * MIB, 2 * PAGE_SIZE,
			      OWN_TRAP_READ_ONLY, 0, WARDEN_MEM_READ),
			 0);
	assert_int_equal(ownership_unmap_shared(&hv.root, 2 * MIB, MIB), 0);
	check(&hv.root);
	assert_int_equal(ownership_map_shared(&hv.root, 2 * MIB, 2 * MIB, MIB,
					      WARDEN_MEM_READ |
						      WARDEN_MEM_WRITE),
			 0);
	check(&hv.root);
	assert_int_equal(tables[0][(2 * MIB) / PAGE_SIZE].flags,
			 WARDEN_MEM_READ);
	assert_int_equal(tables[0][(2 * MIB + 2 * PAGE_SIZE) / PAGE_SIZE].flags,
			 WARDEN_MEM_READ | WARDEN_MEM_WRITE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(replay_create_load_destroy, setup),
		cmocka_unit_test_setup(shared_keeps_traps, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
