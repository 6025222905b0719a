// SPDX-License-Identifier: GPL-2.0
/*
 * SVM exits: each exit code (AMD APM Vol. 2, Appendix C) is decoded into
 * the neutral record of asm/exit.h, from EXITINFO1/2 (APM 15.7-15.13,
 * 15.25.6), and handed to x86_handle_exit.  An event whose delivery the
 * exit interrupted (EXITINTINFO) is injected again (APM 15.7.2), and NMIs
 * kept for the guest are injected when it can take them.
 *
 * GIF (APM 15.17): #VMEXIT clears it, which holds NMIs, INIT, SMI and
 * interrupts pending.  The hypervisor sets it again (STGI) as soon as the
 * exit's own NMI is out of the way and runs with GIF = 1 and RFLAGS.IF =
 * 0 like on VMX: the neutral code relies on hv_nmi taking the other CPUs'
 * signals while it waits for them, and on apic_reset letting a previous
 * owner's interrupts in (STI; NOP; CLI, setup.c), which GIF = 0 would
 * hold back.  svm_prepare_entry clears GIF again before the last look at
 * the event flag, so that an NMI from then on is held and makes VMRUN
 * exit at once.
 */
#include <asm/apic.h>
#include <asm/exit.h>
#include <asm/guest.h>
#include <asm/processor.h>
#include <asm/vendor.h>
#include <asm/x86_cpu.h>
#include <hv/arch.h>
#include <hv/cell.h>
#include <hv/printk.h>
#include <svm/svm.h>
#include <svm/vmcb.h>
#include <warden/cell.h>
#include <warden/hypercall.h>

/* The IDT used while the exit's NMI is taken: vectors 0-2, only NMI set. */
static u64 absorb_idt[3 * 2] __attribute__((aligned(16)));
extern const u8 svm_nmi_absorb[];

static void build_absorb_idt(void)
{
	u64 h = (u64)svm_nmi_absorb;

	/* a 64-bit interrupt gate, present, DPL 0 (APM Vol. 2, 4.8.4) */
	absorb_idt[4] = (h & 0xffff) | ((u64)arch_host_selector(0) << 16) |
			(0x8eull << 40) | (((h >> 16) & 0xffff) << 48);
	absorb_idt[5] = h >> 32;
}

/*
 * After an NMI intercept the NMI is still pending (APM 15.13.2) and is
 * taken as soon as GIF = 1.  The exit is the record of it (counted once,
 * the hypervisor's signal told from the guest's by x86_handle_exit), so
 * the NMI itself is taken through an IDT whose handler only returns.
 */
static void absorb_nmi(void)
{
	struct dtr absorb = { sizeof(absorb_idt) - 1, (u64)absorb_idt };
	struct dtr normal = { 256 * 16 - 1, arch_idt_base() };

	if (!absorb_idt[4])
		build_absorb_idt();
	asm volatile("lidt %0\n\t"
		     "stgi\n\t"
		     "nop\n\t"
		     "nop\n\t"
		     "clgi\n\t"
		     "lidt %1"
		     :
		     : "m"(absorb), "m"(normal)
		     : "memory");
}

/* The report's words for an intercepted SVM instruction (APM Vol. 2,
 * Appendix C), followed by its exit code. */
static const char *svm_insn_name(u64 code)
{
	switch (code) {
	case SVM_EXIT_VMRUN:
		return "SVM instruction VMRUN, exit code";
	case SVM_EXIT_VMLOAD:
		return "SVM instruction VMLOAD, exit code";
	case SVM_EXIT_VMSAVE:
		return "SVM instruction VMSAVE, exit code";
	case SVM_EXIT_STGI:
		return "SVM instruction STGI, exit code";
	case SVM_EXIT_CLGI:
		return "SVM instruction CLGI, exit code";
	case SVM_EXIT_SKINIT:
		return "SVM instruction SKINIT, exit code";
	case SVM_EXIT_INVLPGA:
		return "SVM instruction INVLPGA, exit code";
	}
	return "SVM instruction, exit code";
}

