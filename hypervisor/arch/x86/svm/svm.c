// SPDX-License-Identifier: GPL-2.0
/*
 * SVM operation: checking the CPU, building each CPU's VMCB with Linux's
 * state as guest state, the first VMRUN, and leaving again (disable).
 * References: AMD APM Vol. 2, chapter 15 (Secure Virtual Machine),
 * Appendix B (VMCB layout).
 */
#include <asm/apic.h>
#include <asm/cpu_rules.h>
#include <asm/processor.h>
#include <asm/vendor.h>
#include <asm/x86_cpu.h>
#include <hv/arch.h>
#include <hv/printk.h>
#include <hv/string.h>
#include <svm/svm.h>
#include <svm/vmcb.h>
#include <warden/cell.h>
#include <warden/hypercall.h>
#include <x86/cpuid.h>
#include <x86/msr.h>

struct svm_caps svm_caps;

/* Exceptions the guest's own handlers get, but that exit first: #DB (1)
 * and #AC (17) can loop in microcode and lock up a CPU (CVE-2015-5307,
 * CVE-2015-8104). */
#define EXCEPTION_INTERCEPTS ((1u << 1) | (1u << 17))

/* The syscall MSRs VMLOAD/VMSAVE switch (APM Vol. 2, 15.5.2) */
#define MSR_STAR 0xc0000081
#define MSR_LSTAR 0xc0000082
#define MSR_CSTAR 0xc0000083
#define MSR_SFMASK 0xc0000084

static int missing(struct per_cpu *pc, const char *what, u32 leaf, u32 bits)
{
	printk("FATAL: CPU %u: %s (CPUID 0x%x)\n", pc->cpu_id, what, leaf);
	hv_set_error(pc, -WARDEN_EOPNOTSUPP, WARDEN_RULE_FEATURE_MISSING,
		     WARDEN_ITEM_NONE, 0, leaf, bits);
	return -WARDEN_EOPNOTSUPP;
}

/*
 * What guests may load (asm/cpu_rules.h).  SVM has no fixed CR0/CR4 bits
 * of its own: VMRUN only refuses what the architecture forbids (APM
 * Vol. 2, 15.5.1: CR0.CD = 0 with NW = 1, CR0[63:32], reserved CR3/CR4
 * bits, EFER.SVME = 0, reserved EFER bits, LME/PG/PAE and CS.L/CS.D
 * combinations).  So CR0 may hold every architectural bit of 31:0, CR4
 * the bits CPUID reports, XCR0 what CPUID.(EAX=0DH,ECX=0) offers, and
 * EFER SCE, LME, NXE and the AMD bits CPUID reports; SVME is never the
 * guest's (SVM is hidden from it, emulate.c).
 */
static void set_limits(struct guest_limits *l)
{
	u32 a, b, c, d, max;
	u64 cr4;

	l->cr0_allowed = CR0_PE | CR0_MP | CR0_EM | CR0_TS | CR0_ET | CR0_NE |
			 CR0_WP | CR0_AM | CR0_NW | CR0_CD | CR0_PG;

	/* VME PVI TSD DE PSE PAE MCE PGE PCE OSFXSR OSXMMEXCPT: every x86-64
	 * CPU has them (APM Vol. 2, 3.1.3) */
	cr4 = 0x7ff;
	cpuid(0, 0, &max, &b, &c, &d);
	cpuid(1, 0, &a, &b, &c, &d);
	if (c & (1u << 17))
		cr4 |= X86_CR4_PCIDE;
	if (c & CPUID1_ECX_XSAVE) {
		cr4 |= X86_CR4_OSXSAVE;
		cpuid(0xd, 0, &a, &b, &c, &d);
		l->xcr0_supported = (u64)d << 32 | a;
	}
	if (max >= 7) {
		cpuid(7, 0, &a, &b, &c, &d);
		if (b & (1u << 0))
			cr4 |= 1ull << 16; /* FSGSBASE */
		if (b & (1u << 7))
			cr4 |= 1ull << 20; /* SMEP */
		if (b & (1u << 20))
			cr4 |= 1ull << 21; /* SMAP */
		if (c & (1u << 2))
			cr4 |= 1ull << 11; /* UMIP */
		if (c & (1u << 3))
			cr4 |= X86_CR4_PKE;
		if (c & (1u << 16))
			cr4 |= X86_CR4_LA57;
		if (c & (1u << 7))
			cr4 |= 1ull << 23; /* CET */
	}
	l->cr4_allowed = cr4;

	cpuid(0x80000001, 0, &a, &b, &c, &d);
	l->efer_allowed = ((d & (1u << 11)) ? EFER_SCE : 0) |
			  ((d & (1u << 29)) ? EFER_LME : 0) |
			  ((d & (1u << 20)) ? EFER_NXE : 0) |
			  /* FFXSR (APM Vol. 2, 3.1.7) */
			  ((d & (1u << 25)) ? (1ull << 14) : 0) |
			  /* TCE */
			  ((c & (1u << 17)) ? (1ull << 15) : 0);
	cpuid(0x80000008, 0, &a, &b, &c, &d);
	l->phys_bits = a & 0xff;
}

