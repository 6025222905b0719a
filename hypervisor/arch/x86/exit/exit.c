// SPDX-License-Identifier: GPL-2.0
/*
 * The one exit dispatcher (contract in asm/exit.h) and the handlers of the
 * exits that emulate nothing: port I/O outside a cell's ports,
 * hypercalls, NMIs and events, INIT/SIPI, intercepted exceptions.  CPUID,
 * CR and XSETBV are emulate.c's, MSRs msr.c's, MMIO and the xAPIC page
 * mmio_exit.c's; the exits that end something (triple fault,
 * virtualization instructions, failed entries, INVD, unknown reasons)
 * exit_rare.c's.
 */
#include <asm/access_log.h>
#include <asm/apic.h>
#include <asm/cpu_rules.h>
#include <asm/exit.h>
#include <asm/percpu.h>
#include <asm/vendor.h>
#include <asm/x86_cpu.h>
#include <hv/arch.h>
#include <hv/cell.h>
#include <hv/printk.h>
#include <warden/cell.h>
#include <warden/config.h>
#include <warden/hypercall.h>

static bool in_cell(struct per_cpu *pc)
{
	return pc->cell != &hv.root;
}

/* An IN's value of size bytes into RAX: the bytes above it kept, except
 * that a 32-bit IN zero-extends into RAX (SDM Vol. 1, 3.4.1.1). */
static void in_result(struct guest_regs *regs, u8 size, u64 value)
{
	u64 mask = (1ull << (size * 8)) - 1;

	regs->rax = (size == 4 ? 0 : regs->rax & ~mask) | (value & mask);
}

/* A port in the cell's port registry (hv/mmio.h): its handler performs
 * the access.  MMIO_NO_REGION if none takes it. */
static enum mmio_result emulate_io(struct per_cpu *pc, struct guest_regs *regs,
				   const struct x86_exit *e)
{
	struct mmio_access a = {
		.addr = e->io.port,
		.size = e->io.size,
		.write = !e->io.in,
		.value = regs->rax,
	};
	enum mmio_result res;

	if (e->io.string)
		return MMIO_NO_REGION;
	res = mmio_dispatch(&pc->cell->pio, pc, &a);
	if (res == MMIO_HANDLED && e->io.in)
		in_result(regs, e->io.size, a.value);
	return res;
}

/* A port the cell's registry emulates goes to its handler.  Else a port
 * root does not own: reads give all ones, writes are dropped, and the
 * console says so; a cell that touches one is failed. */
enum exit_action x86_handle_io(struct per_cpu *pc, struct guest_regs *regs,
			       const struct x86_exit *e)
{
	enum access_kind kind = e->io.in ? ACCESS_PORT_IN : ACCESS_PORT_OUT;
	const char *off;
	u64 value;

	switch (emulate_io(pc, regs, e)) {
	case MMIO_HANDLED:
		access_log_record(pc, kind, e->io.port, 0, ACCESS_DONE);
		return EXIT_SKIP;
	case MMIO_CELL_FAILED:
		return EXIT_CELL_FAILED;
	case MMIO_REFUSED:
		if (!in_cell(pc))
			return EXIT_INJECT_GP;
		access_log_record(pc, kind, e->io.port, 0, ACCESS_FAILED);
		cell_fail(pc, "port access its device refused", e->io.port,
			  vcpu_rip());
		return EXIT_CELL_FAILED;
	case MMIO_NO_REGION:
		break;
	}
	if (in_cell(pc) && !e->io.string &&
	    (pc->cell->config->flags & WARDEN_CELL_LINUX) &&
	    linux_platform_port(e->io.port, e->io.in, regs->rax, &value,
				&off)) {
		access_log_record(pc, kind, e->io.port, 0, ACCESS_DONE);
		if (off) {
			cell_power_off(pc, off);
			return EXIT_CELL_FAILED;
		}
		if (e->io.in)
			in_result(regs, e->io.size, value);
		return EXIT_SKIP;
	}
	if (in_cell(pc) && !e->io.string &&
	    (pc->cell->config->flags & WARDEN_CELL_LEGACY_QUIET) &&
	    legacy_port_quiet(e->io.port, &value)) {
		access_log_record(pc, kind, e->io.port, 0, ACCESS_QUIET);
		if (e->io.in)
			in_result(regs, e->io.size, value);
		return EXIT_SKIP;
	}
	if (in_cell(pc)) {
		access_log_record(pc, kind, e->io.port, 0, ACCESS_FAILED);
		cell_fail(pc,
			  e->io.in ? "read from a port it does not own"
				   : "write to a port it does not own",
			  e->io.port, vcpu_rip());
		return EXIT_CELL_FAILED;
	}
	cell_printk(pc->cell, "CPU %u: root %s port 0x%x refused", pc->cpu_id,
		    e->io.in ? "read from" : "write to", e->io.port);
	if (e->io.in && !e->io.string)
		in_result(regs, e->io.size, ~0ull);
	return EXIT_SKIP;
}

