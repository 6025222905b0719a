// SPDX-License-Identifier: GPL-2.0
/*
 * The x86 part of non-root cells (hooks in hv/arch.h): a cell's EPT, I/O
 * and MSR bitmaps; taking its memory and ports from root and giving them
 * back exactly as the system config gives them to root; flushing root's
 * EPT translations on every root CPU; and moving a CPU into a cell
 * (parked) and back to root, where it waits for Linux's INIT/SIPI.
 *
 * Other CPUs are asked through per-CPU request words and the event NMI;
 * each request is carried out by the target itself (its VMCS is only
 * current there) before its next VM entry or in its wait loops
 * (x86_handle_events), and the requester waits for the result.
 */
#include <asm/apic.h>
#include <asm/pgformat.h>
#include <asm/processor.h>
#include <asm/vmx.h>
#include <asm/vmx_cpu.h>
#include <hv/arch.h>
#include <hv/printk.h>
#include <hv/string.h>
#include <warden/cell.h>
#include <warden/comm.h>
#include <warden/hypercall.h>

static unsigned int map_flags(u32 flags)
{
	return ((flags & WARDEN_MEM_READ) ? MAP_READ : 0) |
	       ((flags & WARDEN_MEM_WRITE) ? MAP_WRITE : 0) |
	       ((flags & WARDEN_MEM_EXECUTE) ? MAP_EXECUTE : 0);
}

/* Regions that leave root while the cell exists. */
static bool taken_from_root(const struct warden_mem_region *r)
{
	return !(r->flags & (WARDEN_MEM_COMM_REGION | WARDEN_MEM_ROOT_SHARED));
}

static void set_ports(u8 *bitmap, u32 base, u32 length, bool allow)
{
	u32 port;

	for (port = base; port < base + length && port < 0x10000; port++) {
		if (allow)
			bitmap[port / 8] &= ~(1u << (port % 8));
		else
			bitmap[port / 8] |= 1u << (port % 8);
	}
}

static bool root_owns_port(u32 port)
{
	const struct warden_cell_desc *root = hv.root.config;
	const struct warden_pio_range *pio = warden_cell_pio_ranges(root);
	unsigned int i;

	for (i = 0; i < root->num_pio_ranges; i++)
		if (port >= pio[i].base && port < pio[i].base + pio[i].length)
			return true;
	return false;
}

/* Map [start, start + size) into root again as the system config gives
 * it to root (identity, the config's rights and types). */
static int root_restore_range(u64 start, u64 size)
{
	const struct warden_cell_desc *root = hv.root.config;
	const struct warden_mem_region *r = warden_cell_mem_regions(root);
	struct arch_cell *a = hv.root.arch;
	u64 end = start + size, s, e;
	unsigned int i;
	int err = 0;

	spin_lock(&a->ept_lock);
	for (i = 0; i < root->num_memory_regions; i++) {
		s = r[i].phys_start > start ? r[i].phys_start : start;
		e = r[i].phys_start + r[i].size < end
			    ? r[i].phys_start + r[i].size
			    : end;
		if (s < e)
			err |= pt_map(&a->ept, s, s, e - s,
				      map_flags(r[i].flags), r[i].mem_type);
	}
	err |= arch_root_map_apic_page();
	spin_unlock(&a->ept_lock);
	return err;
}

void arch_flush_root(struct per_cpu *pc)
{
	unsigned int cpu;
	struct per_cpu *t;

	invept_all();
	for (cpu = 0; cpu < hv.num_cpus; cpu++) {
		t = per_cpu(cpu);
		if (t == pc || t->cell != &hv.root)
			continue;
		__atomic_store_n(&t->arch.flush_req, true, __ATOMIC_SEQ_CST);
		apic_send_nmi(t);
	}
	for (cpu = 0; cpu < hv.num_cpus; cpu++) {
		t = per_cpu(cpu);
		while (__atomic_load_n(&t->arch.flush_req, __ATOMIC_SEQ_CST))
			x86_handle_events(pc, NULL);
	}
}

