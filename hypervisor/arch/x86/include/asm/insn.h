/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Decoding of the instructions a guest uses to access memory-mapped
 * device registers, so that the hypervisor can perform an access that
 * exited (an APIC-access VM exit is fault-like and does not report the
 * instruction's length or operand: SDM Vol. 3, 29.4.4; nor does a
 * second-level fault report the operand: VMX's EPT violation, SVM's NPF
 * without decode assists).
 *
 * Plain C without hardware access, also compiled into the unit tests.
 * In 64-bit mode and in 32-bit protected mode, with REX (64-bit mode
 * only), segment-override, operand-size and address-size prefixes (16-bit
 * addressing refused), insn_decode_mmio_any() decodes (Intel SDM Vol. 2B,
 * "MOV-Move" and "MOVZX-Move with Zero-Extend" opcode tables):
 *   88 /r        MOV r/m8, r8
 *   89 /r        MOV r/m16|32|64, r16|32|64
 *   8A /r        MOV r8, r/m8
 *   8B /r        MOV r16|32|64, r/m16|32|64
 *   A0 / A1      MOV AL, moffs8 / MOV AX|EAX|RAX, moffs16|32|64
 *   A2 / A3      MOV moffs8, AL / MOV moffs16|32|64, AX|EAX|RAX
 *   C6 /0 ib     MOV r/m8, imm8
 *   C7 /0 iw|id  MOV r/m16, imm16; MOV r/m32, imm32;
 *                REX.W: MOV r/m64, imm32 sign-extended to 64 bits
 *   0F B6 /r     MOVZX r16|32|64, r/m8
 *   0F B7 /r     MOVZX r32|64, r/m16 (with 66: a 16-bit load into r16)
 * The operand size of the non-byte forms is 16 with 66, 64 with REX.W
 * (which wins over 66), else 32 (SDM Vol. 1, 3.6.1, Table 3-4; moffs
 * forms are 8 bytes in 64-bit mode, 4 with 67 or in 32-bit mode).
 * Anything else is refused: other opcodes, a register operand, LOCK/REP.
 *
 * insn_decode_mmio() is a subset (89, 8B, C7 /0, A1 and A3 with a 32-bit
 * operand only), kept for the unit tests that hold it; the hypervisor
 * decodes with insn_decode_mmio_any (guest.c).
 */
#ifndef WARDEN_ASM_INSN_H
#define WARDEN_ASM_INSN_H

#include <hv/types.h>

#define INSN_MAX_LEN 15

struct mmio_insn {
	unsigned int length; /* bytes, prefixes included */
	bool write;	     /* store to memory (else load) */
	bool has_imm;	     /* a store of imm (else of register reg) */
	/*
	 * The register operand: GPR number (0 = RAX .. 15 = R15; 4 = RSP,
	 * which is not in struct guest_regs).  With reg_high8, 0..3 mean
	 * AH, CH, DH, BH: bits 15:8 of RAX, RCX, RDX, RBX (an 8-bit
	 * register number 4..7 without any REX prefix, SDM Vol. 2A, 3.1.1.1
	 * and Table 3-1).  0 for a store of an immediate.
	 */
	unsigned int reg;
	bool reg_high8;
	/*
	 * A store of an immediate: the value written to memory, size bytes,
	 * the bits above 0 (C7 with REX.W: imm32 sign-extended to 64 bits, as
	 * the CPU does).
	 */
	u64 imm;
	unsigned int size; /* memory operand: 1, 2, 4 or 8 bytes */
	/*
	 * The register operand's size in bytes, 1, 2, 4 or 8: size, except
	 * for MOVZX (zero_extend), whose destination is wider than the
	 * memory operand.  How a load writes the register (SDM Vol. 1,
	 * 3.4.1.1): a 4- or 8-byte destination is written whole (a 32-bit
	 * result is zero-extended to 64 bits); of a 1- or 2-byte destination
	 * only those bits change, the rest of the register is kept.
	 */
	unsigned int reg_size;
	bool zero_extend; /* MOVZX: the value read is zero-extended */
};

enum insn_error {
	INSN_OK = 0,
	INSN_TRUNCATED = -1,   /* more bytes needed than given */
	INSN_UNSUPPORTED = -2, /* not one of the forms above */
	INSN_NOT_MEMORY = -3,  /* the operand is a register */
	INSN_BAD_SIZE = -4,    /* insn_decode_mmio: not a 32-bit operand */
};

/*
 * Decode the instruction in bytes[0..len), any of the forms above.
 * long_mode: the code segment is 64-bit (CS.L); otherwise 32-bit (CS.D)
 * is assumed.  Returns INSN_OK and fills *out, or a negative insn_error
 * (out is then undefined).  Never returns INSN_BAD_SIZE.
 */
int insn_decode_mmio_any(const u8 *bytes, unsigned int len, bool long_mode,
			 struct mmio_insn *out);

/*
 * The same, restricted to what the xAPIC takes: MOV 89, 8B, C7 /0, A1,
 * A3 with a 32-bit operand (out->size is always 4, reg_size 4).  Other
 * sizes of those opcodes give INSN_BAD_SIZE, the other opcodes above
 * INSN_UNSUPPORTED.
 */
int insn_decode_mmio(const u8 *bytes, unsigned int len, bool long_mode,
		     struct mmio_insn *out);

/*
 * The value a store writes to memory (insn->write): imm, or the low
 * insn->size bytes of the register (bits 15:8 for AH..BH).  regs is the
 * guest's register file by GPR number, regs[4] = RSP.
 */
static inline u64 insn_size_mask(unsigned int size)
{
	return size >= 8 ? ~0ULL : (1ULL << (size * 8)) - 1;
}

static inline u64 insn_store_value(const struct mmio_insn *insn,
				   const u64 regs[16])
{
	u64 v;

	if (insn->has_imm)
		return insn->imm & insn_size_mask(insn->size);
	v = regs[insn->reg & 15];
	if (insn->reg_high8)
		v >>= 8;
	return v & insn_size_mask(insn->size);
}

/*
 * Write the result of a load (!insn->write) into regs as the CPU does:
 * value's low insn->size bytes (the bits above are ignored), zero-extended
 * to the register operand, into a whole register if reg_size is 4 or 8,
 * else into its low 8 or 16 bits (or bits 15:8 for AH..BH), the other
 * bits kept.  Returns INSN_OK, or INSN_UNSUPPORTED (regs unchanged) if
 * insn is a store or names no valid register.
 */
static inline int insn_apply_load(const struct mmio_insn *insn, u64 value,
				  u64 regs[16])
{
	unsigned int rs = insn->reg_size, shift = insn->reg_high8 ? 8 : 0;
	u64 mask;

	if (insn->write || insn->reg > 15 || insn->size > rs ||
	    (insn->reg_high8 && (rs != 1 || insn->reg > 3)))
		return INSN_UNSUPPORTED;
	/* zero-extended from the memory operand to the register operand */
	value &= insn_size_mask(insn->size);
	if (rs >= 4) { /* the whole register (SDM Vol. 1, 3.4.1.1) */
		regs[insn->reg] = value;
		return INSN_OK;
	}
	mask = insn_size_mask(rs) << shift; /* only these bits change */
	regs[insn->reg] = (regs[insn->reg] & ~mask) | (value << shift);
	return INSN_OK;
}

/* A short English name of an insn_error, for reports. */
const char *insn_error_name(int err);

#endif /* WARDEN_ASM_INSN_H */
