/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Hypercalls from an inmate, by the convention of include/warden/
 * hypercall.h: the code in RAX and the arguments in RDI and RSI; the result
 * (>= 0, or a negative errno) comes back in RAX and the hypervisor
 * preserves all other registers.  The instruction is the CPU vendor's
 * (VMCALL on Intel, VMMCALL on AMD and Hygon): inmate_start() picks it
 * before the inmate runs, and every call here uses that pick.  Outside a
 * Warden cell the instruction raises #UD.
 */
#ifndef INMATE_HYPERCALL_H
#define INMATE_HYPERCALL_H

#include <warden/hypercall.h>

/* WARDEN_HC_INSN_*, set by inmate_start() (setup.c). */
extern unsigned int inmate_hc_insn;

static inline long warden_hypercall(unsigned long code, unsigned long arg1,
				    unsigned long arg2)
{
	return warden_hypercall_with(inmate_hc_insn, code, arg1, arg2);
}

static inline long warden_debug_putc(char c)
{
	return warden_hypercall(WARDEN_HC_DEBUG_CONSOLE_PUTC, (unsigned char)c,
				0);
}

#endif /* INMATE_HYPERCALL_H */
