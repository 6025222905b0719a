/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Declarations shared inside libinmate only. */
#ifndef INMATE_INTERNAL_H
#define INMATE_INTERNAL_H

#include <stdint.h>
#include <inmate/arch.h>

/* The general registers as isr.S saves them, then what the CPU pushed. */
struct interrupt_frame {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
	uint64_t rbp, rdi, rsi, rdx, rcx, rbx, rax;
	uint64_t vector, error;
	uint64_t rip, cs, rflags, rsp, ss;
};

void inmate_start(void);
void inmate_ap_start(unsigned int cpu_index);
void idt_init(void);
void idt_load(void);
void interrupt_dispatch(struct interrupt_frame *frame);
void cmdline_init(void);
/* irq.c calls ack for a vector without a handler (apic.c sets it: the
 * APIC layer stands above the IDT's, which never calls it by name). */
void irq_set_unexpected_ack(void (*ack)(unsigned int vector));

extern const char inmate_isr_stubs[];
/* exception_catch (catch.S) */
extern const char exception_caught[];
extern uint64_t inmate_catch_rsp;
extern uint32_t inmate_catch_armed;
extern uint64_t inmate_pd[]; /* 2048 PDEs mapping 4 GiB (entry.S) */

/* SMP hand-over with entry.S (smp.c, entry.S's .entry.data). */
extern volatile uint16_t inmate_smp_ready;
extern volatile uint32_t inmate_smp_next_index;
extern volatile uint32_t inmate_smp_cpus_up; /* CPUs in C, this one too */
extern uint8_t inmate_ap_stacks[INMATE_MAX_CPUS - 1][INMATE_AP_STACK_SIZE];

#endif /* INMATE_INTERNAL_H */
