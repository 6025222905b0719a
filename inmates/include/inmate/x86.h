/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Small x86-64 helpers for inmates: port and MMIO access, CPUID, MSRs. */
#ifndef INMATE_X86_H
#define INMATE_X86_H

#include <stdint.h>

#define barrier() asm volatile("" : : : "memory")

static inline void outb(uint16_t port, uint8_t value)
{
	asm volatile("outb %0, %1" : : "a"(value), "Nd"(port));
}

static inline void outw(uint16_t port, uint16_t value)
{
	asm volatile("outw %0, %1" : : "a"(value), "Nd"(port));
}

static inline void outl(uint16_t port, uint32_t value)
{
	asm volatile("outl %0, %1" : : "a"(value), "Nd"(port));
}

static inline uint8_t inb(uint16_t port)
{
	uint8_t value;

	asm volatile("inb %1, %0" : "=a"(value) : "Nd"(port));
	return value;
}

static inline uint16_t inw(uint16_t port)
{
	uint16_t value;

	asm volatile("inw %1, %0" : "=a"(value) : "Nd"(port));
	return value;
}

static inline uint32_t inl(uint16_t port)
{
	uint32_t value;

	asm volatile("inl %1, %0" : "=a"(value) : "Nd"(port));
	return value;
}

static inline uint32_t mmio_read32(uint64_t addr)
{
	return *(volatile uint32_t *)addr;
}

static inline void mmio_write32(uint64_t addr, uint32_t value)
{
	*(volatile uint32_t *)addr = value;
}

static inline uint64_t mmio_read64(uint64_t addr)
{
	return *(volatile uint64_t *)addr;
}

static inline void mmio_write64(uint64_t addr, uint64_t value)
{
	*(volatile uint64_t *)addr = value;
}

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;

	asm volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

static inline void cpuid(uint32_t leaf, uint32_t subleaf, uint32_t *eax,
			 uint32_t *ebx, uint32_t *ecx, uint32_t *edx)
{
	asm volatile("cpuid"
		     : "=a"(*eax), "=b"(*ebx), "=c"(*ecx), "=d"(*edx)
		     : "a"(leaf), "c"(subleaf));
}

/* The initial APIC id of this CPU (CPUID leaf 1, EBX[31:24]). */
static inline unsigned int cpu_apic_id(void)
{
	uint32_t eax, ebx, ecx, edx;

	cpuid(1, 0, &eax, &ebx, &ecx, &edx);
	return ebx >> 24;
}

static inline uint64_t rdmsr(uint32_t msr)
{
	uint32_t lo, hi;

	asm volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return (uint64_t)hi << 32 | lo;
}

static inline void wrmsr(uint32_t msr, uint64_t value)
{
	asm volatile("wrmsr"
		     :
		     : "c"(msr), "a"((uint32_t)value),
		       "d"((uint32_t)(value >> 32))
		     : "memory");
}

static inline uint64_t read_cr0(void)
{
	uint64_t value;

	asm volatile("mov %%cr0, %0" : "=r"(value));
	return value;
}

static inline void write_cr0(uint64_t value)
{
	asm volatile("mov %0, %%cr0" : : "r"(value) : "memory");
}

static inline uint64_t read_cr4(void)
{
	uint64_t value;

	asm volatile("mov %%cr4, %0" : "=r"(value));
	return value;
}

static inline void write_cr4(uint64_t value)
{
	asm volatile("mov %0, %%cr4" : : "r"(value) : "memory");
}

/* XSETBV: XCR index = value (CR4.OSXSAVE must be set). */
static inline void xsetbv(uint32_t index, uint64_t value)
{
	asm volatile("xsetbv"
		     :
		     : "c"(index), "a"((uint32_t)value),
		       "d"((uint32_t)(value >> 32)));
}

static inline uint64_t read_cr2(void)
{
	uint64_t value;

	asm volatile("mov %%cr2, %0" : "=r"(value));
	return value;
}

static inline uint64_t read_cr3(void)
{
	uint64_t value;

	asm volatile("mov %%cr3, %0" : "=r"(value));
	return value;
}

static inline void invlpg(uint64_t addr)
{
	asm volatile("invlpg (%0)" : : "r"(addr) : "memory");
}

static inline void cpu_relax(void)
{
	asm volatile("pause" : : : "memory");
}

/* Allow maskable interrupts (handlers: irq_set_handler()). */
static inline void irq_enable(void)
{
	asm volatile("sti" : : : "memory");
}

static inline void irq_disable(void)
{
	asm volatile("cli" : : : "memory");
}

/* Wait for the next interrupt (with interrupts enabled: sti; hlt). */
static inline void cpu_wait_for_interrupt(void)
{
	asm volatile("sti; hlt" : : : "memory");
}

#endif /* INMATE_X86_H */
