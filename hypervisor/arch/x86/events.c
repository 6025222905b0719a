// SPDX-License-Identifier: GPL-2.0
/*
 * Requests between CPUs and the event loop each CPU runs before it enters
 * its guest (contracts in hv/arch.h and asm/x86_cpu.h).
 *
 * A CPU is asked to do something by a bit in its arch.requests plus the
 * event NMI: an NMI that reaches its guest exits at once, one that reaches
 * the hypervisor arms the event exit (vcpu_arm_event_exit), so the request
 * is seen before the guest runs another instruction.  The CPU carries the
 * request out itself (its guest state is only current there) and clears
 * the bit;
 * the requester waits for that, for CPU_ANSWER_MS at most.  A request that
 * was not carried out in time is withdrawn and the requester's caller
 * decides what the silence means (core/cell.c: a cell CPU is lost, a root
 * CPU makes the operation fail).  A CPU that finds itself lost never
 * enters a guest again (arch_cpu_halt_lost).
 *
 * Suspension is a round rather than a bit: the requester writes a new
 * round number (never used before for that CPU) to suspend_want, the CPU
 * answers by copying it to suspend_ack and waits until suspend_want
 * changes; so a late answer to an old round can never be taken for the
 * answer to a new one.
 */
#include <asm/access_log.h>
#include <asm/apic.h>
#include <asm/exit.h>
#include <asm/guest.h>
#include <asm/processor.h>
#include <asm/vendor.h>
#include <asm/x86_cpu.h>
#include <hv/arch.h>
#include <hv/cell.h>
#include <hv/printk.h>
#include <hv/string.h>
#include <hv/wait.h>
#include <warden/cell.h>
#include <warden/hypercall.h>

/* How long a CPU may take to answer a request.  Answering takes
 * microseconds; a root CPU writing the console's queue to the polled UART
 * (32 lines at about 9 ms) is the slowest thing a CPU may be doing when
 * the NMI comes. */
#define CPU_ANSWER_MS 1000
/* How long a suspended CPU waits for its resume before it goes on: far
 * longer than any operation takes, whose every wait is bounded. */
#define SUSPEND_MAX_MS 60000

static u32 load_requests(struct per_cpu *pc)
{
	return __atomic_load_n(&pc->arch.requests, __ATOMIC_SEQ_CST);
}

static void request_done(struct per_cpu *pc, u32 req)
{
	__atomic_fetch_and(&pc->arch.requests, ~req, __ATOMIC_SEQ_CST);
}

/* What a CPU that did not answer was last seen doing, for the console:
 * where to look when a CPU is lost.  exits: its exit count when the
 * request was posted. */
static void report_silence(struct per_cpu *target, const char *what, u64 exits)
{
	u8 kind =
		__atomic_load_n(&target->arch.last_exit_kind, __ATOMIC_RELAXED);
	u64 now = __atomic_load_n(&target->stats[WARDEN_STAT_VMEXITS_TOTAL],
				  __ATOMIC_RELAXED);

	printk("CPU %u: no answer to %s after %u ms; %s, %llu exits since "
	       "the request, the last: %s, reason 0x%x; requests 0x%x\n",
	       target->cpu_id, what, CPU_ANSWER_MS,
	       __atomic_load_n(&target->arch.in_guest, __ATOMIC_RELAXED)
		       ? "in its guest"
		       : "in the hypervisor",
	       (unsigned long long)(now - exits),
	       kind < X86_EXIT_KINDS ? x86_exit_kinds[kind].name : "none",
	       __atomic_load_n(&target->arch.last_exit_reason,
			       __ATOMIC_RELAXED),
	       load_requests(target));
	vcpu_report_events(target);
}

static const char *request_name(u32 req)
{
	switch (req) {
	case REQ_PARK:
		return "a park request";
	case REQ_RETURN:
		return "a return request";
	case REQ_STOP:
		return "a stop request";
	case REQ_START:
		return "a start request";
	}
	return "a request";
}

/* Post req to target and wait until it is carried out: 0, or
 * -WARDEN_ETIMEDOUT with the request withdrawn. */
static int request(struct per_cpu *target, u32 req)
{
	u64 exits = __atomic_load_n(&target->stats[WARDEN_STAT_VMEXITS_TOTAL],
				    __ATOMIC_RELAXED);
	struct hv_wait w;

	hv_wait_start(&w, CPU_ANSWER_MS);
	__atomic_fetch_or(&target->arch.requests, req, __ATOMIC_SEQ_CST);
	apic_send_nmi(target);
	while (load_requests(target) & req) {
		if (hv_wait_over(&w)) {
			if (__atomic_fetch_and(&target->arch.requests, ~req,
					       __ATOMIC_SEQ_CST) &
			    req) {
				report_silence(target, request_name(req),
					       exits);
				return -WARDEN_ETIMEDOUT;
			}
			break; /* done just now */
		}
		cpu_relax();
	}
	return 0;
}