const struct paging_format *vendor_second_level_format(void)
{
	return &svm_npt_format;
}

/*
 * CPUID 8000_0001 ECX[2]: SVM; 8000_000A (APM Vol. 3, E.4.9): EDX[0]
 * nested paging (required: cells' memory), EDX[3] NRIP save and EDX[6]
 * flush by ASID (used when present), EBX the number of ASIDs.
 */
int vendor_init_system(struct per_cpu *pc, struct guest_limits *limits)
{
	u32 a, b, c, d;

	cpuid(0x80000000, 0, &a, &b, &c, &d);
	if (a < 0x8000000a)
		return missing(pc, "no SVM: CPUID leaf 0x8000000a missing",
			       0x80000000, a);
	cpuid(0x80000001, 0, &a, &b, &c, &d);
	if (!(c & CPUID80000001_ECX_SVM))
		return missing(pc, "no SVM (CPUID 0x80000001 ECX[2] = 0)",
			       0x80000001, CPUID80000001_ECX_SVM);
	if (read_msr(MSR_AMD_VM_CR) & AMD_VM_CR_SVMDIS) {
		printk("FATAL: CPU %u: SVM disabled by firmware "
		       "(VM_CR.SVMDIS)\n",
		       pc->cpu_id);
		hv_set_error(pc, -WARDEN_EOPNOTSUPP,
			     WARDEN_RULE_FEATURE_MISSING, WARDEN_ITEM_NONE, 0,
			     MSR_AMD_VM_CR, AMD_VM_CR_SVMDIS);
		return -WARDEN_EOPNOTSUPP;
	}
	cpuid(0x8000000a, 0, &a, &b, &c, &d);
	if (!(d & CPUID8000000A_EDX_NPT))
		return missing(pc,
			       "no nested paging (CPUID 0x8000000a EDX[0] "
			       "= 0)",
			       0x8000000a, CPUID8000000A_EDX_NPT);
	svm_caps.nrip_save = d & CPUID8000000A_EDX_NRIPS;
	svm_caps.flush_by_asid = d & CPUID8000000A_EDX_FLUSH_BY_ASID;
	svm_caps.num_asids = b;
	if (b < 2)
		return missing(pc, "no guest ASID (CPUID 0x8000000a EBX < 2)",
			       0x8000000a, b);
	set_limits(limits);
	printk("SVM: revision %u, %u ASIDs, NPT, NRIP save %s, flush by ASID "
	       "%s\n",
	       a & 0xff, b, svm_caps.nrip_save ? "yes" : "no (decoded)",
	       svm_caps.flush_by_asid ? "yes" : "no (whole TLB)");
	return 0;
}

/* The VMCB's attributes from the VMX-style access rights the driver
 * recorded (type/S/DPL/P in 7:0, AVL/L/D/G in 15:12, unusable bit 16):
 * APM Vol. 2, 15.5 and Table B-2. */
static u16 attrib_from_ar(u32 ar)
{
	if (ar & 0x10000)
		return 0;
	return (u16)((ar & 0xff) | ((ar >> 4) & 0xf00));
}

