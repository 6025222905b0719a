// SPDX-License-Identifier: GPL-2.0
/*
 * Cells: the generic part (contracts in hv/cell.h).
 *
 * Create: copy the config in, validate it against the system and the
 * cells that exist, suspend root's other CPUs, build the cell's
 * architecture state (arch_cell_create), let every unit set up its part
 * (units_cell_init: hv/unit.h), take its memory and ports from root
 * (ownership_take), move its CPUs (which Linux has offlined) into it,
 * parked, and resume root.  Destroy, load and start suspend root too while
 * memory changes hands.  Destroy reverses every step: the CPUs go back to
 * root waiting for Linux's INIT/SIPI, memory and ports back to root as the
 * system config gives them, every page freed.  Set-loadable, start and
 * shutdown act on the cell's CPUs through the arch hooks; the comm region
 * carries the shutdown protocol, and a running cell is asked before any of
 * them stops it.
 *
 * Every request to another CPU is bounded (hv/arch.h).  A root CPU that
 * does not let itself be suspended makes the operation fail before
 * anything changed.  A cell CPU that does not answer is lost
 * (WARDEN_CPU_LOST), as is one on which the hypervisor took an exception:
 * it may still run, so it is never given back to Linux, and when its cell
 * is destroyed the cell's memory, ports and page tables stay out of
 * root's reach (WARDEN_CELL_QUARANTINED) until disable.  Root is resumed
 * on every path.
 */
#include <config_check.h>
#include <hv/arch.h>
#include <hv/cell.h>
#include <hv/hypervisor.h>
#include <hv/printk.h>
#include <hv/unit.h>
#include <hv/wait.h>
#include <warden/cell.h>
#include <warden/comm.h>
#include <warden/config.h>
#include <warden/hypercall.h>

/* How long a running cell may take to answer a shutdown request. */
#define SHUTDOWN_ANSWER_MS 200

/* Keep the first error the validator reports. */
static void keep_first(void *ctx, const struct warden_error *e)
{
	struct warden_error *first = ctx;

	if (!first->rule)
		*first = *e;
}

static const char *const request_names[] = {
	[WARDEN_REQUEST_SUSPEND] = "suspend", [WARDEN_REQUEST_PARK] = "park",
	[WARDEN_REQUEST_RETURN] = "return",   [WARDEN_REQUEST_STOP] = "stop",
	[WARDEN_REQUEST_START] = "start",
};

/* Write err to the caller's record at error_gpa (if any); its code. */
static int refuse(struct per_cpu *pc, u64 error_gpa, struct warden_error *err)
{
	if (!err->code)
		err->code = -WARDEN_EINVAL;
	if (error_gpa &&
	    arch_guest_copy(pc, error_gpa, err, sizeof(*err), true))
		return -WARDEN_EFAULT;
	return err->code;
}

static void set_error(struct warden_error *err, int code, u32 rule, u32 kind,
		      u32 index, u64 v0, u64 v1)
{
	err->code = code;
	err->rule = rule;
	err->item_kind = kind;
	err->item_index = index;
	err->cpu = WARDEN_NO_CPU;
	err->values[0] = v0;
	err->values[1] = v1;
}

int cell_error_no_memory(struct warden_error *err)
{
	set_error(err, -WARDEN_ENOMEM, WARDEN_RULE_NO_MEMORY, WARDEN_ITEM_NONE,
		  0, 1, hv.pool.pages - hv.pool.used);
	return err->code;
}

struct per_cpu *cell_first_cpu(const struct cell *cell)
{
	struct per_cpu *first = NULL;
	unsigned int cpu;

	for (cpu = 0; cpu < hv.num_cpus; cpu++)
		if (cpu_in_set(&cell->cpus, cpu) &&
		    (!first || per_cpu(cpu)->apic_id < first->apic_id))
			first = per_cpu(cpu);
	return first;
}

static void no_answer(struct warden_error *err, unsigned int cpu, u32 what)
{
	set_error(err, -WARDEN_ETIMEDOUT, WARDEN_RULE_CPU_NO_ANSWER,
		  WARDEN_ITEM_CPU, cpu, what, 1000);
}

