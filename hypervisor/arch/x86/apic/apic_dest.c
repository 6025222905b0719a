// SPDX-License-Identifier: GPL-2.0
/* IPI destinations (contract in asm/apic_dest.h). */
#include <asm/apic.h>
#include <asm/apic_dest.h>

#define XAPIC_BROADCAST 0xffu
#define X2APIC_BROADCAST 0xffffffffu

bool apic_is_destination(bool x2apic, u32 low, u32 dest,
			 const struct apic_target *t, bool t_is_sender)
{
	switch (APIC_ICR_SHORTHAND(low)) {
	case APIC_SH_SELF:
		return t_is_sender;
	case APIC_SH_ALL:
		return true;
	case APIC_SH_OTHERS:
		return !t_is_sender;
	}
	if (!(low & APIC_ICR_LOGICAL)) /* physical: an APIC ID */
		return dest == (x2apic ? X2APIC_BROADCAST : XAPIC_BROADCAST) ||
		       dest == t->apic_id;
	if (x2apic) {
		/* logical x2APIC: cluster in bits 31:16, member bitmap in
		 * 15:0; 0xffffffff reaches all (SDM 11.12.10.2) */
		if (dest == X2APIC_BROADCAST)
			return true;
		return (dest >> 16) == (t->ldr >> 16) &&
		       (dest & t->ldr & 0xffffu);
	}
	if (dest == XAPIC_BROADCAST)
		return true;
	if ((t->dfr >> 28) == 0xf) /* flat: one bit per CPU in LDR 31:24 */
		return dest & (t->ldr >> 24);
	/* cluster: cluster in bits 7:4, member bitmap in 3:0 */
	return (dest >> 4) == (t->ldr >> 28) && (dest & (t->ldr >> 24) & 0xf);
}

enum apic_cell_verdict apic_cell_ipi_verdict(bool x2apic, u32 low, u32 dest,
					     const struct apic_target *t,
					     bool t_is_sender, bool t_in_cell)
{
	u32 bcast = x2apic ? X2APIC_BROADCAST : XAPIC_BROADCAST;

	if (!apic_is_destination(x2apic, low, dest, t, t_is_sender))
		return APIC_CELL_SKIP;
	if (t_in_cell)
		return APIC_CELL_DELIVER;
	if (APIC_ICR_SHORTHAND(low) == APIC_SH_NONE &&
	    !(low & APIC_ICR_LOGICAL) && dest != bcast)
		return APIC_CELL_FORBIDDEN;
	return APIC_CELL_SKIP;
}

bool apic_icr_vector_illegal(u32 low)
{
	unsigned int dm = APIC_ICR_DM(low);

	return (dm == APIC_DM_FIXED || dm == APIC_DM_LOWEST) &&
	       APIC_ICR_VECTOR(low) < 16;
}

const char *apic_cell_lvt_mode_refused(u32 value)
{
	static const char *const names[8] = {
		[1] = "lowest priority (reserved in an LVT)",
		[2] = "SMI",
		[3] = "reserved mode 3",
		[5] = "INIT",
		[6] = "reserved mode 6",
		[7] = "ExtINT",
	};

	if (value & APIC_LVT_MASKED)
		return NULL;
	/* the LVT's mode and vector fields are where the ICR has them */
	if (((value >> 8) & 7) == APIC_DM_FIXED &&
	    apic_icr_vector_illegal(value & 0x7ff))
		return "Fixed with an illegal vector (0-15, SDM Vol. 3, "
		       "11.5.2)";
	return names[(value >> 8) & 7];
}

const char *apic_cell_device_dest_refused(u32 low, u32 dest)
{
	if (low & APIC_ICR_LOGICAL)
		return "logical destination: a cell's device interrupt names "
		       "one of its CPUs by APIC ID";
	if (dest == XAPIC_BROADCAST)
		return "broadcast destination 0xff: a cell's device interrupt "
		       "names one of its CPUs by APIC ID";
	return NULL;
}
