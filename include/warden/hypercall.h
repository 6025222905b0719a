/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Hypercalls.
 *
 * Convention (x86-64): the guest executes the hypercall instruction with the
 * code in RAX and up to two arguments in RDI and RSI.  The result comes back
 * in RAX: >= 0 on success, a negative Linux errno value on failure.  Other
 * registers are preserved.  Management calls (marked [root]) are accepted
 * only from the root cell at CPL 0; from anywhere else they return -EPERM
 * (WARDEN_EPERM).  Addresses are guest-physical addresses of the caller.
 *
 * The instruction depends on the CPU vendor, as each vendor's extension
 * has its own: VMCALL (0f 01 c1) exits to the hypervisor under Intel VMX
 * (SDM Vol. 3C 31.3, Vol. 2), VMMCALL (0f 01 d9) under AMD SVM (APM Vol. 3
 * "VMMCALL"); the other vendor's instruction raises #UD instead.  A guest
 * picks it from the vendor string of CPUID leaf 0, which Warden passes
 * through unchanged on either vendor (the rule relies on it): "AuthenticAMD"
 * or "HygonGenuine" -> VMMCALL, any other -> VMCALL.  The vendor cannot
 * change under a running guest, so each caller decides once, before its
 * first hypercall (warden_hypercall_insn), and makes every call with that
 * choice (warden_hypercall_with).
 *
 * Calls that take a config or a cell id also take the address of a struct
 * warden_error (error.h) that the hypervisor fills in on failure (0: no
 * record wanted).
 */
#ifndef WARDEN_HYPERCALL_H
#define WARDEN_HYPERCALL_H

#include "abi.h"

/* The hypercall instructions (see the convention above). */
#define WARDEN_HC_INSN_VMCALL 0	 /* Intel, and any vendor but AMD */
#define WARDEN_HC_INSN_VMMCALL 1 /* AMD and Hygon */

/* Read the vendor string of CPUID leaf 0 on this CPU into id (EBX, EDX,
 * ECX, the string's order) and return its WARDEN_VENDOR_* (abi.h). */
static inline uint32_t warden_cpuid_vendor(uint32_t id[3])
{
	uint32_t leaf = 0, subleaf = 0;

	__asm__ volatile("cpuid"
			 : "+a"(leaf), "=b"(id[0]), "=d"(id[1]), "+c"(subleaf));
	id[2] = subleaf;
	return warden_vendor_of(id);
}

/* The rule of the convention above: this CPU's WARDEN_HC_INSN_*. */
static inline unsigned int warden_hypercall_insn(void)
{
	uint32_t id[3];

	return warden_cpuid_vendor(id) == WARDEN_VENDOR_AMD
		       ? WARDEN_HC_INSN_VMMCALL
		       : WARDEN_HC_INSN_VMCALL;
}

/* The caller's side of the convention above, for every caller (driver,
 * inmates, bench module), with the instruction warden_hypercall_insn()
 * chose.  Each caller keeps that choice and wraps this in its own
 * three-argument hypercall function. */
static inline long warden_hypercall_with(unsigned int insn, unsigned long code,
					 unsigned long arg1, unsigned long arg2)
{
	long result;

	if (insn == WARDEN_HC_INSN_VMMCALL)
		__asm__ volatile("vmmcall"
				 : "=a"(result)
				 : "a"(code), "D"(arg1), "S"(arg2)
				 : "memory");
	else
		__asm__ volatile("vmcall"
				 : "=a"(result)
				 : "a"(code), "D"(arg1), "S"(arg2)
				 : "memory");
	return result;
}

#define WARDEN_HC_DISABLE 0		/* [root] -> 0 */
#define WARDEN_HC_CELL_CREATE 1		/* [root] config, error -> cell id */
#define WARDEN_HC_CELL_START 2		/* [root] cell id, error -> 0 */
#define WARDEN_HC_CELL_SET_LOADABLE 3	/* [root] cell id, error -> 0 */
#define WARDEN_HC_CELL_DESTROY 4	/* [root] cell id, error -> 0 */
#define WARDEN_HC_HYPERVISOR_GET_INFO 5 /* [root] WARDEN_INFO_* -> value */
#define WARDEN_HC_CELL_GET_STATE 6	/* [root] cell id -> WARDEN_CELL_* */
#define WARDEN_HC_CPU_GET_INFO 7	/* [root] cpu, WARDEN_CPU_INFO_* */
/* Any cell: one byte of console output.  The hypervisor shows it as the
 * cell's: line by line, after the cell's name, control bytes escaped. */
