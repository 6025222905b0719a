// SPDX-License-Identifier: GPL-2.0
/*
 * The handlers of the exits that end something: a triple fault,
 * virtualization instructions, a failed entry, INVD, an exit reason not
 * expected.  Each fails a cell or stops a root CPU, or injects #UD, and
 * none runs while guests behave, so unlike exit.c this file is compiled
 * for size (hypervisor/build.mk).  Contracts in asm/exit.h.
 */
#include <asm/exit.h>
#include <asm/percpu.h>
#include <asm/vendor.h>
#include <asm/x86_cpu.h>
#include <hv/arch.h>
#include <hv/cell.h>
#include <hv/printk.h>
#include <warden/cell.h>

static bool in_cell(struct per_cpu *pc)
{
	return pc->cell != &hv.root;
}

static void report(struct per_cpu *pc, struct guest_regs *regs,
		   const char *what, const struct x86_exit *e)
{
	printk("CPU %u: %s: exit reason %u, qualification 0x%llx, RIP "
	       "0x%llx, RSP 0x%llx\n"
	       "  RAX 0x%llx RBX 0x%llx RCX 0x%llx RDX 0x%llx RSI 0x%llx "
	       "RDI 0x%llx\n",
	       pc->cpu_id, what, e->reason,
	       (unsigned long long)e->qualification,
	       (unsigned long long)vcpu_rip(), (unsigned long long)vcpu_rsp(),
	       (unsigned long long)regs->rax, (unsigned long long)regs->rbx,
	       (unsigned long long)regs->rcx, (unsigned long long)regs->rdx,
	       (unsigned long long)regs->rsi, (unsigned long long)regs->rdi);
}

enum exit_action x86_handle_triple_fault(struct per_cpu *pc,
					 struct guest_regs *regs,
					 const struct x86_exit *e)
{
	if (in_cell(pc)) {
		cell_fail(pc, "triple fault", 0, vcpu_rip());
		return EXIT_CELL_FAILED;
	}
	report(pc, regs, "FATAL: root cell triple fault; CPU stopped", e);
	return EXIT_STOP_CPU;
}

/* Virtualization instructions: root gets #UD, as on a CPU without the
 * extension (its CPUID says so); a cell that tries them is failed. */
enum exit_action x86_handle_virt_insn(struct per_cpu *pc,
				      struct guest_regs *regs,
				      const struct x86_exit *e)
{
	(void)regs;
	if (in_cell(pc)) {
		cell_fail(pc, e->why, e->reason & 0xffff, vcpu_rip());
		return EXIT_CELL_FAILED;
	}
	return EXIT_INJECT_UD;
}

/*
 * A VM entry failed; e->why names the rule the vendor found broken.  A
 * cell is failed and the CPU parked: its guest state is set afresh when
 * it is started again or returned to root.  On a root CPU there is no one
 * to hand the CPU to: it stops, with the dump.
 */
enum exit_action x86_handle_entry_failed(struct per_cpu *pc,
					 struct guest_regs *regs,
					 const struct x86_exit *e)
{
	if (!in_cell(pc)) {
		printk("FATAL: CPU %u: root's VM entry failed: %s\n",
		       pc->cpu_id, e->why);
		report(pc, regs, "state at the failed entry", e);
		return EXIT_STOP_CPU;
	}
	console_cell_flush(pc);
	printk("Cell %u \"%s\", CPU %u: VM entry failed (exit reason %u): "
	       "%s at RIP 0x%llx; cell failed, CPU parked\n",
	       pc->cell->id, pc->cell->config->name, pc->cpu_id,
	       e->reason & 0xffff, e->why, (unsigned long long)vcpu_rip());
	pc->cell->state = WARDEN_CELL_FAILED;
	__atomic_store_n(&pc->state, WARDEN_CPU_FAILED, __ATOMIC_SEQ_CST);
	return EXIT_CELL_FAILED;
}

/*
 * INVD drops every modified line of the caches it invalidates without
 * writing it back (SDM Vol. 2A, INVD; APM Vol. 3, INVD): lines of root's
 * and other cells' memory too, as caches are shared between CPUs.  No
 * guest may run it, on either vendor: VMX exits on it unconditionally
 * (SDM Vol. 3C, 26.1.2), SVM intercepts it (svm.c).  The guest gets the
 * #UD of a CPU without the instruction (root's Linux never runs it), and
 * the console names it.
 */
enum exit_action x86_handle_invd(struct per_cpu *pc, struct guest_regs *regs,
				 const struct x86_exit *e)
{
	(void)regs;
	(void)e;
	cell_printk(pc->cell,
		    "Cell %u, CPU %u: INVD at RIP 0x%llx refused: it would "
		    "drop dirty cache lines of other cells; #UD injected",
		    pc->cell->id, pc->cpu_id, (unsigned long long)vcpu_rip());
	return EXIT_INJECT_UD;
}

enum exit_action x86_handle_unknown(struct per_cpu *pc, struct guest_regs *regs,
				    const struct x86_exit *e)
{
	(void)regs;
	cell_printk(pc->cell,
		    "CPU %u: unexpected VM exit, reason %u, qualification "
		    "0x%llx, at RIP 0x%llx: #UD injected",
		    pc->cpu_id, e->reason, (unsigned long long)e->qualification,
		    (unsigned long long)vcpu_rip());
	return EXIT_INJECT_UD;
}