static enum x86_exit_kind kind_of(u64 code)
{
	switch (code) {
	case SVM_EXIT_EXCP_BASE + 1:
	case SVM_EXIT_EXCP_BASE + 17:
		return X86_EXIT_EXCEPTION;
	case SVM_EXIT_NMI:
		return X86_EXIT_NMI;
	case SVM_EXIT_INIT:
		return X86_EXIT_INIT;
	case SVM_EXIT_IRET:
	case SVM_EXIT_VINTR:
		return X86_EXIT_NMI_WINDOW;
	case SVM_EXIT_CPUID:
		return X86_EXIT_CPUID;
	case SVM_EXIT_CR0_SEL_WRITE:
	case SVM_EXIT_CR4_WRITE:
		return X86_EXIT_CR;
	case SVM_EXIT_VMMCALL:
		return X86_EXIT_HYPERCALL;
	case SVM_EXIT_IOIO:
		return X86_EXIT_IO;
	case SVM_EXIT_MSR:
		return X86_EXIT_MSR_READ; /* or write: decode() */
	case SVM_EXIT_NPF:
		return X86_EXIT_MMIO;
	case SVM_EXIT_XSETBV:
		return X86_EXIT_XSETBV;
	case SVM_EXIT_SHUTDOWN:
		return X86_EXIT_TRIPLE_FAULT;
	case SVM_EXIT_INVD:
		return X86_EXIT_INVD;
	case SVM_EXIT_VMRUN:
	case SVM_EXIT_VMLOAD:
	case SVM_EXIT_VMSAVE:
	case SVM_EXIT_STGI:
	case SVM_EXIT_CLGI:
	case SVM_EXIT_SKINIT:
	case SVM_EXIT_INVLPGA:
		return X86_EXIT_VIRT_INSN;
	case SVM_EXIT_INVALID:
		return X86_EXIT_ENTRY_FAILED;
	}
	return X86_EXIT_UNKNOWN;
}

/* Legacy prefixes (APM Vol. 3, 1.2) and, in 64-bit mode, REX. */
static bool is_prefix(u8 b, bool rex)
{
	switch (b) {
	case 0x26:
	case 0x2e:
	case 0x36:
	case 0x3e:
	case 0x64:
	case 0x65:
	case 0x66:
	case 0x67:
	case 0xf0:
	case 0xf2:
	case 0xf3:
		return true;
	}
	return rex && (b & 0xf0) == 0x40;
}

/* The guest's instruction bytes at CS:RIP, read through its page tables
 * (guest.c), into bytes[15]: how many were read (*n), and where the
 * opcode starts after the prefixes; *rex: the last REX prefix among them
 * (64-bit mode only), 0 if none. */
static unsigned int read_prefixes(struct per_cpu *pc, const struct vmcb *v,
				  u8 bytes[15], unsigned int *n, u8 *rex)
{
	bool long64 = (v->save.efer & EFER_LMA) &&
		      (v->save.cs.attrib & SEG_ATTR_L);
	unsigned int i;

	*rex = 0;
	*n = guest_read_linear(pc, v->save.cs.base + v->save.rip, bytes, 15);
	for (i = 0; i < *n && is_prefix(bytes[i], long64); i++)
		if ((bytes[i] & 0xf0) == 0x40)
			*rex = bytes[i];
	return i;
}

/*
 * The length of the instruction that exited.  With NRIP save the CPU
 * gives the next RIP for instruction intercepts (APM 15.7.1); without it
 * (QEMU) the hypervisor counts it: the instruction has a fixed opcode
 * length (CPUID, RDMSR, WRMSR: 2; VMMCALL, XSETBV: 3), and any prefixes
 * in front of it are read from the guest's bytes at CS:RIP through its
 * page tables (guest.c).  An I/O intercept always has the next RIP in
 * EXITINFO2 (APM 15.10.2).
 */
static u8 insn_length(struct per_cpu *pc, const struct vmcb *v,
		      unsigned int opcode_len)
{
	u8 bytes[15], rex;
	unsigned int n, i;

	if (svm_caps.nrip_save && v->control.next_rip > v->save.rip &&
	    v->control.next_rip - v->save.rip <= 15)
		return (u8)(v->control.next_rip - v->save.rip);
	i = read_prefixes(pc, v, bytes, &n, &rex);
	if (i + opcode_len > 15)
		i = 15 - opcode_len;
	return (u8)(i + opcode_len);
}

