/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Cell and CPU states, and the messages exchanged through the comm region. */
#ifndef WARDEN_CELL_H
#define WARDEN_CELL_H

/* Cell states.  The first four are also what a cell writes into its comm
 * region; the hypervisor reports the others. */
#define WARDEN_CELL_RUNNING 0
#define WARDEN_CELL_RUNNING_LOCKED 1 /* running, refuses shutdown */
#define WARDEN_CELL_SHUT_DOWN 2
#define WARDEN_CELL_FAILED 3
#define WARDEN_CELL_CREATED 4 /* created, not started */
#define WARDEN_CELL_LOADING 5 /* stopped, loadable memory mapped to root */
/* Destroyed, but a CPU of it was lost: its memory, ports and lost CPUs
 * stay out of root's reach until disable. */
#define WARDEN_CELL_QUARANTINED 6

/* CPU states. */
#define WARDEN_CPU_RUNNING 0
#define WARDEN_CPU_PARKED 1
#define WARDEN_CPU_SUSPENDED 2
#define WARDEN_CPU_FAILED 3
/* The hypervisor gave up on the CPU: it faulted in the hypervisor while
 * running for a cell, or did not answer a request in time.  It runs no
 * guest again and is never given back to Linux. */
#define WARDEN_CPU_LOST 4

/* Messages from the hypervisor to a cell (comm region msg_to_cell). */
#define WARDEN_MSG_NONE 0
#define WARDEN_MSG_SHUTDOWN_REQUEST 1

/* Replies of a cell (comm region reply_from_cell). */
#define WARDEN_REPLY_NONE 0
#define WARDEN_REPLY_APPROVED 1
#define WARDEN_REPLY_DENIED 2

#endif /* WARDEN_CELL_H */
