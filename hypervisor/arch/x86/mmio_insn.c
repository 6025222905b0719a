// SPDX-License-Identifier: GPL-2.0
/*
 * One decoded MMIO instruction performed on the cell's registry (contract
 * in asm/mmio_insn.h).  Plain C without hardware access, also compiled
 * into the unit tests.
 */
#include <asm/insn.h>
#include <asm/mmio_insn.h>

enum mmio_result mmio_insn_perform(const struct mmio_registry *r,
				   struct per_cpu *pc,
				   const struct mmio_insn *insn, u64 gpa,
				   u64 regs[16])
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
