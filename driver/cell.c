// SPDX-License-Identifier: GPL-2.0
/*
 * The cell ioctls.
 *
 * Create: the hypervisor, which is authoritative, checks the config
 * against the running system first (validate-only hypercall); only then
 * does Linux give up the cell's CPUs (remove_cpu) and the create hypercall
 * takes them, parked.  Any failure brings the CPUs back online.  Destroy
 * reverses it: the hypervisor gives everything back to root and Linux
 * onlines the CPUs again (add_cpu, whose INIT/SIPI the hypervisor
 * emulates).  Load asks the hypervisor to make the cell's loadable
 * memory root's to write (a cell call) and copies the images in; start
 * and shutdown are one cell call each (cell_call), whose refusals carry
 * the hypervisor's record.
 */
#include <linux/cpu.h>
#include <linux/io.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <config_check.h>
#include <warden/cell.h>
#include <warden/config.h>
#include <warden/hypercall.h>

#include "warden-driver.h"

/* The cells that exist, as the driver created them. */
static struct wd_cell {
	u32 id; /* 0: free slot */
	char name[WARDEN_NAME_LEN];
	struct warden_cpu_set cpus;
	void *config; /* the validated blob, for "cell load" */
	/* destroyed, but it lost a CPU: kept by the hypervisor until
	 * disable (WARDEN_CELL_QUARANTINED) */
	bool quarantined;
} cells[WARDEN_MAX_DRIVER_CELLS];

/* The record of the hypervisor's last refusal of a cell call: it writes
 * it by guest-physical address, so it lives in the kernel's direct map
 * (kmalloc), not in the module's own data.  wd_lock held. */
static struct warden_error *hv_err;

/* A refusal from the hypervisor: its record, or one saying what failed. */
static int hv_refused(struct warden_error *out, const struct warden_error *herr,
		      long ret, const char *what)
{
	struct wd_reason why = { .rule = WARDEN_RULE_UNSUPPORTED,
				 .cpu = WARDEN_NO_CPU,
				 .text = what };

	if (herr && herr->rule) {
		*out = *herr;
		pr_err("warden: %s: the hypervisor refused: rule %u, item kind "
		       "%u index %u, values 0x%llx 0x%llx\n",
		       what, herr->rule, herr->item_kind, herr->item_index,
		       herr->values[0], herr->values[1]);
		return (int)ret;
	}
	return wd_error(out, (int)ret, &why, "%s: the hypercall failed (%ld)",
			what, ret);
}

/* A management call on cell id (destroy, load, start, shutdown) with
 * the hypervisor's record of a refusal; wd_lock held. */
static long cell_call(unsigned long code, u32 id)
{
	if (!hv_err)
		hv_err = kzalloc(sizeof(*hv_err), GFP_KERNEL);
	if (!hv_err)
		return wd_hypercall(code, id, 0);
	memset(hv_err, 0, sizeof(*hv_err));
	return wd_hypercall(code, id, virt_to_phys(hv_err));
}

/* A refusal of cell_call: the hypervisor's record, said in the log. */
static int cell_refused(struct warden_error *out, long ret, u32 id,
			const char *what)
{
	if (!hv_err)
		return hv_refused(out, NULL, ret, what);
	if (hv_err->rule == WARDEN_RULE_SHUTDOWN_DENIED)
		pr_err("warden: %s: cell %u denied the shutdown request (or "
		       "is locked)\n",
		       what, id);
	else if (hv_err->rule == WARDEN_RULE_CPU_NO_ANSWER)
		pr_err("warden: %s: CPU %u did not answer the hypervisor in "
		       "time\n",
		       what, hv_err->item_index);
	else if (hv_err->rule == WARDEN_RULE_CELL_LOST_CPU)
		pr_err("warden: %s: cell %u lost CPU %llu; only destroy is "
		       "left for it\n",
		       what, id, hv_err->values[0]);
	return hv_refused(out, hv_err, ret, what);
}

/* After a cell call: CPUs of set the hypervisor lost are noted (they
 * stay offline); wd_lock held. */
static void note_lost(const struct warden_cpu_set *set)
{
	unsigned int cpu;

	for (cpu = 0; cpu < WARDEN_MAX_CPUS; cpu++)
		if (warden_cpu_in_set(set, cpu) &&
		    wd_hypercall(WARDEN_HC_CPU_GET_INFO, cpu,
				 WARDEN_CPU_INFO_STATE) == WARDEN_CPU_LOST)
			wd_cpu_lost(cpu);
}