static void free_cell_arch(struct arch_cell *a)
{
	pt_destroy(&a->ept);
	if (a->comm_page)
		page_free(&hv.pool, a->comm_page, 1);
	if (a->io_bitmap)
		page_free(&hv.pool, a->io_bitmap, 2);
	if (a->msr_bitmap)
		page_free(&hv.pool, a->msr_bitmap, 1);
	page_free(&hv.pool, a, 1);
}

static int no_memory(struct warden_error *err)
{
	err->code = -WARDEN_ENOMEM;
	err->rule = WARDEN_RULE_NO_MEMORY;
	err->values[0] = 1;
	err->values[1] = hv.pool.pages - hv.pool.used;
	return err->code;
}

int arch_cell_create(struct per_cpu *pc, struct cell *cell,
		     struct warden_error *err)
{
	const struct warden_cell_desc *cfg = cell->config;
	const struct warden_mem_region *mem = warden_cell_mem_regions(cfg);
	const struct warden_pio_range *pio = warden_cell_pio_ranges(cfg);
	struct arch_cell *a, *root = hv.root.arch;
	unsigned int i;
	u64 phys;
	int ret = 0;

	_Static_assert(sizeof(struct arch_cell) <= PAGE_SIZE, "arch_cell");
	a = page_alloc(&hv.pool, 1);
	if (!a)
		return no_memory(err);
	a->vpid = (u16)(cell->id + 1);
	a->io_bitmap = page_alloc(&hv.pool, 2);
	a->msr_bitmap = page_alloc(&hv.pool, 1);
	if (!a->io_bitmap || !a->msr_bitmap ||
	    pt_init(&a->ept, &x86_ept_format, &hv.pool))
		goto nomem;
	for (i = 0; i < cfg->num_memory_regions; i++) {
		phys = mem[i].phys_start;
		if (mem[i].flags & WARDEN_MEM_COMM_REGION) {
			a->comm_page = page_alloc(&hv.pool, 1);
			if (!a->comm_page)
				goto nomem;
			phys = hv_virt_to_phys(a->comm_page);
		}
		if (pt_map(&a->ept, mem[i].guest_start, phys, mem[i].size,
			   map_flags(mem[i].flags), mem[i].mem_type))
			goto nomem;
	}
	/* The xAPIC page traps: its accesses are carried out on the
	 * cell CPU's own APIC (apic_cell.c). */
	if (pt_map(&a->ept, APIC_DEFAULT_BASE,
		   hv_virt_to_phys(root->apic_access_page), PAGE_SIZE,
		   MAP_READ | MAP_WRITE, WARDEN_MEMTYPE_UC))
		goto nomem;
	for (i = 0; i < 2 * PAGE_SIZE; i++)
		a->io_bitmap[i] = 0xff;
	for (i = 0; i < cfg->num_pio_ranges; i++)
		set_ports(a->io_bitmap, pio[i].base, pio[i].length, true);
	/* Only the MSRs of its own CPU (msr.c); x2APIC ICR writes exit and
	 * are checked (apic_cell.c).  Every CPU has root's APIC mode. */
	msr_bitmap_init_cell(a->msr_bitmap, pc->arch.x2apic);

	/* Shrink root.  Unmapping may split a large page and need a page;
	 * if that fails, what was taken is given back. */
	for (i = 0; i < cfg->num_memory_regions && !ret; i++)
		if (taken_from_root(&mem[i])) {
			spin_lock(&root->ept_lock);
			ret = pt_unmap(&root->ept, mem[i].phys_start,
				       mem[i].size);
			spin_unlock(&root->ept_lock);
		}
	if (ret) {
		while (i--)
			if (taken_from_root(&mem[i]))
				root_restore_range(mem[i].phys_start,
						   mem[i].size);
		arch_flush_root(pc);
		goto nomem;
	}
	for (i = 0; i < cfg->num_pio_ranges; i++)
		set_ports(root->io_bitmap, pio[i].base, pio[i].length, false);
	arch_flush_root(pc);
	cell->arch = a;
	return 0;

nomem:
	free_cell_arch(a);
	return no_memory(err);
}

