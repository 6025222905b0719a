// SPDX-License-Identifier: GPL-2.0
/*
 * Enabling and disabling the hypervisor.
 *
 * Enable checks everything it can before touching anything (config header,
 * CPUs online, CPU vendor, VMX or SVM free, memory reserved, the firmware
 * image of the vendor), then copies the image and config into the reserved
 * memory, builds the page tables the hypervisor starts with, and enters it on every CPU at once with
 * interrupts off and CPU hot-plug blocked.  The hypervisor launches Linux
 * back on all CPUs or on none; on failure every step is unwound.
 */
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/firmware.h>
#include <linux/io.h>
#include <linux/ioport.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/vmalloc.h>

#include <asm/apic.h>
#include <asm/desc.h>
#include <asm/msr.h>
#include <asm/special_insns.h>
#include <asm/tlbflush.h>
#include <asm/tsc.h>

#include <warden/config.h>
#include <warden/hvheader.h>
#include <warden/hypercall.h>
#include <x86/cpuid.h>

#include "config_check.h"
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

extern const char wd_stub_start[], wd_stub_end[], wd_stub_leave[],
	wd_stub_nmi[];
long wd_stub_enter(struct warden_entry_ctx *ctx);

#define MAX_CONFIG_SIZE (1024 * 1024)

/* What exists while Warden is enabled. */
static struct {
	bool enabled;
	void *hv_mem; /* memremap of the hypervisor memory */
	u64 hv_phys, hv_size;
	struct resource *region;
	struct warden_entry_ctx *ctx[NR_CPUS];
	u64 next_free; /* bump allocator for the initial page tables */
	struct warden_hv_header *header; /* only until enabled */
	unsigned int num_cpus;
	u64 console_offset;
	/* CPUs the hypervisor lost (WARDEN_CPU_LOST): offline for good; they
	 * may still run hypervisor code, so there is no enable again until
	 * reboot, and the module stays loaded */
	struct warden_cpu_set lost;
} wd;

static bool test_hooks;
module_param(test_hooks, bool, 0444);
MODULE_PARM_DESC(test_hooks, "let cells make the hypervisor fail on purpose "
			     "(WARDEN_HC_TEST), to test that it copes");

DEFINE_MUTEX(wd_lock);

bool wd_is_enabled(void)
{
	return wd.enabled;
}

/* ---- page tables for the hypervisor (IA-32e paging, 4 KiB pages) ---- */

#define PT_P BIT_ULL(0)
#define PT_RW BIT_ULL(1)
#define PT_NX BIT_ULL(63)
#define PT_ADDR 0x000ffffffffff000ULL

static u64 *pt_page(u64 *phys)
{
	u64 offset = wd.next_free;

	if (offset + PAGE_SIZE > wd.hv_size)
		return NULL;
	wd.next_free += PAGE_SIZE;
	*phys = wd.hv_phys + offset;
	return memset(wd.hv_mem + offset, 0, PAGE_SIZE);
}

static u64 *pt_virt(u64 entry)
{
	return wd.hv_mem + ((entry & PT_ADDR) - wd.hv_phys);
}

static int pt_map_page(u64 *pml4, u64 virt, u64 phys, u64 flags)
{
	u64 *table = pml4;
	int level;

	for (level = 3; level > 0; level--) {
		u64 *e = &table[(virt >> (12 + 9 * level)) & 511];

		if (!(*e & PT_P)) {
			u64 table_phys;

			if (!pt_page(&table_phys))
				return -ENOMEM;
			*e = table_phys | PT_P | PT_RW;
		}
		table = pt_virt(*e);
	}
	table[(virt >> 12) & 511] = phys | PT_P | flags;
	return 0;
}

static int build_page_tables(struct wd_reason *why, u64 *cr3)
{
	u64 *pml4, off, stub = (u64)wd_stub_start;
	unsigned int cpu;
	int err = 0;

	pml4 = pt_page(cr3);
	if (!pml4)
		return -ENOMEM;
	for (off = 0; off < wd.hv_size && !err; off += PAGE_SIZE)
		err = pt_map_page(pml4, WARDEN_HV_BASE + off, wd.hv_phys + off,
				  PT_RW);
	for (off = 0; stub + off < (u64)wd_stub_end && !err; off += PAGE_SIZE)
		err = pt_map_page(
			pml4, stub + off,
			PFN_PHYS(vmalloc_to_pfn((void *)(stub + off))), 0);
	for_each_online_cpu (cpu) {
		if (err)
			break;
		err = pt_map_page(pml4, (u64)wd.ctx[cpu],
				  virt_to_phys(wd.ctx[cpu]), PT_RW | PT_NX);
	}
	if (err) {
		why->rule = WARDEN_RULE_HV_MEM_TOO_SMALL;
		why->values[0] = wd.next_free + PAGE_SIZE;
		why->values[1] = wd.hv_size;
	}
	return err;
}

