/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Perform the access of a decoded MMIO instruction (asm/insn.h) through a
 * cell's MMIO registry (hv/mmio.h): the stored value taken from the
 * register file, or the loaded value merged into it as the instruction
 * would (asm/insn.h: insn_apply_load).  regs: the guest's 16
 * general-purpose registers in x86 order, RSP included.  Returns the
 * dispatch's result; on anything but MMIO_HANDLED the register file is
 * unchanged.  Inline (every emulated access takes it); plain C, also
 * compiled into the unit tests.
 */
#ifndef WARDEN_ASM_MMIO_INSN_H
#define WARDEN_ASM_MMIO_INSN_H

#include <asm/insn.h>
#include <hv/mmio.h>

static inline enum mmio_result mmio_insn_perform(const struct mmio_registry *r,
						 struct per_cpu *pc,
						 const struct mmio_insn *insn,
						 u64 gpa, u64 regs[16])
{
	struct mmio_access a = {
		.addr = gpa,
		.size = insn->size,
		.write = insn->write,
		.value = insn->write ? insn_store_value(insn, regs) : 0,
	};
	enum mmio_result res = mmio_dispatch(r, pc, &a);

	if (res != MMIO_HANDLED || insn->write)
		return res;
	return insn_apply_load(insn, a.value, regs) ? MMIO_REFUSED
						    : MMIO_HANDLED;
}

#endif /* WARDEN_ASM_MMIO_INSN_H */