/*
 * A cell CPU that did not answer a request (what: WARDEN_REQUEST_*): the
 * hypervisor gives up on it.  Its cell is failed; the CPU, should it ever
 * come back, halts in the event loop.
 */
static void cpu_lost(struct per_cpu *t, struct cell *cell, u32 what)
{
	__atomic_store_n(&t->state, WARDEN_CPU_LOST, __ATOMIC_SEQ_CST);
	cell->state = WARDEN_CELL_FAILED;
	printk("Cell %u \"%s\", CPU %u: no answer to a %s request in time; "
	       "CPU lost: it runs no guest again and is not given back to "
	       "Linux\n",
	       cell->id, cell->config->name, t->cpu_id, request_names[what]);
}

static bool cpu_is_lost(unsigned int cpu)
{
	return __atomic_load_n(&per_cpu(cpu)->state, __ATOMIC_SEQ_CST) ==
	       WARDEN_CPU_LOST;
}

/* The lowest lost CPU of cell, or -1. */
static int lost_cpu(const struct cell *cell)
{
	unsigned int cpu;

	for (cpu = 0; cpu < hv.num_cpus; cpu++)
		if (cpu_in_set(&cell->cpus, cpu) && cpu_is_lost(cpu))
			return (int)cpu;
	return -1;
}

/*
 * Root's other CPUs wait in the hypervisor while resources change hands
 * (create, destroy, load, start), so that none of them is inside an exit
 * handler that reads what is changing (an IPI resolved against a CPU that
 * moves, a page or port that leaves root), and Linux runs only on the
 * caller meanwhile.  The caller and the CPUs in
 * moving (offline in Linux, about to enter or leave the cell) are left
 * out.  0 with *suspended the set for resume_root, or -WARDEN_ETIMEDOUT
 * with err filled and root running again.
 */
static int suspend_root(struct per_cpu *pc, const struct warden_cpu_set *moving,
			struct warden_cpu_set *suspended,
			struct warden_error *err);

static void resume_root(const struct warden_cpu_set *suspended)
{
	unsigned int cpu;

	for (cpu = 0; cpu < hv.num_cpus; cpu++)
		if (cpu_in_set(suspended, cpu))
			arch_cpu_resume(per_cpu(cpu));
}

static int suspend_root(struct per_cpu *pc, const struct warden_cpu_set *moving,
			struct warden_cpu_set *suspended,
			struct warden_error *err)
{
	unsigned int cpu;

	for (cpu = 0; cpu < WARDEN_CPU_SET_WORDS; cpu++)
		suspended->bits[cpu] = 0;
	for (cpu = 0; cpu < hv.num_cpus; cpu++) {
		if (cpu == pc->cpu_id || !cpu_in_set(&hv.root.cpus, cpu) ||
		    cpu_in_set(moving, cpu))
			continue;
		if (arch_cpu_suspend(per_cpu(cpu))) {
			printk("CPU %u: root CPU %u did not stop for a cell "
			       "operation in time; nothing changed\n",
			       pc->cpu_id, cpu);
			resume_root(suspended);
			no_answer(err, cpu, WARDEN_REQUEST_SUSPEND);
			return -WARDEN_ETIMEDOUT;
		}
		cpu_set_add(suspended, cpu);
	}
	return 0;
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
		set_error(err, -WARDEN_ENOMEM, WARDEN_RULE_NO_MEMORY,
			  WARDEN_ITEM_NONE, 0, pages,
			  hv.pool.pages - hv.pool.used);
		return err->code;
	}
	if (arch_guest_copy(pc, config_gpa, *blob, size, false)) {
		page_free(&hv.pool, *blob, pages);
		return -WARDEN_EFAULT;
	}
	/* quarantined cells count: their memory, ports and lost CPUs are
	 * still taken */
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