static u32 ar_from_attrib(u16 attrib)
{
	if (!(attrib & SEG_ATTR_P))
		return 0x10000;
	return (attrib & 0xff) | ((u32)(attrib & 0xf00) << 4);
}

static void seg_in(struct vmcb_seg *v, const struct warden_segment *s)
{
	v->selector = s->selector;
	v->attrib = attrib_from_ar(s->access_rights);
	v->limit = s->limit;
	v->base = s->base;
}

static void seg_out(struct warden_segment *s, const struct vmcb_seg *v)
{
	s->selector = v->selector;
	s->access_rights = ar_from_attrib(v->attrib);
	s->limit = v->limit;
	s->base = v->base;
}

static void setup_guest_state(struct per_cpu *pc, struct vmcb *v)
{
	const struct warden_linux_state *l = &pc->entry->linux_state;
	struct vmcb_save *s = &v->save;

	seg_in(&s->es, &l->es);
	seg_in(&s->cs, &l->cs);
	seg_in(&s->ss, &l->ss);
	seg_in(&s->ds, &l->ds);
	seg_in(&s->fs, &l->fs);
	seg_in(&s->gs, &l->gs);
	seg_in(&s->ldtr, &l->ldtr);
	seg_in(&s->tr, &l->tr);
	s->gdtr.base = l->gdtr_base;
	s->gdtr.limit = l->gdtr_limit;
	s->idtr.base = l->idtr_base;
	s->idtr.limit = l->idtr_limit;
	/* the CPL is SS.DPL in 64-bit mode; APM 15.5.1 takes it from here */
	s->cpl = (u8)((l->ss.access_rights >> 5) & 3);
	s->efer = l->efer | EFER_SVME;
	s->cr0 = l->cr0;
	s->cr3 = l->cr3;
	s->cr4 = l->cr4;
	s->cr2 = 0;
	s->dr6 = 0xffff0ff0;
	s->dr7 = 0x400;
	s->rflags = l->rflags;
	s->rip = l->rip;
	s->rsp = l->rsp;
	s->rax = 0;
	s->g_pat = l->pat;
	s->dbgctl = l->debugctl;
	/* VMLOAD state: Linux's, still in the MSRs (the hypervisor did not
	 * change them) */
	s->kernel_gs_base = l->kernel_gs_base;
	s->star = read_msr(MSR_STAR);
	s->lstar = read_msr(MSR_LSTAR);
	s->cstar = read_msr(MSR_CSTAR);
	s->sfmask = read_msr(MSR_SFMASK);
	s->sysenter_cs = l->sysenter_cs;
	s->sysenter_esp = l->sysenter_esp;
	s->sysenter_eip = l->sysenter_eip;
}

/*
 * The intercepts every guest has (APM Vol. 2, 15.9-15.14): CPUID (features
 * hidden), I/O and MSRs through the permission maps, NMI and INIT (the
 * hypervisor's signals, INIT/SIPI emulation), SHUTDOWN (a triple fault),
 * every SVM instruction (VMRUN must be, APM 15.5.1), INVLPGA, VMMCALL (the
 * hypercall), XSETBV (XCR0 is checked), INVD (APM 15.9: refused as on
 * VMX, where it always exits, exit.c; HWCR.INVDWBINVD, which turns it
 * into a WBINVD, is root's MSR and only kept set, msr.c), #DB and #AC,
 * and writes to CR4
 * and to CR0 bits other than TS and MP (the selective CR0 intercept, APM
 * 15.9): VMRUN loads the guest's CR0 and CR4 from the VMCB at every entry,
 * so each value is checked against the rules first (emulate.c), as on
 * VMX; an emulator that let a bad value through on its own would
 * otherwise fail the next VMRUN (QEMU does).  No interrupt, HLT or RDTSC
 * intercepts: with V_INTR_MASKING clear physical interrupts reach the
 * guest's IDT (APM 15.21.1).
 */
