// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The communication region at INMATE_COMM_REGION.  Fields the hypervisor
 * and the cell both write are accessed with volatile loads and stores.
 */
#include <inmate.h>

#define COMM ((struct warden_comm_region *)INMATE_COMM_REGION)

static inline uint32_t read32(volatile uint32_t *p)
{
	return *p;
}

static inline void write32(volatile uint32_t *p, uint32_t value)
{
	*p = value;
}

struct warden_comm_region *comm_region(void)
{
	if (memcmp(COMM->signature, WARDEN_COMM_SIGNATURE,
		   sizeof(WARDEN_COMM_SIGNATURE)) != 0)
		return NULL;
	return COMM;
}

uint32_t comm_tsc_khz(void)
{
	struct warden_comm_region *comm = comm_region();

	return comm ? comm->tsc_khz : 0;
}

void comm_set_state(uint32_t state)
{
	struct warden_comm_region *comm = comm_region();

	if (comm)
		write32(&comm->cell_state, state);
}

uint32_t comm_poll_msg(void)
{
	struct warden_comm_region *comm = comm_region();

	return comm ? read32(&comm->msg_to_cell) : WARDEN_MSG_NONE;
}

void comm_reply(uint32_t reply)
{
	struct warden_comm_region *comm = comm_region();

	if (comm)
		write32(&comm->reply_from_cell, reply);
}

bool comm_shutdown_requested(void)
{
	struct warden_comm_region *comm = comm_region();

	return comm &&
	       read32(&comm->msg_to_cell) == WARDEN_MSG_SHUTDOWN_REQUEST &&
	       read32(&comm->reply_from_cell) == WARDEN_REPLY_NONE;
}

bool comm_handle_shutdown(bool approve)
{
	struct warden_comm_region *comm = comm_region();

	if (!comm ||
	    read32(&comm->msg_to_cell) != WARDEN_MSG_SHUTDOWN_REQUEST ||
	    read32(&comm->reply_from_cell) != WARDEN_REPLY_NONE)
		return false;
	if (approve) {
		/* The state first: stores are seen in program order. */
		write32(&comm->cell_state, WARDEN_CELL_SHUT_DOWN);
		write32(&comm->reply_from_cell, WARDEN_REPLY_APPROVED);
	} else {
		write32(&comm->reply_from_cell, WARDEN_REPLY_DENIED);
	}
	return approve;
}

void comm_heartbeat(void)
{
	struct warden_comm_region *comm = comm_region();
	volatile uint64_t *watchdog;

	if (!comm)
		return;
	watchdog = &comm->watchdog;
	*watchdog = *watchdog + 1;
}