/* A config refusal: on the console, and to the caller's record. */
static int config_refused(struct per_cpu *pc, u64 error_gpa,
			  struct warden_error *err)
{
	printk("CPU %u: cell config refused: rule %u, item kind %u index %u\n",
	       pc->cpu_id, err->rule, err->item_kind, err->item_index);
	err->cpu = WARDEN_NO_CPU;
	return refuse(pc, error_gpa, err);
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
		return config_refused(pc, error_gpa, &err);
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
		ret = config_refused(pc, error_gpa, &err);
		goto out;
	}
	for (id = 1; id < HV_MAX_CELLS && hv.cells[id]; id++)
		;
	cell = page_alloc(&hv.pool, 1);
	if (id == HV_MAX_CELLS || !cell) {
		set_error(&err,
			  id == HV_MAX_CELLS ? -WARDEN_ENOSPC : -WARDEN_ENOMEM,
			  WARDEN_RULE_NO_MEMORY, WARDEN_ITEM_NONE, 0, 1,
			  hv.pool.pages - hv.pool.used);
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
	mmio_registry_init(&cell->mmio, cell->mmio_regions,
			   HV_CELL_MMIO_REGIONS);
	mmio_registry_init(&cell->pio, cell->pio_regions, HV_CELL_PIO_REGIONS);
	ownership_traps_init(&cell->traps, cell->trap_storage, HV_CELL_TRAPS);
	/* the calling CPU cannot give itself away */
	if (cpu_in_set(&cell->cpus, pc->cpu_id)) {
		set_error(&err, -WARDEN_EBUSY, WARDEN_RULE_CPU_IS_CALLER,
			  WARDEN_ITEM_CPU, pc->cpu_id, 0, 0);
		goto fail_cell;
	}
	if (units_mmio_count(cell) > HV_CELL_MMIO_REGIONS) {
		set_error(&err, -WARDEN_ENOSPC, WARDEN_RULE_NO_MEMORY,
			  WARDEN_ITEM_NONE, 0, units_mmio_count(cell),
			  HV_CELL_MMIO_REGIONS);
		goto fail_cell;
	}
	if (suspend_root(pc, &cell->cpus, &suspended, &err))
		goto fail_cell;
	if (arch_cell_create(pc, cell, &err))
		goto fail_resume;
	if (units_cell_init(cell, &err))
		goto fail_arch;
	if (ownership_take(cell, &err))
		goto fail_units;
	/* From here nothing can fail; a CPU that does not come is lost. */
	cell->state = WARDEN_CELL_CREATED;
	hv.cells[id] = cell;
	console_cell_reset(cell);
	for (cpu = 0; cpu < hv.num_cpus; cpu++)
		if (cpu_in_set(&cell->cpus, cpu)) {
			cpu_set_del(&hv.root.cpus, cpu);
			if (arch_cpu_park(per_cpu(cpu), cell))
				cpu_lost(per_cpu(cpu), cell,
					 WARDEN_REQUEST_PARK);
		}
	resume_root(&suspended);
	printk("Cell %u \"%s\" created; pool %lu of %lu pages used\n", id,
	       cell->config->name, hv.pool.used, hv.pool.pages);
	ret = (int)id;
	goto out;

fail_units:
	units_cell_exit(cell);
fail_arch:
	arch_cell_destroy(cell);
fail_resume:
	resume_root(&suspended);
fail_cell:
	if (cell)
		page_free(&hv.pool, cell, 1);
	page_free(&hv.pool, blob, pages);
	ret = err.rule == WARDEN_RULE_CPU_NO_ANSWER
		      ? refuse(pc, error_gpa, &err)
		      : config_refused(pc, error_gpa, &err);
out:
	spin_unlock(&hv.cells_lock);
	return ret;
}

/*
 * Take cells_lock and find the cell a management request names (a cell
 * other than root).  0 with *cell set and the lock held, or an error with
 * its record in *err and without the lock.
 */
