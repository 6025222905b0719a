// SPDX-License-Identifier: GPL-2.0
/*
 * Enabling and disabling the hypervisor.
 *
 * Enable checks everything it can before touching anything (config header,
 * CPUs online, CPU vendor, VMX or SVM free, memory reserved, the firmware
 * image of the vendor: enable_checks.c), then copies the image and config
 * into the reserved memory, builds the page tables the hypervisor starts
 * with (hv_page_tables.c), and enters it on every CPU at once with
 * interrupts off and CPU hot-plug blocked.  The hypervisor launches Linux
 * back on all CPUs or on none; on failure every step is unwound.  What
 * stays while Warden is enabled is in hv_state.h.
 */
#include <linux/cpu.h>
#include <linux/firmware.h>
#include <linux/io.h>
#include <linux/ioport.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/smp.h>

#include <asm/msr.h>

#include <warden/config.h>
#include <warden/hvheader.h>
#include <warden/hypercall.h>

#include "enable_steps.h"
#include "hv_state.h"
#include "stub.h"
#include "warden-driver.h"
#include "wd-link.h"

static_assert(offsetof(struct warden_entry_ctx, hv_cr3) == CTX_HV_CR3);
static_assert(offsetof(struct warden_entry_ctx, hv_entry) == CTX_HV_ENTRY);
static_assert(offsetof(struct warden_entry_ctx, hv_stack) == CTX_HV_STACK);
static_assert(offsetof(struct warden_entry_ctx, cpu_id) == CTX_CPU_ID);
static_assert(offsetof(struct warden_entry_ctx, tramp_idt_limit) ==
	      CTX_TRAMP_IDT);
static_assert(offsetof(struct warden_entry_ctx, linux_state) == CTX_LINUX);
static_assert(offsetof(struct warden_linux_state, cr3) == LS_CR3);
static_assert(offsetof(struct warden_linux_state, gdtr_base) == LS_GDTR_BASE);
static_assert(offsetof(struct warden_linux_state, idtr_base) == LS_IDTR_BASE);
static_assert(offsetof(struct warden_linux_state, gdtr_limit) == LS_GDTR_LIMIT);
static_assert(offsetof(struct warden_linux_state, idtr_limit) == LS_IDTR_LIMIT);
static_assert(offsetof(struct warden_linux_state, cs) == LS_CS);
static_assert(offsetof(struct warden_linux_state, ss) == LS_SS);
static_assert(offsetof(struct warden_linux_state, ds) == LS_DS);
static_assert(offsetof(struct warden_linux_state, es) == LS_ES);
static_assert(offsetof(struct warden_linux_state, fs) == LS_FS);
static_assert(offsetof(struct warden_linux_state, gs) == LS_GS);
static_assert(offsetof(struct warden_linux_state, tr) == LS_TR);
static_assert(offsetof(struct warden_linux_state, rsp) == LS_RSP);
static_assert(offsetof(struct warden_linux_state, rip) == LS_RIP);
static_assert(offsetof(struct warden_linux_state, rflags) == LS_RFLAGS);
static_assert(offsetof(struct warden_linux_state, regs) == LS_REGS);
static_assert(offsetof(struct warden_linux_state, gdt_rw) == LS_GDT_RW);
static_assert(offsetof(struct warden_segment, base) == SEG_BASE);

#define MAX_CONFIG_SIZE (1024 * 1024)

static bool test_hooks;
module_param(test_hooks, bool, 0444);
MODULE_PARM_DESC(test_hooks, "let cells make the hypervisor fail on purpose "
			     "(WARDEN_HC_TEST), to test that it copes");

/* When each CPU began to enter (TSC): how long the last one took to
 * answer the driver's call is part of "entering" (docs/bench.md). */
static DEFINE_PER_CPU(u64, enter_tsc);

/* Runs on every online CPU at once, interrupts off. */
static void enter_cpu(void *unused)
{
	struct warden_entry_ctx *ctx = wd.ctx[smp_processor_id()];

	this_cpu_write(enter_tsc, rdtsc());
	collect_linux_state(&ctx->linux_state);
	ctx->result = wd_stub_enter(ctx);
}

