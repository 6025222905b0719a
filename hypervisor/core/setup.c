// SPDX-License-Identifier: GPL-2.0
/*
 * Entering the hypervisor: every CPU Linux runs on comes here from the
 * driver's entry stub, on its own hypervisor stack and in the hypervisor's
 * address space.  The first CPU sets up the system (console, page pool,
 * root cell); every CPU then switches on the virtualization extension and
 * prepares its guest (arch_cpu_init); all wait for each other, and
 * only if every CPU succeeded do they launch Linux as the root cell.  A
 * failure anywhere sends every CPU back to Linux with that error, so the
 * driver sees all or nothing.
 */
#include <asm/processor.h>
#include <hv/arch.h>
#include <hv/hypervisor.h>
#include <hv/printk.h>
#include <hv/unit.h>
#include <hv/spinlock.h>
#include <hv/wait.h>
#include <config_check.h>
#include <warden/cell.h>
#include <warden/hypercall.h>

struct hypervisor hv;

/* How long the CPUs wait for each other at enable. */
#define ENTER_WAIT_MS 5000

static spinlock_t init_lock;
static bool master_done;
static int master_error;
static u32 cpus_entered, cpus_failed;
/* Root traps more than a cell: every MSI-X table of its functions. */
static struct mmio_region root_mmio_regions[HV_ROOT_MMIO_REGIONS];
static struct own_trap root_traps[HV_ROOT_TRAPS];

extern struct warden_hv_header hv_header;

struct per_cpu *per_cpu(unsigned int cpu)
{
	return (struct per_cpu *)(WARDEN_HV_BASE + hv.header->core_size +
				  (u64)cpu * hv.header->percpu_size);
}

void hv_set_error(struct per_cpu *pc, int code, u32 rule, u32 item_kind,
		  u32 item_index, u64 v0, u64 v1)
{
	struct warden_error *e = &pc->entry->error;

	if (e->code)
		return; /* keep the first reason */
	e->code = code;
	e->rule = rule;
	e->item_kind = item_kind;
	e->item_index = item_index;
	e->cpu = pc->cpu_id;
	e->values[0] = v0;
	e->values[1] = v1;
}

int hv_no_memory(struct per_cpu *pc, unsigned int stage)
{
	hv_set_error(pc, -WARDEN_ENOMEM, WARDEN_RULE_NO_MEMORY,
		     WARDEN_ITEM_NONE, 0, stage, hv.pool.pages - hv.pool.used);
	return -WARDEN_ENOMEM;
}

static void first_config_error(void *ctx, const struct warden_error *e)
{
	struct per_cpu *pc = ctx;

	hv_set_error(pc, e->code, e->rule, e->item_kind, e->item_index,
		     e->values[0], e->values[1]);
	pc->entry->error.values[2] = e->values[2];
	pc->entry->error.values[3] = e->values[3];
	pc->entry->error.cpu = WARDEN_NO_CPU;
}

/* System-wide setup, on the first CPU to arrive. */
static int init_master(struct per_cpu *pc)
{
	struct warden_hv_header *h = hv.header;
	u64 pool_start = h->pool_offset;
	unsigned long pages = (h->hv_mem_size - pool_start) / PAGE_SIZE;
	int err;

	hv.config = (const struct warden_system_desc
			     *)((u8 *)WARDEN_HV_BASE + h->config_offset +
				sizeof(struct warden_config_header));
	hv.num_cpus = h->online_cpus;

	/* The driver checked the config; the hypervisor trusts no one. */
	if (config_check_system((u8 *)WARDEN_HV_BASE + h->config_offset,
				h->config_size, first_config_error, pc))
		return -WARDEN_EINVAL;

	/* The console: the pages root may read, placed by the driver. */
	hv.console = (void *)(WARDEN_HV_BASE + h->console_offset);
	console_init(hv.console);
	arch_console_init(&hv.config->debug_console);
	printk("\nWarden hypervisor, ABI revision %d, on %u CPUs; memory "
	       "0x%llx+0x%llx; TSC %u kHz\n",
	       WARDEN_ABI_REVISION, hv.num_cpus,
	       (unsigned long long)h->hv_mem_phys,
	       (unsigned long long)h->hv_mem_size, h->tsc_khz);
	if (h->flags & WARDEN_HV_TEST_HOOKS)
		printk("WARNING: test hooks enabled: cells may make the "
		       "hypervisor fail on their CPUs on purpose\n");

	err = pool_init(&hv.pool, WARDEN_HV_BASE + pool_start,
			h->hv_mem_phys + pool_start, pages);
	if (err) {
		hv_set_error(pc, err, WARDEN_RULE_HV_MEM_TOO_SMALL,
			     WARDEN_ITEM_SYSTEM, 0, pool_start + 2 * PAGE_SIZE,
			     h->hv_mem_size);
		return err;
	}

	/* The driver built our page tables; keep using them. */
	hv.hv_pt.pool = &hv.pool;
	hv.hv_pt.root = hv_phys_to_virt(h->hv_cr3);

	err = arch_init_system(pc);
	if (err)
		return err;

	hv.root.id = WARDEN_ROOT_CELL_ID;
	hv.root.state = WARDEN_CELL_RUNNING;
	hv.cells[WARDEN_ROOT_CELL_ID] = &hv.root;
	hv.root.config = &hv.config->root_cell;
	hv.root.cpus = hv.config->root_cell.cpus;
	mmio_registry_init(&hv.root.mmio, root_mmio_regions,
			   HV_ROOT_MMIO_REGIONS);
	mmio_registry_init(&hv.root.pio, hv.root.pio_regions,
			   HV_CELL_PIO_REGIONS);
	ownership_traps_init(&hv.root.traps, root_traps, HV_ROOT_TRAPS);
	console_cell_reset(&hv.root);
	err = arch_root_cell_init(pc, &hv.root);
	if (!err)
		err = ownership_root_init(pc);
	if (err)
		return err;
	err = units_init(pc);
	if (err)
		return err;
	hv.pool_used_at_start = hv.pool.used;
	printk("Memory pool: %lu of %lu pages used after setup\n", hv.pool.used,
	       hv.pool.pages);
	return 0;
}