void arch_cell_destroy(struct per_cpu *pc, struct cell *cell)
{
	const struct warden_cell_desc *cfg = cell->config;
	const struct warden_mem_region *mem = warden_cell_mem_regions(cfg);
	const struct warden_pio_range *pio = warden_cell_pio_ranges(cfg);
	struct arch_cell *root = hv.root.arch;
	unsigned int i;
	u32 port;

	for (i = 0; i < cfg->num_memory_regions; i++)
		if (taken_from_root(&mem[i]) &&
		    root_restore_range(mem[i].phys_start, mem[i].size))
			printk("Cell %u: giving memory 0x%llx back to root "
			       "ran out of pool pages\n",
			       cell->id, (unsigned long long)mem[i].phys_start);
	for (i = 0; i < cfg->num_pio_ranges; i++)
		for (port = pio[i].base;
		     port < pio[i].base + pio[i].length && port < 0x10000;
		     port++)
			set_ports(root->io_bitmap, port, 1,
				  root_owns_port(port));
	arch_flush_root(pc);
	free_cell_arch(cell->arch);
	cell->arch = NULL;
}

void arch_cell_set_loadable(struct per_cpu *pc, struct cell *cell,
			    bool loadable)
{
	const struct warden_cell_desc *cfg = cell->config;
	const struct warden_mem_region *mem = warden_cell_mem_regions(cfg);
	struct arch_cell *root = hv.root.arch;
	unsigned int i;

	for (i = 0; i < cfg->num_memory_regions; i++) {
		if (!(mem[i].flags & WARDEN_MEM_LOADABLE) ||
		    !taken_from_root(&mem[i]))
			continue;
		if (loadable)
			root_restore_range(mem[i].phys_start, mem[i].size);
		else {
			spin_lock(&root->ept_lock);
			pt_unmap(&root->ept, mem[i].phys_start, mem[i].size);
			spin_unlock(&root->ept_lock);
		}
	}
	arch_flush_root(pc);
}

void arch_cell_reset_comm(struct cell *cell)
{
	struct warden_comm_region *c = cell->arch->comm_page;
	unsigned int cpu, n = 0;

	if (!c)
		return;
	memset(c, 0, PAGE_SIZE);
	memcpy(c->signature, WARDEN_COMM_SIGNATURE, sizeof(c->signature));
	c->revision = WARDEN_ABI_REVISION;
	c->cell_state = WARDEN_CELL_RUNNING;
	for (cpu = 0; cpu < hv.num_cpus; cpu++)
		if (cell->cpus.bits[cpu / 64] & (1ull << (cpu % 64))) {
			unsigned int id = per_cpu(cpu)->apic_id;

			n++;
			if (id < 256)
				c->apic_ids[id / 64] |= 1ull << (id % 64);
		}
	c->num_cpus = n;
	c->tsc_khz = hv.header->tsc_khz;
	c->console = cell->config->console;
}

u32 arch_cell_reported_state(struct cell *cell)
{
	struct warden_comm_region *c = cell->arch->comm_page;

	return c ? __atomic_load_n(&c->cell_state, __ATOMIC_SEQ_CST)
		 : WARDEN_CELL_RUNNING;
}

void arch_cell_message(struct cell *cell, u32 msg)
{
	struct warden_comm_region *c = cell->arch->comm_page;

	if (!c)
		return;
	__atomic_store_n(&c->reply_from_cell, WARDEN_REPLY_NONE,
			 __ATOMIC_SEQ_CST);
	__atomic_store_n(&c->msg_to_cell, msg, __ATOMIC_SEQ_CST);
}

u32 arch_cell_reply(struct cell *cell)
{
	struct warden_comm_region *c = cell->arch->comm_page;

	return c ? __atomic_load_n(&c->reply_from_cell, __ATOMIC_SEQ_CST)
		 : WARDEN_REPLY_APPROVED;
}

