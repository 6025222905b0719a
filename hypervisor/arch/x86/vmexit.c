// SPDX-License-Identifier: GPL-2.0
/*
 * VM-exit handling: one handler per basic exit reason (SDM Vol. 3, Appendix
 * C), dispatched through a table, each exit counted by its ABI statistics
 * id.  Before the guest resumes, an event whose delivery the exit
 * interrupted (IDT-vectoring information, SDM 28.2.4) is reinjected, and
 * NMIs that belong to Linux are delivered as virtual NMIs when the guest
 * can take them (NMI-window exiting otherwise).
 */
#include <asm/apic.h>
#include <asm/processor.h>
#include <asm/vmx.h>
#include <asm/vmx_cpu.h>
#include <hv/arch.h>
#include <hv/cell.h>
#include <hv/printk.h>
#include <hv/string.h>
#include <warden/cell.h>
#include <warden/hypercall.h>
#include <warden/stats.h>
#include <x86/vmx.h>

typedef void (*exit_handler)(struct per_cpu *pc, struct guest_regs *regs);

void vmx_inject_exception(u8 vector, bool has_error, u32 error)
{
	u32 info = vector | INTR_TYPE_HARD_EXCEPTION | INTR_INFO_VALID;

	if (has_error) {
		info |= INTR_INFO_DELIVER_CODE;
		vmwrite(VM_ENTRY_EXCEPTION_ERROR_CODE, error);
	}
	vmwrite(VM_ENTRY_INTR_INFO_FIELD, info);
}

/*
 * After emulating an instruction: advance RIP, drop STI/MOV-SS blocking
 * (the blocking ends with the instruction), and honour single-stepping by
 * raising the #DB the instruction would have caused (SDM 26.6.3).
 */
void vmx_advance_rip(unsigned int len)
{
	u32 intr = (u32)vmread(GUEST_INTERRUPTIBILITY_INFO);

	vmwrite(GUEST_RIP, vmread(GUEST_RIP) + len);
	if (intr & (GUEST_INTR_STI | GUEST_INTR_MOV_SS))
		vmwrite(GUEST_INTERRUPTIBILITY_INFO,
			intr & ~(GUEST_INTR_STI | GUEST_INTR_MOV_SS));
	if (vmread(GUEST_RFLAGS) & X86_RFLAGS_TF)
		vmwrite(GUEST_PENDING_DBG_EXCEPTIONS,
			vmread(GUEST_PENDING_DBG_EXCEPTIONS) | (1u << 14));
}

void vmx_skip_instruction(void)
{
	vmx_advance_rip((unsigned int)vmread(VM_EXIT_INSTRUCTION_LEN));
}

static void report(struct per_cpu *pc, struct guest_regs *regs,
		   const char *what, u32 reason)
{
	printk("CPU %u: %s: exit reason %u, qualification 0x%llx, RIP "
	       "0x%llx, RSP 0x%llx\n"
	       "  RAX 0x%llx RBX 0x%llx RCX 0x%llx RDX 0x%llx RSI 0x%llx "
	       "RDI 0x%llx\n",
	       pc->cpu_id, what, reason,
	       (unsigned long long)vmread(EXIT_QUALIFICATION),
	       (unsigned long long)vmread(GUEST_RIP),
	       (unsigned long long)vmread(GUEST_RSP),
	       (unsigned long long)regs->rax, (unsigned long long)regs->rbx,
	       (unsigned long long)regs->rcx, (unsigned long long)regs->rdx,
	       (unsigned long long)regs->rsi, (unsigned long long)regs->rdi);
}

void fail_cell(struct per_cpu *pc, struct guest_regs *regs, const char *what,
	       u64 value)
{
	printk("Cell %u \"%s\", CPU %u: %s 0x%llx at RIP 0x%llx; cell "
	       "failed, CPU parked\n",
	       pc->cell->id, pc->cell->config->name, pc->cpu_id, what,
	       (unsigned long long)value,
	       (unsigned long long)vmread(GUEST_RIP));
	cell_failed(pc);
	arch_cpu_fail(pc, regs);
}

