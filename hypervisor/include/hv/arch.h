/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hooks the generic core calls in the architecture layer.  Each is
 * implemented once per architecture (hypervisor/arch/x86/); the core never
 * touches hardware directly.
 */
#ifndef WARDEN_HV_ARCH_H
#define WARDEN_HV_ARCH_H

#include <warden/abi.h>

#include "types.h"

/*
 * Prepare the debug console described by con (a struct from the system
 * config).  Returns 0, or -WARDEN_EINVAL for a console type the
 * architecture cannot drive; the console then stays silent.
 */
int arch_console_init(const struct warden_console *con);

/* Write len bytes to the debug console; "\n" becomes "\r\n".  Never fails:
 * output to a missing console is dropped. */
void arch_console_write(const char *text, size_t len);

/* From a cell's CPU: ask one of root's running CPUs to call
 * console_drain() soon.  Does not wait; a request already pending is
 * not repeated. */
void arch_console_kick(void);

struct per_cpu;
struct cell;
struct guest_regs;

/*
 * Switch this CPU to the hypervisor's own GDT, TSS and IDT and make
 * this_cpu() work.  Called first on every CPU, in the hypervisor's address
 * space.  Cannot fail.
 */
void arch_cpu_prepare(struct per_cpu *pc);

/*
 * System-wide architecture setup, on the first CPU only, after the pool
 * exists: check that the CPU has what Warden needs, build the shared IDT.
 * 0 or a negative errno with the reason recorded (hv_set_error).
 */
int arch_init_system(struct per_cpu *pc);

/*
 * Build the root cell's architecture state (second-level page tables from
 * the system config's memory regions minus hypervisor memory, I/O and MSR
 * bitmaps).
 * 0 or a negative errno with the reason recorded.
 */
int arch_root_cell_init(struct per_cpu *pc, struct cell *root);

/*
 * Switch on the vendor's virtualization extension on this CPU and prepare
 * its per-CPU guest-state area with Linux's state (pc->entry->linux_state)
 * as the guest state.  0 or a negative errno with the reason recorded; on
 * failure nothing is left enabled.
 */
int arch_cpu_init(struct per_cpu *pc);

/* Undo arch_cpu_init when another CPU failed: switch the virtualization
 * extension off again. */
void arch_cpu_undo(struct per_cpu *pc);

/*
 * Launch the guest (Linux continues as root cell).  Returns only if the
 * launch failed, with a negative errno and the reason recorded.
 */
int arch_cpu_activate(struct per_cpu *pc);

/*
 * Leave the hypervisor on this CPU and return to Linux (disable, or an
 * enable that failed): restores Linux's state from the guest state (or the
 * saved entry state if the guest never ran) with RAX = result.  Does not
 * return.
 */
void __attribute__((noreturn))
arch_cpu_leave(struct per_cpu *pc, long result, void *guest_regs);

/*
 * Copy len bytes between buf and guest-physical address gpa of the guest
 * running on this CPU (the caller of a hypercall): from the guest, or to it
 * if write.  Only memory the guest's cell may itself read (and write, for
 * write) is touched.  0, or -WARDEN_EFAULT when some page is not
 * accessible (a part may have been copied).
 */
int arch_guest_copy(struct per_cpu *pc, u64 gpa, void *buf, unsigned long len,
		    bool write);

struct warden_error;

/*
 * Build the architecture state of a new cell: empty second-level tables,
 * every port intercepted, the vendor's structures (the MSR map of the cell
 * policy, msr.c).  The ownership
 * path (core/ownership.c) then gives it its memory and ports.  0, or a
 * negative errno with *err filled and nothing kept.
 */
int arch_cell_create(struct per_cpu *pc, struct cell *cell,
		     struct warden_error *err);

/* Free the cell's architecture state.  Its CPUs must have left it
 * (arch_cpu_return) and its resources gone back to root.  Cannot fail. */
void arch_cell_destroy(struct cell *cell);

/*
 * The primitives of the ownership path (hv/ownership.h), its only callers
 * (scripts/layers.sh checks it).  Map guest-physical [guest, guest
 * + size) of cell to host-physical phys with the rights of flags
 * (WARDEN_MEM_READ/WRITE/EXECUTE) and memory type mem_type, or unmap it:
 * 0, or -WARDEN_ENOMEM when the pool has no page for a table (the change
 * may be partial).  A live table is changed safely for the CPUs that use
 * it.  Let cell's guests reach ports [base, base + length) (allow) or
 * make them exit.  arch_flush_memory: drop this CPU's cached
 * translations after changes (root's other CPUs, suspended meanwhile,
 * drop theirs when they resume).
 */
