// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/warden: the hypervisor and its cells, for scripts.
 *
 *   enabled                        0 or 1
 *   cells/<id>/                    every cell while Warden is enabled
 *                                  (root is 0)
 *     name                         as in its config
 *     state                        as "warden cell list" says it
 *     cpus                         list format: 1-3,5
 *     cpus_failed                  the cell's CPUs the hypervisor failed
 *     pci_devices                  its PCI functions, DDDD:BB:DD.F a line
 *                                  (root: those no other cell has)
 *     loadable                     its loadable memory, guest-physical,
 *                                  0xSTART+0xSIZE a line (root: empty)
 *     reset_address                where its first CPU starts, 0xADDRESS
 *                                  (root: empty); "warden cell load"
 *                                  checks images against both
 *     statistics/vmexits_<reason>  VM exits, summed over the cell's CPUs
 *   links/<name>/                  every link while Warden is enabled
 *                                  (link_sysfs.c)
 *
 * Locking.  Attributes that ask the hypervisor take wd_lock, like every
 * other hypercall of the driver.  Removing a directory waits for the
 * readers inside it, who may wait for wd_lock, so directories are never
 * added or removed with wd_lock held.  The hooks cell.c and enable.c call
 * under wd_lock only queue the change; a cell that is gone is marked dead
 * at once, so that its attributes fail with -ENODEV from then on.
 * wd_sysfs_sync(), called once wd_lock is released, applies the queue in
 * order under sync_lock: the directory of a destroyed cell 1 is gone before
 * the next cell 1 gets its own.
 *
 * Lifetime.  A cell directory is a kobject in a struct wd_cell_dir, freed
 * by its release function when the last reference goes; sysfs does not
 * call a show function once the directory is removed, and the removal
 * waits for those that run.
 */
#include <linux/kobject.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <asm/unaligned.h>

#include <warden/cell.h>
#include <warden/config.h>
#include <warden/hypercall.h>
#include <warden/stats.h>

#include "warden-driver.h"

/* A CPU set is read as a kernel bitmap: bit n of word n / 64 is CPU n. */
static_assert(sizeof(unsigned long) == sizeof(u64));

struct wd_cell_dir;

/* A queued change: a directory to add or to remove. */
struct wd_sysfs_op {
	struct list_head node; /* on pending */
	struct wd_cell_dir *dir;
	bool add;
};

struct wd_cell_dir {
	struct kobject kobj;
	struct list_head live; /* on live_dirs while the cell exists */
	struct wd_sysfs_op add_op, del_op;
	u32 id;
	bool alive; /* the cell exists (wd_lock) */
	char name[WARDEN_NAME_LEN];
	/* The cell's CPUs; for root, the CPUs under the hypervisor, of
	 * which those of the other cells are not root's. */
	struct warden_cpu_set cpus;
	/* The PCI functions of its config, domain << 16 | bdf; for root,
	 * those of the system config (every function of the machine). */
	u32 *pci;
	u32 num_pci;
	/* Loadable regions (guest start, size pairs) and the reset
	 * address of a cell's config; none for root. */
	u64 *loadable;
	u32 num_loadable;
	bool has_reset;
	u64 reset_address;
};

static struct kobject *top_kobj, *cells_kobj;
static LIST_HEAD(live_dirs);	/* wd_lock */
static LIST_HEAD(pending);	/* wd_lock */
static DEFINE_MUTEX(sync_lock); /* held while applying changes */

/* The words of "warden cell list" (tools/cmd_cell.c), by WARDEN_CELL_*. */
static const char *const state_names[] = {
	[WARDEN_CELL_RUNNING] = "running",
	[WARDEN_CELL_RUNNING_LOCKED] = "running/locked",
	[WARDEN_CELL_SHUT_DOWN] = "shut down",
	[WARDEN_CELL_FAILED] = "failed",
	[WARDEN_CELL_CREATED] = "created",
	[WARDEN_CELL_LOADING] = "loading",
	[WARDEN_CELL_QUARANTINED] = "quarantined",
};

static struct wd_cell_dir *to_dir(struct kobject *kobj)
{
	return container_of(kobj, struct wd_cell_dir, kobj);
}