int arch_cpu_suspend(struct per_cpu *target)
{
	u32 round = ++target->arch.suspend_rounds;
	u64 exits = __atomic_load_n(&target->stats[WARDEN_STAT_VMEXITS_TOTAL],
				    __ATOMIC_RELAXED);
	struct hv_wait w;

	/* a new number each time: the answer to an earlier round is still
	 * in suspend_ack; 0 means "not suspended" */
	if (!round)
		round = ++target->arch.suspend_rounds;
	hv_wait_start(&w, CPU_ANSWER_MS);
	__atomic_store_n(&target->arch.suspend_want, round, __ATOMIC_SEQ_CST);
	apic_send_nmi(target);
	while (__atomic_load_n(&target->arch.suspend_ack, __ATOMIC_SEQ_CST) !=
	       round) {
		if (hv_wait_over(&w)) {
			report_silence(target, "a suspend request", exits);
			arch_cpu_resume(target);
			return -WARDEN_ETIMEDOUT;
		}
		cpu_relax();
	}
	return 0;
}

void arch_cpu_resume(struct per_cpu *target)
{
	__atomic_store_n(&target->arch.suspend_want, 0, __ATOMIC_SEQ_CST);
}

int arch_cpu_park(struct per_cpu *target, struct cell *cell)
{
	__atomic_store_n(&target->arch.park_cell, cell, __ATOMIC_SEQ_CST);
	return request(target, REQ_PARK);
}

int arch_cpu_return(struct per_cpu *target)
{
	return request(target, REQ_RETURN);
}

int arch_cpu_stop(struct per_cpu *target)
{
	return request(target, REQ_STOP);
}

int arch_cpu_start(struct per_cpu *target)
{
	return request(target, REQ_START);
}

void arch_console_kick(void)
{
	struct per_cpu *t;
	unsigned int cpu;

	for (cpu = 0; cpu < hv.num_cpus; cpu++) {
		t = per_cpu(cpu);
		if (t->cell != &hv.root ||
		    __atomic_load_n(&t->state, __ATOMIC_SEQ_CST) !=
			    WARDEN_CPU_RUNNING)
			continue;
		if (!(__atomic_fetch_or(&t->arch.requests, REQ_CONSOLE,
					__ATOMIC_SEQ_CST) &
		      REQ_CONSOLE))
			apic_send_nmi(t);
		return;
	}
}

void arch_cpu_halt_lost(struct per_cpu *pc)
{
	(void)pc;
	/* NMIs still come (hv_nmi) and return here */
	for (;;)
		asm volatile("cli; hlt" ::: "memory");
}

/* Wait while the requester changes root's resources; root's translations
 * may be stale afterwards. */
static void serve_suspend(struct per_cpu *pc)
{
	u32 round = __atomic_load_n(&pc->arch.suspend_want, __ATOMIC_SEQ_CST);
	struct hv_wait w;

	if (!round ||
	    round == __atomic_load_n(&pc->arch.suspend_ack, __ATOMIC_SEQ_CST))
		return;
	hv_wait_start(&w, SUSPEND_MAX_MS);
	__atomic_store_n(&pc->arch.suspend_ack, round, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&pc->arch.suspend_want, __ATOMIC_SEQ_CST) ==
	       round) {
		if (hv_wait_over(&w)) {
			printk("CPU %u: not resumed after %u ms; going on\n",
			       pc->cpu_id, SUSPEND_MAX_MS);
			break;
		}
		cpu_relax();
	}
	vcpu_flush_second_level();
}

/* REQ_PARK: into the cell, parked; it runs nothing until started.  Its
 * exit counters start afresh: they are the cell's now. */
static void enter_cell(struct per_cpu *pc)
{
	struct cell *cell =
		__atomic_load_n(&pc->arch.park_cell, __ATOMIC_SEQ_CST);

	pc->cell = cell;
	guest_decode_forget(pc);
	memset(pc->stats, 0, sizeof(pc->stats));
	access_log_reset(pc);
	vcpu_load_cell(pc);
	cpu_scrub();
	apic_cell_reset(pc);
	apic_init_cancel(pc);
	__atomic_store_n(&pc->state, WARDEN_CPU_PARKED, __ATOMIC_SEQ_CST);
	printk("CPU %u: parked in cell %u\n", pc->cpu_id, cell->id);
}

/* REQ_RETURN: back to root, as after INIT: Linux onlines it with
 * INIT/SIPI. */
static void leave_cell(struct per_cpu *pc)
{
	console_cell_flush(pc);
	access_log_print(pc);
	pc->cell = &hv.root;
	guest_decode_forget(pc);
	vcpu_load_cell(pc);
	vcpu_flush_second_level();
	vcpu_flush_guest_tlb();
	cpu_scrub();
	apic_cell_leave(pc);
	apic_init_received(pc);
	__atomic_store_n(&pc->state, WARDEN_CPU_RUNNING, __ATOMIC_SEQ_CST);
	printk("CPU %u: back in root, waiting for SIPI\n", pc->cpu_id);
}