/* ---- Linux's CPU state ---- */

static void read_segment(struct warden_segment *s, u16 sel, u64 gdt_base)
{
	u64 d, d2;

	s->selector = sel;
	if ((sel & ~3) == 0) {
		s->access_rights = 0x10000; /* unusable (SDM 25.4.1) */
		s->limit = 0;
		s->base = 0;
		return;
	}
	d = *(u64 *)(gdt_base + (sel & ~7));
	s->access_rights = (d >> 40) & 0xf0ff;
	s->limit = (d & 0xffff) | ((d >> 32) & 0xf0000);
	if (d & BIT_ULL(55)) /* granularity: 4 KiB units */
		s->limit = (s->limit << 12) | 0xfff;
	s->base = ((d >> 16) & 0xffffff) | ((d >> 32) & 0xff000000);
	if (!(d & BIT_ULL(44))) { /* system descriptor: 16 bytes */
		d2 = *(u64 *)(gdt_base + (sel & ~7) + 8);
		s->base |= d2 << 32;
	}
}

static void collect_linux_state(struct warden_linux_state *s)
{
	struct desc_ptr gdt, idt;
	u16 sel;

	s->cr0 = read_cr0();
	s->cr3 = __read_cr3();
	s->cr4 = __read_cr4();
	rdmsrl(MSR_EFER, s->efer);
	rdmsrl(MSR_IA32_CR_PAT, s->pat);
	rdmsrl(MSR_IA32_DEBUGCTLMSR, s->debugctl);
	native_store_gdt(&gdt);
	store_idt(&idt);
	s->gdtr_base = gdt.address;
	s->gdtr_limit = gdt.size;
	s->idtr_base = idt.address;
	s->idtr_limit = idt.size;

	savesegment(cs, sel);
	read_segment(&s->cs, sel, gdt.address);
	savesegment(ss, sel);
	read_segment(&s->ss, sel, gdt.address);
	savesegment(ds, sel);
	read_segment(&s->ds, sel, gdt.address);
	savesegment(es, sel);
	read_segment(&s->es, sel, gdt.address);
	savesegment(fs, sel);
	read_segment(&s->fs, sel, gdt.address);
	rdmsrl(MSR_FS_BASE, s->fs.base);
	savesegment(gs, sel);
	read_segment(&s->gs, sel, gdt.address);
	rdmsrl(MSR_GS_BASE, s->gs.base);
	store_tr(sel);
	read_segment(&s->tr, sel, gdt.address);
	asm volatile("sldt %0" : "=r"(sel));
	read_segment(&s->ldtr, sel, gdt.address);
	/* 64-bit mode ignores the data segment bases and limits; make the
	 * usable ones flat so that VM entry's checks hold */
	rdmsrl(MSR_KERNEL_GS_BASE, s->kernel_gs_base);
	rdmsrl(MSR_IA32_SYSENTER_CS, s->sysenter_cs);
	rdmsrl(MSR_IA32_SYSENTER_ESP, s->sysenter_esp);
	rdmsrl(MSR_IA32_SYSENTER_EIP, s->sysenter_eip);
	s->gdt_rw = (u64)get_current_gdt_rw();
}

/*
 * 0 if every possible CPU is online; otherwise the reason, for what.  An
 * offline CPU would stay outside the hypervisor (enable) or inside it
 * (disable).
 */
static bool cpu_lost(unsigned int cpu)
{
	return warden_cpu_in_set(&wd.lost, cpu);
}