static bool in_cell(struct per_cpu *pc)
{
	return pc->cell != &hv.root;
}

static void handle_cpuid(struct per_cpu *pc, struct guest_regs *regs)
{
	u32 leaf = (u32)regs->rax, sub = (u32)regs->rcx;
	u32 a, b, c, d;

	pc->stats[WARDEN_STAT_VMEXITS_CPUID]++;
	if (leaf == 0x40000000) {
		/* "WardenWarden" identifies the hypervisor */
		a = 0x40000000;
		b = 0x64726157; /* "Ward" */
		c = 0x61576e65; /* "enWa" */
		d = 0x6e656472; /* "rden" */
	} else {
		cpuid(leaf, sub, &a, &b, &c, &d);
		if (leaf == 1) {
			u64 cr4 = vmread(CR4_READ_SHADOW);

			c &= ~(1u << 5); /* no VMX for guests */
			/* OSXSAVE follows the guest's CR4 */
			c &= ~(1u << 27);
			if (vmread(GUEST_CR4) & X86_CR4_OSXSAVE)
				c |= 1u << 27;
			(void)cr4;
		} else if (leaf == 7 && sub == 0) {
			c &= ~(1u << 4); /* OSPKE follows the guest's CR4 */
			if (vmread(GUEST_CR4) & X86_CR4_PKE)
				c |= 1u << 4;
		}
	}
	regs->rax = a;
	regs->rbx = b;
	regs->rcx = c;
	regs->rdx = d;
	vmx_skip_instruction();
}

static u64 *gpr(struct guest_regs *regs, unsigned int n)
{
	return &((u64 *)regs)[n];
}

/*
 * MOV to CR0/CR4 that touched a masked bit (SDM 28.1.3, Table 28-3): the
 * guest sees its value through the read shadow; the real register keeps
 * the bits VMX needs.
 */
static void handle_cr(struct per_cpu *pc, struct guest_regs *regs)
{
	u64 q = vmread(EXIT_QUALIFICATION);
	unsigned int cr = q & 15, type = (q >> 4) & 3, reg = (q >> 8) & 15;
	u64 value;

	pc->stats[WARDEN_STAT_VMEXITS_CR]++;
	if (type != 0 || (cr != 0 && cr != 4)) {
		report(pc, regs, "unexpected CR access", 28);
		vmx_inject_exception(UD_VECTOR, false, 0);
		return;
	}
	value = reg == 4 ? vmread(GUEST_RSP) : *gpr(regs, reg);
	if (cr == 0) {
		u64 old = vmread(GUEST_CR0), efer = vmread(GUEST_IA32_EFER);
		u64 entry = vmread(VM_ENTRY_CONTROLS);

		/* Emulating the write, we also do what the CPU does when
		 * paging is switched with EFER.LME set: IA-32e mode starts
		 * or ends, EFER.LMA follows, and so must the IA-32e entry
		 * control (SDM 10.8.5, 26.3.1.1); Linux's real-mode
		 * trampoline sets PG and NE in one write. */
		if ((value & X86_CR0_PG) && !(old & X86_CR0_PG) &&
		    (efer & EFER_LME)) {
			vmwrite(GUEST_IA32_EFER, efer | EFER_LMA);
			vmwrite(VM_ENTRY_CONTROLS,
				entry | ENTRY_IA32E_MODE_GUEST);
		} else if (!(value & X86_CR0_PG) && (old & X86_CR0_PG)) {
			vmwrite(GUEST_IA32_EFER, efer & ~EFER_LMA);
			vmwrite(VM_ENTRY_CONTROLS,
				entry & ~ENTRY_IA32E_MODE_GUEST);
		}
		vmwrite(CR0_READ_SHADOW, value);
		vmwrite(GUEST_CR0, value | vmread(CR0_GUEST_HOST_MASK));
	} else {
		vmwrite(CR4_READ_SHADOW, value);
		vmwrite(GUEST_CR4, value | vmread(CR4_GUEST_HOST_MASK));
	}
	vmx_skip_instruction();
}

static void handle_msr_read(struct per_cpu *pc, struct guest_regs *regs)
{
	msr_handle(pc, regs, false);
}

