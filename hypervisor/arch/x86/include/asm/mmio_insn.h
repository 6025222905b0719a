/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Perform the access of a decoded MMIO instruction (asm/insn.h) through a
 * cell's MMIO registry (hv/mmio.h): the stored value taken from the
 * register file, or the loaded value merged into it as the instruction
 * would (asm/insn.h: insn_apply_load).  regs: the guest's 16
 * general-purpose registers in x86 order, RSP included.  Returns the
 * dispatch's result; on anything but MMIO_HANDLED the register file is
 * unchanged.  Plain C, also compiled into the unit tests.
 */
#ifndef WARDEN_ASM_MMIO_INSN_H
#define WARDEN_ASM_MMIO_INSN_H

#include <hv/mmio.h>

struct mmio_insn;

enum mmio_result mmio_insn_perform(const struct mmio_registry *r,
				   struct per_cpu *pc,
				   const struct mmio_insn *insn, u64 gpa,
				   u64 regs[16]);

#endif /* WARDEN_ASM_MMIO_INSN_H */
