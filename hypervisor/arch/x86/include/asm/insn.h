/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Decoding of the instructions a guest uses to access memory-mapped
 * device registers (the local APIC), so that the hypervisor can perform
 * an access that exited (an APIC-access VM exit is fault-like and does not
 * report the instruction's length or operand: SDM Vol. 3, 29.4.4).
 *
 * Plain C without hardware access, also compiled into the unit tests.
 * Supported: MOV r/m32,r32 (89 /r), MOV r32,r/m32 (8B /r),
 * MOV r/m32,imm32 (C7 /0), MOV EAX,moffs32 (A1) and MOV moffs32,EAX (A3),
 * with REX, segment-override and address-size prefixes, in 64-bit mode
 * and in 32-bit protected mode.  That covers what compilers emit for
 * readl()/writel() of 32-bit registers; anything else is refused.
 */
#ifndef WARDEN_ASM_INSN_H
#define WARDEN_ASM_INSN_H

#include <hv/types.h>

#define INSN_MAX_LEN 15

struct mmio_insn {
	unsigned int length; /* bytes, prefixes included */
	bool write;	     /* store to memory (else load) */
	bool has_imm;	     /* a store of imm (else of register reg) */
	unsigned int reg;    /* GPR number (0 = RAX .. 15 = R15) */
	u32 imm;
	unsigned int size; /* operand size in bytes: always 4 */
};

enum insn_error {
	INSN_OK = 0,
	INSN_TRUNCATED = -1,   /* more bytes needed than given */
	INSN_UNSUPPORTED = -2, /* not one of the forms above */
	INSN_NOT_MEMORY = -3,  /* the operand is a register */
	INSN_BAD_SIZE = -4,    /* 16- or 64-bit operand */
};

/*
 * Decode the instruction in bytes[0..len).  long_mode: the code segment
 * is 64-bit (CS.L); otherwise 32-bit (CS.D) is assumed.  Returns INSN_OK
 * and fills *out, or a negative insn_error (out is then undefined).
 */
int insn_decode_mmio(const u8 *bytes, unsigned int len, bool long_mode,
		     struct mmio_insn *out);

/* A short English name of an insn_error, for reports. */
const char *insn_error_name(int err);

#endif /* WARDEN_ASM_INSN_H */
