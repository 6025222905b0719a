// SPDX-License-Identifier: GPL-2.0
/* Reading guest memory (contract in asm/guest.h). */
#include <asm/guest.h>
#include <asm/insn_cache.h>
#include <asm/cpu_rules.h>
#include <asm/processor.h>
#include <asm/vendor.h>
#include <asm/x86_cpu.h>
#include <hv/arch.h>
#include <warden/config.h>
#include <warden/hypercall.h>

#define PTE_PRESENT (1ull << 0)
#define PTE_LARGE (1ull << 7)
#define PTE_ADDR 0x000ffffffffff000ull

/* The decode cache's windows: per CPU and slot, one page for each
 * paging-structure entry of the walk and one for the instruction. */
#define SLOT_PAGES (INSN_CACHE_ENTRIES + 1)

static u64 slot_window(unsigned int cpu, unsigned int slot, unsigned int i)
{
	return DECODE_WINDOW_VIRT +
	       ((cpu * INSN_CACHE_SLOTS + slot) * SLOT_PAGES + i) * PAGE_SIZE;
}

__cold int guest_windows_init(unsigned int num_cpus)
{
	unsigned int cpu, i;

	/* Any page will do until a window is used: the pool's first. */
	for (cpu = 0; cpu < num_cpus; cpu++) {
		if (pt_map(&hv.hv_pt, GUEST_WINDOW_VIRT + cpu * PAGE_SIZE,
			   hv.pool.base_phys, PAGE_SIZE, MAP_READ,
			   WARDEN_MEMTYPE_WB))
			return -WARDEN_ENOMEM;
		for (i = 0; i < INSN_CACHE_SLOTS * SLOT_PAGES; i++)
			if (pt_map(&hv.hv_pt, slot_window(cpu, 0, i),
				   hv.pool.base_phys, PAGE_SIZE, MAP_READ,
				   WARDEN_MEMTYPE_WB))
				return -WARDEN_ENOMEM;
	}
	return 0;
}

/* Map the host-physical page of phys into this CPU's window. */
static u8 *window_rw(struct per_cpu *pc, u64 phys, unsigned int flags)
{
	u64 virt = GUEST_WINDOW_VIRT + pc->cpu_id * PAGE_SIZE;

	/* only the leaf changes: the tables exist (guest_windows_init) */
	pt_map(&hv.hv_pt, virt, phys & PAGE_MASK, PAGE_SIZE, flags,
	       WARDEN_MEMTYPE_WB);
	asm volatile("invlpg (%0)" : : "r"(virt) : "memory");
	return (u8 *)(virt + (phys & ~PAGE_MASK));
}

static const u8 *window(struct per_cpu *pc, u64 phys)
{
	return window_rw(pc, phys, MAP_READ);
}

void arch_clear_memory(u64 phys, u64 size)
{
	struct per_cpu *pc = this_cpu();
	u64 end = phys + size, n;
	u64 *p;

	for (phys &= PAGE_MASK; phys < end; phys += PAGE_SIZE) {
		p = (u64 *)window_rw(pc, phys, MAP_READ | MAP_WRITE);
		/* 8 bytes a step: emulators (TCG, Bochs) take each step of a
		 * string instruction as one, and hardware is as fast */
		n = PAGE_SIZE / 8;
		asm volatile("rep stosq"
			     : "+D"(p), "+c"(n)
			     : "a"(0)
			     : "memory");
	}
}

/* Guest-physical to host-physical through the cell's second-level tables,
 * if the cell has the rights need (MAP_*). */
static bool cell_gpa_to_hpa(const struct cell *cell, u64 gpa, u64 *hpa,
			    unsigned int need)
{
	struct arch_cell *a = cell->arch;
	unsigned int flags;
	bool found;

	spin_lock(&a->tables_lock);
	found = pt_lookup(&a->tables, gpa, hpa, &flags, NULL);
	spin_unlock(&a->tables_lock);
	return found && (flags & need) == need;
}

