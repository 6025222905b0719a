/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Local APIC registers, named by their x2APIC MSR index: 0x800 + the xAPIC
 * MMIO offset / 16 (SDM Vol. 3, 11.12.1.2), and the bits libinmate uses.
 * apic_read()/apic_write() take these in both modes.
 */
#ifndef INMATE_APIC_H
#define INMATE_APIC_H

#define APIC_MSR_BASE 0x800
#define APIC_ID 0x802
#define APIC_VERSION 0x803
#define APIC_TPR 0x808
#define APIC_PPR 0x80a
#define APIC_EOI 0x80b
#define APIC_LDR 0x80d
#define APIC_SVR 0x80f
#define APIC_ISR 0x810 /* 8 registers, 0x810-0x817 */
#define APIC_TMR 0x818 /* 0x818-0x81f */
#define APIC_IRR 0x820 /* 0x820-0x827 */
#define APIC_ESR 0x828
#define APIC_ICR 0x830	    /* x2APIC: 64 bits; xAPIC: the low half */
#define APIC_ICR_HIGH 0x831 /* xAPIC only: destination in bits 31:24 */
#define APIC_LVT_TIMER 0x832
#define APIC_LVT_THERMAL 0x833
#define APIC_LVT_PERF 0x834
#define APIC_LVT_LINT0 0x835
#define APIC_LVT_LINT1 0x836
#define APIC_LVT_ERROR 0x837
#define APIC_TMICT 0x838    /* timer initial count */
#define APIC_TMCCT 0x839    /* timer current count */
#define APIC_TDCR 0x83e	    /* timer divide configuration */
#define APIC_SELF_IPI 0x83f /* x2APIC only */

#define APIC_SVR_ENABLE 0x100
#define APIC_SPURIOUS_VECTOR 0xff /* apic_init() handles it */

#define APIC_LVT_MASKED (1u << 16)
#define APIC_LVT_TIMER_PERIODIC (1u << 17)

/* ICR, low half: vector, delivery mode, level, destination shorthand. */
#define APIC_ICR_DM_FIXED (0u << 8)
#define APIC_ICR_DM_NMI (4u << 8)
#define APIC_ICR_DM_INIT (5u << 8)
#define APIC_ICR_DM_SIPI (6u << 8)
#define APIC_ICR_DELIVERY_PENDING (1u << 12) /* xAPIC only */
#define APIC_ICR_LEVEL_ASSERT (1u << 14)
#define APIC_ICR_DEST_SELF (1u << 18)
#define APIC_ICR_DEST_ALL (2u << 18)
#define APIC_ICR_DEST_ALL_BUT_SELF (3u << 18)

#endif /* INMATE_APIC_H */
