// SPDX-License-Identifier: GPL-2.0
/*
 * Boot shim of the Warden test machine.
 *
 * A Multiboot v1 kernel (loaded by SYSLINUX mboot.c32) that takes two
 * modules, an uncompressed ELF vmlinux and an initrd, copies the kernel's
 * PT_LOAD segments to their physical addresses, builds a PVH
 * hvm_start_info and enters the kernel through its PVH entry point
 * (ELF note XEN_ELFNOTE_PHYS32_ENTRY) in flat 32-bit protected mode.
 *
 * syslinux.cfg:  APPEND shim.elf --- vmlinux <cmdline> --- initrd
 */

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;

#define MB_BOOT_MAGIC		0x2badb002
#define MBI_FLAG_MODS		(1u << 3)
#define MBI_FLAG_MMAP		(1u << 6)

#define HVM_START_MAGIC		0x336ec578
#define XEN_ELFNOTE_PHYS32_ENTRY 18

#define COM1			0x3f8
#define E9			0xe9

#define MAX_MMAP		128
#define MAX_CMDLINE		4096

struct mb_info {
	u32 flags;
	u32 mem_lower;
	u32 mem_upper;
	u32 boot_device;
	u32 cmdline;
	u32 mods_count;
	u32 mods_addr;
	u32 syms[4];
	u32 mmap_length;
	u32 mmap_addr;
} __attribute__((packed));

struct mb_module {
	u32 mod_start;
	u32 mod_end;
	u32 string;
	u32 reserved;
} __attribute__((packed));

struct mb_mmap {
	u32 size;
	u64 addr;
	u64 len;
	u32 type;
} __attribute__((packed));

struct hvm_start_info {
	u32 magic;
	u32 version;
	u32 flags;
	u32 nr_modules;
	u64 modlist_paddr;
	u64 cmdline_paddr;
	u64 rsdp_paddr;
	u64 memmap_paddr;
	u32 memmap_entries;
	u32 reserved;
};

struct hvm_modlist_entry {
	u64 paddr;
	u64 size;
	u64 cmdline_paddr;
	u64 reserved;
};

struct hvm_memmap_table_entry {
	u64 addr;
	u64 size;
	u32 type;
	u32 reserved;
};

struct elf64_ehdr {
	u8 ident[16];
	u16 type;
	u16 machine;
	u32 version;
	u64 entry;
	u64 phoff;
	u64 shoff;
	u32 flags;
	u16 ehsize;
	u16 phentsize;
	u16 phnum;
	u16 shentsize;
	u16 shnum;
	u16 shstrndx;
};

struct elf64_phdr {
	u32 type;
	u32 flags;
	u64 offset;
	u64 vaddr;
	u64 paddr;
	u64 filesz;
	u64 memsz;
	u64 align;
};

#define PT_LOAD 1
#define PT_NOTE 4

extern char _end[];
void pvh_jump(u32 entry, u32 start_info) __attribute__((noreturn));
void shim_main(u32 magic, struct mb_info *mbi);

static struct hvm_start_info start_info __attribute__((aligned(8)));
static struct hvm_modlist_entry modlist[1] __attribute__((aligned(8)));
static struct hvm_memmap_table_entry memmap[MAX_MMAP] __attribute__((aligned(8)));
static char kernel_cmdline[MAX_CMDLINE];
static char initrd_cmdline[256];

/* ---- freestanding helpers (the compiler may emit calls to these) ---- */

void *memcpy(void *d, const void *s, u32 n);
void *memmove(void *d, const void *s, u32 n);
void *memset(void *d, int c, u32 n);

void *memcpy(void *d, const void *s, u32 n)
{
	void *ret = d;

	asm volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
	return ret;
}

