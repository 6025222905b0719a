// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU descriptor tables and the hypervisor's exception handling.
 *
 * The hypervisor's GDT uses the same selectors as Linux's for code (0x10)
 * and data (0x18), so that the trampoline IDT the driver's stub loads
 * during the switch (its NMI gate names selector 0x10) stays valid
 * whichever GDT is loaded when an NMI comes.
 */
#include <asm/apic.h>
#include <asm/percpu.h>
#include <asm/processor.h>
#include <asm/vendor.h>
#include <asm/x86_cpu.h>
#include <hv/arch.h>
#include <hv/cell.h>
#include <hv/hypervisor.h>
#include <hv/printk.h>

#define HV_CS 0x10
#define HV_DS 0x18
#define HV_TR 0x20

extern const u8 exception_entries[32][16];
extern const u8 nmi_entry[];
extern const u8 irq_drop_entry[];

static u64 idt[256 * 2] __attribute__((aligned(16)));

/* An interrupt gate (SDM Vol. 3, 6.14.1). */
/*
 * The IDT for the moment apic_reset lets in what a CPU's previous owner
 * left pending: a guest can program an interrupt with any vector from 16
 * up (the APIC refuses only 0-15), so every vector from 16 on drops the
 * interrupt there; only the exceptions the hypervisor itself may raise
 * (0-15, among them NMI) keep their handlers.
 */
static u64 drain_idt[256 * 2] __attribute__((aligned(16)));

static void set_gate(u64 *table, unsigned int vector, u64 handler)
{
	table[vector * 2] = (handler & 0xffff) | ((u64)HV_CS << 16) |
			    (0x8eull << 40) |
			    (((handler >> 16) & 0xffff) << 48);
	table[vector * 2 + 1] = handler >> 32;
}

static void build_idt(void)
{
	unsigned int v;

	/* In the drain IDT every vector but NMI's is an interrupt to drop:
	 * nothing in apic_reset's window (STI; NOP; CLI) can fault, and an
	 * emulator may deliver the illegal vectors 0-15 (apic_dest.h). */
	for (v = 0; v < 32; v++) {
		set_gate(idt, v, (u64)exception_entries[v]);
		set_gate(drain_idt, v, (u64)irq_drop_entry);
	}
	set_gate(idt, 2, (u64)nmi_entry);
	set_gate(drain_idt, 2, (u64)nmi_entry);
	for (v = 32; v < 256; v++) {
		set_gate(idt, v, (u64)irq_drop_entry);
		set_gate(drain_idt, v, (u64)irq_drop_entry);
	}
}

void x86_take_pending_irq(void)
{
	struct dtr drain = { sizeof(drain_idt) - 1, (u64)drain_idt };
	struct dtr normal = { sizeof(idt) - 1, (u64)idt };

	asm volatile("lidt %0\n\t"
		     "sti\n\t"
		     "nop\n\t"
		     "cli\n\t"
		     "lidt %1"
		     :
		     : "m"(drain), "m"(normal)
		     : "memory");
}

void arch_cpu_prepare(struct per_cpu *pc)
{
	struct arch_cpu *a = &pc->arch;
	u64 tss = (u64)&a->tss;
	struct dtr gdtr = { sizeof(a->gdt) - 1, (u64)a->gdt };
	struct dtr idtr = { sizeof(idt) - 1, (u64)idt };

	build_idt(); /* the same bytes on every CPU: harmless races */
	a->gdt[0] = 0;
	a->gdt[1] = 0;
	a->gdt[2] = 0x00af9b000000ffffull; /* 64-bit code, DPL 0 */
	a->gdt[3] = 0x00cf93000000ffffull; /* data, DPL 0 */
	a->gdt[4] = (sizeof(struct tss64) - 1) | ((tss & 0xffffff) << 16) |
		    (0x89ull << 40) | (((tss >> 24) & 0xff) << 56);
	a->gdt[5] = tss >> 32;
	a->tss.iomap_base = sizeof(struct tss64);

	asm volatile("lidt %0" : : "m"(idtr));
	asm volatile("lgdt %0\n\t"
		     "pushq %1\n\t"
		     "leaq 1f(%%rip), %%rax\n\t"
		     "pushq %%rax\n\t"
		     "lretq\n"
		     "1:\n\t"
		     "mov %2, %%eax\n\t"
		     "mov %%eax, %%ds\n\t"
		     "mov %%eax, %%es\n\t"
		     "mov %%eax, %%ss\n\t"
		     "xor %%eax, %%eax\n\t"
		     "mov %%eax, %%fs\n\t"
		     "mov %%eax, %%gs\n\t"
		     "mov %3, %%eax\n\t"
		     "ltr %%ax"
		     :
		     : "m"(gdtr), "i"(HV_CS), "i"(HV_DS), "i"(HV_TR)
		     : "rax", "memory");
	write_msr(MSR_GS_BASE, (u64)pc);
	write_msr(MSR_FS_BASE, 0);
}

