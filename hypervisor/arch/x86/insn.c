// SPDX-License-Identifier: GPL-2.0
/*
 * MMIO instruction decoder (contract in asm/insn.h).  Encodings from
 * Intel SDM Vol. 2, chapter 2 (instruction format: prefixes, REX, ModR/M,
 * SIB, displacement, immediate) and the MOV and MOVZX entries of chapter 4
 * (Vol. 2B); register semantics from SDM Vol. 1, 3.4.1.1.
 */
#include <asm/insn.h>

#define REX_W 0x8
#define REX_R 0x4

static bool is_legacy_prefix(u8 b)
{
	switch (b) {
	case 0x26: /* ES */
	case 0x2e: /* CS */
	case 0x36: /* SS */
	case 0x3e: /* DS */
	case 0x64: /* FS */
	case 0x65: /* GS */
	case 0x66: /* operand size */
	case 0x67: /* address size */
	case 0xf0: /* LOCK */
	case 0xf2: /* REPNE */
	case 0xf3: /* REP */
		return true;
	}
	return false;
}

/* Bytes of ModR/M-addressed operand after the ModR/M byte itself: SIB and
 * displacement (SDM Vol. 2, tables 2-2 and 2-3; 16-bit forms refused). */
static int modrm_extra(const u8 *p, unsigned int left, unsigned int *extra)
{
	u8 modrm = p[0];
	unsigned int mod = modrm >> 6, rm = modrm & 7, n = 0;

	if (mod == 3)
		return INSN_NOT_MEMORY;
	if (rm == 4) { /* SIB follows */
		if (left < 2)
			return INSN_TRUNCATED;
		n = 1;
		if (mod == 0 && (p[1] & 7) == 5)
			n += 4; /* no base: disp32 */
	} else if (mod == 0 && rm == 5) {
		n = 4; /* disp32 (RIP-relative in 64-bit mode) */
	}
	if (mod == 1)
		n += 1;
	else if (mod == 2)
		n += 4;
	*extra = n;
	return INSN_OK;
}

