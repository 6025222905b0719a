// SPDX-License-Identifier: GPL-2.0
/*
 * The hardware probe behind "warden hardware check": reads raw CPUID leaves
 * on one CPU, and there on Intel the VMX capability MSRs and a VMXON/VMXOFF
 * pair, on AMD and Hygon the MSRs VM_CR and EFER, so that the CLI can judge
 * the machine without trusting /proc/cpuinfo (Linux ANDs the features of
 * all CPUs and hides some).
 *
 * On other vendors' CPUs only the CPUID leaves are read (the vendor string
 * of leaf 0 tells the CLI why).  SVM needs no trial like VMXON: VM_CR and
 * EFER say all that enable would refuse (enable.c, check_virt_free), and
 * reading them changes nothing.
 */
#include <linux/cpu.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/smp.h>
#include <linux/string.h>

#include <asm/asm.h>
#include <asm/io.h>
#include <asm/msr.h>
#include <asm/processor.h>
#include <asm/special_insns.h>
#include <asm/tlbflush.h>

#include <x86/msr.h>
#include <x86/vmx.h>

#include "warden-driver.h"

/* 0x8000000a: SVM's features (AMD APM Vol. 3, E.4.9), read on every CPU:
 * the CLI trusts it only up to the highest leaf 0x80000000 names. */
static const u32 probe_cpuid[][2] = {
	{ 0, 0 },	   { 1, 0 },	      { 7, 0 },		 { 0xd, 1 },
	{ 0x80000000, 0 }, { 0x80000001, 0 }, { 0x8000000a, 0 },
};

static const u32 probe_msrs_vmx[] = {
	MSR_IA32_FEATURE_CONTROL,
	MSR_IA32_VMX_BASIC,
	MSR_IA32_VMX_PINBASED_CTLS,
	MSR_IA32_VMX_PROCBASED_CTLS,
	MSR_IA32_VMX_EXIT_CTLS,
	MSR_IA32_VMX_ENTRY_CTLS,
	MSR_IA32_VMX_MISC,
	MSR_IA32_VMX_CR0_FIXED0,
	MSR_IA32_VMX_CR0_FIXED1,
	MSR_IA32_VMX_CR4_FIXED0,
	MSR_IA32_VMX_CR4_FIXED1,
	MSR_IA32_VMX_VMCS_ENUM,
	MSR_IA32_VMX_PROCBASED_CTLS2,
	MSR_IA32_VMX_EPT_VPID_CAP,
	MSR_IA32_VMX_TRUE_PINBASED_CTLS,
	MSR_IA32_VMX_TRUE_PROCBASED_CTLS,
	MSR_IA32_VMX_TRUE_EXIT_CTLS,
	MSR_IA32_VMX_TRUE_ENTRY_CTLS,
};

/* AMD: whether firmware disabled SVM (APM Vol. 2, 15.30.1) and whether
 * another hypervisor holds it (EFER.SVME, 15.4) */
static const u32 probe_msrs_svm[] = {
	MSR_AMD_VM_CR,
	MSR_IA32_EFER,
};

static_assert(ARRAY_SIZE(probe_cpuid) <= WARDEN_PROBE_MAX_CPUID);
static_assert(ARRAY_SIZE(probe_msrs_vmx) <= WARDEN_PROBE_MAX_MSRS);
static_assert(ARRAY_SIZE(probe_msrs_svm) <= WARDEN_PROBE_MAX_MSRS);

struct probe_ctx {
	struct warden_hw_probe *probe;
	u32 vendor;	    /* WARDEN_VENDOR_*: which MSRs, whether VMXON */
	void *vmxon_region; /* one zeroed page, on Intel */
};

/*
 * VMXON needs CR4.VMXE set, IA32_FEATURE_CONTROL locked with VMX enabled and
 * CR0/CR4 within the VMX fixed bits (SDM Vol. 3, 24.7 "Enabling and Entering
 * VMX Operation"); any violation raises #GP or #UD, which the exception
 * table entry turns into a failed probe instead of an oops.
 * Runs with interrupts off (IPI context), so nothing else can see the brief
 * change of CR4.
 */
static u32 vmx_probe(struct probe_ctx *ctx, u64 feature_control, u64 basic)
{
	u64 pa = virt_to_phys(ctx->vmxon_region);
	u32 state = WARDEN_VMX_VMXON_FAILED;

	if (__read_cr4() & X86_CR4_VMXE)
		return WARDEN_VMX_IN_USE;
	if ((feature_control &
	     (FEATURE_CONTROL_LOCKED | FEATURE_CONTROL_VMX_OUTSIDE_SMX)) !=
	    (FEATURE_CONTROL_LOCKED | FEATURE_CONTROL_VMX_OUTSIDE_SMX))
		return WARDEN_VMX_NOT_PROBED;

	*(u32 *)ctx->vmxon_region = VMX_BASIC_REVISION(basic);
	cr4_set_bits_irqsoff(X86_CR4_VMXE);
	/* VMfailInvalid sets CF, VMfailValid ZF: "jbe" catches both. */
	/* clang-format off */
	asm goto("1: vmxon %[pa]\n\t"
		 "jbe %l[failed]\n\t"
		 _ASM_EXTABLE(1b, %l[faulted])
		 : : [pa] "m"(pa) : "cc", "memory" : failed, faulted);
	/* clang-format on */
	asm volatile("vmxoff" ::: "cc", "memory");
	state = WARDEN_VMX_FREE;
failed:
faulted:
	cr4_clear_bits_irqsoff(X86_CR4_VMXE);
	return state;
}