u16 arch_host_selector(int which)
{
	return which == 0 ? HV_CS : which == 1 ? HV_DS : HV_TR;
}

u64 arch_idt_base(void)
{
	return (u64)idt;
}

/* The frame entry.S builds for an exception in the hypervisor. */
struct exception_frame {
	struct guest_regs regs; /* the same push order as a VM exit */
	u64 vector, error, rip, cs, rflags, rsp, ss;
};

extern const struct extable_entry __extable_start[], __extable_end[];

/* The fixup for an instruction at rip that may fault, or 0. */
static u64 extable_fixup(u64 rip)
{
	const struct extable_entry *e;

	for (e = __extable_start; e < __extable_end; e++)
		if (e->insn == rip)
			return e->fixup;
	return 0;
}

/*
 * An exception in the hypervisor.  An instruction with an exception table
 * entry (a guest value the checks let through after all) goes on at its
 * fixup: return nonzero, entry.S resumes there.  Anything else cannot be
 * resumed safely (locks may be held, the stack is the CPU's only one).  On
 * a CPU that runs for a cell, that CPU is lost: the cell is failed, the
 * CPU halts for good, and root and the other cells go on.  On a root CPU
 * the machine cannot go on without it: the dump, then halt.
 */
int hv_exception(struct exception_frame *f)
{
	struct per_cpu *pc = this_cpu();
	u64 cr2, fixup = extable_fixup(f->rip);

	if (fixup) {
		f->rip = fixup;
		return 1;
	}
	if (pc->arch.in_exception)
		arch_cpu_halt_lost(pc); /* a fault while reporting one */
	pc->arch.in_exception = true;
	asm volatile("mov %%cr2, %0" : "=r"(cr2));
	printk("FATAL: hypervisor exception %llu on CPU %u at RIP 0x%llx, "
	       "error 0x%llx, CR2 0x%llx, RSP 0x%llx\n",
	       (unsigned long long)f->vector, pc->cpu_id,
	       (unsigned long long)f->rip, (unsigned long long)f->error,
	       (unsigned long long)cr2, (unsigned long long)f->rsp);
	if (pc->cell && pc->cell != &hv.root) {
		pc->arch.lost_vector = (u8)f->vector;
		pc->arch.lost_rip = f->rip;
		cell_cpu_lost_here(pc, (unsigned int)f->vector, f->rip);
		arch_cpu_halt_lost(pc);
	}
	for (;;)
		asm volatile("cli; hlt");
}

/* An interrupt apic_reset let in: the previous owner's, dropped. */
void hv_drop_irq(void)
{
	struct per_cpu *pc = this_cpu();

	pc->arch.irqs_dropped++;
	apic_write(pc, APIC_REG_EOI, 0);
}

/* An NMI while the hypervisor runs: the hypervisor's event signal is
 * acted on before the next entry, another NMI is kept for the guest.  Either
 * way the next entry must exit at once, in case this CPU has already looked
 * for events and pending NMIs (vcpu_arm_event_exit). */
void hv_nmi(void)
{
	struct per_cpu *pc = this_cpu();

	if (!apic_take_event_nmi(pc))
		__atomic_fetch_add(&pc->arch.guest_nmis_pending, 1,
				   __ATOMIC_SEQ_CST);
	vcpu_arm_event_exit(pc);
}
