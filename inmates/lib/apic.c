// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Local APIC: one access path for both modes.  Registers are named by their
 * x2APIC MSR index (0x800 + xAPIC offset / 16, SDM Vol. 3, 11.12.1.2): in
 * x2APIC mode they are read and written with RDMSR/WRMSR, in xAPIC mode
 * through the MMIO page (IA32_APIC_BASE, 0xfee00000 normally; the identity
 * map has the top GiB uncached).  In a Warden cell x2APIC is the fast mode
 * (no VM exit but for ICR writes); each xAPIC access is emulated.
 *
 * The mode is kept for the whole inmate: every CPU that uses the APIC must
 * call apic_init() with the same choice.
 */
#include <inmate.h>
#include "internal.h"

#define CPUID1_EDX_APIC (1u << 9)
#define CPUID1_ECX_X2APIC (1u << 21)
#define CPUID1_ECX_TSC_DEADLINE (1u << 24)
#define MSR_TSC_DEADLINE 0x6e0
#define APIC_LVT_TIMER_TSC_DEADLINE (2u << 17)

#define APIC_BASE_EXTD (1ull << 10)
#define APIC_BASE_EN (1ull << 11)
#define APIC_BASE_ADDR_MASK 0x000ffffffffff000ull
#define APIC_DEFAULT_MMIO 0xfee00000ull

#define APIC_TDCR_DIV_1 0xb
#define APIC_ISR_WORDS 8

/* Bounds: xAPIC ICR delivery status, timer calibration. */
#define APIC_ICR_POLL_LIMIT 1000000
#define APIC_CALIBRATE_US 25000

static bool apic_x2;
static bool apic_ready;
static uint64_t apic_mmio = APIC_DEFAULT_MMIO;
static uint32_t timer_khz;

static inline uint64_t xapic_reg(unsigned int reg)
{
	return apic_mmio + ((uint64_t)(reg - APIC_MSR_BASE) << 4);
}

uint32_t apic_read(unsigned int reg)
{
	if (apic_x2)
		return (uint32_t)rdmsr(reg);
	return mmio_read32(xapic_reg(reg));
}

void apic_write(unsigned int reg, uint32_t value)
{
	if (apic_x2)
		wrmsr(reg, value);
	else
		mmio_write32(xapic_reg(reg), value);
}

bool apic_is_x2apic(void)
{
	return apic_x2;
}

bool apic_is_initialized(void)
{
	return apic_ready;
}

bool apic_x2apic_supported(void)
{
	uint32_t eax, ebx, ecx, edx;

	cpuid(1, 0, &eax, &ebx, &ecx, &edx);
	return ecx & CPUID1_ECX_X2APIC;
}

/* EOI for a vector without a handler, if the APIC has it in service
 * (irq.c calls it through irq_set_unexpected_ack). */
static void apic_ack_unexpected(unsigned int vector)
{
	if (!apic_ready || vector == APIC_SPURIOUS_VECTOR ||
	    vector >= APIC_ISR_WORDS * 32)
		return;
	if (apic_read(APIC_ISR + vector / 32) & (1u << (vector % 32)))
		apic_eoi();
}

/* Spurious interrupts need no EOI (SDM Vol. 3, 11.9). */
static void spurious_handler(unsigned int vector)
{
	(void)vector;
}

int apic_init(bool x2apic)
{
	uint32_t eax, ebx, ecx, edx;
	uint64_t base;

	cpuid(1, 0, &eax, &ebx, &ecx, &edx);
	if (!(edx & CPUID1_EDX_APIC))
		return -1;
	base = rdmsr(MSR_APIC_BASE);
	if (x2apic && (ecx & CPUID1_ECX_X2APIC)) {
		/* disabled -> xAPIC -> x2APIC (SDM Vol. 3, 11.12.5) */
		if (!(base & APIC_BASE_EN)) {
			base |= APIC_BASE_EN;
			wrmsr(MSR_APIC_BASE, base);
		}
		if (!(base & APIC_BASE_EXTD))
			wrmsr(MSR_APIC_BASE, base | APIC_BASE_EXTD);
		apic_x2 = true;
	} else {
		/* x2APIC -> xAPIC only through disabled */
		if (base & APIC_BASE_EXTD) {
			base &= ~(APIC_BASE_EN | APIC_BASE_EXTD);
			wrmsr(MSR_APIC_BASE, base);
		}
		if (!(base & APIC_BASE_EN)) {
			base |= APIC_BASE_EN;
			wrmsr(MSR_APIC_BASE, base);
		}
		apic_mmio = base & APIC_BASE_ADDR_MASK;
		apic_x2 = false;
	}
	irq_set_handler(APIC_SPURIOUS_VECTOR, spurious_handler);
	irq_set_unexpected_ack(apic_ack_unexpected);
	apic_write(APIC_TPR, 0);
	apic_write(APIC_LVT_TIMER, APIC_LVT_MASKED);
	apic_write(APIC_TMICT, 0);
	apic_write(APIC_SVR, APIC_SVR_ENABLE | APIC_SPURIOUS_VECTOR);
	apic_ready = true;
	return 0;
}

