/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hypervisor console (core/console.c): the line store root reads
 * (struct warden_hv_console, hv/console_log.h) and the debug console of the
 * system config (COM2 in the test machine).
 *
 * Who wrote a line is part of it.  printk() is the hypervisor's own voice,
 * for what it does and decides; cell_printk() is what the hypervisor says
 * about a guest's behaviour that the guest can repeat at will (a refused
 * access, an injected #GP), counted against that cell's share of the
 * store; console_cell_putc() is the guest's own output, shown after its
 * cell's name.  Neither a looping nor a flooding guest can push the
 * hypervisor's lines out, and its output never looks like them.
 */
#ifndef WARDEN_HV_PRINTK_H
#define WARDEN_HV_PRINTK_H

#include "types.h"

struct cell;
struct per_cpu;

/* Once, on the first CPU, before any output reaches the store. */
void console_init(void *store);

void printk(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cell_printk(const struct cell *cell, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Write the lines queued for the debug console (the UART) to it, on a CPU
 * of root's: a cell's CPU never waits for the UART (console.c).  Returns
 * at once if another CPU is writing them; that one sees the new lines.
 * Called by printk and friends on root's CPUs, and by the architecture
 * when a console request reaches one of root's CPUs (arch_console_kick).
 */
void console_drain(void);

/* A cell takes id: its share of the store starts empty. */
void console_cell_reset(const struct cell *cell);
/* One byte of the guest's console output (WARDEN_HC_DEBUG_CONSOLE_PUTC),
 * line-buffered per CPU; console_cell_flush ends a partial line (the CPU
 * stops running the guest). */
void console_cell_putc(struct per_cpu *pc, u8 c);
void console_cell_flush(struct per_cpu *pc);

#endif /* WARDEN_HV_PRINTK_H */
