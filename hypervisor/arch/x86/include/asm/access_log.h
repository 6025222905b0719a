/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a cell's guest used through exits: ports, MSRs and CPUID leaves,
 * each counted with the RIP of its first use and what it got
 * (exit/access_log.c).  Kept per CPU (no lock: only the CPU itself
 * writes its table), emptied when the CPU joins a cell, printed on the
 * hypervisor console when it leaves the cell (destroy).  A cell with
 * WARDEN_CELL_ACCESS_LOG has every use recorded and each first use
 * printed as it happens; any cell has the accesses its policies answered
 * instead of failing it (a quiet legacy port, an MSR's #GP) recorded, so
 * that what a guest got is never silent (docs/linux-cell.md).
 */
#ifndef WARDEN_ASM_ACCESS_LOG_H
#define WARDEN_ASM_ACCESS_LOG_H

#include <hv/types.h>
#include <warden/access.h>

struct per_cpu;

/* The ABI's values (warden/access.h): root reads the table as it is. */
enum access_kind {
	ACCESS_PORT_IN = WARDEN_ACCESS_PORT_IN,
	ACCESS_PORT_OUT = WARDEN_ACCESS_PORT_OUT,
	ACCESS_MSR_READ = WARDEN_ACCESS_MSR_READ,
	ACCESS_MSR_WRITE = WARDEN_ACCESS_MSR_WRITE,
	ACCESS_CPUID = WARDEN_ACCESS_CPUID,
};

/* What the access got. */
enum access_outcome {
	ACCESS_DONE = WARDEN_ACCESS_DONE,
	ACCESS_QUIET = WARDEN_ACCESS_QUIET,
	ACCESS_GP = WARDEN_ACCESS_GP,
	ACCESS_READ_0 = WARDEN_ACCESS_READ_0,
	ACCESS_FAILED = WARDEN_ACCESS_FAILED,
	ACCESS_CHANGED = WARDEN_ACCESS_CHANGED,
};

#define ACCESS_LOG_ENTRIES WARDEN_ACCESS_LOG_ENTRIES

struct access_entry {
	u32 number; /* port, MSR or CPUID leaf */
	u32 sub;    /* CPUID subleaf; 0 otherwise */
	u32 count;
	u8 kind;    /* enum access_kind */
	u8 outcome; /* enum access_outcome, of the first use */
	u16 reserved;
	u64 first_rip;
};

struct access_log {
	/* entries[0 .. used - 1] are complete: the CPU fills an entry,
	 * then publishes it (release); readers on other CPUs load used
	 * with acquire (arch_cpu_access_info) */
	unsigned int used;
	u32 dropped; /* uses of entries that found no room */
	struct access_entry entries[ACCESS_LOG_ENTRIES];
};

/*
 * On a cell CPU, after an exit: record a use of kind/number/sub with its
 * outcome, if the cell logs every access (WARDEN_CELL_ACCESS_LOG) or the
 * outcome is a policy's answer (QUIET, GP, READ_0).  Nothing for root.
 */
void access_log_record(struct per_cpu *pc, enum access_kind kind, u32 number,
		       u32 sub, enum access_outcome outcome);

/* Root reads the table through arch_cpu_access_info (hv/arch.h). */

/* The CPU joins a cell: an empty table. */
void access_log_reset(struct per_cpu *pc);

/* The CPU leaves its cell: the table on the console, one line a use,
 * if it has any. */
void access_log_print(struct per_cpu *pc);

#endif /* WARDEN_ASM_ACCESS_LOG_H */
