// SPDX-License-Identifier: GPL-2.0
/*
 * Cells: the generic part (contracts in hv/cell.h).
 *
 * Create: copy the config in, validate it against the system and the
 * cells that exist, suspend root's other CPUs, build the cell's
 * architecture state and take its memory and ports from root
 * (arch_cell_create), move its CPUs (which Linux has offlined) into it,
 * parked, and resume root.  Destroy, load and start suspend root too while
 * memory changes hands.  Destroy reverses every step: the
 * CPUs go back to root waiting for Linux's INIT/SIPI, memory and ports
 * back to root as the system config gives them, every page freed.
 * Set-loadable, start and shutdown act on the cell's CPUs through the
 * arch hooks; the comm region carries the shutdown protocol.
 */
#include <config_check.h>
#include <hv/arch.h>
#include <hv/cell.h>
#include <hv/hypervisor.h>
#include <hv/printk.h>
#include <warden/cell.h>
#include <warden/comm.h>
#include <warden/config.h>
#include <warden/hypercall.h>

/* Keep the first error the validator reports. */
static void keep_first(void *ctx, const struct warden_error *e)
{
	struct warden_error *first = ctx;

	if (!first->rule)
		*first = *e;
}

static int ask_shutdown(struct cell *cell);
static int lock_cell(unsigned long id, struct cell **cell);

static void root_cpu_clear(unsigned int cpu)
{
	hv.root.cpus.bits[cpu / 64] &= ~(1ull << (cpu % 64));
}

static void root_cpu_set(unsigned int cpu)
{
	hv.root.cpus.bits[cpu / 64] |= 1ull << (cpu % 64);
}

static bool in_set(const struct warden_cpu_set *set, unsigned int cpu)
{
	return cpu < WARDEN_MAX_CPUS &&
	       (set->bits[cpu / 64] & (1ull << (cpu % 64)));
}

/*
 * Root's other CPUs wait in the hypervisor while resources change hands
 * (create, destroy, load, start), as in the seed's cell management: none of
 * them is inside an exit handler that reads what is changing (an IPI
 * resolved against a CPU that moves, a page or port that leaves root), and
 * Linux runs only on the caller meanwhile.  The caller and the CPUs in
 * moving (offline in Linux, about to enter or leave the cell) are left
 * out.  *suspended receives the set, for resume_root.
 */
static void suspend_root(struct per_cpu *pc,
			 const struct warden_cpu_set *moving,
			 struct warden_cpu_set *suspended)
{
	unsigned int cpu;

	for (cpu = 0; cpu < WARDEN_CPU_SET_WORDS; cpu++)
		suspended->bits[cpu] = 0;
	for (cpu = 0; cpu < hv.num_cpus; cpu++)
		if (cpu != pc->cpu_id && in_set(&hv.root.cpus, cpu) &&
		    !in_set(moving, cpu)) {
			suspended->bits[cpu / 64] |= 1ull << (cpu % 64);
			arch_cpu_suspend(per_cpu(cpu));
		}
}

static void resume_root(const struct warden_cpu_set *suspended)
{
	unsigned int cpu;

	for (cpu = 0; cpu < hv.num_cpus; cpu++)
		if (in_set(suspended, cpu))
			arch_cpu_resume(per_cpu(cpu));
}

static int report(struct per_cpu *pc, u64 error_gpa, struct warden_error *err)
{
	if (!err->code)
		err->code = -WARDEN_EINVAL;
	err->cpu = WARDEN_NO_CPU;
	printk("CPU %u: cell config refused: rule %u, item kind %u index %u\n",
	       pc->cpu_id, err->rule, err->item_kind, err->item_index);
	if (error_gpa &&
	    arch_guest_copy(pc, error_gpa, err, sizeof(*err), true))
		return -WARDEN_EFAULT;
	return err->code;
}

/*
 * The validator numbers the other cells 1..n in the order given and the
 * new one n + 1; a refusal that names another cell gets its real id
 * (ids[k - 1]) back, and the new cell is called by the id it would get.
 */
static void real_cell_id(struct warden_error *err, const unsigned int *ids,
			 unsigned int n)
{
	unsigned int id;
	int v = warden_rule_other_cell_value(err->rule);

	if (err->item_kind == WARDEN_ITEM_CELL && err->item_index == n + 1) {
		for (id = 1; id < HV_MAX_CELLS && hv.cells[id]; id++)
			;
		err->item_index = id;
	}

	if (v >= 0 && err->values[v] >= 1 && err->values[v] <= n)
		err->values[v] = ids[err->values[v] - 1];
}

