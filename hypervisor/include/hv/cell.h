/* SPDX-License-Identifier: GPL-2.0 */
/* Cells, the generic part (core/cell.c). */
#ifndef WARDEN_HV_CELL_H
#define WARDEN_HV_CELL_H

#include "ownership.h" /* the ownership path */
#include "percpu.h"
#include "types.h"

/*
 * WARDEN_HC_CONFIG_VALIDATE from root on CPU pc: copy the cell config at
 * guest-physical config_gpa in and check it with the shared validator
 * against the system config and the existing cells.  On an error, the
 * first record goes to the struct warden_error at error_gpa (0: none
 * wanted) and its code is returned; 0 if valid; -WARDEN_EFAULT if either
 * address is not root's memory.  Changes nothing.
 */
long cell_config_validate(struct per_cpu *pc, u64 config_gpa, u64 error_gpa);

/*
 * WARDEN_HC_CELL_CREATE from root on CPU pc: validate as above, then
 * create the cell with its CPUs parked.  Returns the new cell id, or an
 * error with its record at error_gpa; on error nothing has changed.
 * -WARDEN_EBUSY if another create or destroy is under way.
 */
long cell_create(struct per_cpu *pc, u64 config_gpa, u64 error_gpa);

/*
 * The management calls on an existing cell (id; root is refused).  Each
 * returns 0 or a negative errno with its record written to error_gpa (0:
 * none wanted): -WARDEN_ENOENT (no such cell), -WARDEN_EBUSY (another
 * request runs, the cell denied a shutdown or is locked, or it lost a
 * CPU), -WARDEN_ETIMEDOUT (a CPU did not answer: a root CPU leaves
 * everything as it was, a cell CPU is lost).  A running cell is asked
 * first (comm region); no answer within about 200 ms counts as
 * agreement.
 *
 * destroy: CPUs back to root (waiting for Linux to online them), memory
 * and ports back to root, every page freed; if a CPU of the cell is lost,
 * the cell is kept as WARDEN_CELL_QUARANTINED instead, holding its memory,
 * ports and lost CPUs until disable (its other CPUs go back to root).
 * set_loadable: stop the cell's CPUs and map its loadable regions into
 * root for "cell load".  start: (re)start the cell's CPUs at its reset
 * address, loadable regions taken from root again, communication region
 * fresh.  shutdown: stop its CPUs (state shut down).
 */
long cell_destroy(struct per_cpu *pc, unsigned long id, u64 error_gpa);
long cell_set_loadable(struct per_cpu *pc, unsigned long id, u64 error_gpa);
long cell_start(struct per_cpu *pc, unsigned long id, u64 error_gpa);
long cell_shutdown(struct per_cpu *pc, unsigned long id, u64 error_gpa);

/*
 * On a CPU of a cell whose guest did something forbidden (what, value, at
 * the guest's rip): say so, mark the cell failed and the CPU failed.  The
 * CPU stops running the guest at the event loop after the exit handler
 * and waits, parked, until it is started again or returned to root.
 */
void cell_fail(struct per_cpu *pc, const char *what, u64 value, u64 rip);

/*
 * On a CPU of a cell whose guest asked the platform to power off or reset
 * (what names it, e.g. "ACPI soft-off (S5)"): say so, mark the cell shut
 * down and this CPU parked, as cell_fail does for a broken rule.  The
 * cell's other CPUs are those the guest stopped itself before asking
 * (Linux halts them with interrupts off); they are parked at the next
 * start, destroy or disable.  The caller returns EXIT_CELL_FAILED (the
 * guest is not resumed).
 */
void cell_power_off(struct per_cpu *pc, const char *what);

/* On a cell CPU where the hypervisor took an exception it cannot recover
 * from: the CPU is lost (WARDEN_CPU_LOST), its cell failed.  The caller
 * then halts the CPU for good (arch_cpu_halt_lost). */
void cell_cpu_lost_here(struct per_cpu *pc, unsigned int vector, u64 rip);

/* Fill *err for a pool that ran out of pages (rule NO_MEMORY, the pool's
 * free pages named); returns -WARDEN_ENOMEM. */
int cell_error_no_memory(struct warden_error *err);

/* The cell's first CPU: the one with the lowest APIC ID (the one that
 * starts at the reset address, the default destination of its device
 * interrupts).  NULL for a cell without CPUs. */
struct per_cpu *cell_first_cpu(const struct cell *cell);

/*
 * The communication region of a cell (core/comm.c; a cell without one
 * acts as a passive one that agrees): comm_reset fills it afresh before a
 * start (signature, revision, state running, CPUs, TSC kHz, console);
 * comm_reported_state is what the cell says of itself; comm_message
 * posts msg (WARDEN_MSG_*) with the reply cleared, WARDEN_MSG_NONE
 * withdraws it; comm_reply is the cell's answer (WARDEN_REPLY_*).
 */
void comm_reset(struct cell *cell);
u32 comm_reported_state(const struct cell *cell);
void comm_message(struct cell *cell, u32 msg);
u32 comm_reply(const struct cell *cell);

/* Number of cells, root included. */
unsigned int cell_count(void);

/* WARDEN_HC_CELL_GET_STATE: WARDEN_CELL_* or -WARDEN_ENOENT. */
long cell_get_state(unsigned long id);

#endif /* WARDEN_HV_CELL_H */