static void handle_msr_write(struct per_cpu *pc, struct guest_regs *regs)
{
	msr_handle(pc, regs, true);
}

/* XSETBV: only XCR0, and only values the CPU supports (SDM XSETBV). */
static void handle_xsetbv(struct per_cpu *pc, struct guest_regs *regs)
{
	u64 value = (regs->rdx << 32) | (u32)regs->rax;
	u32 a, b, c, d;

	pc->stats[WARDEN_STAT_VMEXITS_XSETBV]++;
	cpuid(0xd, 0, &a, &b, &c, &d);
	if (regs->rcx != 0 || !(value & 1) || (value & ~(((u64)d << 32) | a))) {
		vmx_inject_exception(GP_VECTOR, true, 0);
		return;
	}
	asm volatile("xsetbv"
		     :
		     : "a"((u32)value), "d"((u32)(value >> 32)), "c"(0));
	vmx_skip_instruction();
}

/* A port root does not own: reads give all ones, writes are dropped,
 * and the console says so (SDM 28.1.3, Table 28-5). */
static void handle_io(struct per_cpu *pc, struct guest_regs *regs)
{
	u64 q = vmread(EXIT_QUALIFICATION);
	unsigned int size = (q & 7) + 1, port = (q >> 16) & 0xffff;
	bool in = q & 8, string = q & 16;

	pc->stats[WARDEN_STAT_VMEXITS_PIO]++;
	if (in_cell(pc)) {
		fail_cell(pc, regs,
			  in ? "read from a port it does not own"
			     : "write to a port it does not own",
			  port);
		return;
	}
	printk("CPU %u: root %s port 0x%x refused\n", pc->cpu_id,
	       in ? "read from" : "write to", port);
	if (in && !string) {
		u64 mask = size == 4 ? 0xffffffffull : (1ull << (size * 8)) - 1;

		regs->rax = (size == 4 ? 0 : regs->rax & ~mask) | mask;
	}
	vmx_skip_instruction();
}

static void handle_ept_violation(struct per_cpu *pc, struct guest_regs *regs)
{
	u64 gpa = vmread(GUEST_PHYSICAL_ADDRESS);
	u64 q = vmread(EXIT_QUALIFICATION);

	pc->stats[WARDEN_STAT_VMEXITS_MMIO]++;
	if (in_cell(pc)) {
		fail_cell(pc, regs,
			  (q & 2)   ? "write outside its memory"
			  : (q & 4) ? "fetch outside its memory"
				    : "read outside its memory",
			  gpa);
		return;
	}
	/* Policy for root: the access is refused and reported; reads see a
	 * #GP rather than data (instruction emulation comes with the APIC
	 * work).  The hypervisor's memory is never touched. */
	printk("CPU %u: root %s of 0x%llx at RIP 0x%llx refused (#GP "
	       "injected)\n",
	       pc->cpu_id,
	       (q & 2)	 ? "write"
	       : (q & 4) ? "fetch"
			 : "read",
	       (unsigned long long)gpa, (unsigned long long)vmread(GUEST_RIP));
	(void)regs;
	vmx_inject_exception(GP_VECTOR, true, 0);
}

static bool guest_cpl0(void)
{
	/* the CPL is SS.DPL (SDM 25.4.1) */
	return ((vmread(GUEST_SS_AR_BYTES) >> 5) & 3) == 0;
}

static void handle_vmcall(struct per_cpu *pc, struct guest_regs *regs)
{
	long ret;

	pc->stats[WARDEN_STAT_VMEXITS_HYPERCALL]++;
	if (!guest_cpl0()) {
		regs->rax = (u64)-WARDEN_EPERM;
		vmx_skip_instruction();
		return;
	}
	ret = hypercall(pc, regs->rax, regs->rdi, regs->rsi);
	if (regs->rax == WARDEN_HC_DISABLE && ret == 0)
		arch_cpu_leave(pc, 0, regs); /* does not return */
	regs->rax = (u64)ret;
	vmx_skip_instruction();
}

