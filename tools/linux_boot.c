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

int lb_low_memory(const struct lt_platform *p, const struct lb_boot *b,
		  uint8_t *low, char *why, size_t len)
{
	struct lt_hole holes[2] = {
		{ LB_TABLES, LB_TABLES_SIZE, LT_E820_ACPI },
		{ LB_START_INFO, LB_RESERVED_END - LB_START_INFO,
		  LT_E820_RESERVED },
	};
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
	memcpy(low + LB_START_INFO, &si, sizeof(si));
	memcpy(low + LB_CMDLINE, b->cmdline, n);
	lb_stub(low + b->reset_address, b->reset_address, b->pvh_entry,
		LB_START_INFO);
	return 0;
}