static int lock_cell(unsigned long id, struct cell **cell,
		     struct warden_error *err)
{
	if (!spin_trylock(&hv.cells_lock)) {
		set_error(err, -WARDEN_EBUSY, WARDEN_RULE_CELL_STATE,
			  WARDEN_ITEM_CELL, (u32)id, 0, 0);
		return err->code;
	}
	*cell = id == WARDEN_ROOT_CELL_ID || id >= HV_MAX_CELLS ? NULL
								: hv.cells[id];
	if (!*cell) {
		spin_unlock(&hv.cells_lock);
		set_error(err,
			  id == WARDEN_ROOT_CELL_ID ? -WARDEN_EINVAL
						    : -WARDEN_ENOENT,
			  id == WARDEN_ROOT_CELL_ID
				  ? WARDEN_RULE_ROOT_CELL
				  : WARDEN_RULE_CELL_NOT_FOUND,
			  WARDEN_ITEM_CELL, (u32)id, 0, 0);
		return err->code;
	}
	return 0;
}

/* Load, start and shutdown need every CPU of the cell: refused for a
 * cell that lost one (only destroy is left for it). */
static int refuse_if_lost(struct cell *cell, struct warden_error *err)
{
	int cpu = lost_cpu(cell);

	if (cpu < 0 && cell->state != WARDEN_CELL_QUARANTINED)
		return 0;
	set_error(err, -WARDEN_EBUSY, WARDEN_RULE_CELL_LOST_CPU,
		  WARDEN_ITEM_CELL, cell->id, (u64)cpu, 0);
	return err->code;
}

/*
 * Ask a running cell whether it may stop (communication region protocol,
 * comm.h): 0 if it may (or it is not running, reports itself shut down or
 * failed, or is passive), -WARDEN_EBUSY with err filled if it denied or
 * is locked.  A cell that does not answer within SHUTDOWN_ANSWER_MS is
 * taken as agreeing: a hung cell must not be impossible to stop.
 */
static int ask_shutdown(struct cell *cell, struct warden_error *err)
{
	u32 reported, reply = WARDEN_REPLY_NONE;
	struct hv_wait w;

	if (cell->state != WARDEN_CELL_RUNNING)
		return 0;
	reported = comm_reported_state(cell);
	if (reported == WARDEN_CELL_SHUT_DOWN ||
	    reported == WARDEN_CELL_FAILED ||
	    (cell->config->flags & WARDEN_CELL_PASSIVE_COMM))
		return 0;
	if (reported != WARDEN_CELL_RUNNING_LOCKED) {
		comm_message(cell, WARDEN_MSG_SHUTDOWN_REQUEST);
		hv_wait_start(&w, SHUTDOWN_ANSWER_MS);
		while (!hv_wait_over(&w)) {
			reply = comm_reply(cell);
			if (reply != WARDEN_REPLY_NONE)
				break;
		}
		comm_message(cell, WARDEN_MSG_NONE);
		if (reply == WARDEN_REPLY_APPROVED)
			return 0;
		printk("Cell %u \"%s\": shutdown %s\n", cell->id,
		       cell->config->name,
		       reply == WARDEN_REPLY_DENIED ? "denied by the cell"
						    : "request not answered; "
						      "stopping it anyway");
		if (reply != WARDEN_REPLY_DENIED)
			return 0;
	}
	set_error(err, -WARDEN_EBUSY, WARDEN_RULE_SHUTDOWN_DENIED,
		  WARDEN_ITEM_CELL, cell->id, reported, 0);
	return err->code;
}

/* Stop every CPU of the cell; one that does not answer is lost (err
 * filled, -WARDEN_ETIMEDOUT), the others are stopped all the same. */
static int stop_cpus(struct cell *cell, struct warden_error *err)
{
	unsigned int cpu;
	int ret = 0;

	for (cpu = 0; cpu < hv.num_cpus; cpu++)
		if (cpu_in_set(&cell->cpus, cpu) && !cpu_is_lost(cpu) &&
		    arch_cpu_stop(per_cpu(cpu))) {
			cpu_lost(per_cpu(cpu), cell, WARDEN_REQUEST_STOP);
			no_answer(err, cpu, WARDEN_REQUEST_STOP);
			ret = -WARDEN_ETIMEDOUT;
		}
	return ret;
}

