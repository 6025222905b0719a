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
#include <asm/cpu_rules.h>
#include <asm/processor.h>
#include <asm/vmx.h>
#include <asm/vmx_cpu.h>
#include <asm/vmx_entry_check.h>
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

u64 vmx_guest_rip(void)
{
	return vmread(GUEST_RIP);
}

void vmx_guest_view(struct cpu_view *v)
{
	u64 m0 = vmread(CR0_GUEST_HOST_MASK), m4 = vmread(CR4_GUEST_HOST_MASK);

	v->cr0 = (vmread(GUEST_CR0) & ~m0) | (vmread(CR0_READ_SHADOW) & m0);
	v->cr4 = (vmread(GUEST_CR4) & ~m4) | (vmread(CR4_READ_SHADOW) & m4);
	v->cr3 = vmread(GUEST_CR3);
	v->efer = vmread(GUEST_IA32_EFER);
	v->cs_long = (vmread(GUEST_CS_AR_BYTES) >> 13) & 1;
	/* the CPL is SS.DPL (SDM 25.4.1) */
	v->cpl = (vmread(GUEST_SS_AR_BYTES) >> 5) & 3;
}

void refuse_guest_value(struct per_cpu *pc, const char *what, u64 value,
			int rule)
{
	u8 vector = cpu_rule_vector(rule);

	cell_printk(pc->cell,
		    "Cell %u, CPU %u: %s 0x%llx at RIP 0x%llx refused: %s; "
		    "%s injected",
		    pc->cell->id, pc->cpu_id, what, (unsigned long long)value,
		    (unsigned long long)vmread(GUEST_RIP), cpu_rule_name(rule),
		    vector == UD_VECTOR ? "#UD" : "#GP");
	vmx_inject_exception(vector, vector == GP_VECTOR, 0);
}