/* The cell's first CPU (lowest APIC ID) starts at the reset address; the
 * others wait for its INIT and SIPI (comm.h). */
static bool is_first_cpu(struct per_cpu *pc)
{
	return cell_first_cpu(pc->cell) == pc;
}

/* REQ_START: real mode at the reset address, CS base its 64 KiB-aligned
 * part, IP the rest; a fresh APIC (a timer of the last run must not
 * fire). */
static void start_guest(struct per_cpu *pc, struct guest_regs *regs)
{
	u64 reset = pc->cell->config->reset_address;
	bool first = is_first_cpu(pc);

	memset(regs, 0, sizeof(*regs));
	vcpu_reset_to_real_mode(reset & ~0xffffull, (u16)(reset & 0xffff));
	vcpu_drop_pending_events(pc);
	vcpu_flush_guest_tlb();
	apic_cell_reset(pc);
	if (first)
		apic_init_cancel(pc);
	else
		apic_init_received(pc);
	__atomic_store_n(&pc->state, WARDEN_CPU_RUNNING, __ATOMIC_SEQ_CST);
	if (first)
		printk("CPU %u: cell %u started at 0x%llx\n", pc->cpu_id,
		       pc->cell->id, (unsigned long long)reset);
	else
		printk("CPU %u: cell %u started, waiting for SIPI\n",
		       pc->cpu_id, pc->cell->id);
}

/* REQ_STOP: a running cell CPU stops, parked; its guest state is
 * dropped at the next start. */
static void stop_guest(struct per_cpu *pc)
{
	console_cell_flush(pc);
	if (__atomic_load_n(&pc->state, __ATOMIC_SEQ_CST) == WARDEN_CPU_RUNNING)
		__atomic_store_n(&pc->state, WARDEN_CPU_PARKED,
				 __ATOMIC_SEQ_CST);
}

/*
 * Nothing asked of this CPU, the case after almost every exit: no event
 * exit armed, no request, no suspension round open, running and not
 * waiting for a SIPI.  One pass of loads, so the exits root takes all the
 * time (CPUID, the xAPIC) do not pay for the loop below.  A request posted
 * after these loads arms the event exit, which brings the CPU back at
 * once: the same as when the loop's last look misses it.
 */
static bool nothing_asked(struct per_cpu *pc, struct guest_regs *regs)
{
	u32 want;

	if (__atomic_load_n(&pc->arch.event_exit_armed, __ATOMIC_SEQ_CST) ||
	    load_requests(pc))
		return false;
	want = __atomic_load_n(&pc->arch.suspend_want, __ATOMIC_SEQ_CST);
	if (want &&
	    want != __atomic_load_n(&pc->arch.suspend_ack, __ATOMIC_SEQ_CST))
		return false;
	return __atomic_load_n(&pc->state, __ATOMIC_SEQ_CST) ==
		       WARDEN_CPU_RUNNING &&
	       apic_sipi_ready(pc, regs);
}

void x86_cpu_events(struct per_cpu *pc, struct guest_regs *regs)
{
	u32 req;

	if (nothing_asked(pc, regs)) {
		__atomic_store_n(&pc->arch.in_guest, true, __ATOMIC_RELAXED);
		return;
	}
	for (;;) {
		vcpu_disarm_event_exit(pc);
		if (__atomic_load_n(&pc->state, __ATOMIC_SEQ_CST) ==
		    WARDEN_CPU_LOST)
			arch_cpu_halt_lost(pc);
		serve_suspend(pc);
		req = load_requests(pc);
		if (req & REQ_CONSOLE) {
			request_done(pc, REQ_CONSOLE);
			/* it may have become a cell's since it was asked */
			if (pc->cell == &hv.root)
				console_drain();
			else
				arch_console_kick();
		}
		if (req & REQ_PARK) {
			enter_cell(pc);
			request_done(pc, REQ_PARK);
		}
		if (pc->cell != &hv.root) {
			if (req & REQ_RETURN) {
				leave_cell(pc);
				request_done(pc,
					     REQ_RETURN | REQ_STOP | REQ_START);
				continue;
			}
			if (req & REQ_STOP) {
				stop_guest(pc);
				request_done(pc, REQ_STOP);
			}
			if (req & REQ_START) {
				start_guest(pc, regs);
				request_done(pc, REQ_START);
			}
		}
		/* Enter when running and not waiting for a SIPI; an NMI
		 * that came during the wait armed the event exit for a
		 * request this loop has already seen: look once more
		 * instead of paying an exit for it. */
		if (__atomic_load_n(&pc->state, __ATOMIC_SEQ_CST) ==
			    WARDEN_CPU_RUNNING &&
		    apic_sipi_ready(pc, regs) &&
		    !__atomic_load_n(&pc->arch.event_exit_armed,
				     __ATOMIC_SEQ_CST)) {
			__atomic_store_n(&pc->arch.in_guest, true,
					 __ATOMIC_RELAXED);
			return;
		}
		cpu_relax();
	}
}
