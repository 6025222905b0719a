/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The communication region: one page the hypervisor maps into each cell at
 * the guest address of the config's WARDEN_MEM_COMM_REGION region.  It is
 * cleared and filled in each time the cell starts.
 *
 * Fields written concurrently by both sides (cell_state, msg_to_cell,
 * reply_from_cell, watchdog) must be accessed with volatile 32/64-bit loads
 * and stores.  Protocol: the hypervisor writes reply_from_cell = NONE, then
 * msg_to_cell; the cell answers by writing reply_from_cell, and, when it
 * approves a shutdown, cell_state = SHUT_DOWN.
 */
#ifndef WARDEN_COMM_H
#define WARDEN_COMM_H

#include "abi.h"

#define WARDEN_COMM_SIGNATURE "WRDNCOM"

struct warden_comm_region {
	char signature[8]; /* WARDEN_COMM_SIGNATURE */
	uint16_t revision; /* WARDEN_ABI_REVISION */
	uint16_t reserved0;
	uint32_t flags;		  /* none defined yet */
	uint32_t cell_state;	  /* cell -> hv: WARDEN_CELL_RUNNING... */
	uint32_t msg_to_cell;	  /* hv -> cell: WARDEN_MSG_* */
	uint32_t reply_from_cell; /* cell -> hv: WARDEN_REPLY_* */
	uint32_t num_cpus;	  /* CPUs of this cell */
	uint32_t tsc_khz;	  /* TSC frequency as Linux measured it */
	uint32_t apic_khz;	  /* APIC timer frequency, 0 if unknown */
	uint16_t pm_timer_port;	  /* 0: none */
	uint16_t reserved1;
	uint32_t reserved2;
	struct warden_console console; /* the cell's own console */
	uint64_t watchdog;	       /* cell -> hv: heartbeat counter */
	/* The cell's CPUs by APIC ID: bit n of apic_ids[n / 64] set when
	 * the CPU with APIC ID n belongs to the cell.  The first CPU (lowest
	 * APIC ID) starts at the reset address; the others wait for INIT and
	 * SIPI from it (only the cell's own CPUs can be reached). */
	uint64_t apic_ids[4];
	uint64_t reserved3[3];
};
WARDEN_CHECK_SIZE(struct warden_comm_region, 128);
WARDEN_CHECK_OFFSET(struct warden_comm_region, cell_state, 16);
WARDEN_CHECK_OFFSET(struct warden_comm_region, console, 48);
WARDEN_CHECK_OFFSET(struct warden_comm_region, watchdog, 64);
WARDEN_CHECK_OFFSET(struct warden_comm_region, apic_ids, 72);

#endif /* WARDEN_COMM_H */
