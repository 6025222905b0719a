/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How "warden cell linux" lays a Linux cell's first MiB out
 * (docs/linux-cell.md): the ACPI tables, the PVH start info with its
 * module list and memory map, the kernel command line, and the stub at
 * the cell's reset address that takes the boot CPU from real mode to the
 * kernel's PVH entry in 32-bit flat protected mode with EBX = the start
 * info (Xen's PVH boot ABI, docs/misc/pvh.pandoc; linux
 * arch/x86/platform/pvh/head.S).  The rest of the first MiB is zeros:
 * the cell's low memory is scrubbed of what it held (an old MP table
 * would give Linux an IOAPIC the cell does not have).  Plain C without
 * system calls (tests/unit/test_linux_tables.c).
 */
#ifndef WARDEN_TOOLS_LINUX_BOOT_H
#define WARDEN_TOOLS_LINUX_BOOT_H

#include <stddef.h>
#include <stdint.h>

#include "linux_tables.h"

#define LB_LOW_SIZE 0x100000u	  /* the first MiB, written whole */
#define LB_TABLES 0xe0000u	  /* ACPI tables (RSDP first) */
#define LB_TABLES_SIZE 0x2000u	  /* ACPI memory in the map */
#define LB_START_INFO 0xf0000u	  /* start info, modules, memory map */
#define LB_CMDLINE 0xf1000u	  /* the kernel command line */
#define LB_CMDLINE_SIZE 0x1000u	  /* with its NUL */
#define LB_STUB_MIN 0xf2000u	  /* the reset address: from here */
#define LB_STUB_SIZE 96u	  /* to 1 MiB minus this */
#define LB_RESERVED_END 0x100000u /* start info to here: reserved */

/* The 32-bit boot protocol's boot_params (the "zero page"), in place of
 * the start info (linux Documentation/x86/boot.rst, zero-page.rst). */
#define LB_BOOT_PARAMS LB_START_INFO
#define LB_BP_SIZE 0x1000u
#define LB_BP_ACPI_RSDP 0x070u	    /* u64 */
#define LB_BP_E820_ENTRIES 0x1e8u   /* u8 */
#define LB_BP_SETUP_HEADER 0x1f1u   /* the bzImage's bytes from here */
#define LB_BP_TYPE_OF_LOADER 0x210u /* u8: 0xff, a loader without an ID */
#define LB_BP_LOADFLAGS 0x211u	    /* u8: bit 0 LOADED_HIGH */
#define LB_BP_CODE32_START 0x214u   /* u32 */
#define LB_BP_RAMDISK_IMAGE 0x218u  /* u32 */
#define LB_BP_RAMDISK_SIZE 0x21cu   /* u32 */
#define LB_BP_CMD_LINE_PTR 0x228u   /* u32 */
#define LB_BP_E820_TABLE 0x2d0u	    /* 20-byte entries */
#define LB_BP_E820_MAX 128u

/* What the boot needs besides the platform. */
struct lb_boot {
	uint64_t reset_address; /* the cell's: where the stub goes */
	uint32_t pvh_entry;	/* XEN_ELFNOTE_PHYS32_ENTRY */
	uint64_t initrd_address, initrd_size; /* size 0: none */
	const char *cmdline;
	/* The 32-bit boot protocol instead of PVH when kernel32 is not 0:
	 * the address of the bzImage's protected-mode code (its first byte
	 * is the entry, startup_32), and its setup header (the bytes from
	 * file offset 0x1f1 to the header's end), copied into boot_params */
	uint32_t kernel32;
	const uint8_t *setup_header;
	size_t setup_header_len;
};

/*
 * The first MiB of the cell into low (LB_LOW_SIZE bytes), for the PVH
 * entry or, with b->kernel32, the 32-bit boot protocol: 0, or -1 with
 * the reason in why ("the reset address 0x1000 is not in 0xf2000-
 * 0xfffa0: the stub goes there", "the command line has N characters, at
 * most 4095 fit", "the cell's RAM does not cover 0-0x100000", ...).
 */
int lb_low_memory(const struct lt_platform *p, const struct lb_boot *b,
		  uint8_t *low, char *why, size_t len);

/* The stub for a boot at reset, entry, start info (for the tests). */
void lb_stub(uint8_t *stub, uint64_t reset, uint32_t entry,
	     uint32_t start_info);

/* The stub of the 32-bit boot protocol: entry with ESI = boot_params,
 * CS 0x10, data 0x18 (for the tests). */
void lb_stub32(uint8_t *stub, uint64_t reset, uint32_t entry,
	       uint32_t boot_params);

#endif /* WARDEN_TOOLS_LINUX_BOOT_H */
