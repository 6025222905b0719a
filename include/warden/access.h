/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A cell CPU's access log (revision 9): the ports, MSRs and CPUID leaves
 * its guest used through exits, each counted with the RIP of its first
 * use and what it got (docs/linux-cell.md).  The hypervisor keeps one
 * table per CPU while the CPU is in a cell (every use with the cell flag
 * WARDEN_CELL_ACCESS_LOG, else the answers of the policies only: a quiet
 * port, an MSR's #GP or read 0); root reads it entry by entry through
 * WARDEN_HC_CPU_GET_INFO (hypercall.h), user space through
 * WARDEN_IOCTL_CPU_ACCESS_LOG (ioctl.h), "warden cell stats" shows it.
 */
#ifndef WARDEN_ACCESS_H
#define WARDEN_ACCESS_H

#include "abi.h"

/* Entries a CPU's table holds; later new uses are only counted as
 * dropped. */
#define WARDEN_ACCESS_LOG_ENTRIES 128

/* What was used (0: no entry). */
#define WARDEN_ACCESS_PORT_IN 1
#define WARDEN_ACCESS_PORT_OUT 2
#define WARDEN_ACCESS_MSR_READ 3
#define WARDEN_ACCESS_MSR_WRITE 4
#define WARDEN_ACCESS_CPUID 5

/* What its first use got. */
#define WARDEN_ACCESS_DONE 0	/* passed or emulated as for any cell */
#define WARDEN_ACCESS_QUIET 1	/* a quiet legacy port (absent hardware) */
#define WARDEN_ACCESS_GP 2	/* #GP injected by the Linux MSR policy */
#define WARDEN_ACCESS_READ_0 3	/* read as 0, writes dropped (Linux MSRs) */
#define WARDEN_ACCESS_FAILED 4	/* the cell was failed for it */
#define WARDEN_ACCESS_CHANGED 5 /* CPUID: the leaf was changed */

/*
 * WARDEN_HC_CPU_GET_INFO with type WARDEN_CPU_INFO_ACCESS_BASE +
 * entry * WARDEN_ACCESS_FIELDS + field reads one field of an entry
 * (entry < WARDEN_ACCESS_LOG_ENTRIES); an entry past the last reads 0 in
 * each field.  The key packs the entry's identity:
 *   bits 31:0   port, MSR or CPUID leaf
 *   bits 47:32  CPUID subleaf (0 for the rest)
 *   bits 55:48  WARDEN_ACCESS_DONE...
 *   bits 59:56  WARDEN_ACCESS_PORT_IN... (0: no entry)
 * The RIP comes in two halves (a return value is never negative).
 */
#define WARDEN_ACCESS_FIELD_KEY 0
#define WARDEN_ACCESS_FIELD_COUNT 1
#define WARDEN_ACCESS_FIELD_RIP_LOW 2  /* bits 31:0 of the first RIP */
#define WARDEN_ACCESS_FIELD_RIP_HIGH 3 /* bits 63:32 */
#define WARDEN_ACCESS_FIELDS 4

static inline uint64_t warden_access_key(uint32_t kind, uint32_t outcome,
					 uint32_t number, uint32_t sub)
{
	return (uint64_t)(kind & 0xf) << 56 | (uint64_t)(outcome & 0xff) << 48 |
	       (uint64_t)(sub & 0xffff) << 32 | number;
}

/* One entry, as WARDEN_IOCTL_CPU_ACCESS_LOG gives it. */
struct warden_access_entry {
	uint32_t number; /* port, MSR or CPUID leaf */
	uint32_t sub;	 /* CPUID subleaf (its low 16 bits); 0 otherwise */
	uint32_t count;	 /* uses, the first included */
	uint8_t kind;	 /* WARDEN_ACCESS_PORT_IN... */
	uint8_t outcome; /* WARDEN_ACCESS_DONE..., of the first use */
	uint16_t reserved;
	uint64_t first_rip;
};
WARDEN_CHECK_OFFSET(struct warden_access_entry, kind, 12);
WARDEN_CHECK_OFFSET(struct warden_access_entry, first_rip, 16);
WARDEN_CHECK_SIZE(struct warden_access_entry, 24);

static inline void warden_access_unpack(uint64_t key, uint64_t count,
					uint64_t rip_low, uint64_t rip_high,
					struct warden_access_entry *e)
{
	e->number = (uint32_t)key;
	e->sub = (uint32_t)(key >> 32) & 0xffff;
	e->outcome = (uint8_t)(key >> 48);
	e->kind = (uint8_t)(key >> 56) & 0xf;
	e->reserved = 0;
	e->count = (uint32_t)count;
	e->first_rip = (uint64_t)(uint32_t)rip_high << 32 | (uint32_t)rip_low;
}

#endif /* WARDEN_ACCESS_H */