static void set_nmi_gate(struct warden_entry_ctx *ctx)
{
	u64 handler = (u64)wd_stub_nmi;
	u64 *gate = (u64 *)&ctx->tramp_idt[2 * 16];

	gate[0] = (handler & 0xffff) | ((u64)__KERNEL_CS << 16) |
		  (0x8eULL << 40) | (((handler >> 16) & 0xffff) << 48);
	gate[1] = handler >> 32;
	ctx->tramp_idt_limit = sizeof(ctx->tramp_idt) - 1;
	ctx->tramp_idt_base = (u64)ctx->tramp_idt;
}

static void free_contexts(void)
{
	unsigned int cpu;

	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		free_page((unsigned long)wd.ctx[cpu]);
		wd.ctx[cpu] = NULL;
	}
}

int wd_enable(struct warden_enable *arg)
{
	struct warden_error *err = &arg->error;
	struct wd_reason why = { .cpu = WARDEN_NO_CPU };
	const struct warden_system_desc *sys;
	struct warden_cpu_set root_cpus = { 0 };
	const struct firmware *fw = NULL;
	struct warden_root_function *fns = NULL;
	struct warden_hv_header *h;
	unsigned int cpu, ncpus = num_online_cpus();
	const char *image;
	char vendor_id[13];
	void *config;
	u64 percpu_total, cr3, start_tsc, last_tsc;
	unsigned int last_cpu = 0;
	u32 khz, vendor, num_fns = 0;
	u64 t_start = ktime_get_ns(), t_enter, t_entered;
	int ret;

	if (arg->config_size > MAX_CONFIG_SIZE) {
		why.rule = WARDEN_RULE_CONFIG_TOO_LARGE;
		why.item_kind = WARDEN_ITEM_CONFIG;
		why.values[0] = arg->config_size;
		why.values[1] = MAX_CONFIG_SIZE;
		return wd_error(err, -E2BIG, &why,
				"enable: config of %u bytes is too large",
				arg->config_size);
	}
	config = vmemdup_user(u64_to_user_ptr(arg->config_ptr),
			      arg->config_size);
	if (IS_ERR(config))
		return PTR_ERR(config);
	ret = check_config(err, config, arg->config_size);
	if (ret)
		goto out_config;
	sys = config + sizeof(struct warden_config_header);
	khz = sys->platform.tsc_khz ? sys->platform.tsc_khz : measure_tsc_khz();

	mutex_lock(&wd_lock);
	cpus_read_lock();
	if (wd.enabled) {
		why.rule = WARDEN_RULE_ALREADY_ENABLED;
		ret = wd_error(err, -EBUSY, &why,
			       "enable: Warden is already enabled");
		goto out_unlock;
	}
	for (cpu = 0; cpu < WARDEN_MAX_CPUS; cpu++)
		if (cpu_lost(cpu)) {
			why.rule = WARDEN_RULE_LOST_CPU_EARLIER;
			why.item_kind = WARDEN_ITEM_SYSTEM;
			why.values[0] = cpu;
			ret = wd_error(err, -EBUSY, &why,
				       "enable: the hypervisor lost CPU %u "
				       "earlier; it may still run hypervisor "
				       "code: reboot first",
				       cpu);
			goto out_unlock;
		}
	ret = check_all_online(err, "enable");
	if (!ret)
		ret = pick_image(err, &vendor, &image, vendor_id);
	if (!ret)
		ret = check_virt_free(err, vendor);
	if (!ret)
		ret = wd_root_pci_describe(err, &fns, &num_fns);
	if (ret)
		goto out_unlock;

	wd.hv_phys = sys->hv_mem_start;
	wd.hv_size = sys->hv_mem_size;
	why.item_kind = WARDEN_ITEM_SYSTEM;
	why.values[0] = wd.hv_phys;
	why.values[1] = wd.hv_size;
	if (!wd.hv_size || (wd.hv_phys | wd.hv_size) & ~PAGE_MASK ||
	    region_intersects(wd.hv_phys, wd.hv_size, IORESOURCE_SYSTEM_RAM,
			      IORES_DESC_NONE) != REGION_DISJOINT) {
		why.rule = WARDEN_RULE_MEM_NOT_RESERVED;
		ret = wd_error(err, -ENOMEM, &why,
			       "enable: hypervisor memory 0x%llx+0x%llx is not "
			       "reserved; boot with memmap=0x%llx$0x%llx",
			       wd.hv_phys, wd.hv_size, wd.hv_size, wd.hv_phys);
		goto out_unlock;
	}
	/* a link's memory too: the validator placed it in one of root's RAM
	 * regions, which only this check tells apart from Linux's RAM */
	ret = check_links_reserved(err, sys);
	if (ret)
		goto out_unlock;
	wd.region =
		request_mem_region(wd.hv_phys, wd.hv_size, "Warden hypervisor");
	if (!wd.region) {
		why.rule = WARDEN_RULE_MEM_NOT_RESERVED;
		ret = wd_error(err, -EBUSY, &why,
			       "enable: hypervisor memory 0x%llx+0x%llx is in "
			       "use by a driver (see /proc/iomem)",
			       wd.hv_phys, wd.hv_size);
		goto out_unlock;
	}

	ret = request_firmware(&fw, image, wd_device());
	if (ret) {
		why.rule = WARDEN_RULE_FIRMWARE_MISSING;
		why.item_kind = WARDEN_ITEM_NONE;
		why.values[0] = ret;
		why.values[1] = vendor;
		why.text = image;
		ret = wd_error(err, ret, &why,
			       "enable: hypervisor image %s not found in "
			       "/lib/firmware (error %d); it is the image for "
			       "this CPU (%s)",
			       image, ret, vendor_id);
		goto out_region;
	}
	h = (struct warden_hv_header *)fw->data;
	percpu_total = (u64)ncpus * h->percpu_size;
	ret = check_image(err, fw, image,
			  percpu_total + PAGE_ALIGN(arg->config_size) +
				  PAGE_ALIGN(num_fns * sizeof(*fns)) +
				  64 * PAGE_SIZE);
	if (ret)
		goto out_firmware;
	if (ncpus > h->max_cpus) {
		why.rule = WARDEN_RULE_CPU_NOT_PRESENT;
		why.item_kind = WARDEN_ITEM_CPU;
		why.item_index = ncpus - 1;
		why.values[0] = h->max_cpus;
		ret = wd_error(err, -E2BIG, &why,
			       "enable: %u CPUs, the hypervisor supports %u",
			       ncpus, h->max_cpus);
		goto out_firmware;
	}

	wd.hv_mem = memremap(wd.hv_phys, wd.hv_size, MEMREMAP_WB);
	if (!wd.hv_mem) {
		why.rule = WARDEN_RULE_NO_MEMORY;
		ret = wd_error(err, -ENOMEM, &why,
			       "enable: cannot map hypervisor memory");
		goto out_firmware;
	}
	memset(wd.hv_mem, 0, h->core_size + percpu_total);
	memcpy(wd.hv_mem, fw->data, fw->size);
	h = wd.hv_mem;
	wd.header = h;
	h->online_cpus = ncpus;
	h->tsc_khz = khz;
	wd.tsc_khz = khz;
	h->flags = test_hooks ? WARDEN_HV_TEST_HOOKS : 0;
	h->hv_mem_phys = wd.hv_phys;
	h->hv_mem_size = wd.hv_size;
	h->config_offset = h->core_size + percpu_total;
	h->config_size = arg->config_size;
	memcpy(wd.hv_mem + h->config_offset, config, arg->config_size);
	wd.next_free = PAGE_ALIGN(h->config_offset + arg->config_size);
	h->root_pci_offset = wd.next_free;
	h->root_pci_count = num_fns;
	h->root_pci_entry_size = sizeof(*fns);
	memcpy(wd.hv_mem + h->root_pci_offset, fns, num_fns * sizeof(*fns));
	wd.next_free += PAGE_ALIGN(num_fns * sizeof(*fns));

	for_each_online_cpu (cpu) {
		struct warden_entry_ctx *ctx =
			(void *)get_zeroed_page(GFP_KERNEL);

		if (!ctx) {
			why.rule = WARDEN_RULE_NO_MEMORY;
			ret = wd_error(err, -ENOMEM, &why,
				       "enable: out of memory");
			goto out_contexts;
		}
		wd.ctx[cpu] = ctx;
		ctx->cpu_id = cpu;
		ctx->apic_id = per_cpu(x86_cpu_to_apicid, cpu);
		ctx->hv_entry = WARDEN_HV_BASE + h->entry_offset;
		ctx->hv_stack = WARDEN_HV_BASE + h->core_size +
				(u64)cpu * h->percpu_size + h->stack_top;
		ctx->stub_leave = (u64)wd_stub_leave;
		set_nmi_gate(ctx);
	}
	if ((u64)wd_stub_start & ~PAGE_MASK) {
		why.rule = WARDEN_RULE_CPU_SETUP_FAILED;
		ret = wd_error(err, -EIO, &why,
			       "enable: the entry stub is not page-aligned");
		goto out_contexts;
	}
	ret = build_page_tables(&why, &cr3);
	if (ret) {
		ret = wd_error(err, ret, &why,
			       "enable: hypervisor memory too small for page "
			       "tables");
		goto out_contexts;
	}
	h->hv_cr3 = cr3;
	/* the console: the pages root may still read once enabled */
	h->console_offset = wd.next_free;
	h->pool_offset = wd.next_free + WARDEN_CONSOLE_BYTES;
	if (h->pool_offset + 64 * PAGE_SIZE > wd.hv_size) {
		why.rule = WARDEN_RULE_HV_MEM_TOO_SMALL;
		why.values[0] = h->pool_offset + 64 * PAGE_SIZE;
		why.values[1] = wd.hv_size;
		ret = wd_error(err, -ENOMEM, &why,
			       "enable: hypervisor memory too small");
		goto out_contexts;
	}
	memset(wd.hv_mem + h->console_offset, 0, WARDEN_CONSOLE_BYTES);
	wd.console_offset = h->console_offset;
	for_each_online_cpu (cpu)
		wd.ctx[cpu]->hv_cr3 = cr3;

	t_enter = ktime_get_ns();
	start_tsc = rdtsc();
	on_each_cpu(enter_cpu, NULL, 1);
	last_tsc = 0;
	for_each_online_cpu (cpu) {
		if (per_cpu(enter_tsc, cpu) - start_tsc > last_tsc) {
			last_tsc = per_cpu(enter_tsc, cpu) - start_tsc;
			last_cpu = cpu;
		}
	}
	start_tsc = rdtsc() - start_tsc;
	t_entered = ktime_get_ns();

	ret = 0;
	for_each_online_cpu (cpu) {
		if (wd.ctx[cpu]->result) {
			ret = (int)wd.ctx[cpu]->result;
			*err = wd.ctx[cpu]->error;
			if (err->code)
				break;
		}
	}
	if (ret) {
		if (!err->code) {
			why.rule = WARDEN_RULE_CPU_SETUP_FAILED;
			wd_error(err, ret, &why,
				 "enable: the hypervisor failed (%d)", ret);
		}
		pr_err("warden: enable failed (%d), Linux continues on bare "
		       "metal\n",
		       ret);
		goto out_contexts;
	}
	/* From now on hypervisor memory is off limits for Linux (the root
	 * cell's EPT does not map it) except the console ring: keep what
	 * the driver needs in its own memory. */
	wd.num_cpus = ncpus;
	wd.header = NULL;
	wd.enabled = true;
	for_each_online_cpu (cpu)
		if (cpu < WARDEN_MAX_CPUS)
			warden_cpu_set_add(&root_cpus, cpu);
	wd_sysfs_cell_added(WARDEN_ROOT_CELL_ID, sys->root_cell.name,
			    &root_cpus,
			    warden_cell_pci_devices(&sys->root_cell),
			    sys->root_cell.num_pci_devices);
	wd_links_set(sys, arg->config_size);
	release_firmware(fw);
	cpus_read_unlock();
	mutex_unlock(&wd_lock);
	wd_sysfs_sync();
	/* the link functions into Linux: probe takes interrupts, which
	 * must not happen under the hot-plug lock */
	wd_links_start();
	kvfree(fns);
	kvfree(config);
	pr_info("warden: enabled on %u CPUs; entering took %llu TSC cycles "
		"(CPU %u began last, after %llu); %llu ms in all: %llu "
		"preparing, %llu entering, %llu for the links and sysfs\n",
		ncpus, start_tsc, last_cpu, last_tsc,
		(ktime_get_ns() - t_start) / NSEC_PER_MSEC,
		(t_enter - t_start) / NSEC_PER_MSEC,
		(t_entered - t_enter) / NSEC_PER_MSEC,
		(ktime_get_ns() - t_entered) / NSEC_PER_MSEC);
	return 0;

out_contexts:
	free_contexts();
	memunmap(wd.hv_mem);
	wd.hv_mem = NULL;
out_firmware:
	release_firmware(fw);
out_region:
	release_mem_region(wd.hv_phys, wd.hv_size);
out_unlock:
	cpus_read_unlock();
	mutex_unlock(&wd_lock);
	kvfree(fns);
out_config:
	kvfree(config);
	return ret;
}

