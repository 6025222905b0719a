/* SPDX-License-Identifier: GPL-2.0 */
/*
 * VM exits in vendor-neutral form.  The vendor's exit code (vmx/vmx_exit.c,
 * svm/svm_exit.c) decodes its exit into a struct x86_exit and calls
 * x86_handle_exit, which counts it once, runs the handler of its kind and
 * carries out the action the handler returns (exit.c).  The kind table
 * (exit_table.c) maps each kind to its handler and to its statistics id
 * (warden/stats.h); it is plain data, held against stats.h by a unit test.
 *
 * One exit is made up: the event exit.  VMX gets it from the hardware (a
 * zero preemption timer makes the entry exit at once); SVM has no such
 * timer and, finding the event armed just before an entry, passes an
 * X86_EXIT_EVENT that no exit produced (svm_prepare_entry).  Both are
 * counted as exits of kind X86_EXIT_EVENT (statistics: total and
 * management), so that the counters mean the same on both vendors.
 */
#ifndef WARDEN_ASM_EXIT_H
#define WARDEN_ASM_EXIT_H

#include <hv/types.h>
#include <warden/stats.h>

struct guest_regs;
struct per_cpu;

enum x86_exit_kind {
	X86_EXIT_CPUID,
	X86_EXIT_CR, /* MOV to CR0/CR4 that touched a kept bit */
	X86_EXIT_MSR_READ,
	X86_EXIT_MSR_WRITE,
	X86_EXIT_X2APIC_ICR, /* WRMSR to the x2APIC ICR (0x830) */
	X86_EXIT_XSETBV,
	X86_EXIT_IO,
	X86_EXIT_XAPIC, /* an access to the trapped xAPIC page */
	X86_EXIT_MMIO,	/* a second-level fault elsewhere */
	X86_EXIT_HYPERCALL,
	X86_EXIT_EVENT,	     /* the hypervisor's NMI or the event exit */
	X86_EXIT_NMI,	     /* an NMI for the guest */
	X86_EXIT_NMI_WINDOW, /* the guest can take its pending NMI now */
	X86_EXIT_INIT,
	X86_EXIT_SIPI,
	X86_EXIT_EXCEPTION, /* an intercepted exception (#DB, #AC) */
	X86_EXIT_TRIPLE_FAULT,
	X86_EXIT_VIRT_INSN, /* a virtualization instruction (VMXON, ...) */
	X86_EXIT_ENTRY_FAILED,
	X86_EXIT_INVD,	  /* INVD: refused on both vendors (exit.c) */
	X86_EXIT_UNKNOWN, /* an exit no handler expects */
	X86_EXIT_KINDS
};

/* One decoded exit: the kind and the fields its handler needs. */
struct x86_exit {
	enum x86_exit_kind kind;
	/* the vendor's own reason and qualification, for reports only */
	u32 reason;
	u64 qualification;
	union {
		struct {
			unsigned int cr, gpr; /* MOV to CR<cr> from GPR gpr */
		} cr;
		struct {
			u16 port;
			u8 size; /* 1, 2 or 4 */
			bool in, string;
		} io;
		struct {
			u64 gpa;
			bool write, fetch;
		} mmio;
		struct {
			unsigned int offset; /* in the page */
			bool write;	     /* else read */
			bool linear;	     /* a data access the guest made */
		} xapic;
		struct {
			u8 vector;
			bool has_error;
			u32 error;
		} exception;
		/* X86_EXIT_ENTRY_FAILED: what the vendor found wrong;
		 * X86_EXIT_VIRT_INSN: the instruction set's name */
		const char *why;
	};
};

/* What the dispatcher does after the handler. */
enum exit_action {
	EXIT_RESUME,	  /* enter the guest as it is now */
	EXIT_SKIP,	  /* advance past the instruction that exited */
	EXIT_INJECT_GP,	  /* #GP(0) at the instruction */
	EXIT_INJECT_UD,	  /* #UD at the instruction */
	EXIT_CELL_FAILED, /* the handler failed the cell (cell_fail) */
	EXIT_HYPERCALL,	  /* run the hypercall, after the handler */
	EXIT_STOP_CPU,	  /* root broke beyond repair: stop this CPU */
};

typedef enum exit_action (*x86_exit_handler)(struct per_cpu *pc,
					     struct guest_regs *regs,
					     const struct x86_exit *e);

struct x86_exit_kind_info {
	const char *name;
	unsigned int stat; /* WARDEN_STAT_VMEXITS_* */
	x86_exit_handler handler;
};

/* The kind table (exit_table.c), indexed by enum x86_exit_kind. */
extern const struct x86_exit_kind_info x86_exit_kinds[X86_EXIT_KINDS];

/* IA32_X2APIC_ICR (SDM Vol. 3, 11.12.1.2) */
#define X86_EXIT_X2APIC_ICR_MSR 0x830

/*
 * The kind an exit is counted and handled as: an MSR write to the x2APIC
 * ICR is X86_EXIT_X2APIC_ICR, an NMI that was the hypervisor's own
 * (event_nmi) is X86_EXIT_EVENT, a kind out of range X86_EXIT_UNKNOWN.
 * Inline: every exit takes it.
 */
