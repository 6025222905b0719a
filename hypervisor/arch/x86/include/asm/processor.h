/* SPDX-License-Identifier: GPL-2.0 */
/* x86-64 registers and instructions the hypervisor uses (Intel SDM Vol. 3,
 * chapter 2 "System Architecture Overview"). */
#ifndef WARDEN_ASM_PROCESSOR_H
#define WARDEN_ASM_PROCESSOR_H

#include <hv/types.h>

#define X86_CR0_PE (1ul << 0)
#define X86_CR0_MP (1ul << 1)
#define X86_CR0_ET (1ul << 4)
#define X86_CR0_NE (1ul << 5)
#define X86_CR0_WP (1ul << 16)
#define X86_CR0_NW (1ul << 29)
#define X86_CR0_CD (1ul << 30)
#define X86_CR0_PG (1ul << 31)

#define X86_CR4_PAE (1ul << 5)
#define X86_CR4_PGE (1ul << 7)
#define X86_CR4_VMXE (1ul << 13)
#define X86_CR4_OSXSAVE (1ul << 18)
#define X86_CR4_PKE (1ul << 22)
#define X86_CR4_PCIDE (1ul << 17)
#define X86_CR4_LA57 (1ul << 12)

#define EFER_SCE (1ul << 0)
#define EFER_LME (1ul << 8)
#define EFER_LMA (1ul << 10)
#define EFER_NXE (1ul << 11)
#define EFER_SVME (1ul << 12)

#define X86_RFLAGS_TF (1ul << 8)
#define DR6_BS (1ul << 14) /* single step (APM Vol. 2, 13.1.1.3) */
#define X86_RFLAGS_IF (1ul << 9)

#define MSR_IA32_SYSENTER_CS 0x174
#define MSR_IA32_SYSENTER_ESP 0x175
#define MSR_IA32_SYSENTER_EIP 0x176
#define MSR_IA32_DEBUGCTL 0x1d9
#define MSR_FS_BASE 0xc0000100
#define MSR_GS_BASE 0xc0000101
#define MSR_KERNEL_GS_BASE 0xc0000102

/* Port I/O of 1, 2 or 4 bytes (IN and OUT, SDM Vol. 2). */
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

static inline void port_write(u16 port, unsigned int size, u32 v)
{
	if (size == 1)
		asm volatile("outb %b0, %w1" : : "a"(v), "Nd"(port));
	else if (size == 2)
		asm volatile("outw %w0, %w1" : : "a"(v), "Nd"(port));
	else
		asm volatile("outl %0, %w1" : : "a"(v), "Nd"(port));
}

static inline u32 port_read(u16 port, unsigned int size)
{
	u32 v = 0;

	if (size == 1)
		asm volatile("inb %w1, %b0" : "+a"(v) : "Nd"(port));
	else if (size == 2)
		asm volatile("inw %w1, %w0" : "+a"(v) : "Nd"(port));
	else
		asm volatile("inl %w1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline u64 read_cr0(void)
{
	u64 v;

	asm volatile("mov %%cr0, %0" : "=r"(v));
	return v;
}

static inline u64 read_cr3(void)
{
	u64 v;

	asm volatile("mov %%cr3, %0" : "=r"(v));
	return v;
}

static inline u64 read_cr4(void)
{
	u64 v;

	asm volatile("mov %%cr4, %0" : "=r"(v));
	return v;
}

static inline void write_cr0(u64 v)
{
	asm volatile("mov %0, %%cr0" : : "r"(v) : "memory");
}

static inline void write_cr4(u64 v)
{
	asm volatile("mov %0, %%cr4" : : "r"(v) : "memory");
}

static inline u64 read_msr(u32 msr)
{
	u32 lo, hi;

	asm volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((u64)hi << 32) | lo;
}

static inline void write_msr(u32 msr, u64 v)
{
	asm volatile("wrmsr"
		     :
		     : "c"(msr), "a"((u32)v), "d"((u32)(v >> 32))
		     : "memory");
}

/*
 * Instructions the hypervisor executes with a guest's value carry an entry
 * in the exception table (section .extable, hv_exception in setup.c): if
 * the instruction faults after all (a rule the checks missed), execution
 * goes on at the fixup label instead of stopping the CPU, and the _safe
 * accessor returns false.  The checks come first; this is the second line.
 */
#define EXTABLE_ENTRY(insn, fixup)                                             \
	".pushsection .extable, \"a\"\n\t.balign 8\n\t.quad " insn ", " fixup  \
	"\n\t.popsection\n\t"

struct extable_entry {
	u64 insn, fixup;
};

static inline bool write_msr_safe(u32 msr, u64 v)
{
	u32 ok = 0;

	asm volatile("1: wrmsr\n\t"
		     "mov $1, %0\n"
		     "2:\n\t" EXTABLE_ENTRY("1b", "2b")
		     : "+r"(ok)
		     : "c"(msr), "a"((u32)v), "d"((u32)(v >> 32))
		     : "memory");
	return ok;
}

static inline bool read_msr_safe(u32 msr, u64 *v)
{
	u32 ok = 0, lo = 0, hi = 0;

	asm volatile("1: rdmsr\n\t"
		     "mov $1, %0\n"
		     "2:\n\t" EXTABLE_ENTRY("1b", "2b")
		     : "+r"(ok), "+a"(lo), "+d"(hi)
		     : "c"(msr));
	*v = ((u64)hi << 32) | lo;
	return ok;
}

static inline bool xsetbv_safe(u32 index, u64 v)
{
	u32 ok = 0;

	asm volatile("1: xsetbv\n\t"
		     "mov $1, %0\n"
		     "2:\n\t" EXTABLE_ENTRY("1b", "2b")
		     : "+r"(ok)
		     : "c"(index), "a"((u32)v), "d"((u32)(v >> 32))
		     : "memory");
	return ok;
}

static inline void cpuid(u32 leaf, u32 sub, u32 *a, u32 *b, u32 *c, u32 *d)
{
	asm volatile("cpuid"
		     : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d)
		     : "a"(leaf), "c"(sub));
}

static inline void cpu_relax(void)
{
	asm volatile("pause" ::: "memory");
}

static inline u64 read_tsc(void)
{
	u32 lo, hi;

	asm volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((u64)hi << 32) | lo;
}

/*
 * IRET to the next instruction: an NMI that caused a VM exit leaves NMIs
 * blocked until the next IRET in VMX root operation (SDM Vol. 3, 6.7.1
 * and 28.5), and the hypervisor's own NMI handler is not involved; without
 * this, the CPU would never take another NMI.
 */
static inline void unblock_nmis(void)
{
	u64 scratch;

	asm volatile("mov %%rsp, %0\n\t"
		     "push $0x18\n\t" /* SS: the hypervisor's data selector */
		     "push %0\n\t"
		     "pushfq\n\t"
		     "push $0x10\n\t" /* CS */
		     "lea 1f(%%rip), %0\n\t"
		     "push %0\n\t"
		     "iretq\n"
		     "1:"
		     : "=&r"(scratch)
		     :
		     : "memory", "cc");
}

/* A descriptor-table register image for LGDT/LIDT (SDM 3.5.1). */
struct dtr {
	u16 limit;
	u64 base;
} __attribute__((packed));

#endif /* WARDEN_ASM_PROCESSOR_H */
