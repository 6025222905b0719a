/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Per-CPU statistics counter ids (VM exits by cause).  Append-only.
 * WARDEN_STAT_VMEXITS_TOTAL counts every exit; each exit also counts in
 * exactly one of the others.
 */
#ifndef WARDEN_STATS_H
#define WARDEN_STATS_H

#define WARDEN_STAT_VMEXITS_TOTAL 0
#define WARDEN_STAT_VMEXITS_CPUID 1
#define WARDEN_STAT_VMEXITS_CR 2
#define WARDEN_STAT_VMEXITS_MSR_READ 3
#define WARDEN_STAT_VMEXITS_MSR_WRITE 4
#define WARDEN_STAT_VMEXITS_X2APIC_ICR 5 /* trapped x2APIC ICR writes */
#define WARDEN_STAT_VMEXITS_XAPIC 6	 /* APIC-access page accesses */
#define WARDEN_STAT_VMEXITS_XSETBV 7
#define WARDEN_STAT_VMEXITS_PIO 8
#define WARDEN_STAT_VMEXITS_MMIO 9 /* EPT violations */
#define WARDEN_STAT_VMEXITS_HYPERCALL 10
#define WARDEN_STAT_VMEXITS_MANAGEMENT 11 /* events: NMI + preemption timer */
#define WARDEN_STAT_VMEXITS_NMI 12	  /* NMIs for the guest itself */
#define WARDEN_STAT_VMEXITS_INIT_SIPI 13
#define WARDEN_STAT_VMEXITS_EXCEPTION 14
#define WARDEN_STAT_VMEXITS_OTHER 15
#define WARDEN_NUM_STATS 16

/* Room reserved in ABI structures for counters. */
#define WARDEN_MAX_STATS 32

#endif /* WARDEN_STATS_H */
