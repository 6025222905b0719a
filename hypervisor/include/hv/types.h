/* SPDX-License-Identifier: GPL-2.0 */
/* Basic types of the freestanding hypervisor (gcc's own freestanding
 * headers; no libc). */
#ifndef WARDEN_HV_TYPES_H
#define WARDEN_HV_TYPES_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif /* WARDEN_HV_TYPES_H */
