// SPDX-License-Identifier: GPL-2.0
/*
 * MMIO instruction decoder (contract in asm/insn.h).  Encodings from
 * Intel SDM Vol. 2, chapter 2 (instruction format: prefixes, REX, ModR/M,
 * SIB, displacement, immediate) and the MOV entries of chapter 4.
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

int insn_decode_mmio(const u8 *bytes, unsigned int len, bool long_mode,
		     struct mmio_insn *out)
{
	unsigned int i = 0, extra = 0;
	bool opsize16 = false, addr16 = false, addr32 = false;
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
	if (long_mode && i < len && (bytes[i] & 0xf0) == 0x40)
		rex = bytes[i++];
	if (i >= len)
		return INSN_TRUNCATED;
	if (addr16)
		return INSN_UNSUPPORTED;
	op = bytes[i++];
	out->has_imm = false;
	out->imm = 0;
	out->reg = 0;
	out->size = (rex & REX_W) ? 8 : opsize16 ? 2 : 4;

	switch (op) {
	case 0x89: /* MOV r/m, r */
	case 0x8b: /* MOV r, r/m */
	case 0xc7: /* MOV r/m, imm32 */
		if (i >= len)
			return INSN_TRUNCATED;
		if (op == 0xc7 && ((bytes[i] >> 3) & 7) != 0)
			return INSN_UNSUPPORTED;
		err = modrm_extra(&bytes[i], len - i, &extra);
		if (err)
			return err;
		out->reg = ((bytes[i] >> 3) & 7) | ((rex & REX_R) ? 8 : 0);
		out->write = op != 0x8b;
		i += 1 + extra;
		if (op == 0xc7) {
			if (out->size == 2)
				return INSN_BAD_SIZE;
			if (i + 4 > len)
				return INSN_TRUNCATED;
			out->has_imm = true;
			out->imm = (u32)bytes[i] | (u32)bytes[i + 1] << 8 |
				   (u32)bytes[i + 2] << 16 |
				   (u32)bytes[i + 3] << 24;
			out->reg = 0;
			i += 4;
		}
		break;
	case 0xa1: /* MOV EAX, moffs */
	case 0xa3: /* MOV moffs, EAX */
		out->write = op == 0xa3;
		i += long_mode && !addr32 ? 8 : 4;
		break;
	default:
		return INSN_UNSUPPORTED;
	}
	if (i > len)
		return INSN_TRUNCATED;
	if (out->size != 4)
		return INSN_BAD_SIZE;
	out->length = i;
	return INSN_OK;
}

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
