/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Hypercalls from an inmate: VMCALL with the code in RAX and the arguments
 * in RDI and RSI; the result (>= 0, or a negative errno) comes back in RAX
 * and the hypervisor preserves all other registers (include/warden/
 * hypercall.h).  Outside a Warden cell VMCALL raises #UD.
 */
#ifndef INMATE_HYPERCALL_H
#define INMATE_HYPERCALL_H

#include <warden/hypercall.h>

static inline long warden_debug_putc(char c)
{
	return warden_hypercall(WARDEN_HC_DEBUG_CONSOLE_PUTC, (unsigned char)c,
				0);
}

#endif /* INMATE_HYPERCALL_H */