/*
 * A CR0/CR4 write intercept: which GPR the MOV took its value from, and
 * its length.  With decode assists EXITINFO1 says it (bit 63: a MOV,
 * bits 3:0: the GPR, APM 15.8.1); without them (both emulators) the
 * hypervisor reads the instruction: prefixes, then 0F 22 /r, MOV CRn,
 * reg64, whose ModRM reg field (REX.R) is n and rm field (REX.B) the GPR
 * (APM Vol. 3, "MOV CRn").  LMSW, the other instruction the selective
 * CR0 intercept catches, is left with cr ~0: the neutral handler names
 * it as an unexpected CR access.
 */
static void decode_mov_cr(struct per_cpu *pc, const struct vmcb *v,
			  unsigned int cr, struct x86_exit *e)
{
	u64 info1 = v->control.exit_info_1;
	u8 bytes[15], rex, modrm;
	unsigned int n, i;

	e->cr.cr = ~0u;
	e->cr.gpr = 0;
	if (info1 >> 63) {
		e->cr.cr = cr;
		e->cr.gpr = info1 & 0xf;
		svm_cpu(pc)->insn_len = insn_length(pc, v, 3);
		return;
	}
	i = read_prefixes(pc, v, bytes, &n, &rex);
	if (i + 3 > n || bytes[i] != 0x0f || bytes[i + 1] != 0x22)
		return;
	modrm = bytes[i + 2];
	if ((((modrm >> 3) & 7) | ((rex & 4) << 1)) != cr)
		return;
	e->cr.cr = cr;
	e->cr.gpr = (modrm & 7) | ((rex & 1) << 3);
	svm_cpu(pc)->insn_len = (u8)(i + 3);
}

/* Why VMRUN refused the guest state (APM Vol. 2, 15.5.1): the rules the
 * hypervisor itself could break, in order, on what it gave VMRUN
 * (svm_prepare_entry's copy). */
static const char *entry_failure(const struct svm_cpu *c, const struct vmcb *v)
{
	u64 efer = c->entry_efer, cr0 = c->entry_cr0, cr4 = c->entry_cr4;

	if (!(efer & EFER_SVME))
		return "guest EFER.SVME is 0 (APM Vol. 2, 15.5.1)";
	if ((cr0 & X86_CR0_NW) && !(cr0 & X86_CR0_CD))
		return "guest CR0.NW = 1 with CR0.CD = 0 (APM Vol. 2, 15.5.1)";
	if (cr0 >> 32)
		return "guest CR0[63:32] not zero (APM Vol. 2, 15.5.1)";
	if ((efer & EFER_LME) && (cr0 & X86_CR0_PG) && !(cr4 & X86_CR4_PAE))
		return "guest EFER.LME and CR0.PG with CR4.PAE = 0 (APM "
		       "Vol. 2, 15.5.1)";
	if ((efer & EFER_LME) && (cr0 & X86_CR0_PG) &&
	    (c->entry_cs_attrib & SEG_ATTR_L) &&
	    (c->entry_cs_attrib & SEG_ATTR_DB))
		return "guest CS.L and CS.D both set in long mode (APM Vol. "
		       "2, 15.5.1)";
	if (!v->control.guest_asid)
		return "ASID 0 (APM Vol. 2, 15.5.1)";
	if (!(v->control.intercept_misc2 & INTERCEPT_VMRUN))
		return "VMRUN not intercepted (APM Vol. 2, 15.5.1)";
	return "VMRUN consistency check, no rule the hypervisor checks is "
	       "broken (APM Vol. 2, 15.5.1)";
}

