// SPDX-License-Identifier: GPL-2.0
/*
 * Linux's CPU state, as the hypervisor needs it to launch Linux back on
 * each CPU it enters: control registers, MSRs, descriptor tables and the
 * segments as their descriptors say (SDM Vol. 3A 3.4.5).
 */
#include <asm/desc.h>
#include <asm/msr.h>
#include <asm/special_insns.h>

#include <warden/hvheader.h>

#include "enable_steps.h"

static void read_segment(struct warden_segment *s, u16 sel, u64 gdt_base)
{
	u64 d, d2;

	s->selector = sel;
	if ((sel & ~3) == 0) {
		s->access_rights = 0x10000; /* unusable (SDM 25.4.1) */
		s->limit = 0;
		s->base = 0;
		return;
	}
	d = *(u64 *)(gdt_base + (sel & ~7));
	s->access_rights = (d >> 40) & 0xf0ff;
	s->limit = (d & 0xffff) | ((d >> 32) & 0xf0000);
	if (d & BIT_ULL(55)) /* granularity: 4 KiB units */
		s->limit = (s->limit << 12) | 0xfff;
	s->base = ((d >> 16) & 0xffffff) | ((d >> 32) & 0xff000000);
	if (!(d & BIT_ULL(44))) { /* system descriptor: 16 bytes */
		d2 = *(u64 *)(gdt_base + (sel & ~7) + 8);
		s->base |= d2 << 32;
	}
}

void collect_linux_state(struct warden_linux_state *s)
{
	struct desc_ptr gdt, idt;
	u16 sel;

	s->cr0 = read_cr0();
	s->cr3 = __read_cr3();
	s->cr4 = __read_cr4();
	rdmsrl(MSR_EFER, s->efer);
	rdmsrl(MSR_IA32_CR_PAT, s->pat);
	rdmsrl(MSR_IA32_DEBUGCTLMSR, s->debugctl);
	native_store_gdt(&gdt);
	store_idt(&idt);
	s->gdtr_base = gdt.address;
	s->gdtr_limit = gdt.size;
	s->idtr_base = idt.address;
	s->idtr_limit = idt.size;

	savesegment(cs, sel);
	read_segment(&s->cs, sel, gdt.address);
	savesegment(ss, sel);
	read_segment(&s->ss, sel, gdt.address);
	savesegment(ds, sel);
	read_segment(&s->ds, sel, gdt.address);
	savesegment(es, sel);
	read_segment(&s->es, sel, gdt.address);
	savesegment(fs, sel);
	read_segment(&s->fs, sel, gdt.address);
	rdmsrl(MSR_FS_BASE, s->fs.base);
	savesegment(gs, sel);
	read_segment(&s->gs, sel, gdt.address);
	rdmsrl(MSR_GS_BASE, s->gs.base);
	store_tr(sel);
	read_segment(&s->tr, sel, gdt.address);
	asm volatile("sldt %0" : "=r"(sel));
	read_segment(&s->ldtr, sel, gdt.address);
	/* 64-bit mode ignores the data segment bases and limits; make the
	 * usable ones flat so that VM entry's checks hold */
	rdmsrl(MSR_KERNEL_GS_BASE, s->kernel_gs_base);
	rdmsrl(MSR_IA32_SYSENTER_CS, s->sysenter_cs);
	rdmsrl(MSR_IA32_SYSENTER_ESP, s->sysenter_esp);
	rdmsrl(MSR_IA32_SYSENTER_EIP, s->sysenter_eip);
	s->gdt_rw = (u64)get_current_gdt_rw();
}