static void cell_release(struct kobject *kobj)
{
	kfree(to_dir(kobj)->pci);
	kfree(to_dir(kobj)->loadable);
	kfree(to_dir(kobj));
}

/* Take wd_lock for a reader of dir: 0, or an error (not holding it) when
 * the cell is gone. */
static int lock_alive(struct wd_cell_dir *dir)
{
	if (mutex_lock_interruptible(&wd_lock))
		return -ERESTARTSYS;
	if (dir->alive && wd_is_enabled())
		return 0;
	mutex_unlock(&wd_lock);
	return -ENODEV;
}

/* The CPUs dir's cell has now (wd_lock held).  Root's are the CPUs under
 * the hypervisor that no other cell has: the hooks keep every cell's
 * directory, with its CPUs, on live_dirs (as pci_devices reads them). */
static void cell_cpus(const struct wd_cell_dir *dir, struct warden_cpu_set *set)
{
	const struct wd_cell_dir *other;
	unsigned int i;

	*set = dir->cpus;
	if (dir->id != WARDEN_ROOT_CELL_ID)
		return;
	list_for_each_entry(other, &live_dirs, live)
	{
		if (other->id == WARDEN_ROOT_CELL_ID)
			continue;
		for (i = 0; i < WARDEN_CPU_SET_WORDS; i++)
			set->bits[i] &= ~other->cpus.bits[i];
	}
}

/* In the kernel's list format ("%*pbl"): "1-3,5", an empty line if none. */
static ssize_t emit_cpus(char *buf, const struct warden_cpu_set *set)
{
	return sysfs_emit(buf, "%*pbl\n", WARDEN_MAX_CPUS,
			  (const unsigned long *)set->bits);
}

static ssize_t name_show(struct kobject *kobj, struct kobj_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%s\n", to_dir(kobj)->name);
}

static ssize_t state_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	struct wd_cell_dir *dir = to_dir(kobj);
	const char *word = "unknown";
	long state;
	int ret = lock_alive(dir);

	if (ret)
		return ret;
	state = wd_hypercall(WARDEN_HC_CELL_GET_STATE, dir->id, 0);
	mutex_unlock(&wd_lock);
	if (state < 0)
		return state;
	if ((unsigned long)state < ARRAY_SIZE(state_names) &&
	    state_names[state])
		word = state_names[state];
	return sysfs_emit(buf, "%s\n", word);
}

static ssize_t cpus_show(struct kobject *kobj, struct kobj_attribute *attr,
			 char *buf)
{
	struct wd_cell_dir *dir = to_dir(kobj);
	struct warden_cpu_set set;
	int ret = lock_alive(dir);

	if (ret)
		return ret;
	cell_cpus(dir, &set);
	mutex_unlock(&wd_lock);
	return emit_cpus(buf, &set);
}

/* The failed (lost included) or the lost CPUs of the cell. */
static ssize_t show_failed(struct kobject *kobj, char *buf, bool only_lost)
{
	struct wd_cell_dir *dir = to_dir(kobj);
	struct warden_cpu_set set, failed, lost;
	int ret = lock_alive(dir);

	if (ret)
		return ret;
	cell_cpus(dir, &set);
	wd_cpus_failed(&set, &failed, &lost);
	mutex_unlock(&wd_lock);
	return emit_cpus(buf, only_lost ? &lost : &failed);
}

static ssize_t cpus_failed_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	return show_failed(kobj, buf, false);
}

static ssize_t cpus_lost_show(struct kobject *kobj, struct kobj_attribute *attr,
			      char *buf)
{
	return show_failed(kobj, buf, true);
}

/* Whether a cell other than root that exists has PCI function id
 * (wd_lock held). */
static bool pci_in_cell(u32 id)
{
	struct wd_cell_dir *dir;
	u32 i;

	list_for_each_entry(dir, &live_dirs,
			    live) for (i = 0; dir->id != WARDEN_ROOT_CELL_ID &&
					      i < dir->num_pci;
				       i++) if (dir->pci[i] == id) return true;
	return false;
}