/*
 * The C entry, from arch entry code: cpu_id is Linux's CPU number, ctx
 * the driver's entry context for this CPU.  Returns (to the arch code,
 * which goes back to Linux) only on failure.
 */
long hv_entry(unsigned int cpu_id, struct warden_entry_ctx *ctx)
{
	struct per_cpu *pc;
	struct hv_wait w;
	int err;

	hv.header = &hv_header;
	pc = per_cpu(cpu_id); /* zeroed by the driver; we run on its stack */
	pc->self = pc;
	pc->cpu_id = cpu_id;
	pc->apic_id = ctx->apic_id;
	pc->entry = ctx;
	pc->cell = &hv.root;
	arch_cpu_prepare(pc);

	spin_lock(&init_lock);
	if (!master_done) {
		master_error = init_master(pc);
		master_done = true;
	}
	err = master_error;
	spin_unlock(&init_lock);

	if (!err && !cpu_in_set(&hv.root.cpus, cpu_id)) {
		hv_set_error(pc, -WARDEN_EINVAL, WARDEN_RULE_CPU_NOT_IN_ROOT,
			     WARDEN_ITEM_CPU, cpu_id, 0, 0);
		err = -WARDEN_EINVAL;
	}
	if (!err)
		err = arch_cpu_init(pc);
	if (err)
		__atomic_fetch_add(&cpus_failed, 1, __ATOMIC_SEQ_CST);
	__atomic_fetch_add(&cpus_entered, 1, __ATOMIC_SEQ_CST);
	/* The driver sends every CPU in at once; one that has not come
	 * after ENTER_WAIT_MS makes the enable fail everywhere (a late one
	 * finds cpus_failed set and goes back too). */
	hv_wait_start(&w, ENTER_WAIT_MS);
	while (__atomic_load_n(&cpus_entered, __ATOMIC_SEQ_CST) < hv.num_cpus) {
		if (hv_wait_over(&w) &&
		    !__atomic_load_n(&cpus_failed, __ATOMIC_SEQ_CST)) {
			hv_set_error(pc, -WARDEN_ETIMEDOUT,
				     WARDEN_RULE_CPU_NO_ANSWER, WARDEN_ITEM_CPU,
				     pc->cpu_id, WARDEN_REQUEST_ENTER,
				     ENTER_WAIT_MS);
			__atomic_fetch_add(&cpus_failed, 1, __ATOMIC_SEQ_CST);
			break;
		}
		cpu_relax();
	}

	if (__atomic_load_n(&cpus_failed, __ATOMIC_SEQ_CST)) {
		if (!err)
			err = -WARDEN_EBUSY; /* another CPU failed */
		arch_cpu_undo(pc);
		printk("CPU %u: not activated (%d)\n", cpu_id, err);
		return err;
	}

	pc->state = WARDEN_CPU_RUNNING;
	printk("CPU %u: activated, Linux continues as root cell\n", cpu_id);
	err = arch_cpu_activate(pc);
	/* only reached if the launch failed */
	printk("CPU %u: launch failed (%d)\n", cpu_id, err);
	return err;
}