void wd_cpu_lost(unsigned int cpu)
{
	if (cpu >= WARDEN_MAX_CPUS || cpu_lost(cpu))
		return;
	if (!memchr_inv(&wd.lost, 0, sizeof(wd.lost)))
		__module_get(THIS_MODULE); /* no unload: see wd.lost */
	warden_cpu_set_add(&wd.lost, cpu);
	pr_err("warden: the hypervisor lost CPU %u; it stays offline until "
	       "reboot\n",
	       cpu);
}

/* Every CPU online, but those the hypervisor lost. */
static int check_all_online(struct warden_error *err, const char *what)
{
	struct wd_reason why = { .rule = WARDEN_RULE_CPU_OFFLINE,
				 .item_kind = WARDEN_ITEM_CPU,
				 .cpu = WARDEN_NO_CPU };
	unsigned int cpu;

	for_each_possible_cpu (cpu) {
		if (cpu_online(cpu) || cpu_lost(cpu))
			continue;
		why.item_index = cpu;
		return wd_error(err, -EBUSY, &why,
				"%s: CPU %u is offline; bring it online first",
				what, cpu);
	}
	return 0;
}

/* Runs on every online CPU at once, interrupts off. */
static void enter_cpu(void *unused)
{
	struct warden_entry_ctx *ctx = wd.ctx[smp_processor_id()];

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

/* Keep the first error the validator reports. */
static void first_error(void *ctx, const struct warden_error *e)
{
	struct warden_error *first = ctx;

	if (!first->rule)
		*first = *e;
}

/*
 * The shared validator (common/config_check.c) decides; the hypervisor
 * checks again, as it trusts no one.
 */
static int check_config(struct warden_error *err, const void *blob, u32 size)
{
	struct warden_error first = { 0 };
	unsigned int n = config_check_system(blob, size, first_error, &first);

	if (!n)
		return 0;
	*err = first;
	err->cpu = WARDEN_NO_CPU;
	pr_err("warden: enable: the system config has %u error%s; the first: "
	       "rule %u, item kind %u index %u, values 0x%llx 0x%llx\n",
	       n, n == 1 ? "" : "s", first.rule, first.item_kind,
	       first.item_index, first.values[0], first.values[1]);
	return first.code ? first.code : -EINVAL;
}

/* Every link's memory lies outside Linux's RAM (a memmap= reservation):
 * 0, or an error naming the link (the config is validated: its links are
 * inside the blob). */
static int check_links_reserved(struct warden_error *err,
				const struct warden_system_desc *sys)
{
	const struct warden_link *l = warden_system_links(sys);
	struct wd_reason why = { .rule = WARDEN_RULE_MEM_NOT_RESERVED,
				 .item_kind = WARDEN_ITEM_LINK,
				 .cpu = WARDEN_NO_CPU };
	unsigned int i;

	for (i = 0; i < sys->platform.num_links; i++) {
		if (region_intersects(l[i].phys_start, l[i].size,
				      IORESOURCE_SYSTEM_RAM,
				      IORES_DESC_NONE) == REGION_DISJOINT)
			continue;
		why.item_index = i;
		why.values[0] = l[i].phys_start;
		why.values[1] = l[i].size;
		return wd_error(err, -ENOMEM, &why,
				"enable: link \"%.*s\" memory 0x%llx+0x%llx is "
				"Linux's RAM, not reserved; boot with memmap=",
				WARDEN_NAME_LEN, l[i].name, l[i].phys_start,
				l[i].size);
	}
	return 0;
}

static int check_image(struct warden_error *err, const struct firmware *fw,
		       const char *image, u64 need_after_image)
{
	const struct warden_hv_header *h = (const void *)fw->data;
	struct wd_reason why = { .rule = WARDEN_RULE_FIRMWARE_INVALID,
				 .item_kind = WARDEN_ITEM_NONE,
				 .cpu = WARDEN_NO_CPU };

	if (fw->size < sizeof(*h) ||
	    memcmp(h->signature, WARDEN_HV_SIGNATURE, sizeof(h->signature))) {
		why.text = "signature";
		return wd_error(err, -EINVAL, &why,
				"enable: %s is not a Warden hypervisor image",
				image);
	}
	if (h->abi_revision != WARDEN_ABI_REVISION) {
		why.text = "ABI revision";
		why.values[0] = h->abi_revision;
		why.values[1] = WARDEN_ABI_REVISION;
		return wd_error(err, -EINVAL, &why,
				"enable: %s has ABI revision %u, the driver %d",
				image, h->abi_revision, WARDEN_ABI_REVISION);
	}
	if (h->image_size != fw->size || h->core_size < h->image_size ||
	    h->entry_offset >= h->image_size) {
		why.text = "image size";
		why.values[0] = h->image_size;
		why.values[1] = fw->size;
		return wd_error(err, -EINVAL, &why,
				"enable: %s is damaged (sizes do not match)",
				image);
	}
	if (h->core_size + need_after_image > wd.hv_size) {
		why.rule = WARDEN_RULE_HV_MEM_TOO_SMALL;
		why.values[0] = h->core_size + need_after_image;
		why.values[1] = wd.hv_size;
		return wd_error(err, -ENOMEM, &why,
				"enable: hypervisor memory too small: 0x%llx "
				"bytes needed, 0x%llx reserved",
				h->core_size + need_after_image, wd.hv_size);
	}
	return 0;
}

/*
 * The image for this CPU's vendor into *image (abi.h: Hygon counts as AMD),
 * and the vendor string of CPUID leaf 0 into name, for messages.  Warden
 * has no image for other vendors.  All CPUs of a machine have one vendor,
 * so this CPU's decides.
 */
static int pick_image(struct warden_error *err, u32 *vendor, const char **image,
		      char name[13])
{
	struct wd_reason why = { .rule = WARDEN_RULE_CPU_VENDOR,
				 .cpu = WARDEN_NO_CPU };
	u32 id[3];

	*vendor = warden_cpuid_vendor(id);
	warden_vendor_text(id, name);
	if (*vendor == WARDEN_VENDOR_INTEL) {
		*image = WARDEN_FIRMWARE_INTEL;
		return 0;
	}
	if (*vendor == WARDEN_VENDOR_AMD) {
		*image = WARDEN_FIRMWARE_AMD;
		return 0;
	}
	why.text = name;
	return wd_error(err, -ENODEV, &why,
			"enable: CPU vendor \"%s\" is not supported; Warden "
			"runs on Intel, AMD and Hygon CPUs",
			name);
}

/*
 * Refuse when another hypervisor (KVM, for one) has switched the vendor's
 * virtualization extension on, here: CR4.VMXE on Intel (SDM Vol. 3C 24.7),
 * EFER.SVME on AMD (APM Vol. 2 15.4); and on AMD when the CPU has no SVM
 * (CPUID 8000_0001h ECX[2], APM Vol. 3 E.4.2: the image is not loaded at
 * all) or the firmware has disabled it (VM_CR.SVMDIS).  "warden hardware
 * check" names the same refusals (tools/hwcaps_svm.c).
 */
static int check_virt_free(struct warden_error *err, u32 vendor)
{
	struct wd_reason why = { .cpu = smp_processor_id() };
	u64 efer, vm_cr;

	if (vendor == WARDEN_VENDOR_INTEL) {
		if (!(__read_cr4() & X86_CR4_VMXE))
			return 0;
		why.rule = WARDEN_RULE_VMX_BUSY;
		return wd_error(err, -EBUSY, &why,
				"enable: VMX is in use by another hypervisor: "
				"CR4.VMXE is set (is a KVM virtual machine "
				"running?)");
	}
	if (!(cpuid_ecx(0x80000001) & CPUID80000001_ECX_SVM)) {
		why.rule = WARDEN_RULE_FEATURE_MISSING;
		why.values[0] = 0x80000001;
		why.values[1] = CPUID80000001_ECX_SVM;
		why.text = "SVM (CPUID 0x80000001 ECX[2] = 0)";
		return wd_error(err, -EOPNOTSUPP, &why,
				"enable: this CPU has no SVM (CPUID 0x80000001 "
				"ECX[2] = 0)");
	}
	rdmsrl(MSR_EFER, efer);
	if (efer & EFER_SVME) {
		why.rule = WARDEN_RULE_SVM_BUSY;
		return wd_error(err, -EBUSY, &why,
				"enable: SVM is in use by another hypervisor: "
				"EFER.SVME is set (is a KVM virtual machine "
				"running?)");
	}
	/* the firmware can switch SVM off for good: VM_CR bit 4, SVMDIS (APM
	 * Vol. 2, 15.30.1) */
	if (rdmsrl_safe(MSR_VM_CR, &vm_cr) || !(vm_cr & (1ull << 4)))
		return 0;
	why.rule = WARDEN_RULE_SVM_DISABLED;
	return wd_error(err, -EOPNOTSUPP, &why,
			"enable: SVM disabled by firmware (VM_CR.SVMDIS)");
}

/*
 * The TSC's rate against Linux's own clock, over 20 ms.  The hypervisor
 * bounds every wait with it, and cells learn it from their communication
 * region: it must be the rate the TSC really has.  An emulator's TSC can
 * run at another rate than the CPU model announces (Bochs: about 100 MHz
 * of Linux's time against 3.5 GHz announced); a real CPU's agrees with
 * Linux's tsc_khz, which is then kept (it is the more precise).
 */
static u32 measure_tsc_khz(void)
{
	u64 t0, t1, n0, n1, khz;

	n0 = ktime_get_ns();
	t0 = rdtsc();
	msleep(20);
	n1 = ktime_get_ns();
	t1 = rdtsc();
	if (n1 <= n0)
		return tsc_khz;
	khz = div64_u64((t1 - t0) * 1000000, n1 - n0);
	if (tsc_khz && khz * 50 > (u64)tsc_khz * 49 &&
	    khz * 50 < (u64)tsc_khz * 51)
		return tsc_khz;
	pr_info("warden: the TSC runs at %llu kHz against Linux's clock, not "
		"the %u kHz announced; the hypervisor uses %llu kHz\n",
		khz, tsc_khz, khz);
	return khz > U32_MAX ? U32_MAX : (u32)khz;
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
	u64 percpu_total, cr3, start_tsc;
	u32 khz, vendor, num_fns = 0;
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

	start_tsc = rdtsc();
	on_each_cpu(enter_cpu, NULL, 1);
	start_tsc = rdtsc() - start_tsc;

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
	pr_info("warden: enabled on %u CPUs; entering took %llu TSC cycles\n",
		ncpus, start_tsc);
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
	u64 start_tsc;
	int ret = 0;

	/* The link functions out of Linux first, while the hypervisor still
	 * emulates them: their drivers set STATE down.  They come back if
	 * disable fails. */
	wd_links_stop();
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
		"%llu TSC cycles\n",
		start_tsc);
out:
	cpus_read_unlock();
	mutex_unlock(&wd_lock);
	wd_sysfs_sync();
	wd_links_resume(ret != 0);
	return ret;
}