static void setup_controls(struct vmcb *v)
{
	struct vmcb_control *c = &v->control;

	c->intercept_exceptions = EXCEPTION_INTERCEPTS;
	c->intercept_cr_write = 1u << 4; /* CR4 */
	c->intercept_misc1 = INTERCEPT_NMI | INTERCEPT_INIT | INTERCEPT_CPUID |
			     INTERCEPT_CR0_SEL_WRITE | INTERCEPT_INVLPGA |
			     INTERCEPT_IOIO_PROT | INTERCEPT_MSR_PROT |
			     INTERCEPT_SHUTDOWN | INTERCEPT_INVD;
	c->intercept_misc2 = INTERCEPT_VMRUN | INTERCEPT_VMMCALL |
			     INTERCEPT_VMLOAD | INTERCEPT_VMSAVE |
			     INTERCEPT_STGI | INTERCEPT_CLGI |
			     INTERCEPT_SKINIT | INTERCEPT_XSETBV;
	c->np_enable = NP_ENABLE;
	c->tsc_offset = 0;
	c->vintr = 0;
	c->interrupt_shadow = 0;
	c->event_inj = 0;
	/* no VMCB clean bits: every VMRUN loads the whole VMCB (0 is always
	 * safe, APM 15.15) */
	c->clean_bits = 0;
}

/* The controls that depend on the cell the CPU runs (root or another):
 * nested page tables, I/O and MSR permission maps, the ASID. */
void vcpu_load_cell(struct per_cpu *pc)
{
	struct vmcb_control *c = &svm_cpu(pc)->vmcb->control;
	struct arch_cell *cell = pc->cell->arch;

	c->iopm_base_pa = hv_virt_to_phys(cell->io_bitmap);
	c->n_cr3 = pool_virt_to_phys(&hv.pool, cell->tables.root);
	c->guest_asid = cell->tlb_tag;
	vcpu_load_msr_bitmap(pc);
}

void vcpu_load_msr_bitmap(struct per_cpu *pc)
{
	svm_cpu(pc)->vmcb->control.msrpm_base_pa = hv_virt_to_phys(
		arch_cell_msr_bitmap(pc->cell->arch, pc->arch.guest_x2apic));
}

static u64 pa(const void *p)
{
	return hv_virt_to_phys(p);
}

int vendor_cpu_init(struct per_cpu *pc)
{
	struct svm_cpu *s = svm_cpu(pc);
	u64 efer = read_msr(MSR_IA32_EFER);

	/* the driver checked it on one CPU; another hypervisor could have
	 * it on this one (APM 15.4) */
	if (efer & EFER_SVME) {
		hv_set_error(pc, -WARDEN_EBUSY, WARDEN_RULE_SVM_BUSY,
			     WARDEN_ITEM_CPU, pc->cpu_id, 0, 0);
		return -WARDEN_EBUSY;
	}
	s->vmcb = page_alloc(&hv.pool, 1);
	s->host_state = page_alloc(&hv.pool, 1);
	s->hsave = page_alloc(&hv.pool, 1);
	if (!s->vmcb || !s->host_state || !s->hsave)
		return hv_no_memory(pc, 2);

	/* EFER.SVME enables the SVM instructions (APM 15.4); VM_HSAVE_PA
	 * names the page VMRUN saves the host state in (15.30.4) */
	write_msr(MSR_IA32_EFER, efer | EFER_SVME);
	s->svm_on = true;
	write_msr(MSR_AMD_VM_HSAVE_PA, pa(s->hsave));
	/* the hypervisor's FS/GS/TR/LDTR and syscall MSRs, restored by
	 * VMLOAD after each #VMEXIT (svm_entry.S) */
	svm_vmsave(pa(s->host_state));

	setup_controls(s->vmcb);
	setup_guest_state(pc, s->vmcb);
	vcpu_load_cell(pc);
	__atomic_store_n(&s->vmcb_valid, true, __ATOMIC_SEQ_CST);
	return 0;
}

/* SVM's failed entries are named on the console (svm_exit.c): no
 * record for root. */
long vendor_cpu_entry_word(struct per_cpu *pc, unsigned int word)
{
	(void)pc;
	(void)word;
	return 0;
}

void vendor_cpu_undo(struct per_cpu *pc)
{
	struct svm_cpu *s = svm_cpu(pc);

	__atomic_store_n(&s->vmcb_valid, false, __ATOMIC_SEQ_CST);
	if (s->svm_on) {
		/* GIF must be 1 for Linux; STGI needs EFER.SVME (APM 15.17) */
		svm_stgi();
		write_msr(MSR_AMD_VM_HSAVE_PA, 0);
		write_msr(MSR_IA32_EFER,
			  read_msr(MSR_IA32_EFER) & ~(u64)EFER_SVME);
	}
	s->svm_on = false;
}

