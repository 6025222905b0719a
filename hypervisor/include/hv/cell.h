/* SPDX-License-Identifier: GPL-2.0 */
/* Cells, the generic part (core/cell.c). */
#ifndef WARDEN_HV_CELL_H
#define WARDEN_HV_CELL_H

#include "percpu.h"
#include "types.h"

/*
 * WARDEN_HC_CONFIG_VALIDATE from root on CPU pc: copy the cell config at
 * guest-physical config_gpa in and check it with the shared validator
 * against the system config and the existing cells.  On an error, the
 * first record goes to the struct warden_error at error_gpa (0: none
 * wanted) and its code is returned; 0 if valid; -WARDEN_EFAULT if either
 * address is not root's memory.  Changes nothing.
 */
long cell_config_validate(struct per_cpu *pc, u64 config_gpa, u64 error_gpa);

/*
 * WARDEN_HC_CELL_CREATE from root on CPU pc: validate as above, then
 * create the cell with its CPUs parked.  Returns the new cell id, or an
 * error with its record at error_gpa; on error nothing has changed.
 * -WARDEN_EBUSY if another create or destroy is under way.
 */
long cell_create(struct per_cpu *pc, u64 config_gpa, u64 error_gpa);

/* WARDEN_HC_CELL_DESTROY: CPUs back to root (waiting for Linux to online
 * them), memory and ports back to root, every page freed.  0,
 * -WARDEN_ENOENT, -WARDEN_EINVAL (root) or -WARDEN_EBUSY. */
long cell_destroy(struct per_cpu *pc, unsigned long id);

/* WARDEN_HC_CELL_SET_LOADABLE: stop the cell's CPUs and map its loadable
 * regions into root for "cell load".  0, -WARDEN_ENOENT, -WARDEN_EBUSY. */
long cell_set_loadable(struct per_cpu *pc, unsigned long id);

/* WARDEN_HC_CELL_START: (re)start the cell's CPUs at its reset address,
 * loadable regions taken from root again, communication region fresh.
 * 0, -WARDEN_ENOENT, -WARDEN_EBUSY. */
long cell_start(struct per_cpu *pc, unsigned long id);

/* WARDEN_HC_CELL_SHUTDOWN: ask the cell (communication region); if it
 * approves, is passive or is not running, stop its CPUs (state shut down).
 * 0, -WARDEN_EBUSY (denied or locked), -WARDEN_ENOENT.  No answer within
 * about 200 ms counts as agreement.  CELL_DESTROY asks the same way first. */
long cell_shutdown(struct per_cpu *pc, unsigned long id);

/* A CPU of pc's cell did something forbidden: the cell is failed. */
void cell_failed(struct per_cpu *pc);

/* Number of cells, root included. */
unsigned int cell_count(void);

/* WARDEN_HC_CELL_GET_STATE: WARDEN_CELL_* or -WARDEN_ENOENT. */
long cell_get_state(unsigned long id);

#endif /* WARDEN_HV_CELL_H */