int wd_status(struct warden_status *st)
{
	mutex_lock(&wd_lock);
	st->enabled = wd.enabled;
	if (wd.enabled) {
		st->num_cpus = wd.num_cpus;
		st->num_cells = wd_hypercall(WARDEN_HC_HYPERVISOR_GET_INFO,
					     WARDEN_INFO_NUM_CELLS, 0);
		st->mem_pool_pages = wd_hypercall(WARDEN_HC_HYPERVISOR_GET_INFO,
						  WARDEN_INFO_MEM_POOL_PAGES,
						  0);
		st->mem_pool_used = wd_hypercall(WARDEN_HC_HYPERVISOR_GET_INFO,
						 WARDEN_INFO_MEM_POOL_USED, 0);
	}
	mutex_unlock(&wd_lock);
	return 0;
}

int wd_cpu_info(struct warden_cpu_info *info)
{
	struct wd_reason why = { .rule = WARDEN_RULE_NOT_ENABLED,
				 .cpu = WARDEN_NO_CPU };
	unsigned int i;
	int ret = 0;

	mutex_lock(&wd_lock);
	if (!wd.enabled) {
		ret = wd_error(&info->error, -EINVAL, &why,
			       "cpu info: Warden is not enabled");
		goto out;
	}
	if (info->cpu >= wd.num_cpus) {
		why.rule = WARDEN_RULE_CPU_NOT_PRESENT;
		why.item_kind = WARDEN_ITEM_CPU;
		why.item_index = info->cpu;
		why.values[0] = wd.num_cpus;
		ret = wd_error(&info->error, -EINVAL, &why,
			       "cpu info: no CPU %u", info->cpu);
		goto out;
	}
	info->state = wd_hypercall(WARDEN_HC_CPU_GET_INFO, info->cpu,
				   WARDEN_CPU_INFO_STATE);
	info->cell_id = wd_hypercall(WARDEN_HC_CPU_GET_INFO, info->cpu,
				     WARDEN_CPU_INFO_CELL);
	info->num_stats = WARDEN_NUM_STATS;
	for (i = 0; i < WARDEN_NUM_STATS; i++)
		info->stats[i] = wd_hypercall(WARDEN_HC_CPU_GET_INFO, info->cpu,
					      WARDEN_CPU_INFO_STAT_BASE + i);
	info->tsc = rdtsc();
out:
	mutex_unlock(&wd_lock);
	return ret;
}