static inline enum x86_exit_kind x86_exit_refine(enum x86_exit_kind kind,
						 u32 msr, bool event_nmi)
{
	if ((unsigned int)kind >= X86_EXIT_KINDS)
		return X86_EXIT_UNKNOWN;
	if (kind == X86_EXIT_MSR_WRITE && msr == X86_EXIT_X2APIC_ICR_MSR)
		return X86_EXIT_X2APIC_ICR;
	if (kind == X86_EXIT_NMI && event_nmi)
		return X86_EXIT_EVENT;
	return kind;
}

/* Count one exit of kind in stats (WARDEN_NUM_STATS counters): the total
 * and the kind's own counter, nothing else. */
static inline void x86_exit_count(u64 *stats, enum x86_exit_kind kind)
{
	stats[WARDEN_STAT_VMEXITS_TOTAL] += 1;
	stats[x86_exit_kinds[kind].stat] += 1;
}

/*
 * From the vendor's exit code, after it decoded the exit into *e (or, for
 * SVM's made-up event exit, before an entry: see the top of this file):
 * refine and count it, run its handler, carry out the action (inject,
 * skip, run a hypercall), then the event loop (x86_cpu_events).  Returns
 * when the guest may be entered again; a CPU the hypervisor gives up never
 * returns.
 */
void x86_handle_exit(struct per_cpu *pc, struct guest_regs *regs,
		     struct x86_exit *e);

/* The handlers (exit.c, emulate.c, msr.c, mmio_exit.c), one per kind. */
enum exit_action x86_handle_cpuid(struct per_cpu *pc, struct guest_regs *regs,
				  const struct x86_exit *e);
enum exit_action x86_handle_cr(struct per_cpu *pc, struct guest_regs *regs,
			       const struct x86_exit *e);
enum exit_action x86_handle_msr(struct per_cpu *pc, struct guest_regs *regs,
				const struct x86_exit *e);
enum exit_action x86_handle_xsetbv(struct per_cpu *pc, struct guest_regs *regs,
				   const struct x86_exit *e);
enum exit_action x86_handle_io(struct per_cpu *pc, struct guest_regs *regs,
			       const struct x86_exit *e);
enum exit_action x86_handle_xapic(struct per_cpu *pc, struct guest_regs *regs,
				  const struct x86_exit *e);
enum exit_action x86_handle_mmio(struct per_cpu *pc, struct guest_regs *regs,
				 const struct x86_exit *e);
enum exit_action x86_handle_hypercall(struct per_cpu *pc,
				      struct guest_regs *regs,
				      const struct x86_exit *e);
enum exit_action x86_handle_event(struct per_cpu *pc, struct guest_regs *regs,
				  const struct x86_exit *e);
enum exit_action x86_handle_nmi(struct per_cpu *pc, struct guest_regs *regs,
				const struct x86_exit *e);
enum exit_action x86_handle_init(struct per_cpu *pc, struct guest_regs *regs,
				 const struct x86_exit *e);
enum exit_action x86_handle_sipi(struct per_cpu *pc, struct guest_regs *regs,
				 const struct x86_exit *e);
enum exit_action x86_handle_exception(struct per_cpu *pc,
				      struct guest_regs *regs,
				      const struct x86_exit *e);
enum exit_action x86_handle_triple_fault(struct per_cpu *pc,
					 struct guest_regs *regs,
					 const struct x86_exit *e);
enum exit_action x86_handle_virt_insn(struct per_cpu *pc,
				      struct guest_regs *regs,
				      const struct x86_exit *e);
enum exit_action x86_handle_entry_failed(struct per_cpu *pc,
					 struct guest_regs *regs,
					 const struct x86_exit *e);
enum exit_action x86_handle_invd(struct per_cpu *pc, struct guest_regs *regs,
				 const struct x86_exit *e);
enum exit_action x86_handle_unknown(struct per_cpu *pc, struct guest_regs *regs,
				    const struct x86_exit *e);

/*
 * A port a cell with WARDEN_CELL_LEGACY_QUIET does not own and no
 * emulation took (exit/legacy_ports.c): true if it is one of the legacy
 * ports a stock kernel probes, with *value what a read gives (a write is
 * dropped); false for any other port (the cell's strict rule applies).
 */
bool legacy_port_quiet(u16 port, u64 *value);

/*
 * The platform registers a Linux cell's FADT names (WARDEN_LINUX_*_PORT,
 * warden/config.h; exit/legacy_ports.c), for a cell with
 * WARDEN_CELL_LINUX: true if port is one, with *value what a read gives,
 * and *off, for a write, the reason the cell powers off (NULL: the write
 * is dropped); false for any other port.
 */
bool linux_platform_port(u16 port, bool in, u64 written, u64 *value,
			 const char **off);

/*
 * CPUID leaf/sub for a cell with WARDEN_CELL_LINUX (exit/cpuid_linux.c):
 * *a..*d, the values every guest gets, changed for a stock Linux kernel
 * (features that lead to MSRs the cell may not touch hidden, KVM's
 * signature without features, the TSC rate on Intel).
 */
void cpuid_linux(u32 leaf, u32 sub, u32 *a, u32 *b, u32 *c, u32 *d);
#endif /* WARDEN_ASM_EXIT_H */
