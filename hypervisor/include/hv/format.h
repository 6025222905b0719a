/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small, allocation-free formatter for the hypervisor's console.
 *
 * Contract: hv_vformat() writes at most size bytes into buf, always
 * NUL-terminated when size > 0, and returns the length the full output
 * would have (like vsnprintf).  Supported: %% %c %s %d %i %u %x %X %p, the
 * length modifiers l and ll (and z), a field width and the '0' and '-'
 * flags.  An unknown conversion is copied literally.  Plain C with no
 * hardware access: it is unit-tested on the host against the C library.
 */
#ifndef WARDEN_HV_FORMAT_H
#define WARDEN_HV_FORMAT_H

#include "types.h"

int hv_vformat(char *buf, size_t size, const char *fmt, va_list ap);
int hv_format(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* WARDEN_HV_FORMAT_H */