/*
 * The hypervisor console (struct warden_hv_console): lines in slots,
 * numbered by seq.  The slot with the lowest seq at or after pos, copied
 * whole into *line (the hypervisor may rewrite a slot while it is read:
 * its seq changes then, and it is read again), or 0 if there is none.
 */
static u64 console_next(const struct warden_hv_console *con, u64 pos,
			struct warden_hv_console_line *line)
{
	unsigned int i, best, tries;
	u64 seq, best_seq;

	for (tries = 0; tries < 8; tries++) {
		best_seq = 0;
		best = 0;
		for (i = 0; i < WARDEN_CONSOLE_LINES; i++) {
			seq = smp_load_acquire(&con->line[i].seq);
			if (seq >= pos && seq &&
			    (!best_seq || seq < best_seq)) {
				best_seq = seq;
				best = i;
			}
		}
		if (!best_seq)
			return 0;
		memcpy(line, &con->line[best], sizeof(*line));
		smp_rmb();
		if (READ_ONCE(con->line[best].seq) == best_seq &&
		    line->seq == best_seq)
			return best_seq;
	}
	return 0;
}

/* Append line to buf (len bytes, n used): false if it does not fit. */
static bool console_put(char *buf, size_t len, size_t *n,
			const struct warden_hv_console_line *line)
{
	size_t need = min_t(size_t, line->len, WARDEN_CONSOLE_TEXT) +
		      !(line->flags & WARDEN_LINE_CONTINUED);

	if (*n + need > len)
		return false;
	memcpy(buf + *n, line->text,
	       need - !(line->flags & WARDEN_LINE_CONTINUED));
	*n += need;
	if (!(line->flags & WARDEN_LINE_CONTINUED))
		buf[*n - 1] = '\n';
	return true;
}