/*
 * The first VMRUN.  Before it, show that the event exit works on this
 * CPU, as VMX does: with GIF = 0 an NMI to itself is held pending (APM
 * 15.17), and the VMRUN, which sets GIF, must then exit with the NMI
 * intercept before Linux's first instruction (svm_exit.c reports it).
 * The first VMRUN also flushes every ASID (TLB_CONTROL 1): translations
 * tagged by an earlier user of SVM on this CPU (a hypervisor that ran
 * before) must not be found by our guests (APM 15.16).
 */
int vendor_cpu_activate(struct per_cpu *pc)
{
	struct guest_regs regs = { 0 }; /* RAX = 0: "entered" */
	struct svm_cpu *s = svm_cpu(pc);

	s->vmcb->control.tlb_control = TLB_CONTROL_FLUSH_ALL;
	svm_clgi();
	s->event_exit_check = EVENT_EXIT_CHECK_PENDING;
	__atomic_store_n(&pc->arch.event_nmi, true, __ATOMIC_SEQ_CST);
	apic_send(pc, pc->apic_id, APIC_DM_NMI << 8 | APIC_ICR_ASSERT);
	svm_start(&regs, percpu_stack_top(pc), pa(s->vmcb), pa(s->host_state));
}

/*
 * Leave SVM and continue Linux where the guest was (disable), or where
 * the driver entered (failed enable; regs == NULL).  The guest's state is
 * in the VMCB; what VMLOAD would load (KernelGsBase, STAR, LSTAR, CSTAR,
 * SFMASK, SYSENTER) is written back to the MSRs here, the rest by the
 * driver's stub from *l.  Translations the guest's ASIDs left in the TLB
 * stay tagged with ASIDs Linux (ASID 0) never uses; the next enable
 * flushes them (vendor_cpu_activate).
 */
void vendor_cpu_leave(struct per_cpu *pc, long result, struct guest_regs *regs)
{
	struct warden_linux_state *l = &pc->entry->linux_state;
	struct svm_cpu *sc = svm_cpu(pc);
	unsigned int i;

	if (regs) {
		struct vmcb_save *s = &sc->vmcb->save;
		u64 *r = (u64 *)regs;

		l->cr0 = s->cr0;
		l->cr3 = s->cr3;
		l->cr4 = s->cr4;
		l->efer = svm_guest_efer(sc->vmcb);
		l->pat = s->g_pat;
		l->gdtr_base = s->gdtr.base;
		l->gdtr_limit = (u16)s->gdtr.limit;
		l->idtr_base = s->idtr.base;
		l->idtr_limit = (u16)s->idtr.limit;
		seg_out(&l->cs, &s->cs);
		seg_out(&l->ss, &s->ss);
		seg_out(&l->ds, &s->ds);
		seg_out(&l->es, &s->es);
		seg_out(&l->fs, &s->fs);
		seg_out(&l->gs, &s->gs);
		seg_out(&l->tr, &s->tr);
		l->rsp = s->rsp;
		l->rip = s->rip + sc->insn_len;
		l->rflags = s->rflags;
		for (i = 0; i < 16; i++)
			l->regs[i] = r[i];
		write_msr(MSR_KERNEL_GS_BASE, s->kernel_gs_base);
		write_msr(MSR_STAR, s->star);
		write_msr(MSR_LSTAR, s->lstar);
		write_msr(MSR_CSTAR, s->cstar);
		write_msr(MSR_SFMASK, s->sfmask);
		write_msr(MSR_IA32_SYSENTER_CS, s->sysenter_cs);
		write_msr(MSR_IA32_SYSENTER_ESP, s->sysenter_esp);
		write_msr(MSR_IA32_SYSENTER_EIP, s->sysenter_eip);
	}
	l->regs[0] = (u64)result;

	vendor_cpu_undo(pc);
	x86_back_to_linux(pc, l, result, regs != NULL);
}
