// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The C side of the entry: called by entry.S in 64-bit mode, on the first
 * CPU (inmate_start) and on the others (inmate_ap_start).
 */
#include <inmate.h>
#include "internal.h"

unsigned int inmate_hc_insn;

void inmate_start(void)
{
	/* before anything can make a hypercall (the console may) */
	inmate_hc_insn = warden_hypercall_insn();
	idt_init();
	console_init();
	cmdline_init();
	inmate_main();
}

/* The default for CPUs started by smp_start_cpus(): halt. */
__attribute__((weak)) void inmate_ap_main(unsigned int cpu_index)
{
	(void)cpu_index;
}

void inmate_ap_start(unsigned int cpu_index)
{
	idt_load();
	/* counted in by smp_start_cpus() (smp.c) */
	__atomic_fetch_add(&inmate_smp_cpus_up, 1, __ATOMIC_SEQ_CST);
	inmate_ap_main(cpu_index);
}
