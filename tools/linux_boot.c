// SPDX-License-Identifier: GPL-2.0
/* The first MiB of a Linux cell (linux_boot.h). */
#include <stdio.h>
#include <string.h>

#include "linux_boot.h"

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* Offsets in the stub. */
#define STUB_PM32 32 /* the 32-bit part */
#define STUB_GDT 64  /* null, flat code 0x08, flat data 0x10 */
#define STUB_GDTR 88 /* limit, base */

/*
 * The CPU starts in real mode with CS.base = reset & ~0xffff, IP = the
 * rest (the cell's reset state, hypervisor events.c), CS.selector =
 * CS.base >> 4.  The stub loads a flat GDT (DS from CS to address it),
 * sets CR0.PE, jumps to its 32-bit part with a far jump to selector 0x08
 * (SDM Vol. 3, 10.9.1: switching to protected mode), loads the data
 * selector into DS, ES, SS, FS and GS, and jumps to the PVH entry with
 * EBX = the start info, paging and interrupts off, as the PVH ABI wants.
 */
void lb_stub(uint8_t *s, uint64_t reset, uint32_t entry, uint32_t start_info)
{
	static const uint8_t real16[] = {
		0xfa,			      /* cli */
		0x8c, 0xc8,		      /* mov ax, cs */
		0x8e, 0xd8,		      /* mov ds, ax */
		0x66, 0x0f, 0x01, 0x16, 0, 0, /* lgdt [gdtr] (32-bit base) */
		0x0f, 0x20, 0xc0,	      /* mov eax, cr0 */
		0x66, 0x83, 0xc8, 0x01,	      /* or eax, 1 (PE) */
		0x0f, 0x22, 0xc0,	      /* mov cr0, eax */
		0x66, 0xea, 0,	  0,	0, 0, 0x08, 0x00, /* jmp 0x08:pm32 */
	};
	static const uint8_t pm32[] = {
		0xb8, 0x10, 0, 0, 0, /* mov eax, 0x10 */
		0x8e, 0xd8,	     /* mov ds, ax */
		0x8e, 0xc0,	     /* mov es, ax */
		0x8e, 0xd0,	     /* mov ss, ax */
		0x8e, 0xe0,	     /* mov fs, ax */
		0x8e, 0xe8,	     /* mov gs, ax */
		0xbb, 0,    0, 0, 0, /* mov ebx, start_info */
		0xb8, 0,    0, 0, 0, /* mov eax, entry */
		0xff, 0xe0,	     /* jmp eax */
	};
	static const uint8_t gdt[24] = {
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		/* base 0, limit 4 GiB, 32-bit, execute/read, accessed */
		0xff,
		0xff,
		0,
		0,
		0,
		0x9b,
		0xcf,
		0,
		/* base 0, limit 4 GiB, read/write, accessed */
		0xff,
		0xff,
		0,
		0,
		0,
		0x93,
		0xcf,
		0,
	};
	uint16_t ip = (uint16_t)(reset & 0xffff);

	memset(s, 0, LB_STUB_SIZE);
	memcpy(s, real16, sizeof(real16));
	s[9] = (uint8_t)(ip + STUB_GDTR);
	s[10] = (uint8_t)((ip + STUB_GDTR) >> 8);
	put32(s + 23, (uint32_t)reset + STUB_PM32);
	memcpy(s + STUB_PM32, pm32, sizeof(pm32));
	put32(s + STUB_PM32 + 16, start_info);
	put32(s + STUB_PM32 + 21, entry);
	memcpy(s + STUB_GDT, gdt, sizeof(gdt));
	s[STUB_GDTR] = sizeof(gdt) - 1;
	s[STUB_GDTR + 1] = 0;
	put32(s + STUB_GDTR + 2, (uint32_t)reset + STUB_GDT);
}