/*
 * Copy the config at config_gpa into pool pages (*blob, *size, *pages)
 * and validate it against the system and the existing cells.  0, or the
 * error with its record in *err (nothing kept), or -WARDEN_EFAULT.
 */
static int load_config(struct per_cpu *pc, u64 config_gpa, void **blob,
		       unsigned long *size_out, unsigned long *pages_out,
		       struct warden_error *err)
{
	const void *others[HV_MAX_CELLS];
	size_t other_sizes[HV_MAX_CELLS];
	unsigned int other_ids[HV_MAX_CELLS];
	struct warden_config_header h;
	unsigned long size, pages;
	unsigned int n, i, n_others = 0;

	/* The blob is copied in whole (root could change it while it is
	 * checked); its header says how long it is, within the limit.  A
	 * header that lies about the length is the validator's to report. */
	if (arch_guest_copy(pc, config_gpa, &h, sizeof(h), false))
		return -WARDEN_EFAULT;
	size = h.total_size;
	if (size < sizeof(h))
		size = sizeof(h);
	if (size > CONFIG_CHECK_MAX_SIZE)
		size = CONFIG_CHECK_MAX_SIZE;
	pages = (size + PAGE_SIZE - 1) / PAGE_SIZE;
	*blob = page_alloc(&hv.pool, pages);
	if (!*blob) {
		err->code = -WARDEN_ENOMEM;
		err->rule = WARDEN_RULE_NO_MEMORY;
		err->values[0] = pages;
		err->values[1] = hv.pool.pages - hv.pool.used;
		return err->code;
	}
	if (arch_guest_copy(pc, config_gpa, *blob, size, false)) {
		page_free(&hv.pool, *blob, pages);
		return -WARDEN_EFAULT;
	}
	for (i = 1; i < HV_MAX_CELLS; i++)
		if (hv.cells[i]) {
			others[n_others] = hv.cells[i]->blob;
			other_ids[n_others] = i;
			other_sizes[n_others++] = hv.cells[i]->blob_size;
		}
	n = config_check_cell(*blob, size,
			      (const u8 *)WARDEN_HV_BASE +
				      hv.header->config_offset,
			      hv.header->config_size, others, other_sizes,
			      n_others, keep_first, err);
	if (n) {
		real_cell_id(err, other_ids, n_others);
		page_free(&hv.pool, *blob, pages);
		return err->code ? err->code : -WARDEN_EINVAL;
	}
	*size_out = size;
	*pages_out = pages;
	return 0;
}

long cell_config_validate(struct per_cpu *pc, u64 config_gpa, u64 error_gpa)
{
	struct warden_error err = { 0 };
	unsigned long size, pages;
	void *blob;
	int ret;

	ret = load_config(pc, config_gpa, &blob, &size, &pages, &err);
	if (ret == -WARDEN_EFAULT)
		return ret;
	if (ret)
		return report(pc, error_gpa, &err);
	page_free(&hv.pool, blob, pages);
	return 0;
}