static bool gpa_to_hpa_rights(struct per_cpu *pc, u64 gpa, u64 *hpa,
			      unsigned int need)
{
	return cell_gpa_to_hpa(pc->cell, gpa, hpa, need);
}

static bool gpa_to_hpa(struct per_cpu *pc, u64 gpa, u64 *hpa)
{
	return gpa_to_hpa_rights(pc, gpa, hpa, MAP_READ);
}

/* What reading a guest's linear address depended on, for the decode
 * cache: each paging-structure entry of the first page's walk (host
 * address and value), that page's host address and how many bytes came
 * from it. */
struct walk_trace {
	unsigned int n;
	u64 hpa[INSN_CACHE_ENTRIES];
	u64 value[INSN_CACHE_ENTRIES];
	u64 first_hpa;
	unsigned int first_len;
};

static bool read_gpa_u64(struct per_cpu *pc, u64 gpa, u64 *value,
			 struct walk_trace *t)
{
	u64 hpa;

	if ((gpa & 7) || !gpa_to_hpa(pc, gpa, &hpa))
		return false;
	*value = *(const volatile u64 *)window(pc, hpa);
	if (t && t->n < INSN_CACHE_ENTRIES) {
		t->hpa[t->n] = hpa;
		t->value[t->n++] = *value;
	}
	return true;
}

/* The guest's translation of linear (SDM Vol. 3, 4.5: 4- and 5-level
 * paging; no paging).  Access rights are not checked: the hypervisor
 * only reads what the guest's own access already touched. */
static bool linear_to_gpa(struct per_cpu *pc, u64 linear, u64 *gpa,
			  struct walk_trace *t)
{
	struct vcpu_code v;
	u64 table, entry, mask;
	int level;

	vcpu_code(&v);
	table = v.cr3 & PTE_ADDR;
	if (!(v.cr0 & X86_CR0_PG)) {
		*gpa = linear & 0xffffffffull;
		return true;
	}
	if (!(v.efer & EFER_LMA))
		return false; /* 32-bit paging modes: not used by Linux */
	level = (v.cr4 & X86_CR4_LA57) ? 4 : 3;
	for (; level >= 0; level--) {
		if (!read_gpa_u64(pc,
				  table + ((linear >> (12 + 9 * level)) & 511) *
						  8,
				  &entry, t) ||
		    !(entry & PTE_PRESENT))
			return false;
		if (level > 0 && level < 3 && (entry & PTE_LARGE)) {
			mask = (1ull << (12 + 9 * level)) - 1;
			*gpa = (entry & PTE_ADDR & ~mask) | (linear & mask);
			return true;
		}
		table = entry & PTE_ADDR;
	}
	*gpa = table | (linear & ~PAGE_MASK);
	return true;
}

static unsigned int read_linear(struct per_cpu *pc, u64 linear, void *buf,
				unsigned int len, struct walk_trace *t)
{
	u8 *out = buf;
	unsigned int done = 0, chunk, i;
	u64 gpa, hpa;
	const u8 *src;

	while (done < len) {
		if (!linear_to_gpa(pc, linear + done, &gpa, done ? NULL : t) ||
		    !gpa_to_hpa(pc, gpa, &hpa))
			break;
		chunk = PAGE_SIZE - (hpa & ~PAGE_MASK);
		if (chunk > len - done)
			chunk = len - done;
		if (!done && t) {
			t->first_hpa = hpa;
			t->first_len = chunk;
		}
		src = window(pc, hpa);
		for (i = 0; i < chunk; i++)
			out[done + i] = src[i];
		done += chunk;
	}
	return done;
}

unsigned int guest_read_linear(struct per_cpu *pc, u64 linear, void *buf,
			       unsigned int len)
{
	return read_linear(pc, linear, buf, len, NULL);
}