long cell_destroy(struct per_cpu *pc, unsigned long id, u64 error_gpa)
{
	struct warden_error err = { 0 }, unanswered = { 0 };
	struct warden_cpu_set suspended, lost = { { 0 } };
	struct cell *cell;
	unsigned int cpu;
	bool quarantine = false;

	if (lock_cell(id, &cell, &err))
		return refuse(pc, error_gpa, &err);
	/* a quarantined cell is gone already; what it holds stays */
	if (cell->state != WARDEN_CELL_QUARANTINED &&
	    !ask_shutdown(cell, &err) && !stop_cpus(cell, &unanswered))
		/* its CPUs stopped: its RAM is cleared while root runs on
		 * (a CPU that did not stop is lost below, and the cell and
		 * its memory stay quarantined) */
		ownership_clear(cell);
	if (cell->state == WARDEN_CELL_QUARANTINED || err.code ||
	    suspend_root(pc, &cell->cpus, &suspended, &err)) {
		if (cell->state == WARDEN_CELL_QUARANTINED)
			refuse_if_lost(cell, &err);
		spin_unlock(&hv.cells_lock);
		return refuse(pc, error_gpa, &err);
	}
	/* no unit sends the cell's CPUs anything once they are root's */
	units_cell_stop(cell, true);
	/* the CPUs first: they stop using the cell's tables */
	for (cpu = 0; cpu < hv.num_cpus; cpu++) {
		if (!cpu_in_set(&cell->cpus, cpu))
			continue;
		if (!cpu_is_lost(cpu) && arch_cpu_return(per_cpu(cpu)))
			cpu_lost(per_cpu(cpu), cell, WARDEN_REQUEST_RETURN);
		if (cpu_is_lost(cpu)) {
			cpu_set_add(&lost, cpu);
			quarantine = true;
		} else {
			cpu_set_add(&hv.root.cpus, cpu);
		}
	}
	if (quarantine) {
		/* A lost CPU may still run with the cell's page tables:
		 * they, its memory and its ports stay the cell's. */
		cell->cpus = lost;
		cell->state = WARDEN_CELL_QUARANTINED;
		resume_root(&suspended);
		printk("Cell %u \"%s\" destroyed, but it lost a CPU: its "
		       "memory, ports and lost CPUs stay quarantined until "
		       "disable\n",
		       cell->id, cell->config->name);
		spin_unlock(&hv.cells_lock);
		return 0;
	}
	ownership_give_back(cell);
	units_cell_exit(cell);
	arch_cell_destroy(cell);
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
		u32 reported = comm_reported_state(cell);

		if (reported == WARDEN_CELL_RUNNING_LOCKED ||
		    reported == WARDEN_CELL_SHUT_DOWN ||
		    reported == WARDEN_CELL_FAILED)
			return reported;
	}
	return cell->state;
}

long cell_set_loadable(struct per_cpu *pc, unsigned long id, u64 error_gpa)
{
	struct warden_cpu_set suspended;
	struct warden_error err = { 0 };
	struct cell *cell;

	if (lock_cell(id, &cell, &err))
		return refuse(pc, error_gpa, &err);
	if (cell->state != WARDEN_CELL_LOADING) {
		if (refuse_if_lost(cell, &err) || ask_shutdown(cell, &err) ||
		    stop_cpus(cell, &err) ||
		    suspend_root(pc, &cell->cpus, &suspended, &err))
			goto out;
		units_cell_stop(cell, false);
		ownership_lend_loadable(cell, true);
		resume_root(&suspended);
		cell->state = WARDEN_CELL_LOADING;
	}
out:
	spin_unlock(&hv.cells_lock);
	return err.code ? refuse(pc, error_gpa, &err) : 0;
}