void *memmove(void *d, const void *s, u32 n)
{
	if ((u32)d <= (u32)s || (u32)d >= (u32)s + n)
		return memcpy(d, s, n);
	/* overlapping, destination above source: copy backwards */
	{
		u8 *dp = (u8 *)d + n - 1;
		const u8 *sp = (const u8 *)s + n - 1;

		asm volatile("std; rep movsb; cld"
			     : "+D"(dp), "+S"(sp), "+c"(n) : : "memory");
	}
	return d;
}

void *memset(void *d, int c, u32 n)
{
	void *ret = d;

	asm volatile("rep stosb" : "+D"(d), "+c"(n) : "a"(c) : "memory");
	return ret;
}

static inline void outb(u16 port, u8 v)
{
	asm volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

static inline u8 inb(u16 port)
{
	u8 v;

	asm volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

/* ---- consoles: COM1 at 115200 8N1 and the Bochs/QEMU 0xE9 port ---- */

static void uart_init(void)
{
	outb(COM1 + 1, 0x00);	/* no interrupts */
	outb(COM1 + 3, 0x80);	/* DLAB */
	outb(COM1 + 0, 0x01);	/* divisor 1: 115200 baud */
	outb(COM1 + 1, 0x00);
	outb(COM1 + 3, 0x03);	/* 8N1 */
	outb(COM1 + 2, 0x07);	/* FIFO on, cleared */
	outb(COM1 + 4, 0x03);	/* DTR, RTS */
}

static void putc_all(char c)
{
	int i;

	outb(E9, (u8)c);
	for (i = 0; i < 100000 && !(inb(COM1 + 5) & 0x20); i++)
		;
	outb(COM1, (u8)c);
}

static void puts_all(const char *s)
{
	for (; *s; s++) {
		if (*s == '\n')
			putc_all('\r');
		putc_all(*s);
	}
}

static void puthex(u32 v)
{
	static const char digits[] = "0123456789abcdef";
	char buf[11];
	int i;

	buf[0] = '0';
	buf[1] = 'x';
	for (i = 0; i < 8; i++)
		buf[2 + i] = digits[(v >> (28 - 4 * i)) & 0xf];
	buf[10] = 0;
	puts_all(buf);
}

static void __attribute__((noreturn)) die(const char *msg)
{
	puts_all("warden-shim: FATAL: ");
	puts_all(msg);
	puts_all("\n");
	for (;;)
		asm volatile("cli; hlt");
}

/* ---- helpers ---- */

static u32 align_up(u32 v, u32 a)
{
	return (v + a - 1) & ~(a - 1);
}

static int overlaps(u32 a, u32 a_end, u32 b, u32 b_end)
{
	return a < b_end && b < a_end;
}

/* Copy a module's command line without its first word (the file name). */
static void copy_args(char *dst, u32 size, const char *src)
{
	u32 n = 0;

	if (src) {
		while (*src == ' ')
			src++;
		while (*src && *src != ' ')
			src++;
		while (*src == ' ')
			src++;
		while (*src && n + 1 < size)
			dst[n++] = *src++;
	}
	while (n > 0 && dst[n - 1] == ' ')
		n--;
	dst[n] = 0;
}

static u32 find_rsdp(void)
{
	u32 p;

	for (p = 0xe0000; p < 0x100000; p += 16) {
		const u8 *b = (const u8 *)p;
		u8 sum = 0;
		int i;

		if (b[0] != 'R' || b[1] != 'S' || b[2] != 'D' || b[3] != ' ' ||
		    b[4] != 'P' || b[5] != 'T' || b[6] != 'R' || b[7] != ' ')
			continue;
		for (i = 0; i < 20; i++)
			sum += b[i];
		if (sum == 0)
			return p;
	}
	return 0;
}

/* Return the PVH entry from the ELF notes, 0 if none. */
static u32 find_pvh_entry(const u8 *elf, const struct elf64_ehdr *eh)
{
	u32 i;

	for (i = 0; i < eh->phnum; i++) {
		const struct elf64_phdr *ph = (const void *)(elf + (u32)eh->phoff +
							 i * eh->phentsize);
		u32 off, end;

		if (ph->type != PT_NOTE)
			continue;
		off = (u32)ph->offset;
		end = off + (u32)ph->filesz;
		while (off + 12 <= end) {
			const u32 *n = (const u32 *)(elf + off);
			u32 namesz = n[0], descsz = n[1], type = n[2];
			const char *name = (const char *)(n + 3);
			const u8 *desc = (const u8 *)name + align_up(namesz, 4);

			if (type == XEN_ELFNOTE_PHYS32_ENTRY && namesz == 4 &&
			    name[0] == 'X' && name[1] == 'e' && name[2] == 'n' &&
			    name[3] == 0 && descsz >= 4)
				return *(const u32 *)desc;
			off += 12 + align_up(namesz, 4) + align_up(descsz, 4);
		}
	}
	return 0;
}

/* Is [start, end) wholly inside one RAM entry of the memory map? */
static int is_ram(u32 start, u32 end, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (memmap[i].type == 1 && memmap[i].addr <= start &&
		    memmap[i].addr + memmap[i].size >= end)
			return 1;
	return 0;
}

struct range {
	u32 start, end;
};

/*
 * Find size bytes of RAM (2 MiB aligned) that overlap none of the busy
 * ranges, searching upwards from 'from'.
 */
static u32 find_free(u32 from, u32 size, const struct range *busy, u32 nbusy,
		     u32 nmap)
{
	u32 at = align_up(from, 0x200000), i, moved;

	do {
		moved = 0;
		for (i = 0; i < nbusy; i++)
			if (overlaps(at, at + size, busy[i].start, busy[i].end)) {
				at = align_up(busy[i].end, 0x200000);
				moved = 1;
			}
	} while (moved);
	if (!is_ram(at, at + size, nmap))
		die("no free RAM for a module");
	return at;
}

void shim_main(u32 magic, struct mb_info *mbi)
{
	struct mb_module *mods;
	struct elf64_ehdr *eh;
	u32 nmods, nmap = 0, i, entry, kmin = ~0u, kmax = 0, free_at, rsdp;
	u32 mod_start[2], mod_size[2], moved = 0;
	u8 *elf;

	uart_init();

	if (magic != MB_BOOT_MAGIC)
		die("not started by a Multiboot loader");
	if (!(mbi->flags & MBI_FLAG_MODS) || mbi->mods_count < 1)
		die("no modules (expected: vmlinux, initrd)");
	if (!(mbi->flags & MBI_FLAG_MMAP))
		die("no memory map");

	/* Memory map: Multiboot entries carry E820 types already. */
	for (i = 0; i < mbi->mmap_length && nmap < MAX_MMAP;) {
		const struct mb_mmap *m = (const void *)(mbi->mmap_addr + i);

		memmap[nmap].addr = m->addr;
		memmap[nmap].size = m->len;
		memmap[nmap].type = m->type;
		memmap[nmap].reserved = 0;
		nmap++;
		i += m->size + 4;
	}

	mods = (struct mb_module *)mbi->mods_addr;
	nmods = mbi->mods_count > 2 ? 2 : mbi->mods_count;
	copy_args(kernel_cmdline, sizeof(kernel_cmdline),
		  (const char *)mods[0].string);
	if (nmods > 1)
		copy_args(initrd_cmdline, sizeof(initrd_cmdline),
			  (const char *)mods[1].string);
	for (i = 0; i < nmods; i++) {
		mod_start[i] = mods[i].mod_start;
		mod_size[i] = mods[i].mod_end - mods[i].mod_start;
	}

	/* Parse the kernel's ELF header where the module lies. */
	elf = (u8 *)mod_start[0];
	eh = (struct elf64_ehdr *)elf;
	if (elf[0] != 0x7f || elf[1] != 'E' || elf[2] != 'L' || elf[3] != 'F' ||
	    elf[4] != 2)
		die("module 1 is not a 64-bit ELF vmlinux");
	for (i = 0; i < eh->phnum; i++) {
		const struct elf64_phdr *ph = (const void *)(elf + (u32)eh->phoff +
							 i * eh->phentsize);

		if (ph->type != PT_LOAD || ph->memsz == 0)
			continue;
		if ((u32)ph->paddr < kmin)
			kmin = (u32)ph->paddr;
		if ((u32)(ph->paddr + ph->memsz) > kmax)
			kmax = (u32)(ph->paddr + ph->memsz);
	}
	if (kmin >= kmax)
		die("vmlinux has no PT_LOAD segments");
	entry = find_pvh_entry(elf, eh);
	if (!entry)
		die("vmlinux has no PVH entry note (CONFIG_PVH)");
	if (overlaps(kmin, kmax, 0, (u32)_end))
		die("kernel would overwrite the shim");

	/*
	 * Move any module that lies in the kernel's way to RAM that overlaps
	 * neither the shim, nor the kernel, nor any module's current place.
	 */
	for (i = 0; i < nmods; i++) {
		struct range busy[4];
		u32 j;

		if (!overlaps(mod_start[i], mod_start[i] + mod_size[i], kmin, kmax))
			continue;
		busy[0].start = 0;
		busy[0].end = (u32)_end;
		busy[1].start = kmin;
		busy[1].end = kmax;
		for (j = 0; j < nmods; j++) {
			busy[2 + j].start = mod_start[j];
			busy[2 + j].end = mod_start[j] + mod_size[j];
		}
		free_at = find_free(kmax, mod_size[i], busy, 2 + nmods, nmap);
		memmove((void *)free_at, (void *)mod_start[i], mod_size[i]);
		mod_start[i] = free_at;
		moved |= 1u << i;
	}

	/* Copy the kernel's segments to their physical addresses. */
	elf = (u8 *)mod_start[0];
	eh = (struct elf64_ehdr *)elf;
	for (i = 0; i < eh->phnum; i++) {
		const struct elf64_phdr *ph = (const void *)(elf + (u32)eh->phoff +
							 i * eh->phentsize);
		u32 pa = (u32)ph->paddr, fsz = (u32)ph->filesz, msz = (u32)ph->memsz;

		if (ph->type != PT_LOAD || msz == 0)
			continue;
		if (!is_ram(pa, pa + msz, nmap))
			die("kernel segment outside RAM");
		memmove((void *)pa, elf + (u32)ph->offset, fsz);
		if (msz > fsz)
			memset((void *)(pa + fsz), 0, msz - fsz);
	}

	rsdp = find_rsdp();

	memset(&start_info, 0, sizeof(start_info));
	start_info.magic = HVM_START_MAGIC;
	start_info.version = 1;
	start_info.cmdline_paddr = (u32)kernel_cmdline;
	start_info.rsdp_paddr = rsdp;
	start_info.memmap_paddr = (u32)memmap;
	start_info.memmap_entries = nmap;
	if (nmods > 1) {
		modlist[0].paddr = mod_start[1];
		modlist[0].size = mod_size[1];
		modlist[0].cmdline_paddr = (u32)initrd_cmdline;
		modlist[0].reserved = 0;
		start_info.nr_modules = 1;
		start_info.modlist_paddr = (u32)modlist;
	}

	puts_all("warden-shim: multiboot->PVH entry ");
	puthex(entry);
	puts_all(" vmlinux ");
	puthex(mod_start[0]);
	puts_all(moved & 1 ? " (moved)" : "");
	puts_all(" initrd ");
	puthex(nmods > 1 ? mod_start[1] : 0);
	puts_all("+");
	puthex(nmods > 1 ? mod_size[1] : 0);
	puts_all(moved & 2 ? " (moved)" : "");
	puts_all(" rsdp ");
	puthex(rsdp);
	puts_all("\n");

	pvh_jump(entry, (u32)&start_info);
}