static void request_nmi_window(struct per_cpu *pc)
{
	if (!pc->arch.nmi_window_armed) {
		pc->arch.proc_ctls |= PROC_NMI_WINDOW_EXITING;
		vmwrite(CPU_BASED_VM_EXEC_CONTROL, pc->arch.proc_ctls);
		pc->arch.nmi_window_armed = true;
	}
}

/* Exceptions we intercept (#DB, #AC) go straight back to the guest; NMIs
 * are Linux's own and are delivered as virtual NMIs. */
static void handle_exception_nmi(struct per_cpu *pc, struct guest_regs *regs)
{
	u32 info = (u32)vmread(VM_EXIT_INTR_INFO);

	(void)regs;
	if ((info & INTR_TYPE_MASK) == INTR_TYPE_NMI) {
		unblock_nmis();
		if (apic_take_event_nmi(pc)) {
			/* the hypervisor's own: events are looked at before
			 * every entry */
			pc->stats[WARDEN_STAT_VMEXITS_MANAGEMENT]++;
			return;
		}
		pc->stats[WARDEN_STAT_VMEXITS_NMI]++;
		/* Not the hypervisor's: the guest's own.  A cell CPU gets NMIs
		 * only from its own cell (root's IPIs reach root CPUs only). */
		pc->arch.guest_nmis_pending++;
		return;
	}
	pc->stats[WARDEN_STAT_VMEXITS_EXCEPTION]++;
	vmx_inject_exception(info & INTR_VECTOR_MASK,
			     info & INTR_INFO_DELIVER_CODE,
			     (u32)vmread(VM_EXIT_INTR_ERROR_CODE));
}

static void handle_nmi_window(struct per_cpu *pc, struct guest_regs *regs)
{
	(void)regs;
	pc->stats[WARDEN_STAT_VMEXITS_NMI]++;
	pc->arch.proc_ctls &= ~PROC_NMI_WINDOW_EXITING;
	vmwrite(CPU_BASED_VM_EXEC_CONTROL, pc->arch.proc_ctls);
	pc->arch.nmi_window_armed = false;
}

static void handle_triple_fault(struct per_cpu *pc, struct guest_regs *regs)
{
	if (in_cell(pc)) {
		fail_cell(pc, regs, "triple fault", 0);
		return;
	}
	report(pc, regs, "FATAL: root cell triple fault; CPU stopped", 2);
	for (;;)
		asm volatile("cli; hlt");
}

/*
 * Root CPU hot-plug: root's INIT and SIPI IPIs are emulated (apic.c), so
 * a physical INIT only comes from elsewhere; it is handled the same way:
 * the CPU waits in the hypervisor for a SIPI from root.  The guest is
 * never put in the wait-for-SIPI activity state, so SIPI exits do not
 * happen; one that does is counted and ignored, as a SIPI to a running
 * CPU is (SDM 10.4.7).
 */
static void handle_init(struct per_cpu *pc, struct guest_regs *regs)
{
	(void)regs;
	if (in_cell(pc))
		return; /* cells are not started by INIT/SIPI yet */
	printk("CPU %u: INIT signal; waiting for SIPI\n", pc->cpu_id);
	apic_init_received(pc);
}

static void handle_sipi(struct per_cpu *pc, struct guest_regs *regs)
{
	(void)regs;
	pc->stats[WARDEN_STAT_VMEXITS_INIT_SIPI]++;
}

/* VMX instructions: root gets #UD, as on a CPU without VMX (its CPUID
 * says so); a cell that tries them is failed. */
static void handle_vmx_insn(struct per_cpu *pc, struct guest_regs *regs)
{
	pc->stats[WARDEN_STAT_VMEXITS_OTHER]++;
	if (in_cell(pc)) {
		fail_cell(pc, regs, "VMX instruction, exit reason",
			  vmread(VM_EXIT_REASON) & 0xffff);
		return;
	}
	vmx_inject_exception(UD_VECTOR, false, 0);
}

static void handle_unknown(struct per_cpu *pc, struct guest_regs *regs)
{
	u32 reason = (u32)vmread(VM_EXIT_REASON);

	pc->stats[WARDEN_STAT_VMEXITS_OTHER]++;
	report(pc, regs, "unexpected VM exit, #UD injected", reason);
	vmx_inject_exception(UD_VECTOR, false, 0);
}

