/* SPDX-License-Identifier: GPL-2.0 */
/* The few string functions the hypervisor needs (gcc may also emit calls
 * to memcpy and memset for struct copies). */
#ifndef WARDEN_HV_STRING_H
#define WARDEN_HV_STRING_H

#include "types.h"

void *memcpy(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);

#endif /* WARDEN_HV_STRING_H */