int arch_guest_copy(struct per_cpu *pc, u64 gpa, void *buf, unsigned long len,
		    bool write)
{
	unsigned int need = MAP_READ | (write ? MAP_WRITE : 0);
	unsigned long done = 0, chunk, i;
	u8 *p = buf, *mem;
	u64 hpa;

	while (done < len) {
		if (!gpa_to_hpa_rights(pc, gpa + done, &hpa, need))
			return -WARDEN_EFAULT;
		chunk = PAGE_SIZE - (hpa & ~PAGE_MASK);
		if (chunk > len - done)
			chunk = len - done;
		mem = window_rw(pc, hpa, need);
		for (i = 0; i < chunk; i++) {
			if (write)
				mem[i] = p[done + i];
			else
				p[done + i] = mem[i];
		}
		done += chunk;
	}
	return 0;
}

int guest_cell_read_u64(struct per_cpu *pc, const struct cell *cell, u64 gpa,
			u64 *value)
{
	u64 hpa;

	if ((gpa & 7) || !cell_gpa_to_hpa(cell, gpa, &hpa, MAP_READ))
		return -WARDEN_EFAULT;
	*value = *(const volatile u64 *)window(pc, hpa);
	return 0;
}

/* Map host-physical hpa at window i of this CPU's cache slot. */
static const volatile void *slot_map(struct per_cpu *pc, unsigned int slot,
				     unsigned int i, u64 hpa)
{
	u64 virt = slot_window(pc->cpu_id, slot, i);

	pt_map(&hv.hv_pt, virt, hpa & PAGE_MASK, PAGE_SIZE, MAP_READ,
	       WARDEN_MEMTYPE_WB);
	asm volatile("invlpg (%0)" : : "r"(virt) : "memory");
	return (const volatile void *)(virt + (hpa & ~PAGE_MASK));
}

/* Keep what a miss decoded, with mappings of everything it depended on. */
static void cache_fill(struct per_cpu *pc, const struct insn_cache_key *key,
		       u64 gen, const struct walk_trace *t, u64 code_hpa,
		       const u8 *bytes, const struct mmio_insn *insn)
{
	struct insn_cache *c = &pc->arch.insn_cache;
	struct insn_cache_slot *s = insn_cache_victim(c);
	unsigned int slot = s - c->slot, i;
	const volatile u64 *where[INSN_CACHE_ENTRIES];

	for (i = 0; i < t->n; i++)
		where[i] = slot_map(pc, slot, i, t->hpa[i]);
	insn_cache_store(s, key, gen, t->n, where, t->value,
			 slot_map(pc, slot, SLOT_PAGES - 1, code_hpa), bytes,
			 insn);
}

int guest_decode_mmio(struct per_cpu *pc, struct mmio_insn *insn)
{
	struct arch_cell *a = pc->cell->arch;
	struct insn_cache_key key;
	const struct mmio_insn *hit;
	struct vcpu_code v;
	struct walk_trace t; /* filled on a miss only: a hit is the fast path */
	u8 bytes[INSN_MAX_LEN];
	unsigned int got;
	u64 gen;
	int err;

	vcpu_code(&v);
	key.linear = v.cs_base + v.rip;
	key.cr3 = v.cr3;
	key.mode = (v.cr0 & X86_CR0_PG) | (v.cr4 & X86_CR4_LA57) |
		   (v.efer & EFER_LMA) | v.cs_long;
	key.cell = pc->cell;
	hit = insn_cache_lookup(&pc->arch.insn_cache, &key, &a->tables_gen);
	if (hit) {
		*insn = *hit;
		return INSN_OK;
	}
	/* Miss: walk, read and decode.  The generation is taken first, so
	 * that a change of the tables during the walk makes the next lookup
	 * miss. */
	gen = __atomic_load_n(&a->tables_gen, __ATOMIC_ACQUIRE);
	t.n = 0;
	t.first_len = 0;
	got = read_linear(pc, key.linear, bytes, sizeof(bytes), &t);
	err = insn_decode_mmio_any(bytes, got, v.cs_long, insn);
	/* an instruction that crosses a page is decoded every time */
	if (!err && insn->length <= t.first_len)
		cache_fill(pc, &key, gen, &t, t.first_hpa, bytes, insn);
	return err;
}

void guest_decode_forget(struct per_cpu *pc)
{
	insn_cache_flush(&pc->arch.insn_cache);
}