/*
 * The 32-bit boot protocol (linux Documentation/x86/boot.rst, "32-bit
 * boot protocol"): 32-bit protected mode, paging off, interrupts off, a
 * GDT with flat 4 GiB descriptors at __BOOT_CS 0x10 (execute/read) and
 * __BOOT_DS 0x18 (read/write), CS 0x10, DS, ES and SS 0x18, ESI =
 * boot_params, EBP, EDI and EBX 0.  The real-mode part is lb_stub's with
 * the far jump to 0x10.  Its 32-bit part is 33 bytes (32-64), so the
 * descriptors stay where lb_stub has them (72: 0x10, 80: 0x18) and the
 * GDT starts 16 bytes before them, at 56: its entries 0 and 1 lie over
 * the code, which the CPU never reads as descriptors (selector 0 is the
 * null selector, 0x08 is never loaded).
 */
void lb_stub32(uint8_t *s, uint64_t reset, uint32_t entry, uint32_t bp)
{
	static const uint8_t pm32[] = {
		0xb8, 0x18, 0, 0, 0, /* mov eax, 0x18 */
		0x8e, 0xd8,	     /* mov ds, ax */
		0x8e, 0xc0,	     /* mov es, ax */
		0x8e, 0xd0,	     /* mov ss, ax */
		0x8e, 0xe0,	     /* mov fs, ax */
		0x8e, 0xe8,	     /* mov gs, ax */
		0xbe, 0,    0, 0, 0, /* mov esi, boot_params */
		0x31, 0xdb,	     /* xor ebx, ebx */
		0x31, 0xed,	     /* xor ebp, ebp */
		0x31, 0xff,	     /* xor edi, edi */
		0xb8, 0,    0, 0, 0, /* mov eax, entry */
		0xff, 0xe0,	     /* jmp eax */
	};

	lb_stub(s, reset, entry, 0);
	s[27] = 0x10; /* jmp 0x10:pm32 */
	memset(s + STUB_PM32, 0, STUB_GDT + 8 - STUB_PM32);
	memcpy(s + STUB_PM32, pm32, sizeof(pm32));
	put32(s + STUB_PM32 + 16, bp);
	put32(s + STUB_PM32 + 27, entry);
	s[STUB_GDTR] = 4 * 8 - 1;
	put32(s + STUB_GDTR + 2, (uint32_t)reset + STUB_GDT - 8);
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

/* boot_params at low + LB_BOOT_PARAMS: the kernel's setup header, what a
 * boot loader fills in (boot.rst, "Details of header fields"), the
 * memory map as e820 entries; -1 if the header does not fit. */
static int boot_params(const struct lb_boot *b,
		       const struct lt_memmap_entry *map, int entries,
		       uint8_t *low)
{
	uint8_t *bp = low + LB_BOOT_PARAMS;
	int i;

	if (!b->setup_header ||
	    b->setup_header_len > LB_BP_E820_TABLE - LB_BP_SETUP_HEADER ||
	    b->setup_header_len < LB_BP_CMD_LINE_PTR + 4 - LB_BP_SETUP_HEADER ||
	    entries > (int)LB_BP_E820_MAX)
		return -1;
	memset(bp, 0, LB_BP_SIZE);
	memcpy(bp + LB_BP_SETUP_HEADER, b->setup_header, b->setup_header_len);
	bp[LB_BP_TYPE_OF_LOADER] = 0xff;
	/* LOADED_HIGH; not CAN_USE_HEAP (the heap is the real-mode
	 * setup's, which does not run) */
	bp[LB_BP_LOADFLAGS] = (uint8_t)((bp[LB_BP_LOADFLAGS] | 0x01) & ~0x80);
	put32(bp + LB_BP_CODE32_START, b->kernel32);
	put32(bp + LB_BP_RAMDISK_IMAGE, (uint32_t)b->initrd_address);
	put32(bp + LB_BP_RAMDISK_SIZE, (uint32_t)b->initrd_size);
	put32(bp + LB_BP_CMD_LINE_PTR, LB_CMDLINE);
	put64(bp + LB_BP_ACPI_RSDP, LB_TABLES);
	bp[LB_BP_E820_ENTRIES] = (uint8_t)entries;
	for (i = 0; i < entries; i++) {
		put64(bp + LB_BP_E820_TABLE + 20 * i, map[i].addr);
		put64(bp + LB_BP_E820_TABLE + 20 * i + 8, map[i].size);
		put32(bp + LB_BP_E820_TABLE + 20 * i + 16, map[i].type);
	}
	return 0;
}

int lb_low_memory(const struct lt_platform *p, const struct lb_boot *b,
		  uint8_t *low, char *why, size_t len)
{
	struct lt_hole holes[2] = {
		{ LB_TABLES, LB_TABLES_SIZE, LT_E820_ACPI },
		{ LB_START_INFO, LB_RESERVED_END - LB_START_INFO,
		  LT_E820_RESERVED },
	};
	struct lt_memmap_entry map[LT_MAX_MEMMAP];
	struct lt_start_info si;
	struct lt_module mod;
	size_t n = strlen(b->cmdline) + 1;
	int entries;

	memset(low, 0, LB_LOW_SIZE);
	if (b->reset_address < LB_STUB_MIN ||
	    b->reset_address > LB_LOW_SIZE - LB_STUB_SIZE) {
		snprintf(why, len,
			 "the cell's reset address 0x%llx is not in "
			 "0x%x-0x%x: the boot stub goes there (reset_address "
			 "in the cell config)",
			 (unsigned long long)b->reset_address, LB_STUB_MIN,
			 LB_LOW_SIZE - LB_STUB_SIZE);
		return -1;
	}
	if (n > LB_CMDLINE_SIZE) {
		snprintf(why, len,
			 "the kernel command line has %zu characters, at most "
			 "%u fit",
			 n - 1, LB_CMDLINE_SIZE - 1);
		return -1;
	}
	if (!lt_acpi_tables(p, LB_TABLES, low + LB_TABLES, LB_TABLES_SIZE)) {
		snprintf(why, len,
			 "the ACPI tables do not fit: at most %d CPUs and %d "
			 "UARTs",
			 LT_MAX_CPUS, LT_MAX_UARTS);
		return -1;
	}
	memset(&si, 0, sizeof(si));
	si.magic = LT_START_INFO_MAGIC;
	si.version = 1;
	si.cmdline_paddr = LB_CMDLINE;
	si.rsdp_paddr = LB_TABLES;
	if (b->initrd_size) {
		si.nr_modules = 1;
		si.modlist_paddr = LB_START_INFO + 64;
		memset(&mod, 0, sizeof(mod));
		mod.paddr = b->initrd_address;
		mod.size = b->initrd_size;
		memcpy(low + LB_START_INFO + 64, &mod, sizeof(mod));
	}
	si.memmap_paddr = LB_START_INFO + 128;
	entries =
		lt_memmap(p, holes, 2,
			  (struct lt_memmap_entry *)(low + LB_START_INFO + 128),
			  LT_MAX_MEMMAP);
	if (entries < 0) {
		snprintf(why, len,
			 "the cell's RAM must be loadable memory covering "
			 "0-0x%x (the tables, the start info and Linux's "
			 "real-mode trampoline are there), in at most %d "
			 "pieces",
			 LB_LOW_SIZE, LT_MAX_RAM);
		return -1;
	}
	si.memmap_entries = (uint32_t)entries;
	memcpy(low + LB_CMDLINE, b->cmdline, n);
	if (!b->kernel32) {
		memcpy(low + LB_START_INFO, &si, sizeof(si));
		lb_stub(low + b->reset_address, b->reset_address, b->pvh_entry,
			LB_START_INFO);
		return 0;
	}
	/* the same map, now in boot_params, which takes the start info's
	 * place (the start info and its lists are not written) */
	memcpy(map, low + LB_START_INFO + 128,
	       sizeof(map[0]) * (size_t)entries);
	memset(low + LB_START_INFO, 0, LB_CMDLINE - LB_START_INFO);
	if (boot_params(b, map, entries, low)) {
		snprintf(why, len,
			 "the kernel's setup header (%zu bytes) does not fit "
			 "boot_params, or is not one of boot protocol 2.10 "
			 "or later",
			 b->setup_header_len);
		return -1;
	}
	lb_stub32(low + b->reset_address, b->reset_address, b->kernel32,
		  LB_BOOT_PARAMS);
	return 0;
}
