// SPDX-License-Identifier: GPL-2.0
/*
 * The CPU hooks of hv/arch.h for x86: what every vendor needs (the
 * hypervisor's page-table format, the APIC, the guest-memory windows)
 * around the vendor's own setup and teardown (asm/vendor.h).
 */
#include <asm/apic.h>
#include <asm/guest.h>
#include <asm/pgformat.h>
#include <asm/processor.h>
#include <asm/vendor.h>
#include <asm/x86_cpu.h>
#include <hv/arch.h>
#include <hv/printk.h>
#include <warden/hvheader.h>
#include <warden/hypercall.h>
#include <x86/msr.h>

int arch_init_system(struct per_cpu *pc)
{
	int err;

	/* the core keeps using the driver's tables; their format is ours */
	hv.hv_pt.fmt = &x86_host_format;
	err = vendor_init_system(pc, &guest_limits);
	if (err)
		return err;
	if (apic_init_system() || guest_windows_init(hv.num_cpus))
		return hv_no_memory(pc, 3);
	return 0;
}

int arch_cpu_init(struct per_cpu *pc)
{
	/* the APIC's mode decides the controls the vendor loads */
	apic_init_cpu(pc);
	return vendor_cpu_init(pc);
}

void arch_cpu_undo(struct per_cpu *pc)
{
	vendor_cpu_undo(pc);
}

int arch_cpu_activate(struct per_cpu *pc)
{
	return vendor_cpu_activate(pc);
}

void arch_cpu_leave(struct per_cpu *pc, long result, void *guest_regs)
{
	vendor_cpu_leave(pc, result, guest_regs);
}

long arch_cpu_entry_info(struct per_cpu *pc, unsigned int word)
{
	return vendor_cpu_entry_word(pc, word);
}

long arch_test_failure(struct per_cpu *pc, unsigned long kind)
{
	(void)pc;
	switch (kind) {
	case WARDEN_TEST_BAD_ENTRY_STATE:
		vcpu_break_entry_state();
		return 0;
	case WARDEN_TEST_HV_FAULT:
		asm volatile("ud2");
		return 0;
	case WARDEN_TEST_HV_HANG:
		for (;;)
			asm volatile("cli; hlt");
	}
	return -WARDEN_EINVAL;
}

void x86_back_to_linux(struct per_cpu *pc, struct warden_linux_state *l,
		       long result, bool guest)
{
	if (guest) {
		/* Linux may have changed CR0/CR4/EFER/PAT as a guest. */
		write_cr0(l->cr0);
		write_cr4(l->cr4);
		write_msr(MSR_IA32_EFER, l->efer);
		write_msr(MSR_IA32_PAT, l->pat);
	}
	printk("CPU %u: back to Linux at RIP 0x%llx, RSP 0x%llx, CR3 0x%llx, "
	       "GS base 0x%llx, result %ld\n",
	       pc->cpu_id, (unsigned long long)l->rip,
	       (unsigned long long)l->rsp, (unsigned long long)l->cr3,
	       (unsigned long long)l->gs.base, result);
	arch_jump_to_linux(pc->entry->stub_leave, l);
}
