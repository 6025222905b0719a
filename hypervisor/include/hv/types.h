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

/* A function that runs rarely (a refusal, a report, an exit root takes a
 * few times per boot: MOV to CR0/CR4, XSETBV): GCC compiles it for size
 * and apart from the hot code, in files otherwise optimised for speed
 * (the exit path, hypervisor/build.mk), keeping the image in 128 KiB. */
#define __cold __attribute__((cold))

#endif /* WARDEN_HV_TYPES_H */