static int validate(struct warden_cell_create *arg, void *config,
		    struct warden_error *herr)
{
	long ret = wd_hypercall(WARDEN_HC_CONFIG_VALIDATE, virt_to_phys(config),
				virt_to_phys(herr));

	return ret < 0 ? hv_refused(&arg->error, herr, ret, "cell create") : 0;
}

/* Bring back the CPUs of set that are offline because of us, but those
 * the hypervisor lost. */
static void online_cpus(const struct warden_cpu_set *set)
{
	unsigned int cpu;
	int err;

	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		if (warden_cpu_in_set(set, cpu) && !cpu_online(cpu) &&
		    (!wd_is_enabled() ||
		     wd_hypercall(WARDEN_HC_CPU_GET_INFO, cpu,
				  WARDEN_CPU_INFO_STATE) != WARDEN_CPU_LOST)) {
			err = add_cpu(cpu);
			if (err)
				pr_err("warden: CPU %u did not come back "
				       "online "
				       "(%d)\n",
				       cpu, err);
		}
}

static int create(struct warden_cell_create *arg, void *config,
		  struct warden_error *herr)
{
	const struct warden_cell_desc *desc =
		config + sizeof(struct warden_config_header);
	struct wd_reason why = { .cpu = WARDEN_NO_CPU };
	struct warden_cpu_set taken = { 0 };
	unsigned int cpu, slot;
	long ret;
	int err;

	for (slot = 0; slot < WARDEN_MAX_DRIVER_CELLS && cells[slot].id; slot++)
		;
	if (slot == WARDEN_MAX_DRIVER_CELLS) {
		why.rule = WARDEN_RULE_NO_MEMORY;
		return wd_error(&arg->error, -ENOSPC, &why,
				"cell create: %u cells exist already",
				WARDEN_MAX_DRIVER_CELLS);
	}
	/* Linux gives up the cell's CPUs (the validator made sure they are
	 * root's and not CPU 0). */
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		if (!warden_cpu_in_set(&desc->cpus, cpu) || !cpu_online(cpu))
			continue;
		err = remove_cpu(cpu);
		if (err) {
			online_cpus(&taken);
			why.rule = WARDEN_RULE_CPU_HOTPLUG;
			why.item_kind = WARDEN_ITEM_CPU;
			why.item_index = cpu;
			why.values[0] = -err;
			return wd_error(&arg->error, err, &why,
					"cell create: Linux could not give up "
					"CPU %u (%d)",
					cpu, err);
		}
		warden_cpu_set_add(&taken, cpu);
	}
	memset(herr, 0, sizeof(*herr));
	ret = wd_hypercall(WARDEN_HC_CELL_CREATE, virt_to_phys(config),
			   virt_to_phys(herr));
	if (ret < 0) {
		online_cpus(&taken);
		return hv_refused(&arg->error, herr, ret, "cell create");
	}
	cells[slot].id = (u32)ret;
	cells[slot].quarantined = false;
	note_lost(&desc->cpus);
	cells[slot].config = config; /* kept: the caller does not free it */
	strscpy(cells[slot].name, desc->name, sizeof(cells[slot].name));
	cells[slot].cpus = desc->cpus;
	arg->cell_id = (u32)ret;
	wd_sysfs_cell_added(cells[slot].id, cells[slot].name, &cells[slot].cpus,
			    warden_cell_pci_devices(desc),
			    desc->num_pci_devices);
	wd_sysfs_cell_memory(cells[slot].id, desc);
	pr_info("warden: cell %ld \"%s\" created\n", ret, cells[slot].name);
	return 0;
}

/* Destroy the cell in slot (wd_lock held).  If it lost a CPU, the
 * hypervisor keeps it, quarantined, until disable: so does the driver. */