u64 arch_timestamp(void)
{
	return read_tsc();
}

void arch_cpu_suspend(struct per_cpu *target)
{
	__atomic_store_n(&target->arch.suspend_req, true, __ATOMIC_SEQ_CST);
	apic_send_nmi(target);
	while (!__atomic_load_n(&target->arch.suspended, __ATOMIC_SEQ_CST))
		x86_handle_events(this_cpu(), NULL);
}

void arch_cpu_resume(struct per_cpu *target)
{
	__atomic_store_n(&target->arch.suspend_req, false, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&target->arch.suspended, __ATOMIC_SEQ_CST))
		cpu_relax();
}

/* A suspended CPU waits here; the requester may flush root's EPT
 * translations meanwhile (arch_flush_root), so flushes are served. */
static void suspended_wait(struct per_cpu *pc)
{
	__atomic_store_n(&pc->arch.suspended, true, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&pc->arch.suspend_req, __ATOMIC_SEQ_CST)) {
		x86_handle_events(pc, NULL);
		cpu_relax();
	}
	__atomic_store_n(&pc->arch.suspended, false, __ATOMIC_SEQ_CST);
}

void arch_cpu_park(struct per_cpu *target, struct cell *cell)
{
	__atomic_store_n(&target->arch.park_req, cell, __ATOMIC_SEQ_CST);
	apic_send_nmi(target);
	while (__atomic_load_n(&target->state, __ATOMIC_SEQ_CST) !=
	       WARDEN_CPU_PARKED)
		x86_handle_events(this_cpu(), NULL);
}

void arch_cpu_return(struct per_cpu *target)
{
	__atomic_store_n(&target->arch.return_req, true, __ATOMIC_SEQ_CST);
	apic_send_nmi(target); /* if it runs the cell */
	while (__atomic_load_n(&target->arch.return_req, __ATOMIC_SEQ_CST))
		x86_handle_events(this_cpu(), NULL);
}

/* The cell's first CPU (lowest APIC ID) starts at the reset address; the
 * others wait for its INIT and SIPI (comm.h). */
static bool is_first_cpu(struct per_cpu *pc)
{
	unsigned int cpu;

	for (cpu = 0; cpu < hv.num_cpus; cpu++)
		if ((pc->cell->cpus.bits[cpu / 64] & (1ull << (cpu % 64))) &&
		    per_cpu(cpu)->apic_id < pc->apic_id)
			return false;
	return true;
}

/* A cell CPU waits here, parked (or failed), until it is started or sent
 * back to root.  Returns with the guest to enter prepared. */