/* One function a line, as Linux names it in /sys/bus/pci/devices
 * ("0000:00:02.0"); root's are those of the machine no cell has. */
static ssize_t pci_devices_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	struct wd_cell_dir *dir = to_dir(kobj);
	ssize_t len = 0;
	u32 i, id;
	int ret = lock_alive(dir);

	if (ret)
		return ret;
	for (i = 0; i < dir->num_pci; i++) {
		id = dir->pci[i];
		if (dir->id == WARDEN_ROOT_CELL_ID && pci_in_cell(id))
			continue;
		len += sysfs_emit_at(buf, len, "%04x:%02x:%02x.%u\n", id >> 16,
				     (id >> 8) & 0xff, (id >> 3) & 0x1f,
				     id & 7);
	}
	mutex_unlock(&wd_lock);
	return len;
}

/* Fixed at create: no lock needed, the directory holds its own copy. */
static ssize_t loadable_show(struct kobject *kobj, struct kobj_attribute *attr,
			     char *buf)
{
	struct wd_cell_dir *dir = to_dir(kobj);
	ssize_t len = 0;
	u32 i;

	for (i = 0; i < dir->num_loadable; i++)
		len += sysfs_emit_at(buf, len, "0x%llx+0x%llx\n",
				     dir->loadable[2 * i],
				     dir->loadable[2 * i + 1]);
	return len;
}

static ssize_t reset_address_show(struct kobject *kobj,
				  struct kobj_attribute *attr, char *buf)
{
	struct wd_cell_dir *dir = to_dir(kobj);

	return dir->has_reset ? sysfs_emit(buf, "0x%llx\n", dir->reset_address)
			      : 0;
}

/* Interrupt remapping entries the cell holds (MSI, MSI-X, IOAPIC pins;
 * 0 where cells' interrupts are not remapped). */
static ssize_t irq_remaps_show(struct kobject *kobj,
			       struct kobj_attribute *attr, char *buf)
{
	struct wd_cell_dir *dir = to_dir(kobj);
	long n;
	int ret = lock_alive(dir);

	if (ret)
		return ret;
	n = wd_hypercall(WARDEN_HC_CELL_IRQ_REMAPS, dir->id, 0);
	mutex_unlock(&wd_lock);
	if (n < 0)
		return n;
	return sysfs_emit(buf, "%ld\n", n);
}

static struct kobj_attribute name_attr = __ATTR_RO(name);
static struct kobj_attribute state_attr = __ATTR_RO(state);
static struct kobj_attribute cpus_attr = __ATTR_RO(cpus);
static struct kobj_attribute cpus_failed_attr = __ATTR_RO(cpus_failed);
static struct kobj_attribute cpus_lost_attr = __ATTR_RO(cpus_lost);
static struct kobj_attribute pci_devices_attr = __ATTR_RO(pci_devices);
static struct kobj_attribute loadable_attr = __ATTR_RO(loadable);
static struct kobj_attribute reset_address_attr = __ATTR_RO(reset_address);
static struct kobj_attribute irq_remaps_attr = __ATTR_RO(irq_remaps);

static struct attribute *cell_attrs[] = {
	&name_attr.attr,       &state_attr.attr,
	&cpus_attr.attr,       &cpus_failed_attr.attr,
	&cpus_lost_attr.attr,  &pci_devices_attr.attr,
	&loadable_attr.attr,   &reset_address_attr.attr,
	&irq_remaps_attr.attr, NULL,
};

static const struct attribute_group cell_group = {
	.attrs = cell_attrs,
};

/* statistics/: one file per counter of include/warden/stats.h. */
struct wd_stat_attr {
	struct kobj_attribute attr;
	unsigned int index; /* WARDEN_STAT_* */
};