int arch_map_memory(struct cell *cell, u64 guest, u64 phys, u64 size, u32 flags,
		    u32 mem_type);
int arch_unmap_memory(struct cell *cell, u64 guest, u64 size);
void arch_set_ports(struct cell *cell, u32 base, u32 length, bool allow);
void arch_flush_memory(void);
/* Zero host-physical RAM [phys, phys + size) (page-aligned) through the
 * calling CPU's window, page by page: a cell's RAM before it goes back
 * to root (ownership_give_back), so that neither root nor the next cell
 * there reads what the cell left. */
void arch_clear_memory(u64 phys, u64 size);

/*
 * Requests to other CPUs.  Only the CPU that holds hv.cells_lock makes
 * them, and every one is bounded: each returns 0 once target carried it
 * out, or -WARDEN_ETIMEDOUT if target did not within about a second, the
 * request then withdrawn (what that means is the caller's to decide:
 * core/cell.c).  A CPU whose state is WARDEN_CPU_LOST never runs a guest
 * again, whatever it was asked.
 *
 * arch_cpu_suspend: target, a root CPU other than the caller, stops at
 * its next look at its requests (at once if it runs Linux: the event NMI)
 * and waits in the hypervisor until arch_cpu_resume; 0 when it waits,
 * that is when it is in no exit handler and runs no guest code.  It
 * drops its second-level translations before it runs Linux again.
 */
int arch_cpu_suspend(struct per_cpu *target);
/* Let a CPU that arch_cpu_suspend stopped go on (it does not wait). */
void arch_cpu_resume(struct per_cpu *target);

/* Move target (a root CPU Linux has offlined) into cell, parked. */
int arch_cpu_park(struct per_cpu *target, struct cell *cell);

/* Move target, a CPU of a cell (parked, failed or running), back to
 * root, where it waits for an INIT/SIPI from Linux. */
int arch_cpu_return(struct per_cpu *target);

/* Stop a cell CPU (parked, its guest state dropped at the next start);
 * a CPU that does not run stays as it is. */
int arch_cpu_stop(struct per_cpu *target);

/* Start a parked cell CPU at its cell's reset address (real mode). */
int arch_cpu_start(struct per_cpu *target);

/* On a CPU the hypervisor gave up on (its state WARDEN_CPU_LOST): stop
 * for good, answering nothing.  Does not return. */
void __attribute__((noreturn)) arch_cpu_halt_lost(struct per_cpu *pc);

/* WARDEN_HC_TEST on this cell CPU (test hooks enabled): make the
 * hypervisor fail the way kind (WARDEN_TEST_*) says.  Returns (0) only
 * for kinds that act later (a failing VM entry); -WARDEN_EINVAL for an
 * unknown kind. */
long arch_test_failure(struct per_cpu *pc, unsigned long kind);

/*
 * WARDEN_HC_CPU_GET_INFO on the access log of pc (warden/access.h), for
 * root on any CPU: type WARDEN_CPU_INFO_ACCESS_DROPPED (the uses that
 * found no room), or WARDEN_CPU_INFO_ACCESS_BASE + entry *
 * WARDEN_ACCESS_FIELDS + field (the caller keeps entry below
 * WARDEN_ACCESS_LOG_ENTRIES): the field as access.h packs it, 0 for an
 * entry not (yet) in the table.  Read while pc may add to its table: a
 * count may be one behind, an entry is never seen half written.
 */
long arch_cpu_access_info(const struct per_cpu *pc, unsigned long type);

/*
 * WARDEN_HC_CPU_GET_INFO on pc's record of its last VM entry that failed
 * with invalid guest state (warden/vmx_entry.h), for root on any CPU:
 * 32-bit word `word` (the caller keeps it below WARDEN_VMX_ENTRY_WORDS),
 * 0 in every word while pc has none.
 */
long arch_cpu_entry_info(struct per_cpu *pc, unsigned int word);

/* A timestamp in TSC cycles (the header's tsc_khz per millisecond). */
u64 arch_timestamp(void);

#endif /* WARDEN_HV_ARCH_H */
