// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * IDT: every vector goes through its stub in isr.S to interrupt_dispatch().
 * Exceptions (0..31) end an exception_catch() if one waits; otherwise
 * they are reported on the console and halt the CPU, after marking the
 * cell FAILED in the comm region; other vectors call the
 * handler installed with irq_set_handler(), or are counted and printed as
 * unexpected.  All CPUs share the IDT and the handlers.
 */
#include <inmate.h>
#include "internal.h"

#define NUM_VECTORS 256
#define NUM_EXCEPTIONS 32
#define GATE_INTERRUPT 0x8e /* present, DPL 0, 64-bit interrupt gate */
#define VECTOR_PF 14

struct idt_gate {
	uint16_t offset_low;
	uint16_t selector;
	uint8_t ist;
	uint8_t type;
	uint16_t offset_mid;
	uint32_t offset_high;
	uint32_t reserved;
};
_Static_assert(sizeof(struct idt_gate) == 16, "IDT gate size");

struct idt_pointer {
	uint16_t limit;
	uint64_t base;
} __attribute__((packed));

static struct idt_gate idt[NUM_VECTORS] __attribute__((aligned(16)));
static irq_handler_t handlers[NUM_VECTORS];
static int in_exception;
static unsigned long unexpected_count;
/* Ends a vector without a handler where it is held in service: set by
 * apic.c once the local APIC is up (irq_set_unexpected_ack); NULL before,
 * when no APIC can hold one. */
static void (*unexpected_ack)(unsigned int vector);
uint64_t inmate_catch_error;

/* Names of the exception vectors; "RSV": reserved by Intel. */
static const char *const exception_names[NUM_EXCEPTIONS] = {
	"#DE", "#DB", "NMI", "#BP", "#OF", "#BR", "#UD", "#NM",
	"#DF", "CSO", "#TS", "#NP", "#SS", "#GP", "#PF", "RSV",
	"#MF", "#AC", "#MC", "#XM", "#VE", "#CP", "RSV", "RSV",
	"RSV", "RSV", "RSV", "RSV", "#HV", "#VC", "#SX", "RSV",
};

void idt_init(void)
{
	unsigned int v;

	for (v = 0; v < NUM_VECTORS; v++) {
		uint64_t addr = (uint64_t)inmate_isr_stubs +
				(uint64_t)v * INMATE_ISR_STUB_SIZE;

		idt[v].offset_low = addr & 0xffff;
		idt[v].selector = GDT_CODE64;
		idt[v].ist = 0;
		idt[v].type = GATE_INTERRUPT;
		idt[v].offset_mid = (addr >> 16) & 0xffff;
		idt[v].offset_high = addr >> 32;
		idt[v].reserved = 0;
	}
	idt_load();
}

/* Load the IDT on this CPU (the first one, or one started later). */
void idt_load(void)
{
	struct idt_pointer ptr;

	ptr.limit = sizeof(idt) - 1;
	ptr.base = (uint64_t)idt;
	asm volatile("lidt %0" : : "m"(ptr) : "memory");
}

int irq_set_handler(unsigned int vector, irq_handler_t handler)
{
	if (vector < NUM_EXCEPTIONS || vector >= NUM_VECTORS)
		return -1;
	handlers[vector] = handler;
	barrier();
	return 0;
}

static void __noreturn report_exception(struct interrupt_frame *f)
{
	if (in_exception++)
		inmate_halt();

	printk("EXCEPTION %lu %s at RIP 0x%lx error 0x%lx",
	       (unsigned long)f->vector, exception_names[f->vector],
	       (unsigned long)f->rip, (unsigned long)f->error);
	if (f->vector == VECTOR_PF)
		printk(" CR2 0x%lx", (unsigned long)read_cr2());
	printk("\n");
	printk("  RSP 0x%016lx RFLAGS 0x%08lx CS 0x%lx\n",
	       (unsigned long)f->rsp, (unsigned long)f->rflags,
	       (unsigned long)f->cs);
	printk("  RAX 0x%016lx RBX 0x%016lx RCX 0x%016lx\n",
	       (unsigned long)f->rax, (unsigned long)f->rbx,
	       (unsigned long)f->rcx);
	printk("  RDX 0x%016lx RSI 0x%016lx RDI 0x%016lx\n",
	       (unsigned long)f->rdx, (unsigned long)f->rsi,
	       (unsigned long)f->rdi);
	printk("  RBP 0x%016lx R8  0x%016lx R9  0x%016lx\n",
	       (unsigned long)f->rbp, (unsigned long)f->r8,
	       (unsigned long)f->r9);
	printk("inmate halted\n");
	comm_set_state(WARDEN_CELL_FAILED);
	inmate_halt();
}

/* exception_catch (catch.S) is waiting for an exception: return to it
 * with the stack it saved, in 64-bit mode, the vector in RAX. */
static bool catch_exception(struct interrupt_frame *f)
{
	if (!__atomic_exchange_n(&inmate_catch_armed, 0, __ATOMIC_SEQ_CST))
		return false;
	inmate_catch_error = f->error;
	f->rax = f->vector;
	f->rip = (uint64_t)exception_caught;
	f->cs = GDT_CODE64;
	f->rsp = inmate_catch_rsp;
	f->ss = GDT_DATA;
	f->rflags &= ~(1ull << 8); /* no TF */
	return true;
}

void interrupt_dispatch(struct interrupt_frame *frame)
{
	irq_handler_t handler;

	if (frame->vector < NUM_EXCEPTIONS && catch_exception(frame))
		return;
	if (frame->vector < NUM_EXCEPTIONS)
		report_exception(frame);

	handler = handlers[frame->vector];
	if (handler) {
		handler(frame->vector);
		return;
	}
	__atomic_fetch_add(&unexpected_count, 1, __ATOMIC_RELAXED);
	if (unexpected_ack)
		unexpected_ack(frame->vector);
	printk("inmate: unexpected interrupt, vector %lu\n",
	       (unsigned long)frame->vector);
}

void irq_set_unexpected_ack(void (*ack)(unsigned int vector))
{
	unexpected_ack = ack;
}

unsigned long irq_unexpected_count(void)
{
	return __atomic_load_n(&unexpected_count, __ATOMIC_RELAXED);
}