ssize_t wd_console_read(char *buf, size_t len, u64 *pos)
{
	struct warden_hv_console_line line;
	const struct warden_hv_console *con;
	size_t n = 0;
	u64 seq;

	mutex_lock(&wd_lock);
	if (!wd.enabled || !wd.console_offset) {
		mutex_unlock(&wd_lock);
		return -ENODEV;
	}
	con = wd.hv_mem + wd.console_offset;
	while ((seq = console_next(con, *pos, &line)) &&
	       console_put(buf, len, &n, &line))
		*pos = seq + 1;
	mutex_unlock(&wd_lock);
	return n;
}

ssize_t wd_console_tail(char *buf, size_t len)
{
	struct warden_hv_console_line line;
	const struct warden_hv_console *con;
	u64 pos = 0, seq, start = 0;
	size_t total = 0, n = 0;
	u64 *lens;
	unsigned int count = 0, i;

	lens = kcalloc(WARDEN_CONSOLE_LINES, sizeof(*lens) * 2, GFP_KERNEL);
	if (!lens)
		return -ENOMEM;
	mutex_lock(&wd_lock);
	if (!wd.enabled || !wd.console_offset) {
		mutex_unlock(&wd_lock);
		kfree(lens);
		return -ENODEV;
	}
	con = wd.hv_mem + wd.console_offset;
	/* the seqs and lengths, oldest first; then the newest that fit */
	while (count < WARDEN_CONSOLE_LINES &&
	       (seq = console_next(con, pos, &line))) {
		lens[2 * count] = seq;
		lens[2 * count + 1] = line.len + 1;
		count++;
		pos = seq + 1;
	}
	for (i = count; i > 0 && total + lens[2 * (i - 1) + 1] <= len; i--) {
		total += lens[2 * (i - 1) + 1];
		start = lens[2 * (i - 1)];
	}
	pos = start;
	while (start && (seq = console_next(con, pos, &line)) &&
	       console_put(buf, len, &n, &line))
		pos = seq + 1;
	mutex_unlock(&wd_lock);
	kfree(lens);
	return n;
}