static void cell_cpu_wait(struct per_cpu *pc, struct guest_regs *regs)
{
	const struct warden_cell_desc *cfg = pc->cell->config;
	u64 reset = cfg->reset_address;
	bool first;

	if (pc->state == WARDEN_CPU_RUNNING)
		__atomic_store_n(&pc->state, WARDEN_CPU_PARKED,
				 __ATOMIC_SEQ_CST);
	__atomic_store_n(&pc->arch.stop_req, false, __ATOMIC_SEQ_CST);
	for (;;) {
		x86_handle_events(pc, NULL);
		if (__atomic_load_n(&pc->arch.return_req, __ATOMIC_SEQ_CST)) {
			/* Back to root, as after INIT: Linux onlines it
			 * with INIT/SIPI. */
			pc->cell = &hv.root;
			vmx_load_cell_controls(pc);
			invept_all();
			invvpid_all();
			cpu_scrub();
			apic_cell_leave(pc);
			apic_init_received(pc);
			__atomic_store_n(&pc->arch.return_req, false,
					 __ATOMIC_SEQ_CST);
			__atomic_store_n(&pc->state, WARDEN_CPU_RUNNING,
					 __ATOMIC_SEQ_CST);
			printk("CPU %u: back in root, waiting for SIPI\n",
			       pc->cpu_id);
			return;
		}
		if (__atomic_load_n(&pc->arch.start_req, __ATOMIC_SEQ_CST)) {
			/* Real mode at the reset address: CS base is its
			 * 64 KiB-aligned part, IP the rest. */
			memset(regs, 0, sizeof(*regs));
			vmx_reset_to_real_mode(reset & ~0xffffull,
					       (u16)(reset & 0xffff));
			vmwrite(VM_ENTRY_INTR_INFO_FIELD, 0);
			pc->arch.guest_nmis_pending = 0;
			invvpid_all();
			/* a fresh APIC each start (a timer of the last run
			 * must not fire); the cell's other CPUs wait for
			 * INIT/SIPI from the first one */
			apic_cell_reset(pc);
			first = is_first_cpu(pc);
			if (first)
				apic_init_cancel(pc);
			else
				apic_init_received(pc);
			__atomic_store_n(&pc->arch.start_req, false,
					 __ATOMIC_SEQ_CST);
			__atomic_store_n(&pc->state, WARDEN_CPU_RUNNING,
					 __ATOMIC_SEQ_CST);
			if (first)
				printk("CPU %u: cell %u started at 0x%llx\n",
				       pc->cpu_id, pc->cell->id,
				       (unsigned long long)reset);
			else
				printk("CPU %u: cell %u started, waiting for "
				       "SIPI\n",
				       pc->cpu_id, pc->cell->id);
			return;
		}
		cpu_relax();
	}
}

void arch_cpu_stop(struct per_cpu *target)
{
	if (target->state != WARDEN_CPU_RUNNING)
		return;
	__atomic_store_n(&target->arch.stop_req, true, __ATOMIC_SEQ_CST);
	apic_send_nmi(target);
	while (__atomic_load_n(&target->state, __ATOMIC_SEQ_CST) ==
	       WARDEN_CPU_RUNNING)
		x86_handle_events(this_cpu(), NULL);
}

void arch_cpu_start(struct per_cpu *target)
{
	__atomic_store_n(&target->arch.start_req, true, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&target->arch.start_req, __ATOMIC_SEQ_CST))
		x86_handle_events(this_cpu(), NULL);
}

void arch_cpu_fail(struct per_cpu *pc, struct guest_regs *regs)
{
	__atomic_store_n(&pc->state, WARDEN_CPU_FAILED, __ATOMIC_SEQ_CST);
	cell_cpu_wait(pc, regs);
}

void x86_handle_events(struct per_cpu *pc, struct guest_regs *regs)
{
	struct cell *cell;

	if (__atomic_load_n(&pc->arch.flush_req, __ATOMIC_SEQ_CST)) {
		invept_all();
		__atomic_store_n(&pc->arch.flush_req, false, __ATOMIC_SEQ_CST);
	}
	if (!regs)
		return;
	if (__atomic_load_n(&pc->arch.suspend_req, __ATOMIC_SEQ_CST))
		suspended_wait(pc);
	cell = __atomic_exchange_n(&pc->arch.park_req, NULL, __ATOMIC_SEQ_CST);
	if (cell) {
		/* Into the cell, parked: it runs nothing until started.  Its
		 * exit counters start afresh: they are the cell's now. */
		pc->cell = cell;
		memset(pc->stats, 0, sizeof(pc->stats));
		vmx_load_cell_controls(pc);
		cpu_scrub();
		apic_cell_reset(pc);
		apic_init_cancel(pc);
		__atomic_store_n(&pc->state, WARDEN_CPU_PARKED,
				 __ATOMIC_SEQ_CST);
		printk("CPU %u: parked in cell %u\n", pc->cpu_id, cell->id);
	}
	if (pc->cell != &hv.root &&
	    (pc->state != WARDEN_CPU_RUNNING ||
	     __atomic_load_n(&pc->arch.stop_req, __ATOMIC_SEQ_CST) ||
	     __atomic_load_n(&pc->arch.return_req, __ATOMIC_SEQ_CST)))
		cell_cpu_wait(pc, regs);
}
