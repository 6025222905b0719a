/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-CPU data.  Each CPU has percpu_size bytes (the image header says how
 * many) after the image core; the architecture keeps a pointer to it where
 * this_cpu() finds it fast (x86: the GS base, and self at offset 0).
 */
#ifndef WARDEN_HV_PERCPU_H
#define WARDEN_HV_PERCPU_H

#include <asm/percpu.h>
#include <warden/hvheader.h>
#include <warden/stats.h>

#include "types.h"

#define PERCPU_STACK_SIZE (16 * 1024)
#define HV_PERCPU_SIZE WARDEN_HV_PERCPU_SIZE

struct cell;

struct per_cpu {
	struct per_cpu *self; /* must stay first: this_cpu() reads it */
	unsigned int cpu_id;
	unsigned int apic_id;
	struct warden_entry_ctx *entry; /* the driver's, for leaving */
	struct cell *cell;
	u32 state; /* WARDEN_CPU_* */
	u64 stats[WARDEN_MAX_STATS];
	/* the guest's console output of the line under way (escaped) */
	u8 out_len;
	char out_line[160];
	struct arch_cpu arch;
	u8 stack[PERCPU_STACK_SIZE] __attribute__((aligned(16)));
} __attribute__((aligned(4096)));

_Static_assert(sizeof(struct per_cpu) <= HV_PERCPU_SIZE, "per-CPU data larger "
							 "than HV_PERCPU_SIZE");

/* The per-CPU data of CPU cpu / of the calling CPU. */
struct per_cpu *per_cpu(unsigned int cpu);

static inline struct per_cpu *this_cpu(void)
{
	return arch_this_cpu();
}

static inline u64 percpu_stack_top(struct per_cpu *pc)
{
	return (u64)pc->stack + sizeof(pc->stack);
}

#endif /* WARDEN_HV_PERCPU_H */