static void decode(struct per_cpu *pc, struct vmcb *v, struct x86_exit *e)
{
	struct svm_cpu *s = svm_cpu(pc);
	u64 code = v->control.exit_code, info1 = v->control.exit_info_1;

	e->reason = (u32)code;
	e->qualification = info1;
	e->kind = kind_of(code);
	s->insn_len = 0;
	switch (e->kind) {
	case X86_EXIT_EXCEPTION:
		/* the #DB after an NMI's IRET (svm_vcpu.c) opens NMIs */
		if (svm_nmi_window_step(pc, code)) {
			e->kind = X86_EXIT_NMI_WINDOW;
			break;
		}
		e->exception.vector = (u8)(code - SVM_EXIT_EXCP_BASE);
		/* #AC has an error code, in EXITINFO1 (APM 15.12) */
		e->exception.has_error = e->exception.vector == 17;
		e->exception.error = (u32)info1;
		break;
	case X86_EXIT_NMI_WINDOW:
		svm_nmi_window_step(pc, code);
		break;
	case X86_EXIT_VIRT_INSN:
		e->why = svm_insn_name(code);
		break;
	case X86_EXIT_ENTRY_FAILED:
		e->why = entry_failure(s, v);
		break;
	case X86_EXIT_CPUID:
		s->insn_len = insn_length(pc, v, 2);
		break;
	case X86_EXIT_CR:
		decode_mov_cr(pc, v, code == SVM_EXIT_CR4_WRITE ? 4 : 0, e);
		break;
	case X86_EXIT_MSR_READ:
		/* EXITINFO1: 0 RDMSR, 1 WRMSR (APM 15.11) */
		if (info1 & 1)
			e->kind = X86_EXIT_MSR_WRITE;
		s->insn_len = insn_length(pc, v, 2);
		break;
	case X86_EXIT_HYPERCALL:
	case X86_EXIT_XSETBV:
		s->insn_len = insn_length(pc, v, 3);
		break;
	case X86_EXIT_IO:
		/* APM 15.10.2, Figure 15-2 */
		e->io.port = (u16)(info1 >> IOIO_PORT_SHIFT);
		e->io.size = (info1 & IOIO_SZ32)   ? 4
			     : (info1 & IOIO_SZ16) ? 2
						   : 1;
		e->io.in = info1 & IOIO_TYPE_IN;
		e->io.string = info1 & IOIO_STR;
		s->insn_len = (u8)(v->control.exit_info_2 - v->save.rip);
		break;
	case X86_EXIT_MMIO:
		/* EXITINFO1: a #PF error code, EXITINFO2: the guest-physical
		 * address (APM 15.25.6) */
		e->mmio.gpa = v->control.exit_info_2;
		e->mmio.write = info1 & NPF_WRITE;
		e->mmio.fetch = info1 & NPF_FETCH;
		/* the trapped xAPIC page (npt.c leaves it unmapped): the
		 * kind VMX's APIC-access exits have, a data access when the
		 * fault is on the final address of an access, not on a
		 * guest page-table walk nor a fetch */
		if ((e->mmio.gpa & PAGE_MASK) == apic_xapic_page(pc->cell)) {
			u64 gpa = e->mmio.gpa;
			bool write = e->mmio.write;

			e->kind = X86_EXIT_XAPIC;
			e->xapic.offset = gpa & ~PAGE_MASK;
			e->xapic.write = write;
			e->xapic.linear = (info1 & NPF_FINAL_GPA) &&
					  !(info1 & NPF_FETCH);
		}
		break;
	default:
		break;
	}
}

/*
 * An event (interrupt, exception, NMI) whose delivery the exit
 * interrupted is in EXITINTINFO, in EVENTINJ's format: inject it again
 * (APM 15.7.2).  A software interrupt (INTn) and the #BP/#OF of INT3/INTO
 * are not: RIP still points at the instruction, which raises them again
 * when it runs.
 */
static void reinject(struct per_cpu *pc, struct vmcb *v)
{
	u64 info = v->control.exit_int_info;
	u32 type = info & EVENT_TYPE_MASK;
	u8 vector = info & EVENT_VECTOR_MASK;

	if (!(info & EVENT_VALID))
		return;
	if (type == EVENT_TYPE_SOFT_INT ||
	    (type == EVENT_TYPE_EXCEPTION && (vector == 3 || vector == 4)))
		return;
	v->control.event_inj = info;
	if (type == EVENT_TYPE_NMI)
		svm_nmi_injected(pc);
}

/* Inject an NMI kept for the guest when it can take one; otherwise the
 * window exits (IRET, VINTR: svm_vcpu.c) bring the CPU back. */