#define WARDEN_HC_DEBUG_CONSOLE_PUTC 8
#define WARDEN_HC_CONFIG_VALIDATE 9 /* [root] config, error -> 0 */
/* [root] cell id, error -> 0, or -EBUSY when the cell denied */
#define WARDEN_HC_CELL_SHUTDOWN 10
/* Cells other than root, only where the system config enables test hooks
 * (WARDEN_CONFIG_TEST_HOOKS): make the hypervisor fail on this CPU the way
 * WARDEN_TEST_* says, to test that it copes.  -EPERM when not enabled. */
#define WARDEN_HC_TEST 11
/* [root] link index (its place in the system config) -> bits 0-3: peer i
 * up (its STATE register not 0), bits 8-11: peer i present (root, or its
 * cell exists); -ENOENT for no such link. */
#define WARDEN_HC_LINK_GET_STATE 12
/* [root] cell id -> the DMA faults of the cell's PCI functions the IOMMU
 * recorded since the cell was created (root: since enable); 0 without an
 * IOMMU; -ENOENT for no such cell.  (Revision 8.) */
#define WARDEN_HC_CELL_DMA_FAULTS 13
/* [root] cell id -> the interrupt remapping entries the cell holds now
 * (its functions' MSI vectors and MSI-X entries, its IOAPIC pins), 0
 * where cells' interrupts are not remapped; -ENOENT for no such cell.
 * (Revision 10.) */
#define WARDEN_HC_CELL_IRQ_REMAPS 14
#define WARDEN_NUM_HYPERCALLS 15

/* WARDEN_HC_TEST kinds. */
#define WARDEN_TEST_BAD_ENTRY_STATE 1 /* the next VM entry fails */
#define WARDEN_TEST_HV_FAULT 2	      /* an exception in the hypervisor */
#define WARDEN_TEST_HV_HANG 3	      /* stop answering other CPUs */

/* WARDEN_HC_HYPERVISOR_GET_INFO types. */
#define WARDEN_INFO_MEM_POOL_PAGES 0
#define WARDEN_INFO_MEM_POOL_USED 1
#define WARDEN_INFO_NUM_CELLS 2
#define WARDEN_INFO_ABI_REVISION 3

/* WARDEN_HC_CPU_GET_INFO types: the state, or a statistics counter
 * (WARDEN_CPU_INFO_STAT_BASE + WARDEN_STAT_*, see stats.h), or a field of
 * the CPU's access log (WARDEN_CPU_INFO_ACCESS_BASE + entry *
 * WARDEN_ACCESS_FIELDS + field, see access.h; revision 9). */
#define WARDEN_CPU_INFO_STATE 0
#define WARDEN_CPU_INFO_CELL 1 /* the id of the cell the CPU belongs to */
/* uses that found no room in the access log (revision 9) */
#define WARDEN_CPU_INFO_ACCESS_DROPPED 2
#define WARDEN_CPU_INFO_STAT_BASE 1000
#define WARDEN_CPU_INFO_ACCESS_BASE 2000
/* WARDEN_CPU_INFO_ENTRY_BASE + word: a 32-bit word of the CPU's record of
 * its last VM entry that failed with invalid guest state
 * (warden/vmx_entry.h, word < WARDEN_VMX_ENTRY_WORDS; all 0 when it has
 * none; revision 11) */
#define WARDEN_CPU_INFO_ENTRY_BASE 3000

/* Linux errno values returned (negated) by hypercalls. */
#define WARDEN_EPERM 1
#define WARDEN_ENOENT 2
#define WARDEN_EIO 5
#define WARDEN_E2BIG 7
#define WARDEN_ENOMEM 12
#define WARDEN_EFAULT 14
#define WARDEN_EBUSY 16
#define WARDEN_EEXIST 17
#define WARDEN_ENODEV 19
#define WARDEN_EINVAL 22
#define WARDEN_ENOSPC 28
#define WARDEN_ERANGE 34
#define WARDEN_ENOSYS 38
#define WARDEN_ETIMEDOUT 110
#define WARDEN_EOPNOTSUPP 95

#endif /* WARDEN_HYPERCALL_H */
