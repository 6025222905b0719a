// SPDX-License-Identifier: GPL-2.0
/*
 * The communication region (warden/comm.h): one pool page per cell,
 * mapped at the guest address of the config's WARDEN_MEM_COMM_REGION
 * region (core/ownership.c), filled in afresh at each start, and the
 * shutdown protocol on it (contracts in hv/cell.h).  A unit: a cell gets
 * its page when it is created and gives it back when it is destroyed.
 */
#include <hv/cell.h>
#include <hv/hypervisor.h>
#include <hv/string.h>
#include <hv/unit.h>
#include <warden/cell.h>
#include <warden/comm.h>
#include <warden/error.h>
#include <warden/hypercall.h>

static bool wants_comm(const struct cell *cell)
{
	const struct warden_mem_region *r =
		warden_cell_mem_regions(cell->config);
	unsigned int i;

	for (i = 0; i < cell->config->num_memory_regions; i++)
		if (r[i].flags & WARDEN_MEM_COMM_REGION)
			return true;
	return false;
}

static int comm_cell_init(struct cell *cell, struct warden_error *err)
{
	if (!wants_comm(cell))
		return 0;
	cell->comm = page_alloc(&hv.pool, 1);
	if (cell->comm)
		return 0;
	return cell_error_no_memory(err);
}

static void comm_cell_exit(struct cell *cell)
{
	if (cell->comm)
		page_free(&hv.pool, cell->comm, 1);
	cell->comm = NULL;
}

DEFINE_UNIT(comm) = {
	.name = "communication region",
	.cell_init = comm_cell_init,
	.cell_exit = comm_cell_exit,
};

void comm_reset(struct cell *cell)
{
	struct warden_comm_region *c = cell->comm;
	unsigned int cpu, n = 0, id;

	if (!c)
		return;
	memset(c, 0, PAGE_SIZE);
	memcpy(c->signature, WARDEN_COMM_SIGNATURE, sizeof(c->signature));
	c->revision = WARDEN_ABI_REVISION;
	c->cell_state = WARDEN_CELL_RUNNING;
	for (cpu = 0; cpu < hv.num_cpus; cpu++)
		if (cpu_in_set(&cell->cpus, cpu)) {
			id = per_cpu(cpu)->apic_id;
			n++;
			if (id < 256)
				c->apic_ids[id / 64] |= 1ull << (id % 64);
		}
	c->num_cpus = n;
	c->tsc_khz = hv.header->tsc_khz;
	c->console = cell->config->console;
}

u32 comm_reported_state(const struct cell *cell)
{
	return cell->comm ? __atomic_load_n(&cell->comm->cell_state,
					    __ATOMIC_SEQ_CST)
			  : WARDEN_CELL_RUNNING;
}

void comm_message(struct cell *cell, u32 msg)
{
	if (!cell->comm)
		return;
	__atomic_store_n(&cell->comm->reply_from_cell, WARDEN_REPLY_NONE,
			 __ATOMIC_SEQ_CST);
	__atomic_store_n(&cell->comm->msg_to_cell, msg, __ATOMIC_SEQ_CST);
}

u32 comm_reply(const struct cell *cell)
{
	return cell->comm ? __atomic_load_n(&cell->comm->reply_from_cell,
					    __ATOMIC_SEQ_CST)
			  : WARDEN_REPLY_APPROVED;
}