static int destroy(struct warden_error *err, unsigned int slot)
{
	long ret = cell_call(WARDEN_HC_CELL_DESTROY, cells[slot].id);

	if (ret < 0)
		return cell_refused(err, ret, cells[slot].id, "cell destroy");
	note_lost(&cells[slot].cpus);
	online_cpus(&cells[slot].cpus);
	if (wd_hypercall(WARDEN_HC_CELL_GET_STATE, cells[slot].id, 0) ==
	    WARDEN_CELL_QUARANTINED) {
		struct warden_cpu_set all = cells[slot].cpus, failed;
		const struct warden_cell_desc *desc =
			cells[slot].config +
			sizeof(struct warden_config_header);

		/* it holds only its lost CPUs now */
		wd_cpus_failed(&all, &failed, &cells[slot].cpus);
		wd_sysfs_cell_removed(cells[slot].id);
		/* its PCI devices stay with it, as its memory does */
		wd_sysfs_cell_added(cells[slot].id, cells[slot].name,
				    &cells[slot].cpus,
				    warden_cell_pci_devices(desc),
				    desc->num_pci_devices);
		pr_warn("warden: cell %u \"%s\" destroyed, but it lost a "
			"CPU: its memory, ports and lost CPUs stay "
			"quarantined until disable\n",
			cells[slot].id, cells[slot].name);
		cells[slot].quarantined = true;
		return 0;
	}
	pr_info("warden: cell %u \"%s\" destroyed\n", cells[slot].id,
		cells[slot].name);
	wd_sysfs_cell_removed(cells[slot].id);
	cells[slot].id = 0;
	kfree(cells[slot].config);
	cells[slot].config = NULL;
	return 0;
}

int wd_cell_destroy_all(struct warden_error *err)
{
	unsigned int slot;
	int ret;

	for (slot = 0; slot < WARDEN_MAX_DRIVER_CELLS; slot++)
		if (cells[slot].id && !cells[slot].quarantined) {
			ret = destroy(err, slot);
			if (ret)
				return ret;
		}
	return 0;
}

void wd_cells_exit(void)
{
	kfree(hv_err);
	hv_err = NULL;
}

void wd_cells_forget(void)
{
	unsigned int slot;

	for (slot = 0; slot < WARDEN_MAX_DRIVER_CELLS; slot++)
		if (cells[slot].id) {
			wd_sysfs_cell_removed(cells[slot].id);
			cells[slot].id = 0;
			kfree(cells[slot].config);
			cells[slot].config = NULL;
		}
}

int wd_cell_destroy(struct warden_cell_ref *arg)
{
	struct wd_reason why = { .rule = WARDEN_RULE_CELL_NOT_FOUND,
				 .item_kind = WARDEN_ITEM_CELL,
				 .item_index = arg->cell_id,
				 .cpu = WARDEN_NO_CPU };
	unsigned int slot;
	int ret;

	mutex_lock(&wd_lock);
	for (slot = 0; slot < WARDEN_MAX_DRIVER_CELLS; slot++)
		if (cells[slot].id && cells[slot].id == arg->cell_id)
			break;
	if (!wd_is_enabled() || slot == WARDEN_MAX_DRIVER_CELLS)
		ret = wd_error(&arg->error, -ENOENT, &why,
			       "cell destroy: no cell %u", arg->cell_id);
	else
		ret = destroy(&arg->error, slot);
	mutex_unlock(&wd_lock);
	wd_sysfs_sync();
	return ret;
}

int wd_cell_info(struct warden_cell_info *info)
{
	struct wd_reason why = { .rule = WARDEN_RULE_CELL_NOT_FOUND,
				 .item_kind = WARDEN_ITEM_CELL,
				 .item_index = info->index,
				 .cpu = WARDEN_NO_CPU };
	unsigned int slot, n = 0;
	int ret = -ENOENT;
	long faults;

	mutex_lock(&wd_lock);
	for (slot = 0; slot < WARDEN_MAX_DRIVER_CELLS; slot++) {
		if (!cells[slot].id || n++ != info->index)
			continue;
		info->cell_id = cells[slot].id;
		info->state = (u32)wd_hypercall(WARDEN_HC_CELL_GET_STATE,
						cells[slot].id, 0);
		faults = wd_hypercall(WARDEN_HC_CELL_DMA_FAULTS, cells[slot].id,
				      0);
		info->dma_faults = faults < 0		  ? 0
				   : faults > 0xffffffffl ? 0xffffffffu
							  : (u32)faults;
		faults = wd_hypercall(WARDEN_HC_CELL_IRQ_REMAPS, cells[slot].id,
				      0);
		info->irq_remaps = faults < 0 ? 0 : (u32)faults;
		memcpy(info->name, cells[slot].name, sizeof(info->name));
		info->cpus = cells[slot].cpus;
		wd_cpus_failed(&info->cpus, &info->failed_cpus,
			       &info->lost_cpus);
		ret = 0;
		break;
	}
	mutex_unlock(&wd_lock);
	if (ret) {
		/* The end of an enumeration ("cell list"), not a failure to
		 * log: the record says why, the kernel log stays quiet. */
		memset(&info->error, 0, sizeof(info->error));
		info->error.code = ret;
		info->error.rule = why.rule;
		info->error.item_kind = why.item_kind;
		info->error.item_index = why.item_index;
		info->error.cpu = why.cpu;
	}
	return ret;
}

