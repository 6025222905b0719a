/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which CPUs an IPI goes to: the destination rules of the local APIC
 * (SDM Vol. 3, 11.6.2 "Determining IPI Destination" and 11.12.10 for
 * x2APIC), as plain C without hardware access (apic_dest.c), so that the
 * hypervisor can emulate, restrict or rewrite IPIs and the unit tests can
 * check every addressing mode.
 */
#ifndef WARDEN_ASM_APIC_DEST_H
#define WARDEN_ASM_APIC_DEST_H

#include <hv/types.h>

/* What decides whether a CPU accepts an IPI: its IDs as root set them. */
struct apic_target {
	u32 apic_id; /* xAPIC: 8 bits; x2APIC: 32 bits */
	u32 ldr;     /* logical destination register */
	u32 dfr; /* xAPIC destination format (0xf... flat, 0x0... cluster) */
};

/*
 * Is t a destination of the IPI whose ICR low half is low and whose
 * destination field is dest (xAPIC: ICR bits 63:56, given as 0-255;
 * x2APIC: bits 63:32)?  x2apic: the APICs are in x2APIC mode.
 * t_is_sender: t is the sending CPU (for the shorthands).
 */
bool apic_is_destination(bool x2apic, u32 low, u32 dest,
			 const struct apic_target *t, bool t_is_sender);

/* What a cell's IPI does to one CPU (apic_cell_ipi_verdict). */
enum apic_cell_verdict {
	APIC_CELL_SKIP,	     /* not a destination, or outside the cell but
				reached only by a shorthand, a broadcast or a
				logical destination: left out */
	APIC_CELL_DELIVER,   /* a destination in the sender's cell */
	APIC_CELL_FORBIDDEN, /* named by its physical APIC ID outside the
				cell: the IPI is refused, the cell fails */
};

/*
 * A cell's IPI and CPU t (in the sender's cell: t_in_cell): the cell may
 * reach its own CPUs in any addressing mode; shorthands, broadcasts and
 * logical destinations are confined to the cell (a cell cannot know other
 * cells' logical IDs); a physical APIC ID outside the cell is forbidden.
 */
enum apic_cell_verdict apic_cell_ipi_verdict(bool x2apic, u32 low, u32 dest,
					     const struct apic_target *t,
					     bool t_is_sender, bool t_in_cell);

/*
 * Vectors 0-15 are illegal for interrupts (SDM Vol. 3, 11.5.2 "Valid
 * Interrupt Vectors"): an APIC that sends or receives one reports Send or
 * Receive Illegal Vector in its ESR and delivers nothing (11.5.3), but an
 * emulator may deliver it anyway, into the target's exception vectors (or,
 * as vector 2, into its NMI handler without being an NMI), and leave the
 * vector in service when the CPU changes owner.  True if the ICR low half
 * low asks for such a delivery: Fixed or Lowest Priority mode with a
 * vector below 16.  The vector field of NMI, INIT and SIPI means
 * something else or nothing (a SIPI's vector 0 starts the CPU at 0).
 */
bool apic_icr_vector_illegal(u32 low);

/*
 * A cell's write of value to one of its LVT registers: NULL if the APIC
 * may take it, else the name of the delivery mode that would reach
 * outside the cell.  An unmasked LVT may
 * deliver Fixed or NMI only (SDM Vol. 3, 11.5.1): SMI enters the
 * firmware's SMM, INIT resets the CPU behind the hypervisor's back and
 * ExtINT acknowledges the 8259 PIC that root owns; the reserved modes
 * are refused too, in the timer and error LVTs as well (whose field is
 * reserved), and so is a Fixed delivery of an illegal vector (0-15, as
 * apic_icr_vector_illegal).  A masked LVT delivers nothing, whatever its mode
 * (Linux parks LINT0 as masked ExtINT).
 */
const char *apic_cell_lvt_mode_refused(u32 value);

/*
 * A cell's device interrupt (IOAPIC entry, MSI, MSI-X, link vector) in ICR
 * form (see asm/irq_dest.h): NULL if its destination is one APIC ID in
 * physical mode, else why not.  An MSI or MSI-X message is written to the
 * device as the cell wrote it, so the hardware, not the hypervisor,
 * decides where it goes: a broadcast (physical 0xff, SDM Vol. 3 11.6.2.1)
 * would reach every CPU, and a logical destination every CPU whose
 * physical LDR matches (root's, since a cell CPU's physical LDR is 0,
 * apic_cell_reset).  So a cell names its CPU by APIC ID, one at a time.
 */
const char *apic_cell_device_dest_refused(u32 low, u32 dest);

#endif /* WARDEN_ASM_APIC_DEST_H */