static ssize_t stat_show(struct kobject *kobj, struct kobj_attribute *attr,
			 char *buf)
{
	struct wd_cell_dir *dir = to_dir(kobj);
	unsigned int index =
		container_of(attr, struct wd_stat_attr, attr)->index;
	struct warden_cpu_set set;
	unsigned int cpu;
	u64 sum = 0;
	long value;
	int ret = lock_alive(dir);

	if (ret)
		return ret;
	cell_cpus(dir, &set);
	for (cpu = 0; cpu < WARDEN_MAX_CPUS; cpu++) {
		if (!warden_cpu_in_set(&set, cpu))
			continue;
		value = wd_hypercall(WARDEN_HC_CPU_GET_INFO, cpu,
				     WARDEN_CPU_INFO_STAT_BASE + index);
		if (value > 0)
			sum += value;
	}
	mutex_unlock(&wd_lock);
	return sysfs_emit(buf, "%llu\n", sum);
}

/* The names are those of the CLI (tools/cmd_enable.c), after "vmexits_". */
#define STAT_ATTR(reason, stat)                                                \
	{                                                                      \
		.attr = __ATTR(vmexits_##reason, 0444, stat_show, NULL),       \
		.index = WARDEN_STAT_VMEXITS_##stat,                           \
	}

static struct wd_stat_attr stat_attrs[] = {
	STAT_ATTR(total, TOTAL),
	STAT_ATTR(cpuid, CPUID),
	STAT_ATTR(cr, CR),
	STAT_ATTR(msr_read, MSR_READ),
	STAT_ATTR(msr_write, MSR_WRITE),
	STAT_ATTR(x2apic_icr, X2APIC_ICR),
	STAT_ATTR(xapic, XAPIC),
	STAT_ATTR(xsetbv, XSETBV),
	STAT_ATTR(pio, PIO),
	STAT_ATTR(mmio, MMIO),
	STAT_ATTR(hypercall, HYPERCALL),
	STAT_ATTR(management, MANAGEMENT),
	STAT_ATTR(nmi, NMI),
	STAT_ATTR(init_sipi, INIT_SIPI),
	STAT_ATTR(exception, EXCEPTION),
	STAT_ATTR(other, OTHER),
};
static_assert(ARRAY_SIZE(stat_attrs) == WARDEN_NUM_STATS);

static struct attribute *stat_attr_list[WARDEN_NUM_STATS + 1];

static const struct attribute_group stats_group = {
	.name = "statistics",
	.attrs = stat_attr_list,
};

static const struct attribute_group *cell_groups[] = {
	&cell_group,
	&stats_group,
	NULL,
};

static const struct kobj_type cell_ktype = {
	.release = cell_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = cell_groups,
};

void wd_sysfs_cell_added(u32 id, const char *name,
			 const struct warden_cpu_set *cpus,
			 const struct warden_pci_device *pci, u32 num_pci)
{
	struct wd_cell_dir *dir;
	u32 i;

	lockdep_assert_held(&wd_lock);
	dir = kzalloc(sizeof(*dir), GFP_KERNEL);
	if (dir && num_pci) {
		dir->pci =
			kmalloc_array(num_pci, sizeof(*dir->pci), GFP_KERNEL);
		if (!dir->pci) {
			kfree(dir);
			dir = NULL;
		}
	}
	if (!dir) {
		pr_warn("warden: cell %u has no sysfs directory (no memory)\n",
			id);
		return;
	}
	kobject_init(&dir->kobj, &cell_ktype);
	/* the config is not aligned for the compiler: copy field by field */
	for (i = 0; i < num_pci; i++)
		dir->pci[i] = (u32)get_unaligned(&pci[i].domain) << 16 |
			      get_unaligned(&pci[i].bdf);
	dir->num_pci = num_pci;
	dir->id = id;
	dir->alive = true;
	strscpy(dir->name, name, sizeof(dir->name));
	dir->cpus = *cpus;
	dir->add_op.dir = dir;
	dir->add_op.add = true;
	dir->del_op.dir = dir;
	list_add_tail(&dir->live, &live_dirs);
	list_add_tail(&dir->add_op.node, &pending);
}

void wd_sysfs_cell_memory(u32 id, const struct warden_cell_desc *desc)
{
	const struct warden_mem_region *r = warden_cell_mem_regions(desc);
	struct wd_cell_dir *dir = NULL;
	struct list_head *pos;
	u32 i, n = 0;

	lockdep_assert_held(&wd_lock);
	/* the live directory of id, just added */
	for (pos = live_dirs.next; pos != &live_dirs; pos = pos->next)
		if (list_entry(pos, struct wd_cell_dir, live)->id == id)
			dir = list_entry(pos, struct wd_cell_dir, live);
	if (!dir)
		return;
	dir->reset_address = get_unaligned(&desc->reset_address);
	dir->has_reset = true;
	dir->loadable = kmalloc_array(2 * desc->num_memory_regions + 1,
				      sizeof(*dir->loadable), GFP_KERNEL);
	if (!dir->loadable)
		return; /* the CLI then leaves the checks to cell load */
	for (i = 0; i < desc->num_memory_regions; i++) {
		if (!(get_unaligned(&r[i].flags) & WARDEN_MEM_LOADABLE))
			continue;
		dir->loadable[2 * n] = get_unaligned(&r[i].guest_start);
		dir->loadable[2 * n + 1] = get_unaligned(&r[i].size);
		n++;
	}
	dir->num_loadable = n;
}

/* The cell of dir is gone: its attributes fail from now on, and its
 * directory is to go (wd_lock held). */
static void kill(struct wd_cell_dir *dir)
{
	dir->alive = false;
	list_del(&dir->live);
	list_add_tail(&dir->del_op.node, &pending);
}

void wd_sysfs_cell_removed(u32 id)
{
	struct list_head *pos;

	lockdep_assert_held(&wd_lock);
	for (pos = live_dirs.next; pos != &live_dirs; pos = pos->next) {
		struct wd_cell_dir *dir =
			list_entry(pos, struct wd_cell_dir, live);

		if (dir->id == id) {
			kill(dir);
			return;
		}
	}
}

void wd_sysfs_sync(void)
{
	struct wd_sysfs_op *op;
	LIST_HEAD(ops);
	int ret;

	mutex_lock(&sync_lock);
	mutex_lock(&wd_lock);
	list_splice_tail_init(&pending, &ops);
	mutex_unlock(&wd_lock);
	while (!list_empty(&ops)) {
		op = list_first_entry(&ops, struct wd_sysfs_op, node);
		list_del(&op->node);
		if (!op->add) {
			/* removes the directory and frees it */
			kobject_put(&op->dir->kobj);
			continue;
		}
		ret = kobject_add(&op->dir->kobj, cells_kobj, "%u",
				  op->dir->id);
		if (ret)
			pr_warn("warden: cell %u has no sysfs directory (%d)\n",
				op->dir->id, ret);
	}
	mutex_unlock(&sync_lock);
}

static ssize_t enabled_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%d\n", wd_is_enabled());
}