int wd_cell_create(struct warden_cell_create *arg)
{
	struct wd_reason why = { .cpu = WARDEN_NO_CPU };
	struct warden_error *herr;
	void *config;
	long ret;

	if (arg->flags & ~WARDEN_CREATE_VALIDATE_ONLY) {
		why.rule = WARDEN_RULE_BAD_ARGUMENT;
		why.item_kind = WARDEN_ITEM_IOCTL;
		why.values[0] = 1; /* the flags field */
		why.values[1] = arg->flags;
		return wd_error(&arg->error, -EINVAL, &why,
				"cell create: unknown flags 0x%x", arg->flags);
	}
	if (arg->config_size > CONFIG_CHECK_MAX_SIZE) {
		why.rule = WARDEN_RULE_CONFIG_TOO_LARGE;
		why.item_kind = WARDEN_ITEM_CELL;
		why.values[0] = arg->config_size;
		why.values[1] = CONFIG_CHECK_MAX_SIZE;
		return wd_error(&arg->error, -E2BIG, &why,
				"cell create: config of %u bytes, more than "
				"%u",
				arg->config_size, CONFIG_CHECK_MAX_SIZE);
	}
	/* Physically contiguous copies: the hypervisor reads the config and
	 * writes its verdict by guest-physical address. */
	config = kmalloc(max_t(u32, arg->config_size, 1), GFP_KERNEL);
	herr = kzalloc(sizeof(*herr), GFP_KERNEL);
	if (!config || !herr) {
		ret = -ENOMEM;
		goto out;
	}
	if (copy_from_user(config, u64_to_user_ptr(arg->config_ptr),
			   arg->config_size)) {
		ret = -EFAULT;
		goto out;
	}
	/* The hypervisor reads the header to know the length. */
	if (arg->config_size < sizeof(struct warden_config_header)) {
		why.rule = WARDEN_RULE_CONFIG_TOO_SMALL;
		why.item_kind = WARDEN_ITEM_CELL;
		why.values[0] = arg->config_size;
		why.values[1] = sizeof(struct warden_config_header);
		ret = wd_error(&arg->error, -EINVAL, &why,
			       "cell create: config of %u bytes, smaller than "
			       "its header",
			       arg->config_size);
		goto out;
	}
	/* the hypervisor copies total_size bytes: make it the real length */
	((struct warden_config_header *)config)->total_size =
		min_t(u32, ((struct warden_config_header *)config)->total_size,
		      arg->config_size);

	mutex_lock(&wd_lock);
	if (!wd_is_enabled()) {
		why.rule = WARDEN_RULE_NOT_ENABLED;
		ret = wd_error(&arg->error, -EINVAL, &why,
			       "cell create: Warden is not enabled");
		goto unlock;
	}
	ret = validate(arg, config, herr);
	if (!ret)
		ret = wd_cell_check_linux_memory(
			&arg->error,
			config + sizeof(struct warden_config_header));
	if (ret || (arg->flags & WARDEN_CREATE_VALIDATE_ONLY))
		goto unlock;
	ret = create(arg, config, herr);
	if (!ret)
		config = NULL; /* the cell keeps it */
unlock:
	mutex_unlock(&wd_lock);
	wd_sysfs_sync();
out:
	kfree(config);
	kfree(herr);
	return ret < 0 ? (int)ret : 0;
}

/* The slot of cell id (wd_lock held), or -1. */
static int slot_of(u32 id)
{
	unsigned int slot;

	for (slot = 0; slot < WARDEN_MAX_DRIVER_CELLS; slot++)
		if (cells[slot].id && cells[slot].id == id)
			return (int)slot;
	return -1;
}