void vmx_drop_pending_events(struct per_cpu *pc)
{
	vmwrite(VM_ENTRY_INTR_INFO_FIELD, 0);
	__atomic_store_n(&pc->arch.guest_nmis_pending, 0, __ATOMIC_SEQ_CST);
	if (pc->arch.nmi_window_armed) {
		pc->arch.proc_ctls &= ~PROC_NMI_WINDOW_EXITING;
		vmwrite(CPU_BASED_VM_EXEC_CONTROL, pc->arch.proc_ctls);
		pc->arch.nmi_window_armed = false;
	}
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
			c &= ~CPUID1_ECX_VMX; /* no VMX for guests */
			/* OSXSAVE follows the guest's CR4 */
			c &= ~CPUID1_ECX_OSXSAVE;
			if (vmread(GUEST_CR4) & X86_CR4_OSXSAVE)
				c |= CPUID1_ECX_OSXSAVE;
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
 * PAE paging outside IA-32e mode: with EPT the CPU takes the four PDPTEs
 * from the guest-state area at the next VM entry (SDM Vol. 3C, 27.3.2.4),
 * so a MOV to CR0/CR4 that the hypervisor carries out must load them, as
 * the instruction would (SDM Vol. 3, 4.4.1), and refuse reserved bits
 * with #GP.  false: refused (the guest got #GP), or the cell failed.
 */
static bool load_pdptes(struct per_cpu *pc, const struct cpu_view *old, u64 cr0,
			u64 cr4)
{
	u64 pdpte[4], base = old->cr3 & 0xffffffe0ull;
	unsigned int i;

	if (!(cr0 & CR0_PG) || !(cr4 & CR4_PAE) || (old->efer & EFER_LME_BIT))
		return true;
	if (arch_guest_copy(pc, base, pdpte, sizeof(pdpte), false)) {
		cell_fail(pc, "PDPTE load outside its memory", base,
			  vmread(GUEST_RIP));
		return false;
	}
	for (i = 0; i < 4; i++)
		if ((pdpte[i] & 1) &&
		    ((pdpte[i] & 0x1e6) ||
		     (guest_limits.phys_bits < 64 &&
		      (pdpte[i] >> guest_limits.phys_bits)))) {
			cell_printk(pc->cell,
				    "Cell %u, CPU %u: PDPTE %u 0x%llx has "
				    "reserved bits (SDM Vol. 3, 4.4.1); #GP "
				    "injected",
				    pc->cell->id, pc->cpu_id, i,
				    (unsigned long long)pdpte[i]);
			vmx_inject_exception(GP_VECTOR, true, 0);
			return false;
		}
	for (i = 0; i < 4; i++)
		vmwrite(GUEST_PDPTR0 + 2 * i, pdpte[i]);
	return true;
}

/*
 * MOV to CR0/CR4 that touched a masked bit (SDM 28.1.3, Table 28-3): the
 * whole value is checked against the architectural rules (cpu_rules.c)
 * and refused with the exception the hardware gives; a valid one is what
 * the guest reads through the read shadow, while the real register keeps
 * the bits VMX needs (the mask).  Emulating the write, we also do what
 * the CPU does when paging is switched with EFER.LME set: IA-32e mode
 * starts or ends, EFER.LMA follows, and so must the IA-32e entry control
 * (SDM 10.8.5, 26.3.1.1); Linux's real-mode trampoline sets PG and NE in
 * one write.
 */
static void handle_cr(struct per_cpu *pc, struct guest_regs *regs)
{
	u64 q = vmread(EXIT_QUALIFICATION);
	unsigned int cr = q & 15, type = (q >> 4) & 3, reg = (q >> 8) & 15;
	struct cpu_view v;
	u64 value, efer;
	int rule;

	pc->stats[WARDEN_STAT_VMEXITS_CR]++;
	if (type != 0 || (cr != 0 && cr != 4)) {
		cell_printk(pc->cell,
			    "CPU %u: unexpected CR access (qualification "
			    "0x%llx) at RIP 0x%llx, #UD injected",
			    pc->cpu_id, (unsigned long long)q,
			    (unsigned long long)vmread(GUEST_RIP));
		vmx_inject_exception(UD_VECTOR, false, 0);
		return;
	}
	value = reg == 4 ? vmread(GUEST_RSP) : *gpr(regs, reg);
	vmx_guest_view(&v);
	if (cr == 0) {
		rule = cr0_check(&v, &value, guest_limits.cr0_allowed);
		if (rule) {
			refuse_guest_value(pc, "MOV to CR0", value, rule);
			return;
		}
		if (!load_pdptes(pc, &v, value, v.cr4))
			return;
		efer = efer_after_cr0(&v, value);
		if (efer != v.efer)
			vmwrite(GUEST_IA32_EFER, efer);
		vmwrite(CR0_READ_SHADOW, value);
		vmwrite(GUEST_CR0, value | vmread(CR0_GUEST_HOST_MASK));
	} else {
		rule = cr4_check(&v, value, guest_limits.cr4_allowed);
		if (rule) {
			refuse_guest_value(pc, "MOV to CR4", value, rule);
			return;
		}
		if (!load_pdptes(pc, &v, v.cr0, value))
			return;
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

/*
 * XSETBV: the value is checked against every rule of SDM Vol. 1, 13.3
 * (cpu_rules.c) before the hypervisor executes the instruction itself;
 * the exception table catches what the checks might miss.
 */
static void handle_xsetbv(struct per_cpu *pc, struct guest_regs *regs)
{
	u64 value = (regs->rdx << 32) | (u32)regs->rax;
	struct cpu_view v;
	int rule;

	pc->stats[WARDEN_STAT_VMEXITS_XSETBV]++;
	vmx_guest_view(&v);
	rule = xcr0_check(&v, (u32)regs->rcx, value,
			  guest_limits.xcr0_supported);
	if (rule) {
		refuse_guest_value(pc, "XSETBV", value, rule);
		return;
	}
	if (!xsetbv_safe(0, value)) {
		cell_printk(pc->cell,
			    "Cell %u, CPU %u: XSETBV 0x%llx faulted in the "
			    "hypervisor although it passed the checks; #GP "
			    "injected",
			    pc->cell->id, pc->cpu_id,
			    (unsigned long long)value);
		vmx_inject_exception(GP_VECTOR, true, 0);
		return;
	}
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
		cell_fail(pc,
			  in ? "read from a port it does not own"
			     : "write to a port it does not own",
			  port, vmread(GUEST_RIP));
		return;
	}
	cell_printk(pc->cell, "CPU %u: root %s port 0x%x refused", pc->cpu_id,
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
		cell_fail(pc,
			  (q & 2)   ? "write outside its memory"
			  : (q & 4) ? "fetch outside its memory"
				    : "read outside its memory",
			  gpa, vmread(GUEST_RIP));
		return;
	}
	/* Policy for root: the access is refused and reported with #GP;
	 * the hypervisor's memory is never touched. */
	cell_printk(pc->cell,
		    "CPU %u: root %s of 0x%llx at RIP 0x%llx refused (#GP "
		    "injected)",
		    pc->cpu_id,
		    (q & 2)   ? "write"
		    : (q & 4) ? "fetch"
			      : "read",
		    (unsigned long long)gpa,
		    (unsigned long long)vmread(GUEST_RIP));
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
	pc->stats[WARDEN_STAT_VMEXITS_OTHER]++;
	if (in_cell(pc)) {
		cell_fail(pc, "triple fault", 0, vmread(GUEST_RIP));
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
	pc->stats[WARDEN_STAT_VMEXITS_INIT_SIPI]++;
	if (in_cell(pc))
		return; /* cells are not started by INIT/SIPI yet */
	cell_printk(pc->cell, "CPU %u: INIT signal; waiting for SIPI",
		    pc->cpu_id);
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
	(void)regs;
	pc->stats[WARDEN_STAT_VMEXITS_OTHER]++;
	if (in_cell(pc)) {
		cell_fail(pc, "VMX instruction, exit reason",
			  vmread(VM_EXIT_REASON) & 0xffff, vmread(GUEST_RIP));
		return;
	}
	vmx_inject_exception(UD_VECTOR, false, 0);
}

static void handle_unknown(struct per_cpu *pc, struct guest_regs *regs)
{
	u32 reason = (u32)vmread(VM_EXIT_REASON);

	(void)regs;
	pc->stats[WARDEN_STAT_VMEXITS_OTHER]++;
	cell_printk(pc->cell,
		    "CPU %u: unexpected VM exit, reason %u, qualification "
		    "0x%llx, at RIP 0x%llx: #UD injected",
		    pc->cpu_id, reason,
		    (unsigned long long)vmread(EXIT_QUALIFICATION),
		    (unsigned long long)vmread(GUEST_RIP));
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
	[EXIT_REASON_VMCLEAR] = handle_vmx_insn,
	[EXIT_REASON_VMLAUNCH] = handle_vmx_insn,
	[EXIT_REASON_VMPTRLD] = handle_vmx_insn,
	[EXIT_REASON_VMPTRST] = handle_vmx_insn,
	[EXIT_REASON_VMREAD] = handle_vmx_insn,
	[EXIT_REASON_VMRESUME] = handle_vmx_insn,
	[EXIT_REASON_VMWRITE] = handle_vmx_insn,
	[EXIT_REASON_VMXOFF] = handle_vmx_insn,
	[EXIT_REASON_VMXON] = handle_vmx_insn,
	[EXIT_REASON_INVEPT] = handle_vmx_insn,
	[EXIT_REASON_INVVPID] = handle_vmx_insn,
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

/*
 * A VM entry failed (SDM Vol. 3C, 27.8).  With reason 33 VMX names no
 * field, so the guest-state checks are run here to name the first rule
 * broken.  On a cell CPU the cell is failed and the CPU parked: its guest
 * state is set afresh when it is started again or returned to root.  On a
 * root CPU there is no one to hand the CPU to: it stops, with the dump.
 */
static void entry_failed(struct per_cpu *pc, struct guest_regs *regs, u32 full)
{
	u32 reason = full & 0xffff;
	struct vmx_guest_state state;
	const char *why, *seg = "";
	int rule = 0, segment;

	if (reason == EXIT_REASON_INVALID_STATE) {
		vmx_read_guest_state(&state);
		rule = vmx_guest_check(&state, &vmx_entry_limits, &segment);
		why = rule ? vmx_guest_rule_name(rule)
			   : "invalid guest state, no rule the hypervisor "
			     "checks is broken";
		seg = vmx_seg_name(segment);
	} else {
		why = reason == EXIT_REASON_MSR_LOAD_FAIL ? "MSR loading failed"
							  : "machine-check "
							    "event during "
							    "entry";
	}
	vmwrite(VM_ENTRY_INTR_INFO_FIELD, 0);
	if (!in_cell(pc)) {
		printk("FATAL: CPU %u: root's VM entry failed: %s%s%s (SDM "
		       "Vol. 3C)\n",
		       pc->cpu_id, why, *seg ? ", segment " : "", seg);
		report(pc, regs, "state at the failed entry", full);
		__atomic_store_n(&pc->state, WARDEN_CPU_FAILED,
				 __ATOMIC_SEQ_CST);
		for (;;)
			asm volatile("cli; hlt");
	}
	console_cell_flush(pc);
	printk("Cell %u \"%s\", CPU %u: VM entry failed (exit reason %u): "
	       "%s%s%s (SDM Vol. 3C) at RIP 0x%llx; cell failed, CPU "
	       "parked\n",
	       pc->cell->id, pc->cell->config->name, pc->cpu_id, reason, why,
	       *seg ? ", segment " : "", seg,
	       (unsigned long long)vmread(GUEST_RIP));
	pc->cell->state = WARDEN_CELL_FAILED;
	__atomic_store_n(&pc->state, WARDEN_CPU_FAILED, __ATOMIC_SEQ_CST);
}

void vmx_handle_exit(struct guest_regs *regs)
{
	struct per_cpu *pc = this_cpu();
	u32 full = (u32)vmread(VM_EXIT_REASON), reason = full & 0xffff;

	pc->stats[WARDEN_STAT_VMEXITS_TOTAL]++;
	if (full & EXIT_REASON_ENTRY_FAILED) {
		pc->stats[WARDEN_STAT_VMEXITS_OTHER]++;
		entry_failed(pc, regs, full);
	} else {
		if (pc->arch.event_exit_check)
			event_exit_checked(pc, reason);
		vmwrite(VM_ENTRY_INTR_INFO_FIELD, 0);
		reinject_vectoring();
		if (reason < EXIT_REASON_MAX && handlers[reason])
			handlers[reason](pc, regs);
		else
			handle_unknown(pc, regs);
	}
	x86_cpu_events(pc, regs);
	sync_ia32e_mode();
	deliver_nmis(pc);
}

/*
 * VMRESUME itself failed (VMfailValid: a control field of ours is wrong,
 * SDM Vol. 3C, 27.2).  On a cell CPU the hypervisor cannot know what else
 * is wrong on it: the CPU is lost.  On a root CPU it stops, with the dump.
 */
void vmx_resume_failed(struct guest_regs *regs)
{
	struct per_cpu *pc = this_cpu();

	printk("FATAL: CPU %u: VMRESUME failed, VM-instruction error %llu\n",
	       pc->cpu_id, (unsigned long long)vmread(VM_INSTRUCTION_ERROR));
	report(pc, regs, "state at the failed entry", 0);
	if (in_cell(pc)) {
		cell_cpu_lost_here(pc, 0, vmread(GUEST_RIP));
		cpu_halt_lost(pc);
	}
	for (;;)
		asm volatile("cli; hlt");
}