long cell_create(struct per_cpu *pc, u64 config_gpa, u64 error_gpa)
{
	struct warden_cpu_set suspended;
	struct warden_error err = { 0 };
	struct cell *cell = NULL;
	unsigned long size, pages;
	unsigned int id, cpu;
	void *blob;
	int ret;

	if (!spin_trylock(&hv.cells_lock))
		return -WARDEN_EBUSY;
	ret = load_config(pc, config_gpa, &blob, &size, &pages, &err);
	if (ret == -WARDEN_EFAULT)
		goto out;
	if (ret) {
		ret = report(pc, error_gpa, &err);
		goto out;
	}
	for (id = 1; id < HV_MAX_CELLS && hv.cells[id]; id++)
		;
	cell = page_alloc(&hv.pool, 1);
	if (id == HV_MAX_CELLS || !cell) {
		err.code = id == HV_MAX_CELLS ? -WARDEN_ENOSPC : -WARDEN_ENOMEM;
		err.rule = WARDEN_RULE_NO_MEMORY;
		err.values[0] = 1;
		err.values[1] = hv.pool.pages - hv.pool.used;
		goto fail_cell;
	}
	cell->id = id;
	cell->blob = blob;
	cell->blob_size = size;
	cell->blob_pages = pages;
	cell->config =
		(const struct warden_cell_desc
			 *)((u8 *)blob + sizeof(struct warden_config_header));
	cell->cpus = cell->config->cpus;
	/* the calling CPU cannot give itself away */
	if (in_set(&cell->cpus, pc->cpu_id)) {
		err.code = -WARDEN_EBUSY;
		err.rule = WARDEN_RULE_CPU_IS_CALLER;
		err.item_kind = WARDEN_ITEM_CPU;
		err.item_index = pc->cpu_id;
		goto fail_cell;
	}
	suspend_root(pc, &cell->cpus, &suspended);
	ret = arch_cell_create(pc, cell, &err);
	if (ret) {
		resume_root(&suspended);
		goto fail_cell;
	}
	/* From here nothing can fail. */
	cell->state = WARDEN_CELL_CREATED;
	hv.cells[id] = cell;
	for (cpu = 0; cpu < hv.num_cpus; cpu++)
		if (in_set(&cell->cpus, cpu)) {
			root_cpu_clear(cpu);
			arch_cpu_park(per_cpu(cpu), cell);
		}
	resume_root(&suspended);
	printk("Cell %u \"%s\" created; pool %lu of %lu pages used\n", id,
	       cell->config->name, hv.pool.used, hv.pool.pages);
	ret = (int)id;
	goto out;

fail_cell:
	if (cell)
		page_free(&hv.pool, cell, 1);
	page_free(&hv.pool, blob, pages);
	ret = report(pc, error_gpa, &err);
out:
	spin_unlock(&hv.cells_lock);
	return ret;
}

long cell_destroy(struct per_cpu *pc, unsigned long id)
{
	struct warden_cpu_set suspended;
	struct cell *cell;
	unsigned int cpu;
	int ret;

	if (id == WARDEN_ROOT_CELL_ID)
		return -WARDEN_EINVAL;
	ret = lock_cell(id, &cell);
	if (ret)
		return ret;
	/* a running cell is asked first, and may refuse */
	ret = ask_shutdown(cell);
	if (ret) {
		spin_unlock(&hv.cells_lock);
		return ret;
	}
	/* the CPUs first: they stop using the cell's tables */
	suspend_root(pc, &cell->cpus, &suspended);
	for (cpu = 0; cpu < hv.num_cpus; cpu++)
		if (in_set(&cell->cpus, cpu)) {
			arch_cpu_return(per_cpu(cpu));
			root_cpu_set(cpu);
		}
	arch_cell_destroy(pc, cell);
	resume_root(&suspended);
	hv.cells[id] = NULL;
	printk("Cell %u \"%s\" destroyed; pool %lu of %lu pages used\n",
	       (unsigned int)id, cell->config->name, hv.pool.used,
	       hv.pool.pages);
	page_free(&hv.pool, cell->blob, cell->blob_pages);
	page_free(&hv.pool, cell, 1);
	spin_unlock(&hv.cells_lock);
	return 0;
}

unsigned int cell_count(void)
{
	unsigned int id, n = 0;

	for (id = 0; id < HV_MAX_CELLS; id++)
		n += hv.cells[id] != NULL;
	return n;
}

long cell_get_state(unsigned long id)
{
	struct cell *cell;

	if (id >= HV_MAX_CELLS || !hv.cells[id])
		return -WARDEN_ENOENT;
	cell = hv.cells[id];
	/* a running cell says itself how it is (communication region) */
	if (id != WARDEN_ROOT_CELL_ID && cell->state == WARDEN_CELL_RUNNING) {
		u32 reported = arch_cell_reported_state(cell);

		if (reported == WARDEN_CELL_RUNNING_LOCKED ||
		    reported == WARDEN_CELL_SHUT_DOWN ||
		    reported == WARDEN_CELL_FAILED)
			return reported;
	}
	return cell->state;
}

/*
 * Take cells_lock and find the cell a management request names (a cell
 * other than root).  0 with *cell set and the lock held, or -WARDEN_EBUSY
 * (another request runs) / -WARDEN_ENOENT without the lock.
 */
static int lock_cell(unsigned long id, struct cell **cell)
{
	if (!spin_trylock(&hv.cells_lock))
		return -WARDEN_EBUSY;
	*cell = id == WARDEN_ROOT_CELL_ID || id >= HV_MAX_CELLS ? NULL
								: hv.cells[id];
	if (!*cell) {
		spin_unlock(&hv.cells_lock);
		return -WARDEN_ENOENT;
	}
	return 0;
}