/* Little-endian immediate of n bytes (1, 2 or 4). */
static u64 read_imm(const u8 *p, unsigned int n)
{
	u64 v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/*
 * The register named by a ModR/M reg field (with REX.R) as an operand of
 * reg_size bytes.  An 8-bit register number 4..7 is AH, CH, DH, BH without
 * any REX prefix, SPL, BPL, SIL, DIL with one (SDM Vol. 2A, 2.2.1.2 and
 * Table 3-1).
 */
static void set_reg(struct mmio_insn *out, unsigned int n, u8 rex,
		    bool rex_present)
{
	out->reg = n | ((rex & REX_R) ? 8 : 0);
	out->reg_high8 = false;
	if (out->reg_size == 1 && !rex_present && n >= 4) {
		out->reg = n - 4;
		out->reg_high8 = true;
	}
}

/*
 * The decoder.  only32: the xAPIC's subset with the checks and error
 * codes it always had (insn_decode_mmio).
 */
static int decode(const u8 *bytes, unsigned int len, bool long_mode,
		  struct mmio_insn *out, bool only32)
{
	unsigned int i = 0, extra = 0, wide, n;
	bool opsize16 = false, addr16 = false, addr32 = false, has_rex = false;
	bool byte_op, movzx = false;
	u8 rex = 0, op;
	int err;

	if (len > INSN_MAX_LEN)
		len = INSN_MAX_LEN;
	while (i < len && is_legacy_prefix(bytes[i])) {
		if (bytes[i] == 0x66)
			opsize16 = true;
		else if (bytes[i] == 0x67)
			addr16 = !long_mode, addr32 = long_mode;
		else if (bytes[i] == 0xf0 || bytes[i] == 0xf2 ||
			 bytes[i] == 0xf3)
			return INSN_UNSUPPORTED;
		i++;
	}
	/* REX must come right before the opcode (SDM Vol. 2, 2.2.1) */
	if (long_mode && i < len && (bytes[i] & 0xf0) == 0x40) {
		rex = bytes[i++];
		has_rex = true;
	}
	if (i >= len)
		return INSN_TRUNCATED;
	if (addr16)
		return INSN_UNSUPPORTED;
	op = bytes[i++];
	/* Operand size of the non-byte forms: REX.W wins over 66 (SDM Vol.
	 * 1, 3.6.1, Table 3-4; 32-bit mode: 3.6, Table 3-3). */
	wide = (rex & REX_W) ? 8 : opsize16 ? 2 : 4;
	out->has_imm = false;
	out->imm = 0;
	out->reg = 0;
	out->reg_high8 = false;
	out->zero_extend = false;

	if (op == 0x0f && !only32) { /* two-byte opcode */
		if (i >= len)
			return INSN_TRUNCATED;
		op = bytes[i++];
		if (op != 0xb6 && op != 0xb7)
			return INSN_UNSUPPORTED;
		movzx = true;
	}
	if (only32 && op != 0x89 && op != 0x8b && op != 0xc7 && op != 0xa1 &&
	    op != 0xa3)
		return INSN_UNSUPPORTED;

	if (movzx) {
		/* 0F B6 /r MOVZX r16|32|64, r/m8; 0F B7 /r MOVZX r32|64,
		 * r/m16 (SDM Vol. 2B, MOVZX) */
		out->size = op == 0xb6 ? 1 : 2;
		out->reg_size = wide;
		out->zero_extend = out->size < wide;
		out->write = false;
		if (i >= len)
			return INSN_TRUNCATED;
		err = modrm_extra(&bytes[i], len - i, &extra);
		if (err)
			return err;
		set_reg(out, (bytes[i] >> 3) & 7, rex, has_rex);
		i += 1 + extra;
		goto done;
	}

	/* One-byte opcodes (SDM Vol. 2B, MOV): the even ones of each pair
	 * move bytes; REX.W and 66 do not change that. */
	byte_op = op == 0x88 || op == 0x8a || op == 0xa0 || op == 0xa2 ||
		  op == 0xc6;
	out->size = byte_op ? 1 : wide;
	out->reg_size = out->size;

	switch (op) {
	case 0x88: /* MOV r/m8, r8 */
	case 0x89: /* MOV r/m16|32|64, r16|32|64 */
	case 0x8a: /* MOV r8, r/m8 */
	case 0x8b: /* MOV r16|32|64, r/m16|32|64 */
	case 0xc6: /* C6 /0 ib: MOV r/m8, imm8 */
	case 0xc7: /* C7 /0 iw|id: MOV r/m16|32|64, imm16|32 */
		if (i >= len)
			return INSN_TRUNCATED;
		if ((op == 0xc6 || op == 0xc7) && ((bytes[i] >> 3) & 7) != 0)
			return INSN_UNSUPPORTED;
		err = modrm_extra(&bytes[i], len - i, &extra);
		if (err)
			return err;
		out->write = op != 0x8a && op != 0x8b;
		set_reg(out, (bytes[i] >> 3) & 7, rex, has_rex);
		i += 1 + extra;
		if (op == 0xc6 || op == 0xc7) {
			if (only32 && out->size == 2)
				return INSN_BAD_SIZE;
			/* imm8, imm16, or imm32 for 32 and 64 bits */
			n = out->size > 4 ? 4 : out->size;
			if (i + n > len)
				return INSN_TRUNCATED;
			out->imm = read_imm(&bytes[i], n);
			/* REX.W + C7 /0 id: "imm32 sign-extended to 64 bits" */
			if (out->size == 8 && (out->imm & 0x80000000))
				out->imm |= 0xffffffff00000000ULL;
			out->has_imm = true;
			out->reg = 0;
			out->reg_high8 = false;
			i += n;
		}
		break;
	case 0xa0: /* MOV AL, moffs8 */
	case 0xa1: /* MOV AX|EAX|RAX, moffs16|32|64 */
	case 0xa2: /* MOV moffs8, AL */
	case 0xa3: /* MOV moffs16|32|64, AX|EAX|RAX */
		out->write = op == 0xa2 || op == 0xa3;
		/* the offset is address-sized: 8 bytes in 64-bit mode */
		i += long_mode && !addr32 ? 8 : 4;
		break;
	default:
		return INSN_UNSUPPORTED;
	}
done:
	if (i > len)
		return INSN_TRUNCATED;
	if (only32 && out->size != 4)
		return INSN_BAD_SIZE;
	out->length = i;
	return INSN_OK;
}

int insn_decode_mmio_any(const u8 *bytes, unsigned int len, bool long_mode,
			 struct mmio_insn *out)
{
	return decode(bytes, len, long_mode, out, false);
}

int insn_decode_mmio(const u8 *bytes, unsigned int len, bool long_mode,
		     struct mmio_insn *out)
{
	return decode(bytes, len, long_mode, out, true);
}

/* Bits of an operand of size bytes (1, 2, 4 or 8). */

const char *insn_error_name(int err)
{
	switch (err) {
	case INSN_OK:
		return "ok";
	case INSN_TRUNCATED:
		return "instruction bytes unreadable";
	case INSN_UNSUPPORTED:
		return "instruction not supported for device registers";
	case INSN_NOT_MEMORY:
		return "register operand";
	case INSN_BAD_SIZE:
		return "access is not 32 bits wide";
	}
	return "unknown decoder error";
}
