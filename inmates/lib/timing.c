// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Time by the TSC.  Its frequency comes from the comm region (measured by
 * the root cell); without one, from CPUID leaf 0x15 (TSC/crystal ratio and
 * crystal clock) or leaf 0x16 (base frequency), and as a last resort
 * INMATE_FALLBACK_TSC_KHZ.
 */
#include <inmate.h>

static uint32_t cached_khz;

static uint32_t cpuid_tsc_khz(void)
{
	uint32_t max, eax, ebx, ecx, edx;

	cpuid(0, 0, &max, &ebx, &ecx, &edx);
	if (max >= 0x15) {
		cpuid(0x15, 0, &eax, &ebx, &ecx, &edx);
		if (eax && ebx && ecx)
			return (uint64_t)ecx * ebx / eax / 1000;
	}
	if (max >= 0x16) {
		cpuid(0x16, 0, &eax, &ebx, &ecx, &edx);
		if (eax & 0xffff)
			return (eax & 0xffff) * 1000;
	}
	return 0;
}

uint32_t tsc_khz(void)
{
	uint32_t khz = cached_khz;

	if (khz)
		return khz;
	khz = comm_tsc_khz();
	if (!khz)
		khz = cpuid_tsc_khz();
	if (!khz)
		khz = INMATE_FALLBACK_TSC_KHZ;
	cached_khz = khz;
	return khz;
}

uint64_t tsc_ticks_to_us(uint64_t ticks)
{
	uint64_t khz = tsc_khz();

	return ticks / khz * 1000 + ticks % khz * 1000 / khz;
}

uint64_t tsc_ticks_to_ns(uint64_t ticks)
{
	uint64_t khz = tsc_khz();

	return ticks / khz * 1000000 + ticks % khz * 1000000 / khz;
}

void delay_us(uint64_t us)
{
	uint64_t khz = tsc_khz();
	uint64_t ticks = us / 1000 * khz + us % 1000 * khz / 1000;
	uint64_t start = rdtsc();

	while (rdtsc() - start < ticks)
		cpu_relax();
}