static void leave_cpu(void *unused)
{
	struct warden_entry_ctx *ctx = wd.ctx[smp_processor_id()];

	ctx->result = wd_hypercall(WARDEN_HC_DISABLE, 0, 0);
	/* Back on bare metal: Linux's TSS is loaded again (the stub cleared
	 * its busy bit); nothing else to restore here. */
}

int wd_disable(struct warden_cell_ref *arg)
{
	struct warden_error *err = &arg->error;
	struct wd_reason why = { .cpu = WARDEN_NO_CPU };
	unsigned int cpu;
	u64 start_tsc, t_start = ktime_get_ns(), t_links, t_cells;
	int ret = 0;

	/* The link functions out of Linux first, while the hypervisor still
	 * emulates them: their drivers set STATE down.  They come back if
	 * disable fails. */
	wd_links_stop();
	t_links = ktime_get_ns();
	mutex_lock(&wd_lock);
	if (!wd.enabled) {
		why.rule = WARDEN_RULE_NOT_ENABLED;
		ret = wd_error(err, -EINVAL, &why,
			       "disable: Warden is not enabled");
		mutex_unlock(&wd_lock);
		wd_links_resume(false);
		return ret;
	}
	/* Cells first: their CPUs come back online (before the hot-plug
	 * lock is taken, as add_cpu takes it). */
	ret = wd_cell_destroy_all(err);
	if (ret) {
		mutex_unlock(&wd_lock);
		wd_sysfs_sync(); /* the cells destroyed before the refusal */
		wd_links_resume(true);
		return ret;
	}
	t_cells = ktime_get_ns();
	cpus_read_lock();
	ret = check_all_online(err, "disable");
	if (ret)
		goto out;
	start_tsc = rdtsc();
	on_each_cpu(leave_cpu, NULL, 1);
	start_tsc = rdtsc() - start_tsc;
	for_each_online_cpu (cpu) {
		if (wd.ctx[cpu]->result) {
			why.rule = WARDEN_RULE_CPU_SETUP_FAILED;
			why.item_kind = WARDEN_ITEM_CPU;
			why.item_index = cpu;
			why.values[1] = wd.ctx[cpu]->result;
			ret = wd_error(err, (int)wd.ctx[cpu]->result, &why,
				       "disable: CPU %u did not leave (%lld)",
				       cpu, wd.ctx[cpu]->result);
		}
	}
	if (ret)
		goto out; /* some CPUs still run under the hypervisor */
	wd.enabled = false;
	wd_cells_forget();
	wd_links_forget();
	wd_sysfs_cell_removed(WARDEN_ROOT_CELL_ID);
	free_contexts();
	memunmap(wd.hv_mem);
	wd.hv_mem = NULL;
	wd.header = NULL;
	release_mem_region(wd.hv_phys, wd.hv_size);
	pr_info("warden: disabled, Linux runs on bare metal; leaving took "
		"%llu TSC cycles; %llu ms in all: %llu for the links, %llu "
		"for the cells, %llu leaving\n",
		start_tsc, (ktime_get_ns() - t_start) / NSEC_PER_MSEC,
		(t_links - t_start) / NSEC_PER_MSEC,
		(t_cells - t_links) / NSEC_PER_MSEC,
		(ktime_get_ns() - t_cells) / NSEC_PER_MSEC);
out:
	cpus_read_unlock();
	mutex_unlock(&wd_lock);
	wd_sysfs_sync();
	wd_links_resume(ret != 0);
	return ret;
}
