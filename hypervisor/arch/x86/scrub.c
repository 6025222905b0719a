// SPDX-License-Identifier: GPL-2.0
/*
 * Scrubbing a CPU handed between root and a cell (contract in
 * asm/x86_cpu.h): nothing one owner left in the CPU's registers may be
 * seen by the next.  The guest state the vendor holds (segments, control
 * registers, DR7, DEBUGCTL, PAT, SYSENTER, EFER) is set anew by the
 * real-mode reset each owner starts with (vcpu_reset_to_real_mode); what
 * lives in the CPU
 * itself is cleared here: x87/SSE/AVX state, XCR0, DR0-DR3 and DR6, and
 * the syscall and swapgs MSRs.  The local APIC is reset by apic_reset.
 */
#include <asm/processor.h>
#include <asm/x86_cpu.h>

#define MSR_STAR 0xc0000081
#define MSR_LSTAR 0xc0000082
#define MSR_CSTAR 0xc0000083
#define MSR_FMASK 0xc0000084
#define MSR_TSC_AUX 0xc0000103

/*
 * An XSAVE area in standard form whose header asks for the initial state
 * of every component (XSTATE_BV 0, SDM Vol. 1, 13.8.1); XRSTOR still loads
 * MXCSR from it, hence the reset value there.  Also a valid FXRSTOR image
 * (FCW and MXCSR at their reset values) for CPUs without XSAVE.  It lives
 * in BSS, not in the image (4 KiB of zeros there), and every CPU writes the
 * same two reset values before each use (init_area_fill).
 */
static u8 init_area[4096] __attribute__((aligned(64)));

static void init_area_fill(void)
{
	init_area[0] = 0x7f;
	init_area[1] = 0x03; /* FCW 0x037f */
	init_area[24] = 0x80;
	init_area[25] = 0x1f; /* MXCSR 0x1f80 */
}

static void xsetbv(u32 index, u64 value)
{
	asm volatile("xsetbv"
		     :
		     : "c"(index), "a"((u32)value), "d"((u32)(value >> 32)));
}

static void scrub_fpu(void)
{
	u32 a, b, c, d;
	u64 mask;

	init_area_fill();
	if (read_cr4() & X86_CR4_OSXSAVE) {
		/* every user component the CPU supports up to AVX-512 (the
		 * area is large enough for those), then back to x87 only,
		 * XCR0's reset value */
		cpuid(0xd, 0, &a, &b, &c, &d);
		mask = ((u64)d << 32 | a) & 0xff;
		if (b > sizeof(init_area))
			mask &= 0x7; /* x87, SSE, AVX fit any area */
		xsetbv(0, mask);
		asm volatile("xrstor64 %0"
			     :
			     : "m"(init_area), "a"((u32)mask),
			       "d"((u32)(mask >> 32))
			     : "memory");
		xsetbv(0, 1);
	} else {
		asm volatile("fxrstor64 %0" : : "m"(init_area) : "memory");
	}
}

void cpu_scrub(void)
{
	u32 a, b, c, d;
	u64 zero = 0, dr6 = 0xffff0ff0;

	scrub_fpu();
	asm volatile("mov %0, %%dr0\n\t"
		     "mov %0, %%dr1\n\t"
		     "mov %0, %%dr2\n\t"
		     "mov %0, %%dr3\n\t"
		     "mov %1, %%dr6"
		     :
		     : "r"(zero), "r"(dr6));
	write_msr(MSR_KERNEL_GS_BASE, 0);
	write_msr(MSR_STAR, 0);
	write_msr(MSR_LSTAR, 0);
	write_msr(MSR_CSTAR, 0);
	write_msr(MSR_FMASK, 0);
	cpuid(0x80000001, 0, &a, &b, &c, &d);
	if (d & (1u << 27)) /* RDTSCP, and with it TSC_AUX */
		write_msr(MSR_TSC_AUX, 0);
}