long cell_start(struct per_cpu *pc, unsigned long id, u64 error_gpa)
{
	struct warden_cpu_set suspended;
	struct warden_error err = { 0 };
	struct per_cpu *first;
	struct cell *cell;
	unsigned int cpu, pass;

	if (lock_cell(id, &cell, &err))
		return refuse(pc, error_gpa, &err);
	if (refuse_if_lost(cell, &err) || ask_shutdown(cell, &err) ||
	    stop_cpus(cell, &err))
		goto out;
	if (cell->state == WARDEN_CELL_LOADING) {
		if (suspend_root(pc, &cell->cpus, &suspended, &err))
			goto out;
		ownership_lend_loadable(cell, false);
		resume_root(&suspended);
	}
	comm_reset(cell);
	cell->state = WARDEN_CELL_RUNNING;
	/* The first CPU starts last: the others must already wait for the
	 * SIPI it sends them (a SIPI to a CPU still parked is lost; seen
	 * with 8 CPUs on qemu-svm, tests/system/scale.sh). */
	first = cell_first_cpu(cell);
	for (pass = 0; pass < 2; pass++)
		for (cpu = 0; cpu < hv.num_cpus; cpu++)
			if (cpu_in_set(&cell->cpus, cpu) &&
			    (per_cpu(cpu) == first) == (pass == 1) &&
			    arch_cpu_start(per_cpu(cpu))) {
				cpu_lost(per_cpu(cpu), cell,
					 WARDEN_REQUEST_START);
				no_answer(&err, cpu, WARDEN_REQUEST_START);
			}
	printk("Cell %u \"%s\" started\n", cell->id, cell->config->name);
out:
	spin_unlock(&hv.cells_lock);
	return err.code ? refuse(pc, error_gpa, &err) : 0;
}

long cell_shutdown(struct per_cpu *pc, unsigned long id, u64 error_gpa)
{
	struct warden_error err = { 0 };
	struct cell *cell;

	if (lock_cell(id, &cell, &err))
		return refuse(pc, error_gpa, &err);
	if (!refuse_if_lost(cell, &err) && !ask_shutdown(cell, &err) &&
	    cell->state == WARDEN_CELL_RUNNING && !stop_cpus(cell, &err)) {
		cell->state = WARDEN_CELL_SHUT_DOWN;
		units_cell_stop(cell, false);
		printk("Cell %u \"%s\" shut down\n", cell->id,
		       cell->config->name);
	}
	spin_unlock(&hv.cells_lock);
	return err.code ? refuse(pc, error_gpa, &err) : 0;
}

void cell_fail(struct per_cpu *pc, const char *what, u64 value, u64 rip)
{
	struct cell *cell = pc->cell;

	console_cell_flush(pc);
	printk("Cell %u \"%s\", CPU %u: %s 0x%llx at RIP 0x%llx; cell "
	       "failed, CPU parked\n",
	       cell->id, cell->config->name, pc->cpu_id, what,
	       (unsigned long long)value, (unsigned long long)rip);
	cell->state = WARDEN_CELL_FAILED;
	__atomic_store_n(&pc->state, WARDEN_CPU_FAILED, __ATOMIC_SEQ_CST);
	/* its links' peers see it go down */
	units_cell_stop(cell, false);
}

void cell_power_off(struct per_cpu *pc, const char *what)
{
	struct cell *cell = pc->cell;

	console_cell_flush(pc);
	printk("Cell %u \"%s\", CPU %u: %s; cell shut down\n", cell->id,
	       cell->config->name, pc->cpu_id, what);
	cell->state = WARDEN_CELL_SHUT_DOWN;
	__atomic_store_n(&pc->state, WARDEN_CPU_PARKED, __ATOMIC_SEQ_CST);
	units_cell_stop(cell, false);
}

void cell_cpu_lost_here(struct per_cpu *pc, unsigned int vector, u64 rip)
{
	struct cell *cell = pc->cell;

	__atomic_store_n(&pc->state, WARDEN_CPU_LOST, __ATOMIC_SEQ_CST);
	cell->state = WARDEN_CELL_FAILED;
	printk("Cell %u \"%s\", CPU %u: hypervisor exception %u at RIP "
	       "0x%llx while running for the cell; CPU lost: it runs no "
	       "guest again and is not given back to Linux\n",
	       cell->id, cell->config->name, pc->cpu_id, vector,
	       (unsigned long long)rip);
}
