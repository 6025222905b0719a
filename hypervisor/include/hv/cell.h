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

#endif /* WARDEN_HV_CELL_H */