static struct kobj_attribute enabled_attr = __ATTR_RO(enabled);

static struct attribute *top_attrs[] = {
	&enabled_attr.attr,
	NULL,
};

static const struct attribute_group top_group = {
	.attrs = top_attrs,
};

struct kobject *wd_sysfs_kobj(void)
{
	return top_kobj;
}

int wd_sysfs_init(void)
{
	unsigned int i;
	int ret;

	for (i = 0; i < WARDEN_NUM_STATS; i++)
		stat_attr_list[i] = &stat_attrs[i].attr.attr;
	top_kobj = kobject_create_and_add("warden", kernel_kobj);
	if (!top_kobj)
		return -ENOMEM;
	ret = sysfs_create_group(top_kobj, &top_group);
	if (ret)
		goto fail;
	cells_kobj = kobject_create_and_add("cells", top_kobj);
	if (!cells_kobj) {
		ret = -ENOMEM;
		goto fail;
	}
	return 0;
fail:
	kobject_put(top_kobj); /* removes the group too */
	top_kobj = NULL;
	return ret;
}

void wd_sysfs_exit(void)
{
	/* Normally none are left: disable removes them. */
	mutex_lock(&wd_lock);
	while (!list_empty(&live_dirs))
		kill(list_first_entry(&live_dirs, struct wd_cell_dir, live));
	mutex_unlock(&wd_lock);
	wd_sysfs_sync();
	kobject_put(cells_kobj);
	kobject_put(top_kobj);
}