static void deliver_nmis(struct per_cpu *pc, struct vmcb *v)
{
	struct svm_cpu *s = svm_cpu(pc);

	if (!__atomic_load_n(&pc->arch.guest_nmis_pending, __ATOMIC_SEQ_CST) ||
	    s->nmi_state != NMI_OPEN)
		return;
	if ((v->control.event_inj & EVENT_VALID) ||
	    (v->control.interrupt_shadow & INTERRUPT_SHADOW_ACTIVE)) {
		svm_request_vintr(pc);
		return;
	}
	__atomic_fetch_sub(&pc->arch.guest_nmis_pending, 1, __ATOMIC_SEQ_CST);
	v->control.event_inj = 2 | EVENT_TYPE_NMI | EVENT_VALID;
	svm_nmi_injected(pc);
}

/* The first exit after enable's check of the event exit (svm.c). */
static void event_exit_checked(struct per_cpu *pc, u64 code)
{
	svm_cpu(pc)->event_exit_check = EVENT_EXIT_CHECK_NONE;
	if (code == SVM_EXIT_NMI)
		printk("CPU %u: event exit works: an NMI held with GIF = 0 "
		       "made the first VMRUN exit at once\n",
		       pc->cpu_id);
	else
		printk("WARNING: CPU %u: the NMI held with GIF = 0 did not "
		       "make the first VMRUN exit (first exit: code 0x%llx); "
		       "a request may wait for the guest's next exit\n",
		       pc->cpu_id, (unsigned long long)code);
}

/*
 * Before each VMRUN: NMIs for the guest, then GIF = 0 and the last look
 * at the event flag.  An NMI that came to hv_nmi since the event loop's
 * last look armed it: handle it as the event exit VMX's zero preemption
 * timer would give, and look again.  Returns with GIF = 0.
 */
void svm_prepare_entry(struct guest_regs *regs)
{
	struct per_cpu *pc = this_cpu();
	struct vmcb *v = svm_cpu(pc)->vmcb;
	struct x86_exit e = { .kind = X86_EXIT_EVENT };

	for (;;) {
		deliver_nmis(pc, v);
		svm_clgi();
		if (!__atomic_load_n(&pc->arch.event_exit_armed,
				     __ATOMIC_SEQ_CST))
			break;
		svm_stgi();
		x86_handle_exit(pc, regs, &e);
	}
	v->save.rax = regs->rax;
	svm_cpu(pc)->entry_efer = v->save.efer;
	svm_cpu(pc)->entry_cr0 = v->save.cr0;
	svm_cpu(pc)->entry_cr4 = v->save.cr4;
	svm_cpu(pc)->entry_cs_attrib = v->save.cs.attrib;
	svm_cpu(pc)->entry_rip = v->save.rip;
}

/* After VMEXIT_INVALID: the state VMRUN refused back into the VMCB, for
 * the report and the registers the handlers show. */
static void restore_refused_state(struct svm_cpu *s, struct vmcb *v)
{
	v->save.efer = s->entry_efer;
	v->save.cr0 = s->entry_cr0;
	v->save.cr4 = s->entry_cr4;
	v->save.cs.attrib = s->entry_cs_attrib;
	v->save.rip = s->entry_rip;
}

/* From svm_entry.S after each #VMEXIT, GIF = 0, the hypervisor's
 * FS/GS/TR loaded again. */
void svm_handle_exit(struct guest_regs *regs)
{
	struct per_cpu *pc = this_cpu();
	struct svm_cpu *s = svm_cpu(pc);
	struct vmcb *v = s->vmcb;
	u64 code = v->control.exit_code;
	struct x86_exit e;

	/* VMEXIT_INVALID is -1 (APM Appendix C); QEMU writes it as a 32-bit
	 * -1 with the upper half 0.  No valid code comes near that. */
	if ((u32)code == (u32)SVM_EXIT_INVALID)
		v->control.exit_code = code = SVM_EXIT_INVALID;

	regs->rax = v->save.rax;
	/* a flush asked for is done by the VMRUN that just ran */
	v->control.tlb_control = TLB_CONTROL_NONE;
	if (code == SVM_EXIT_NMI)
		absorb_nmi();
	svm_stgi();
	if (s->event_exit_check)
		event_exit_checked(pc, code);
	v->control.event_inj = 0;
	if (code != SVM_EXIT_INVALID)
		reinject(pc, v);
	else
		restore_refused_state(s, v);
	decode(pc, v, &e);
	x86_handle_exit(pc, regs, &e);
	svm_prepare_entry(regs);
}