static int no_cell(struct warden_error *err, u32 id, const char *what)
{
	struct wd_reason why = { .rule = WARDEN_RULE_CELL_NOT_FOUND,
				 .item_kind = WARDEN_ITEM_CELL,
				 .item_index = id,
				 .cpu = WARDEN_NO_CPU };

	return wd_error(err, -ENOENT, &why, "%s: no cell %u", what, id);
}

/* Copy one image into the loadable region that holds it. */
static int load_image(struct warden_error *err, const void *config,
		      const struct warden_image *img, unsigned int index)
{
	const struct warden_cell_desc *desc =
		config + sizeof(struct warden_config_header);
	const struct warden_mem_region *r = warden_cell_mem_regions(desc);
	struct wd_reason why = { .rule = WARDEN_RULE_IMAGE_OUTSIDE,
				 .item_kind = WARDEN_ITEM_IMAGE,
				 .item_index = index,
				 .cpu = WARDEN_NO_CPU,
				 .values = { img->guest_address, img->size } };
	unsigned int i;
	void *dst;

	for (i = 0; i < desc->num_memory_regions; i++) {
		if (!(r[i].flags & WARDEN_MEM_LOADABLE) ||
		    img->guest_address < r[i].guest_start ||
		    img->size > r[i].size ||
		    img->guest_address - r[i].guest_start >
			    r[i].size - img->size)
			continue;
		dst = memremap(r[i].phys_start +
				       (img->guest_address - r[i].guest_start),
			       img->size, MEMREMAP_WB);
		if (!dst)
			return -ENOMEM;
		if (copy_from_user(dst, u64_to_user_ptr(img->source_ptr),
				   img->size)) {
			memunmap(dst);
			return -EFAULT;
		}
		memunmap(dst);
		return 0;
	}
	return wd_error(err, -EINVAL, &why,
			"cell load: image %u (0x%llx+0x%llx) is not inside a "
			"loadable region of the cell",
			index, img->guest_address, img->size);
}

int wd_cell_load(struct warden_cell_load *arg)
{
	struct warden_image img;
	unsigned int i;
	long ret;
	int slot;

	mutex_lock(&wd_lock);
	slot = wd_is_enabled() ? slot_of(arg->cell_id) : -1;
	if (slot < 0) {
		ret = no_cell(&arg->error, arg->cell_id, "cell load");
		goto out;
	}
	ret = cell_call(WARDEN_HC_CELL_SET_LOADABLE, arg->cell_id);
	note_lost(&cells[slot].cpus);
	if (ret < 0) {
		ret = cell_refused(&arg->error, ret, arg->cell_id, "cell load");
		goto out;
	}
	for (i = 0; i < arg->num_images; i++) {
		if (copy_from_user(&img,
				   u64_to_user_ptr(arg->images_ptr) +
					   i * sizeof(img),
				   sizeof(img))) {
			ret = -EFAULT;
			goto out;
		}
		ret = load_image(&arg->error, cells[slot].config, &img, i);
		if (ret)
			goto out;
	}
out:
	mutex_unlock(&wd_lock);
	return (int)ret;
}

int wd_cell_start(struct warden_cell_ref *arg)
{
	long ret;
	int slot;

	mutex_lock(&wd_lock);
	slot = wd_is_enabled() ? slot_of(arg->cell_id) : -1;
	if (slot < 0)
		ret = no_cell(&arg->error, arg->cell_id, "cell start");
	else {
		ret = cell_call(WARDEN_HC_CELL_START, arg->cell_id);
		note_lost(&cells[slot].cpus);
		if (ret < 0)
			ret = cell_refused(&arg->error, ret, arg->cell_id,
					   "cell start");
		else
			pr_info("warden: cell %u \"%s\" started\n",
				arg->cell_id, cells[slot].name);
	}
	mutex_unlock(&wd_lock);
	return (int)ret;
}

int wd_cell_shutdown(struct warden_cell_ref *arg)
{
	long ret;
	int slot;

	mutex_lock(&wd_lock);
	slot = wd_is_enabled() ? slot_of(arg->cell_id) : -1;
	if (slot < 0) {
		ret = no_cell(&arg->error, arg->cell_id, "cell shutdown");
	} else {
		ret = cell_call(WARDEN_HC_CELL_SHUTDOWN, arg->cell_id);
		note_lost(&cells[slot].cpus);
		if (ret < 0)
			ret = cell_refused(&arg->error, ret, arg->cell_id,
					   "cell shutdown");
	}
	mutex_unlock(&wd_lock);
	return (int)ret;
}
