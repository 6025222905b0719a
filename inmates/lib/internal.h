/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Declarations shared inside libinmate only. */
#ifndef INMATE_INTERNAL_H
#define INMATE_INTERNAL_H

#include <stdint.h>

/* The general registers as isr.S saves them, then what the CPU pushed. */
struct interrupt_frame {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
	uint64_t rbp, rdi, rsi, rdx, rcx, rbx, rax;
	uint64_t vector, error;
	uint64_t rip, cs, rflags, rsp, ss;
};

void inmate_start(void);
void idt_init(void);
void interrupt_dispatch(struct interrupt_frame *frame);

extern const char inmate_isr_stubs[];
extern uint64_t inmate_pd[]; /* 2048 PDEs mapping 4 GiB (entry.S) */

#endif /* INMATE_INTERNAL_H */
