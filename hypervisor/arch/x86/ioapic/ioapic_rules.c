// SPDX-License-Identifier: GPL-2.0
/*
 * What a cell's IOAPIC redirection entry may hold (contract in
 * ioapic.h).  Plain C, also compiled into the unit tests.
 */
#include "ioapic.h"

const char *ioapic_cell_entry_refused(u64 entry)
{
	unsigned int mode = (unsigned int)(entry >> IOAPIC_DM_SHIFT) & 7;
	unsigned int vector = (unsigned int)(entry & IOAPIC_VECTOR_MASK);

	if (entry & IOAPIC_MASKED)
		return NULL;
	if (entry & IOAPIC_REMAPPABLE)
		return "remappable format (a cell writes compatibility format; "
		       "the hypervisor remaps it)";
	if (mode != IOAPIC_DM_FIXED && mode != IOAPIC_DM_LOWEST)
		return "delivery mode other than Fixed or Lowest Priority";
	if (vector < 0x10 || vector == 0xff)
		return "vector outside 0x10-0xfe";
	return NULL;
}