/* Hypercalls from CPL 0 run after the handler (EXIT_HYPERCALL): the
 * management calls wait for other CPUs.  From user mode: -EPERM. */
enum exit_action x86_handle_hypercall(struct per_cpu *pc,
				      struct guest_regs *regs,
				      const struct x86_exit *e)
{
	(void)e;
	if (vcpu_cpl() != 0) {
		regs->rax = (u64)-WARDEN_EPERM;
		return EXIT_SKIP;
	}
	(void)pc;
	return EXIT_HYPERCALL;
}

/* Events are looked at on the way back in, after any exit. */
enum exit_action x86_handle_event(struct per_cpu *pc, struct guest_regs *regs,
				  const struct x86_exit *e)
{
	(void)pc;
	(void)regs;
	(void)e;
	return EXIT_RESUME;
}

/* An NMI that is not the hypervisor's: the guest's own, delivered to it
 * as soon as it can take one (the vendor's entry path).  A cell CPU gets
 * NMIs only from its own cell (root's IPIs reach root CPUs only). */
enum exit_action x86_handle_nmi(struct per_cpu *pc, struct guest_regs *regs,
				const struct x86_exit *e)
{
	(void)regs;
	(void)e;
	__atomic_fetch_add(&pc->arch.guest_nmis_pending, 1, __ATOMIC_SEQ_CST);
	return EXIT_RESUME;
}

/*
 * Root CPU hot-plug: root's INIT and SIPI IPIs are emulated (apic.c), so a
 * physical INIT only comes from elsewhere; it is handled the same way: the
 * CPU waits in the hypervisor for a SIPI from root.  The guest is never
 * put in the wait-for-SIPI activity state, so SIPI exits do not happen;
 * one that does is ignored, as a SIPI to a running CPU is (SDM Vol. 3,
 * 10.4.7).
 */
enum exit_action x86_handle_init(struct per_cpu *pc, struct guest_regs *regs,
				 const struct x86_exit *e)
{
	(void)regs;
	(void)e;
	if (in_cell(pc))
		return EXIT_RESUME; /* cells start their CPUs by IPI */
	cell_printk(pc->cell, "CPU %u: INIT signal; waiting for SIPI",
		    pc->cpu_id);
	apic_init_received(pc);
	return EXIT_RESUME;
}

enum exit_action x86_handle_sipi(struct per_cpu *pc, struct guest_regs *regs,
				 const struct x86_exit *e)
{
	(void)pc;
	(void)regs;
	(void)e;
	return EXIT_RESUME;
}

/* Exceptions intercepted (#DB, #AC: they can loop in microcode) go
 * straight back to the guest. */
enum exit_action x86_handle_exception(struct per_cpu *pc,
				      struct guest_regs *regs,
				      const struct x86_exit *e)
{
	(void)pc;
	(void)regs;
	vcpu_inject_exception(e->exception.vector, e->exception.has_error,
			      e->exception.error);
	return EXIT_RESUME;
}

/* EXIT_HYPERCALL: the call itself, after the handler.  A disable that
 * succeeded leaves the hypervisor on this CPU. */
static void run_hypercall(struct per_cpu *pc, struct guest_regs *regs)
{
	unsigned long code = regs->rax;
	long ret = hypercall(pc, code, regs->rdi, regs->rsi);

	if (code == WARDEN_HC_DISABLE && ret == 0)
		arch_cpu_leave(pc, 0, regs); /* does not return */
	regs->rax = (u64)ret;
	vcpu_skip_instruction();
}

static void apply(struct per_cpu *pc, struct guest_regs *regs,
		  enum exit_action action)
{
	switch (action) {
	case EXIT_RESUME:
	case EXIT_CELL_FAILED:
		return;
	case EXIT_SKIP:
		vcpu_skip_instruction();
		return;
	case EXIT_INJECT_GP:
		vcpu_inject_exception(GP_VECTOR, true, 0);
		return;
	case EXIT_INJECT_UD:
		vcpu_inject_exception(UD_VECTOR, false, 0);
		return;
	case EXIT_HYPERCALL:
		run_hypercall(pc, regs);
		return;
	case EXIT_STOP_CPU:
		__atomic_store_n(&pc->state, WARDEN_CPU_FAILED,
				 __ATOMIC_SEQ_CST);
		for (;;)
			asm volatile("cli; hlt");
	}
}

void x86_handle_exit(struct per_cpu *pc, struct guest_regs *regs,
		     struct x86_exit *e)
{
	bool event_nmi = e->kind == X86_EXIT_NMI && apic_take_event_nmi(pc);

	pc->arch.in_guest = false;
	pc->arch.last_exit_reason = e->reason;

	e->kind = x86_exit_refine(e->kind, (u32)regs->rcx, event_nmi);
	pc->arch.last_exit_kind = (u8)e->kind;
	x86_exit_count(pc->stats, e->kind);
	apply(pc, regs, x86_exit_kinds[e->kind].handler(pc, regs, e));
	x86_cpu_events(pc, regs);
}