/* Reads only: an MSR that faults is recorded as such. */
static void read_msrs(struct warden_hw_probe *p, const u32 *index,
		      unsigned int num)
{
	unsigned int i;

	for (i = 0; i < num; i++) {
		struct warden_msr_value *m = &p->msrs[i];
		u64 v;

		m->index = index[i];
		m->valid = rdmsrl_safe(m->index, &v) == 0;
		m->value = m->valid ? v : 0;
	}
	p->num_msrs = num;
}

static void probe_this_cpu(void *arg)
{
	struct probe_ctx *ctx = arg;
	struct warden_hw_probe *p = ctx->probe;
	u64 feature_control = 0, basic = 0;
	bool have_fc = false, have_basic = false;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(probe_cpuid); i++) {
		struct warden_cpuid_leaf *l = &p->cpuid[i];

		l->leaf = probe_cpuid[i][0];
		l->subleaf = probe_cpuid[i][1];
		cpuid_count(l->leaf, l->subleaf, &l->eax, &l->ebx, &l->ecx,
			    &l->edx);
	}
	p->num_cpuid = ARRAY_SIZE(probe_cpuid);
	p->cr0 = read_cr0();
	p->cr4 = __read_cr4();
	p->num_msrs = 0;
	p->vmx_state = WARDEN_VMX_NOT_PROBED;
	if (ctx->vendor == WARDEN_VENDOR_AMD) {
		/* VM_CR may fault (a CPU without SVM): rdmsrl_safe */
		read_msrs(p, probe_msrs_svm, ARRAY_SIZE(probe_msrs_svm));
		return;
	}
	if (ctx->vendor != WARDEN_VENDOR_INTEL)
		return;

	read_msrs(p, probe_msrs_vmx, ARRAY_SIZE(probe_msrs_vmx));
	for (i = 0; i < p->num_msrs; i++) {
		const struct warden_msr_value *m = &p->msrs[i];

		if (m->index == MSR_IA32_FEATURE_CONTROL && m->valid) {
			feature_control = m->value;
			have_fc = true;
		}
		if (m->index == MSR_IA32_VMX_BASIC && m->valid) {
			basic = m->value;
			have_basic = true;
		}
	}

	/* CPUID.1:ECX[5] is the only trustworthy sign of VMX: QEMU TCG, for
	 * one, returns 0 for the VMX MSRs instead of faulting. */
	if ((p->cpuid[1].ecx & CPUID1_ECX_VMX) && have_fc && have_basic)
		p->vmx_state = vmx_probe(ctx, feature_control, basic);
}

int wd_hw_probe(struct warden_hw_probe *probe)
{
	struct wd_reason why = { .rule = WARDEN_RULE_BAD_ARGUMENT,
				 .item_kind = WARDEN_ITEM_IOCTL,
				 .cpu = probe->cpu };
	struct probe_ctx ctx = { .probe = probe };
	u32 cpu = probe->cpu, id[3];
	char vendor[13];
	int err;

	if (cpu >= nr_cpu_ids || !cpu_possible(cpu)) {
		why.values[0] = 0; /* field: cpu */
		why.values[1] = cpu;
		return wd_error(&probe->error, -EINVAL, &why,
				"hardware probe: CPU %u does not exist", cpu);
	}
	/* all CPUs of a machine have one vendor: this CPU's decides */
	ctx.vendor = warden_cpuid_vendor(id);
	warden_vendor_text(id, vendor);
	if (ctx.vendor == WARDEN_VENDOR_OTHER)
		pr_info_once("warden: hardware probe: CPU vendor \"%s\" is "
			     "neither Intel nor AMD: CPUID only, no VMX or "
			     "SVM probe\n",
			     vendor);
	else if (ctx.vendor == WARDEN_VENDOR_INTEL)
		ctx.vmxon_region = (void *)get_zeroed_page(GFP_KERNEL);
	if (ctx.vendor == WARDEN_VENDOR_INTEL && !ctx.vmxon_region) {
		why.rule = WARDEN_RULE_NO_MEMORY;
		why.values[0] = 1;
		return wd_error(&probe->error, -ENOMEM, &why,
				"hardware probe: no memory for a VMXON page");
	}

	cpus_read_lock();
	if (!cpu_online(cpu)) {
		why.rule = WARDEN_RULE_CPU_OFFLINE;
		why.item_kind = WARDEN_ITEM_CPU;
		why.item_index = cpu;
		err = wd_error(&probe->error, -EBUSY, &why,
			       "hardware probe: CPU %u is offline; bring it "
			       "online to probe it",
			       cpu);
	} else {
		err = smp_call_function_single(cpu, probe_this_cpu, &ctx, 1);
		if (err)
			err = wd_error(&probe->error, err, &why,
				       "hardware probe: could not run on CPU "
				       "%u",
				       cpu);
	}
	cpus_read_unlock();

	probe->num_cpus = num_possible_cpus();
	free_page((unsigned long)ctx.vmxon_region);
	return err;
}
