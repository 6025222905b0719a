/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading the memory of the guest that runs on this CPU (guest.c): its
 * linear addresses through its own page tables (SDM Vol. 3, 4.5) and the
 * cell's second-level tables, a page at a time through a per-CPU window in
 * the hypervisor's address space.  Memory the cell's second-level tables
 * do not let it read is never read for it.
 */
#ifndef WARDEN_ASM_GUEST_H
#define WARDEN_ASM_GUEST_H

#include <hv/types.h>

struct mmio_insn;
struct per_cpu;

/* Where the per-CPU windows are: one page per CPU from here. */
#define GUEST_WINDOW_VIRT 0xffffffffc0200000ul

/* The decode cache's windows (guest.c): per CPU, slot and entry. */
#define DECODE_WINDOW_VIRT 0xffffffffc0400000ul

/* Map every CPU's window once (first CPU, at setup): later mappings only
 * change a leaf entry and never allocate.  0 or -WARDEN_ENOMEM. */
int guest_windows_init(unsigned int num_cpus);

/*
 * Copy up to len bytes from the guest's linear address linear into buf.
 * Returns the number of bytes copied: fewer than len when a page is not
 * mapped (guest or second-level page tables) or paging is in a mode other than
 * none or 4/5-level IA-32e.
 */
unsigned int guest_read_linear(struct per_cpu *pc, u64 linear, void *buf,
			       unsigned int len);

/*
 * Decode the instruction at the guest's CS:RIP that made an MMIO access
 * (insn.c): from this CPU's decode cache when every paging-structure
 * entry, second-level translation and byte it depends on is unchanged
 * (asm/insn_cache.h), else by a page walk, which then fills the cache.
 * Takes no lock on a hit.  Returns INSN_OK and fills *insn, or a negative
 * insn_error; bytes that cannot be read count as INSN_TRUNCATED.
 */
struct cell;
int guest_decode_mmio(struct per_cpu *pc, struct mmio_insn *insn);

/* On any CPU pc: the aligned u64 at guest-physical gpa of cell (not
 * necessarily the cell pc runs), read through this CPU's window if the
 * cell may read it: 0, or -WARDEN_EFAULT. */
int guest_cell_read_u64(struct per_cpu *pc, const struct cell *cell, u64 gpa,
			u64 *value);

/* Drop this CPU's decoded instructions: it changes cells. */
void guest_decode_forget(struct per_cpu *pc);

#endif /* WARDEN_ASM_GUEST_H */