uint32_t apic_id(void)
{
	uint32_t id = apic_read(APIC_ID);

	return apic_x2 ? id : id >> 24;
}

void apic_eoi(void)
{
	apic_write(APIC_EOI, 0);
}

static bool xapic_wait_icr_idle(void)
{
	unsigned int n;

	for (n = 0; n < APIC_ICR_POLL_LIMIT; n++) {
		if (!(mmio_read32(xapic_reg(APIC_ICR)) &
		      APIC_ICR_DELIVERY_PENDING))
			return true;
		cpu_relax();
	}
	return false;
}

void apic_send_icr(uint32_t dest, uint32_t icr_low)
{
	uint64_t flags;

	if (apic_x2) {
		wrmsr(APIC_ICR, (uint64_t)dest << 32 | icr_low);
		return;
	}
	/* Two writes that an interrupt handler must not split. */
	asm volatile("pushfq; popq %0; cli" : "=r"(flags) : : "memory");
	xapic_wait_icr_idle();
	mmio_write32(xapic_reg(APIC_ICR_HIGH), dest << 24);
	mmio_write32(xapic_reg(APIC_ICR), icr_low);
	xapic_wait_icr_idle();
	if (flags & (1u << 9))
		irq_enable();
}

void apic_send_ipi(uint32_t dest, unsigned int vector)
{
	apic_send_icr(dest, APIC_ICR_DM_FIXED | APIC_ICR_LEVEL_ASSERT |
				    (vector & 0xff));
}

void apic_send_init(uint32_t dest)
{
	apic_send_icr(dest, APIC_ICR_DM_INIT | APIC_ICR_LEVEL_ASSERT);
}

void apic_send_sipi(uint32_t dest, unsigned int vector)
{
	apic_send_icr(dest, APIC_ICR_DM_SIPI | APIC_ICR_LEVEL_ASSERT |
				    (vector & 0xff));
}

/*
 * Count APIC timer ticks (divide by 1, one-shot, masked) over
 * APIC_CALIBRATE_US by the TSC.  Both ends read the TSC and then the
 * current count, so the cost of the reads cancels out.
 */
static uint32_t calibrate(void)
{
	uint64_t wait = (uint64_t)tsc_khz() * APIC_CALIBRATE_US / 1000;
	uint64_t t0, t1;
	uint32_t c0, c1;

	apic_write(APIC_TDCR, APIC_TDCR_DIV_1);
	apic_write(APIC_LVT_TIMER, APIC_LVT_MASKED);
	apic_write(APIC_TMICT, 0xffffffff);
	t0 = rdtsc();
	c0 = apic_read(APIC_TMCCT);
	do {
		cpu_relax();
		t1 = rdtsc();
	} while (t1 - t0 < wait);
	c1 = apic_read(APIC_TMCCT);
	apic_write(APIC_TMICT, 0);
	if (c1 >= c0 || t1 == t0)
		return 0;
	return (uint64_t)(c0 - c1) * tsc_khz() / (t1 - t0);
}

uint32_t apic_timer_khz(void)
{
	if (!timer_khz)
		timer_khz = calibrate();
	return timer_khz;
}

int apic_timer_periodic(uint32_t period_us, unsigned int vector)
{
	uint64_t count = (uint64_t)period_us * apic_timer_khz() / 1000;

	if (!count || count > 0xffffffff || vector < 32 || vector > 255)
		return -1;
	apic_write(APIC_TDCR, APIC_TDCR_DIV_1);
	apic_write(APIC_LVT_TIMER, APIC_LVT_TIMER_PERIODIC | vector);
	apic_write(APIC_TMICT, (uint32_t)count);
	return 0;
}

bool apic_timer_deadline_supported(void)
{
	uint32_t eax, ebx, ecx, edx;

	cpuid(1, 0, &eax, &ebx, &ecx, &edx);
	return ecx & CPUID1_ECX_TSC_DEADLINE;
}

int apic_timer_deadline(unsigned int vector)
{
	if (!apic_timer_deadline_supported() || vector < 32 || vector > 255)
		return -1;
	apic_write(APIC_LVT_TIMER, APIC_LVT_TIMER_TSC_DEADLINE | vector);
	/* the mode switch must be seen before the deadline is written: in
	 * xAPIC mode the LVT write is a memory write, not serializing
	 * (SDM Vol. 3, 11.5.4.1) */
	asm volatile("mfence" : : : "memory");
	return 0;
}

void apic_timer_deadline_arm(uint64_t tsc)
{
	wrmsr(MSR_TSC_DEADLINE, tsc);
}

void apic_timer_stop(void)
{
	apic_write(APIC_LVT_TIMER, APIC_LVT_MASKED);
	apic_write(APIC_TMICT, 0);
	/* 0 disarms a deadline (SDM Vol. 3, 11.5.4.1) */
	if (apic_timer_deadline_supported())
		wrmsr(MSR_TSC_DEADLINE, 0);
}

uint64_t apic_timer_counts_to_ns(uint64_t counts)
{
	uint64_t khz = apic_timer_khz();

	if (!khz)
		return 0;
	return counts / khz * 1000000 + counts % khz * 1000000 / khz;
}