/* The event exit (vmx_arm_event_exit): the events themselves are looked
 * at on the way back in, like after any exit. */
static void handle_preemption_timer(struct per_cpu *pc, struct guest_regs *regs)
{
	(void)regs;
	pc->stats[WARDEN_STAT_VMEXITS_MANAGEMENT]++;
}

/* The first exit after enable's check of the event exit (vmx.c). */
static void event_exit_checked(struct per_cpu *pc, u32 reason)
{
	u8 check = pc->arch.event_exit_check;

	pc->arch.event_exit_check = EVENT_EXIT_CHECK_NONE;
	if (check == EVENT_EXIT_CHECK_NO_NMI)
		printk("WARNING: CPU %u: its NMI to itself did not arrive; "
		       "the event exit is unchecked\n",
		       pc->cpu_id);
	else if (reason == EXIT_REASON_PREEMPTION_TIMER)
		printk("CPU %u: event exit works: an NMI in the hypervisor "
		       "made the next entry exit at once\n",
		       pc->cpu_id);
	else
		printk("WARNING: CPU %u: the zero VMX-preemption timer did "
		       "not exit at once (first exit: reason %u); a request "
		       "may wait for the guest's next exit\n",
		       pc->cpu_id, reason);
}

static const exit_handler handlers[EXIT_REASON_MAX] = {
	[EXIT_REASON_EXCEPTION_NMI] = handle_exception_nmi,
	[EXIT_REASON_TRIPLE_FAULT] = handle_triple_fault,
	[EXIT_REASON_INIT] = handle_init,
	[EXIT_REASON_SIPI] = handle_sipi,
	[EXIT_REASON_NMI_WINDOW] = handle_nmi_window,
	[EXIT_REASON_CPUID] = handle_cpuid,
	[EXIT_REASON_VMCALL] = handle_vmcall,
	[EXIT_REASON_CR_ACCESS] = handle_cr,
	[EXIT_REASON_IO_INSTRUCTION] = handle_io,
	[EXIT_REASON_MSR_READ] = handle_msr_read,
	[EXIT_REASON_MSR_WRITE] = handle_msr_write,
	[EXIT_REASON_EPT_VIOLATION] = handle_ept_violation,
	[EXIT_REASON_XSETBV] = handle_xsetbv,
	[EXIT_REASON_APIC_ACCESS] = apic_handle_access,
	[EXIT_REASON_PREEMPTION_TIMER] = handle_preemption_timer,
	[19] = handle_vmx_insn, /* VMCLEAR */
	[20] = handle_vmx_insn, /* VMLAUNCH */
	[21] = handle_vmx_insn, /* VMPTRLD */
	[22] = handle_vmx_insn, /* VMPTRST */
	[23] = handle_vmx_insn, /* VMREAD */
	[24] = handle_vmx_insn, /* VMRESUME */
	[25] = handle_vmx_insn, /* VMWRITE */
	[26] = handle_vmx_insn, /* VMXOFF */
	[27] = handle_vmx_insn, /* VMXON */
	[50] = handle_vmx_insn, /* INVEPT */
	[53] = handle_vmx_insn, /* INVVPID */
};

/*
 * An event (interrupt, exception, NMI) whose delivery caused the exit
 * must be delivered again, or Linux loses it (SDM 28.2.4, 27.6).
 */
static void reinject_vectoring(void)
{
	u32 info = (u32)vmread(IDT_VECTORING_INFO_FIELD);

	if (!(info & INTR_INFO_VALID))
		return;
	if (info & INTR_INFO_DELIVER_CODE)
		vmwrite(VM_ENTRY_EXCEPTION_ERROR_CODE,
			vmread(IDT_VECTORING_ERROR_CODE));
	vmwrite(VM_ENTRY_INSTRUCTION_LEN, vmread(VM_EXIT_INSTRUCTION_LEN));
	vmwrite(VM_ENTRY_INTR_INFO_FIELD, info & ~(1u << 12));
}