static void stop_cpus(struct cell *cell)
{
	unsigned int cpu;

	for (cpu = 0; cpu < hv.num_cpus; cpu++)
		if (in_set(&cell->cpus, cpu))
			arch_cpu_stop(per_cpu(cpu));
}

long cell_set_loadable(struct per_cpu *pc, unsigned long id)
{
	struct warden_cpu_set suspended;
	struct cell *cell;
	int ret = lock_cell(id, &cell);

	if (ret)
		return ret;
	if (cell->state != WARDEN_CELL_LOADING) {
		stop_cpus(cell);
		suspend_root(pc, &cell->cpus, &suspended);
		arch_cell_set_loadable(pc, cell, true);
		resume_root(&suspended);
		cell->state = WARDEN_CELL_LOADING;
	}
	spin_unlock(&hv.cells_lock);
	return 0;
}

long cell_start(struct per_cpu *pc, unsigned long id)
{
	struct warden_cpu_set suspended;
	struct cell *cell;
	unsigned int cpu;
	int ret = lock_cell(id, &cell);

	if (ret)
		return ret;
	stop_cpus(cell);
	if (cell->state == WARDEN_CELL_LOADING) {
		suspend_root(pc, &cell->cpus, &suspended);
		arch_cell_set_loadable(pc, cell, false);
		resume_root(&suspended);
	}
	arch_cell_reset_comm(cell);
	cell->state = WARDEN_CELL_RUNNING;
	for (cpu = 0; cpu < hv.num_cpus; cpu++)
		if (in_set(&cell->cpus, cpu))
			arch_cpu_start(per_cpu(cpu));
	printk("Cell %u \"%s\" started\n", cell->id, cell->config->name);
	spin_unlock(&hv.cells_lock);
	return 0;
}

/*
 * Ask a running cell whether it may stop (communication region protocol,
 * comm.h): 0 if it may (or it is not running, reports itself shut down or
 * failed, or is passive), -WARDEN_EBUSY if it denied or is locked.  A
 * cell that does not answer within about 200 ms is taken as agreeing: a
 * hung cell must not be impossible to stop.
 */
static int ask_shutdown(struct cell *cell)
{
	u32 reported, reply = WARDEN_REPLY_NONE;
	u64 start, budget;

	if (cell->state != WARDEN_CELL_RUNNING)
		return 0;
	reported = arch_cell_reported_state(cell);
	if (reported == WARDEN_CELL_SHUT_DOWN ||
	    reported == WARDEN_CELL_FAILED ||
	    (cell->config->flags & WARDEN_CELL_PASSIVE_COMM))
		return 0;
	if (reported == WARDEN_CELL_RUNNING_LOCKED)
		return -WARDEN_EBUSY;
	budget = (u64)(hv.header->tsc_khz ? hv.header->tsc_khz : 1000000) * 200;
	arch_cell_message(cell, WARDEN_MSG_SHUTDOWN_REQUEST);
	start = arch_timestamp();
	while (arch_timestamp() - start < budget) {
		reply = arch_cell_reply(cell);
		if (reply != WARDEN_REPLY_NONE)
			break;
	}
	arch_cell_message(cell, WARDEN_MSG_NONE);
	if (reply == WARDEN_REPLY_APPROVED)
		return 0;
	printk("Cell %u \"%s\": shutdown %s\n", cell->id, cell->config->name,
	       reply == WARDEN_REPLY_DENIED ? "denied by the cell"
					    : "request not answered; stopping "
					      "it anyway");
	return reply == WARDEN_REPLY_DENIED ? -WARDEN_EBUSY : 0;
}

long cell_shutdown(struct per_cpu *pc, unsigned long id)
{
	struct cell *cell;
	int ret;

	(void)pc;
	ret = lock_cell(id, &cell);
	if (ret)
		return ret;
	ret = ask_shutdown(cell);
	if (!ret && cell->state == WARDEN_CELL_RUNNING) {
		stop_cpus(cell);
		cell->state = WARDEN_CELL_SHUT_DOWN;
		printk("Cell %u \"%s\" shut down\n", cell->id,
		       cell->config->name);
	}
	spin_unlock(&hv.cells_lock);
	return ret;
}

void cell_failed(struct per_cpu *pc)
{
	pc->cell->state = WARDEN_CELL_FAILED;
}
