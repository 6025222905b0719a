/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Warden ABI: common definitions shared by the hypervisor, the Linux driver,
 * the CLI and inmates.
 *
 * Every structure in include/warden/ has a fixed layout made only of
 * fixed-size integer types, checked at compile time with WARDEN_CHECK_SIZE and
 * WARDEN_CHECK_OFFSET.  The ABI is versioned by WARDEN_ABI_REVISION: a change
 * of any layout, number or meaning bumps it (never a silent change).
 * docs/abi.md describes the ABI in prose.
 */
#ifndef WARDEN_ABI_H
#define WARDEN_ABI_H

#if defined(__KERNEL__)
#include <linux/types.h>
#else
#include <stdint.h>
#endif

/* Revision of the whole ABI (config, hypercalls, comm region, ioctls). */
#define WARDEN_ABI_REVISION 11

/* Architecture ids used in config headers. */
#define WARDEN_ARCH_X86_64 1

/* Largest CPU number + 1 that a CPU set can describe. */
#define WARDEN_MAX_CPUS 256
#define WARDEN_CPU_SET_WORDS (WARDEN_MAX_CPUS / 64)

/* Length of a cell name including the terminating NUL. */
#define WARDEN_NAME_LEN 32

/* Id of the root cell (Linux). Other cells get ids from 1 on. */
#define WARDEN_ROOT_CELL_ID 0

/*
 * CPU vendors, told apart by the vendor string of CPUID leaf 0 (12 bytes in
 * EBX, EDX, ECX: Intel SDM Vol. 2A "CPUID", AMD APM Vol. 3 "CPUID",
 * Fn0000_0000).  The vendor decides the hypervisor image the driver loads
 * and the hypercall instruction (hypercall.h).  Hygon's CPUs carry AMD's
 * SVM and count as AMD.
 */
#define WARDEN_VENDOR_OTHER 0
#define WARDEN_VENDOR_INTEL 1 /* "GenuineIntel" */
#define WARDEN_VENDOR_AMD 2   /* "AuthenticAMD", "HygonGenuine" */

/* The vendor of a CPUID leaf 0 vendor string, given as EBX, EDX, ECX. */
static inline uint32_t warden_vendor_of(const uint32_t id[3])
{
	if (id[0] == 0x756e6547 && id[1] == 0x49656e69 && id[2] == 0x6c65746e)
		return WARDEN_VENDOR_INTEL; /* "Genu" "ineI" "ntel" */
	if (id[0] == 0x68747541 && id[1] == 0x69746e65 && id[2] == 0x444d4163)
		return WARDEN_VENDOR_AMD; /* "Auth" "enti" "cAMD" */
	if (id[0] == 0x6f677948 && id[1] == 0x6e65476e && id[2] == 0x656e6975)
		return WARDEN_VENDOR_AMD; /* "Hygo" "nGen" "uine" */
	return WARDEN_VENDOR_OTHER;
}

/* The vendor string as text for messages: 12 characters and a NUL, bytes
 * outside printable ASCII as '?' (a CPU or a dump may give any). */
static inline void warden_vendor_text(const uint32_t id[3], char text[13])
{
	int i;

	for (i = 0; i < 12; i++) {
		unsigned char c = (unsigned char)(id[i / 4] >> (8 * (i % 4)));

		text[i] = c >= 0x20 && c <= 0x7e ? (char)c : '?';
	}
	text[12] = '\0';
}

/* The hypervisor images the driver loads with request_firmware, one per
 * vendor. */
#define WARDEN_FIRMWARE_INTEL "warden-intel.bin"
#define WARDEN_FIRMWARE_AMD "warden-amd.bin"

#define WARDEN_CHECK_SIZE(type, size)                                          \
	_Static_assert(sizeof(type) == (size), "wrong size: " #type)
#define WARDEN_CHECK_OFFSET(type, member, offset)                              \
	_Static_assert(__builtin_offsetof(type, member) == (offset),           \
		       "wrong offset: " #type "." #member)

/* A set of CPUs: bit n of word n / 64 stands for CPU n. */
struct warden_cpu_set {
	uint64_t bits[WARDEN_CPU_SET_WORDS];
};
WARDEN_CHECK_SIZE(struct warden_cpu_set, 32);

/* Membership in a CPU set, for every user of the ABI. */
static inline int warden_cpu_in_set(const struct warden_cpu_set *set,
				    unsigned int cpu)
{
	return cpu < WARDEN_MAX_CPUS &&
	       (set->bits[cpu / 64] & (1ull << (cpu % 64))) != 0;
}

static inline void warden_cpu_set_add(struct warden_cpu_set *set,
				      unsigned int cpu)
{
	if (cpu < WARDEN_MAX_CPUS)
		set->bits[cpu / 64] |= 1ull << (cpu % 64);
}

static inline void warden_cpu_set_del(struct warden_cpu_set *set,
				      unsigned int cpu)
{
	if (cpu < WARDEN_MAX_CPUS)
		set->bits[cpu / 64] &= ~(1ull << (cpu % 64));
}

/*
 * A console, as used by the hypervisor (debug console) or given to a cell.
 * For WARDEN_CONSOLE_UART_PIO, address is the I/O port base of a 16550 UART.
 */
#define WARDEN_CONSOLE_NONE 0
#define WARDEN_CONSOLE_UART_PIO 1
/* The cell writes through the WARDEN_HC_DEBUG_CONSOLE_PUTC hypercall. */
#define WARDEN_CONSOLE_HYPERCALL 2

struct warden_console {
	uint16_t type;	  /* WARDEN_CONSOLE_* */
	uint16_t flags;	  /* none defined: must be 0 */
	uint32_t baud;	  /* 0: leave the UART as it is */
	uint64_t address; /* port (PIO) */
};
WARDEN_CHECK_SIZE(struct warden_console, 16);
WARDEN_CHECK_OFFSET(struct warden_console, address, 8);

#endif /* WARDEN_ABI_H */
