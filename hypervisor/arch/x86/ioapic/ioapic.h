/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The IOAPIC (Intel 82093AA datasheet; the I/O APIC chapter of the
 * chipset datasheets): registers and the rules a redirection entry must
 * follow to be written for a cell or for root (ioapic_rules.c, plain C,
 * also compiled into the unit tests).  The unit itself is ioapic.c.
 */
#ifndef WARDEN_ASM_IOAPIC_H
#define WARDEN_ASM_IOAPIC_H

#include <hv/types.h>

/* MMIO registers, offsets from the base: select, window, and (version
 * 0x20 and later) the EOI register. */
#define IOAPIC_REGSEL 0x00
#define IOAPIC_WINDOW 0x10
#define IOAPIC_EOI 0x40

/* Indirect registers. */
#define IOAPIC_REG_ID 0x00
#define IOAPIC_REG_VERSION 0x01 /* bits 23:16: entries - 1; 7:0 version */
#define IOAPIC_REG_ARB 0x02
#define IOAPIC_REG_REDIR 0x10 /* pin p: 0x10 + 2p low, 0x11 + 2p high */

/* Redirection entry bits. */
#define IOAPIC_VECTOR_MASK 0xffull
#define IOAPIC_DM_SHIFT 8 /* delivery mode, bits 10:8 */
#define IOAPIC_DM_FIXED 0
#define IOAPIC_DM_LOWEST 1
#define IOAPIC_DEST_LOGICAL (1ull << 11)
#define IOAPIC_DELIVS (1ull << 12)     /* read-only: send pending */
#define IOAPIC_REMOTE_IRR (1ull << 14) /* read-only: level IRQ in service */
#define IOAPIC_LEVEL (1ull << 15)
#define IOAPIC_MASKED (1ull << 16)
#define IOAPIC_REMAPPABLE (1ull << 48) /* interrupt-remapping format */
#define IOAPIC_DEST_SHIFT 56
#define IOAPIC_READ_ONLY (IOAPIC_DELIVS | IOAPIC_REMOTE_IRR)

/* The most entries an IOAPIC has (the version register's 8-bit field,
 * and what the configs allow). */
#define IOAPIC_MAX_PINS 240
/* IOAPICs Warden handles (the config's limit). */
#define IOAPIC_MAX 8

/*
 * A cell's entry (the value it wrote, read-only bits ignored), before its
 * destination is resolved: NULL if the delivery may be programmed, else
 * what is wrong with it.  Masked entries pass (they deliver nothing).
 * A cell may use Fixed and Lowest Priority delivery with a vector
 * 0x10-0xfe; SMI, NMI, INIT and ExtINT reach the firmware, the CPU's
 * reset or root's 8259, and vectors below 0x10 are reserved (SDM Vol. 3,
 * 11.5.2 "Valid Interrupt Vectors").  The remappable format needs an
 * IOMMU the hypervisor does not give cells.
 */
const char *ioapic_cell_entry_refused(u64 entry);

/* The destination field of a compatibility-format entry. */
static inline u32 ioapic_entry_dest(u64 entry)
{
	return (u32)(entry >> IOAPIC_DEST_SHIFT);
}

/* The same entry sent in physical mode to the CPU with APIC ID id. */
static inline u64 ioapic_entry_physical(u64 entry, u32 id)
{
	entry &= ~(IOAPIC_DEST_LOGICAL | (0xffull << IOAPIC_DEST_SHIFT) |
		   IOAPIC_READ_ONLY);
	return entry | (u64)(id & 0xff) << IOAPIC_DEST_SHIFT;
}

/* The low dword as the ICR's low dword would be for the same delivery
 * (vector, delivery mode, destination mode; no shorthand), so that the
 * local APIC's destination rules (asm/apic_dest.h) apply to it. */
static inline u32 ioapic_entry_as_icr(u64 entry)
{
	return (u32)entry & 0xfff;
}

#endif /* WARDEN_ASM_IOAPIC_H */