/* Deliver a pending NMI now if nothing else is being injected and the
 * guest does not block NMIs; otherwise ask for the NMI window. */
static void deliver_nmis(struct per_cpu *pc)
{
	u32 intr;

	if (!__atomic_load_n(&pc->arch.guest_nmis_pending, __ATOMIC_SEQ_CST))
		return;
	intr = (u32)vmread(GUEST_INTERRUPTIBILITY_INFO);
	if ((vmread(VM_ENTRY_INTR_INFO_FIELD) & INTR_INFO_VALID) ||
	    (intr & (GUEST_INTR_NMI | GUEST_INTR_STI | GUEST_INTR_MOV_SS))) {
		request_nmi_window(pc);
		return;
	}
	__atomic_fetch_sub(&pc->arch.guest_nmis_pending, 1, __ATOMIC_SEQ_CST);
	vmwrite(VM_ENTRY_INTR_INFO_FIELD,
		NMI_VECTOR | INTR_TYPE_NMI | INTR_INFO_VALID);
	if (pc->arch.guest_nmis_pending)
		request_nmi_window(pc);
}

/*
 * A guest that enables paging with EFER.LME set enters IA-32e mode and the
 * CPU sets EFER.LMA; the "IA-32e mode guest" entry control must then agree
 * with it at the next entry (SDM 26.3.1.1), as when Linux starts a CPU
 * through its real-mode trampoline.
 */
static void sync_ia32e_mode(void)
{
	u64 entry = vmread(VM_ENTRY_CONTROLS);
	bool lma = vmread(GUEST_IA32_EFER) & EFER_LMA;

	if (lma != !!(entry & ENTRY_IA32E_MODE_GUEST))
		vmwrite(VM_ENTRY_CONTROLS,
			lma ? entry | ENTRY_IA32E_MODE_GUEST
			    : entry & ~ENTRY_IA32E_MODE_GUEST);
}

void vmx_handle_exit(struct guest_regs *regs)
{
	struct per_cpu *pc = this_cpu();
	u32 full = (u32)vmread(VM_EXIT_REASON), reason = full & 0xffff;

	pc->stats[WARDEN_STAT_VMEXITS_TOTAL]++;
	if (full & EXIT_REASON_ENTRY_FAILED) {
		/* The guest state we prepared is invalid (SDM 27.8): a bug of
		 * ours; this CPU cannot go on, the others can. */
		report(pc, regs, "FATAL: VM entry failed; CPU stopped", full);
		pc->state = WARDEN_CPU_FAILED;
		for (;;)
			asm volatile("cli; hlt");
	}
	if (pc->arch.event_exit_check)
		event_exit_checked(pc, reason);
	vmwrite(VM_ENTRY_INTR_INFO_FIELD, 0);
	reinject_vectoring();
	if (reason < EXIT_REASON_MAX && handlers[reason])
		handlers[reason](pc, regs);
	else
		handle_unknown(pc, regs);
	/*
	 * Requests of other CPUs; INIT waits for SIPI (a request to park
	 * interrupts the wait).  The event exit is disarmed before each look
	 * at the requests: an NMI after the last look arms it again and the
	 * guest exits at once.  An NMI during a wait (parked, INIT) armed it
	 * for a request the wait has already served: look once more instead
	 * of paying an exit for it.
	 */
	for (;;) {
		vmx_disarm_event_exit(pc);
		x86_handle_events(pc, regs);
		if (apic_check_init(pc, regs) &&
		    !__atomic_load_n(&pc->arch.event_exit_armed,
				     __ATOMIC_SEQ_CST))
			break;
	}
	sync_ia32e_mode();
	deliver_nmis(pc);
}

void vmx_resume_failed(struct guest_regs *regs)
{
	struct per_cpu *pc = this_cpu();

	printk("FATAL: CPU %u: VMRESUME failed, VM-instruction error %llu\n",
	       pc->cpu_id, (unsigned long long)vmread(VM_INSTRUCTION_ERROR));
	report(pc, regs, "state at the failed entry", 0);
	for (;;)
		asm volatile("cli; hlt");
}
