// SPDX-License-Identifier: GPL-2.0
/*
 * VMX operation: checking the CPU, building each CPU's VMCS with Linux's
 * state as guest state, launching, and leaving again (disable).
 * References: Intel SDM Vol. 3, chapters 24 (VMX operation), 25 (VMCS),
 * 27 (VM entries), 28 (VM exits).
 */
#include <asm/apic.h>
#include <asm/processor.h>
#include <asm/vendor.h>
#include <asm/x86_cpu.h>
#include <hv/arch.h>
#include <hv/cell.h>
#include <hv/format.h>
#include <hv/printk.h>
#include <vmx/entry_check.h>
#include <vmx/vmcs.h>
#include <vmx/vmx.h>
#include <warden/cell.h>
#include <warden/hypercall.h>
#include <x86/msr.h>
#include <x86/vmx.h>

struct vmx_controls vmx_ctls;
struct warden_vmx_entry_limits vmx_entry_limits;

/* Exceptions the guest's own handlers get, but that exit first:
 * #DB (1) and #AC (17) can loop in microcode and lock up a CPU
 * (CVE-2015-5307, CVE-2015-8104). */
#define EXCEPTION_BITMAP_VALUE ((1u << 1) | (1u << 17))

/*
 * Combine the controls we want with what the CPU allows (SDM A.3): bits
 * the CPU forces to 1 are set, and every wanted bit must be allowed.
 */
static bool adjust(u32 true_msr, u32 plain_msr, u32 want, u32 *out)
{
	bool true_ctls = read_msr(MSR_IA32_VMX_BASIC) & VMX_BASIC_TRUE_CONTROLS;
	u64 caps = read_msr(true_ctls && true_msr ? true_msr : plain_msr);
	u32 must = (u32)caps, allowed = (u32)(caps >> 32);

	*out = (want | must) & allowed;
	return (want & ~allowed) == 0;
}

/* msr 0: VMX itself is missing (CPUID.1:ECX[5]). */
static int missing(struct per_cpu *pc, u32 msr, u32 bits)
{
	if (msr)
		printk("FATAL: CPU %u lacks VMX capabilities 0x%x of MSR "
		       "0x%x\n",
		       pc->cpu_id, bits, msr);
	else
		printk("FATAL: CPU %u has no VMX (CPUID.1:ECX[5] = 0)\n",
		       pc->cpu_id);
	hv_set_error(pc, -WARDEN_EOPNOTSUPP, WARDEN_RULE_FEATURE_MISSING,
		     WARDEN_ITEM_NONE, 0, msr, bits);
	return -WARDEN_EOPNOTSUPP;
}

/*
 * What guests may load (asm/cpu_rules.h): CR0 and CR4 bits VMX lets the
 * CPU hold (IA32_VMX_CR0/CR4_FIXED1, SDM Vol. 3C, A.7 and A.8) minus VMXE,
 * which guests do not have; XCR0 bits CPUID.(EAX=0DH,ECX=0) offers; EFER
 * bits of CPUID.80000001H:EDX.  The same facts, with the VMX capability
 * MSRs, bound the VM-entry checks that explain a failed entry.
 */
static void set_limits(const struct vmx_controls *c,
		       struct guest_limits *guest_limits)
{
	struct warden_vmx_entry_limits *l = &vmx_entry_limits;
	u32 a, b, ecx, d;
	u64 misc;

	guest_limits->cr0_allowed = c->cr0_fixed1;
	guest_limits->cr4_allowed = c->cr4_fixed1 & ~X86_CR4_VMXE;
	cpuid(1, 0, &a, &b, &ecx, &d);
	if (ecx & CPUID1_ECX_XSAVE) {
		cpuid(0xd, 0, &a, &b, &ecx, &d);
		guest_limits->xcr0_supported = (u64)d << 32 | a;
	}
	cpuid(0x80000001, 0, &a, &b, &ecx, &d);
	guest_limits->efer_allowed = ((d & (1u << 11)) ? EFER_SCE : 0) |
				     ((d & (1u << 29)) ? EFER_LME : 0) |
				     ((d & (1u << 20)) ? EFER_NXE : 0);
	cpuid(0x80000008, 0, &a, &b, &ecx, &d);
	guest_limits->phys_bits = a & 0xff;

	l->cr0_fixed0 = c->cr0_fixed0;
	l->cr0_fixed1 = c->cr0_fixed1;
	l->cr4_fixed0 = c->cr4_fixed0;
	l->cr4_fixed1 = c->cr4_fixed1;
	l->phys_bits = a & 0xff;
	l->linear_bits = (a >> 8) & 0xff;
	/* LBR, BTF and bits 6-15 (SDM Vol. 3, 18.4.1) */
	l->debugctl_allowed = 0xffc3;
	l->efer_allowed = guest_limits->efer_allowed;
	/* active, and HLT, shutdown, wait-for-SIPI as IA32_VMX_MISC bits
	 * 8:6 offer them (SDM Vol. 3C, A.6) */
	misc = read_msr(MSR_IA32_VMX_MISC);
	l->activity_states = 1 | (((misc >> 6) & 7) << 1);
}

const struct paging_format *vendor_second_level_format(void)
{
	return &vmx_ept_format;
}

int vendor_init_system(struct per_cpu *pc, struct guest_limits *limits)
{
	struct vmx_controls *c = &vmx_ctls;
	u32 a, b, ecx, d, want2;
	u64 basic, ept;

	cpuid(1, 0, &a, &b, &ecx, &d);
	if (!(ecx & CPUID1_ECX_VMX))
		return missing(pc, 0, CPUID1_ECX_VMX);
	basic = read_msr(MSR_IA32_VMX_BASIC);
	c->revision = VMX_BASIC_REVISION(basic);
	c->exit_saves_lma = read_msr(MSR_IA32_VMX_MISC) & (1u << 5);
	if (VMX_BASIC_VMCS_SIZE(basic) > PAGE_SIZE ||
	    VMX_BASIC_MEMTYPE(basic) != VMX_MEMTYPE_WB)
		return missing(pc, MSR_IA32_VMX_BASIC, 0);

	/* the preemption timer carries the event exit (vcpu_arm_event_exit);
	 * it is off until an NMI arms it */
	if (!adjust(MSR_IA32_VMX_TRUE_PINBASED_CTLS, MSR_IA32_VMX_PINBASED_CTLS,
		    PIN_NMI_EXITING | PIN_VIRTUAL_NMIS | PIN_PREEMPTION_TIMER,
		    &c->pin))
		return missing(pc, MSR_IA32_VMX_PINBASED_CTLS, 0);
	c->pin &= ~PIN_PREEMPTION_TIMER;
	if (!adjust(MSR_IA32_VMX_TRUE_PROCBASED_CTLS,
		    MSR_IA32_VMX_PROCBASED_CTLS,
		    PROC_USE_IO_BITMAPS | PROC_USE_MSR_BITMAPS |
			    PROC_ACTIVATE_SECONDARY,
		    &c->proc))
		return missing(pc, MSR_IA32_VMX_PROCBASED_CTLS, 0);

	/* Linux uses RDTSCP, INVPCID and XSAVES when the CPU has them: the
	 * guest must be allowed them too, or it takes #UD. */
	want2 = PROC2_ENABLE_EPT | PROC2_ENABLE_VPID |
		PROC2_UNRESTRICTED_GUEST | PROC2_VIRTUALIZE_APIC_ACCESSES;
	cpuid(0x80000001, 0, &a, &b, &ecx, &d);
	if (d & CPUID80000001_EDX_RDTSCP)
		want2 |= PROC2_ENABLE_RDTSCP;
	cpuid(7, 0, &a, &b, &ecx, &d);
	if (b & CPUID7_EBX_INVPCID)
		want2 |= PROC2_ENABLE_INVPCID;
	cpuid(0xd, 1, &a, &b, &ecx, &d);
	if (a & CPUIDD1_EAX_XSAVES)
		want2 |= PROC2_ENABLE_XSAVES;
	if (!adjust(0, MSR_IA32_VMX_PROCBASED_CTLS2, want2, &c->proc2))
		return missing(pc, MSR_IA32_VMX_PROCBASED_CTLS2, want2);

	if (!adjust(MSR_IA32_VMX_TRUE_EXIT_CTLS, MSR_IA32_VMX_EXIT_CTLS,
		    EXIT_HOST_ADDRESS_SPACE_SIZE | EXIT_SAVE_PAT |
			    EXIT_LOAD_PAT | EXIT_SAVE_EFER | EXIT_LOAD_EFER,
		    &c->exit))
		return missing(pc, MSR_IA32_VMX_EXIT_CTLS, 0);
	if (!adjust(MSR_IA32_VMX_TRUE_ENTRY_CTLS, MSR_IA32_VMX_ENTRY_CTLS,
		    ENTRY_IA32E_MODE_GUEST | ENTRY_LOAD_PAT | ENTRY_LOAD_EFER,
		    &c->entry))
		return missing(pc, MSR_IA32_VMX_ENTRY_CTLS, 0);

	ept = read_msr(MSR_IA32_VMX_EPT_VPID_CAP);
	if ((ept & (EPT_CAP_WALK_LENGTH_4 | EPT_CAP_MEMTYPE_WB |
		    EPT_CAP_2M_PAGES | EPT_CAP_INVEPT | EPT_CAP_INVEPT_ALL |
		    VPID_CAP_INVVPID | VPID_CAP_INVVPID_ALL)) !=
	    (EPT_CAP_WALK_LENGTH_4 | EPT_CAP_MEMTYPE_WB | EPT_CAP_2M_PAGES |
	     EPT_CAP_INVEPT | EPT_CAP_INVEPT_ALL | VPID_CAP_INVVPID |
	     VPID_CAP_INVVPID_ALL))
		return missing(pc, MSR_IA32_VMX_EPT_VPID_CAP, 0);

	c->cr0_fixed0 = read_msr(MSR_IA32_VMX_CR0_FIXED0);
	c->cr0_fixed1 = read_msr(MSR_IA32_VMX_CR0_FIXED1);
	c->cr4_fixed0 = read_msr(MSR_IA32_VMX_CR4_FIXED0);
	c->cr4_fixed1 = read_msr(MSR_IA32_VMX_CR4_FIXED1);
	set_limits(c, limits);
	printk("VMX: pin 0x%x proc 0x%x proc2 0x%x exit 0x%x entry 0x%x\n",
	       c->pin, c->proc, c->proc2, c->exit, c->entry);
	return 0;
}

static int setup_failed(struct per_cpu *pc, unsigned int stage,
			const char *what)
{
	printk("FATAL: CPU %u: %s failed\n", pc->cpu_id, what);
	hv_set_error(pc, -WARDEN_EIO, WARDEN_RULE_CPU_SETUP_FAILED,
		     WARDEN_ITEM_CPU, pc->cpu_id, stage, (u64)-WARDEN_EIO);
	return -WARDEN_EIO;
}

/* Bits that must be 1 under unrestricted guest leave PE and PG free
 * (SDM 24.8, 25.6.2). */
static u64 guest_cr0_fixed1_bits(void)
{
	return vmx_ctls.cr0_fixed0 & ~(X86_CR0_PE | X86_CR0_PG);
}

static bool write_segment(enum vmcs_field sel, const struct warden_segment *s)
{
	/* selector, limit, AR and base fields are at fixed distances */
	enum vmcs_field limit = GUEST_ES_LIMIT + (sel - GUEST_ES_SELECTOR);
	enum vmcs_field ar = GUEST_ES_AR_BYTES + (sel - GUEST_ES_SELECTOR);
	enum vmcs_field base = GUEST_ES_BASE + (sel - GUEST_ES_SELECTOR);

	return vmwrite_checked(sel, s->selector) &
	       vmwrite_checked(limit, s->limit) &
	       vmwrite_checked(ar, s->access_rights) &
	       vmwrite_checked(base, s->base);
}

static bool setup_guest_state(struct per_cpu *pc)
{
	const struct warden_linux_state *l = &pc->entry->linux_state;
	bool ok = true;

	ok &= vmwrite_checked(GUEST_CR0, l->cr0 | guest_cr0_fixed1_bits());
	ok &= vmwrite_checked(CR0_READ_SHADOW, l->cr0);
	ok &= vmwrite_checked(CR0_GUEST_HOST_MASK, guest_cr0_fixed1_bits());
	ok &= vmwrite_checked(GUEST_CR3, l->cr3);
	ok &= vmwrite_checked(GUEST_CR4, l->cr4 | vmx_ctls.cr4_fixed0);
	ok &= vmwrite_checked(CR4_READ_SHADOW, l->cr4);
	ok &= vmwrite_checked(CR4_GUEST_HOST_MASK, vmx_ctls.cr4_fixed0);

	ok &= write_segment(GUEST_ES_SELECTOR, &l->es);
	ok &= write_segment(GUEST_CS_SELECTOR, &l->cs);
	ok &= write_segment(GUEST_SS_SELECTOR, &l->ss);
	ok &= write_segment(GUEST_DS_SELECTOR, &l->ds);
	ok &= write_segment(GUEST_FS_SELECTOR, &l->fs);
	ok &= write_segment(GUEST_GS_SELECTOR, &l->gs);
	ok &= write_segment(GUEST_LDTR_SELECTOR, &l->ldtr);
	ok &= write_segment(GUEST_TR_SELECTOR, &l->tr);
	ok &= vmwrite_checked(GUEST_GDTR_BASE, l->gdtr_base);
	ok &= vmwrite_checked(GUEST_GDTR_LIMIT, l->gdtr_limit);
	ok &= vmwrite_checked(GUEST_IDTR_BASE, l->idtr_base);
	ok &= vmwrite_checked(GUEST_IDTR_LIMIT, l->idtr_limit);

	ok &= vmwrite_checked(GUEST_RSP, l->rsp);
	ok &= vmwrite_checked(GUEST_RIP, l->rip);
	ok &= vmwrite_checked(GUEST_RFLAGS, l->rflags);
	ok &= vmwrite_checked(GUEST_DR7, 0x400);
	ok &= vmwrite_checked(GUEST_IA32_DEBUGCTL, l->debugctl);
	ok &= vmwrite_checked(GUEST_IA32_PAT, l->pat);
	ok &= vmwrite_checked(GUEST_IA32_EFER, l->efer);
	ok &= vmwrite_checked(GUEST_SYSENTER_CS, l->sysenter_cs);
	ok &= vmwrite_checked(GUEST_SYSENTER_ESP, l->sysenter_esp);
	ok &= vmwrite_checked(GUEST_SYSENTER_EIP, l->sysenter_eip);
	ok &= vmwrite_checked(GUEST_INTERRUPTIBILITY_INFO, 0);
	ok &= vmwrite_checked(GUEST_ACTIVITY_STATE, GUEST_ACTIVITY_ACTIVE);
	ok &= vmwrite_checked(GUEST_PENDING_DBG_EXCEPTIONS, 0);
	ok &= vmwrite_checked(VMCS_LINK_POINTER, ~0ull);
	return ok;
}

static bool setup_host_state(struct per_cpu *pc)
{
	bool ok = true;

	ok &= vmwrite_checked(HOST_CR0, read_cr0());
	ok &= vmwrite_checked(HOST_CR3, hv.header->hv_cr3);
	ok &= vmwrite_checked(HOST_CR4, read_cr4());
	ok &= vmwrite_checked(HOST_CS_SELECTOR, arch_host_selector(0));
	ok &= vmwrite_checked(HOST_SS_SELECTOR, arch_host_selector(1));
	ok &= vmwrite_checked(HOST_DS_SELECTOR, 0);
	ok &= vmwrite_checked(HOST_ES_SELECTOR, 0);
	ok &= vmwrite_checked(HOST_FS_SELECTOR, 0);
	ok &= vmwrite_checked(HOST_GS_SELECTOR, 0);
	ok &= vmwrite_checked(HOST_TR_SELECTOR, arch_host_selector(2));
	ok &= vmwrite_checked(HOST_FS_BASE, 0);
	ok &= vmwrite_checked(HOST_GS_BASE, (u64)pc);
	ok &= vmwrite_checked(HOST_TR_BASE, (u64)&pc->arch.tss);
	ok &= vmwrite_checked(HOST_GDTR_BASE, (u64)pc->arch.gdt);
	ok &= vmwrite_checked(HOST_IDTR_BASE, arch_idt_base());
	ok &= vmwrite_checked(HOST_IA32_SYSENTER_CS, 0);
	ok &= vmwrite_checked(HOST_IA32_SYSENTER_ESP, 0);
	ok &= vmwrite_checked(HOST_IA32_SYSENTER_EIP, 0);
	ok &= vmwrite_checked(HOST_IA32_EFER, read_msr(MSR_IA32_EFER));
	ok &= vmwrite_checked(HOST_IA32_PAT, read_msr(MSR_IA32_PAT));
	ok &= vmwrite_checked(HOST_RSP, percpu_stack_top(pc));
	ok &= vmwrite_checked(HOST_RIP, (u64)vmx_exit_entry);
	return ok;
}

/* The controls that depend on the cell the CPU runs (root or another). */
static bool write_cell_controls(struct per_cpu *pc)
{
	struct arch_cell *cell = pc->cell->arch;
	bool root = pc->cell == &hv.root;
	u32 proc2 = vmx_ctls.proc2;
	bool ok = true;

	/* The xAPIC page traps (apic.c, apic_cell.c) for root in xAPIC mode
	 * and for cells (which start in xAPIC mode); root's x2APIC is
	 * reached through MSRs only.  One APIC-access page serves all: no
	 * access reaches it. */
	if (root && pc->arch.x2apic)
		proc2 &= ~PROC2_VIRTUALIZE_APIC_ACCESSES;
	ok &= vmwrite_checked(SECONDARY_VM_EXEC_CONTROL, proc2);
	ok &= vmwrite_checked(APIC_ACCESS_ADDR,
			      hv_virt_to_phys(hv.root.arch->apic_access_page));
	ok &= vmwrite_checked(IO_BITMAP_A, hv_virt_to_phys(cell->io_bitmap));
	ok &= vmwrite_checked(IO_BITMAP_B,
			      hv_virt_to_phys(cell->io_bitmap + PAGE_SIZE));
	ok &= vmwrite_checked(MSR_BITMAP,
			      hv_virt_to_phys(arch_cell_msr_bitmap(
				      cell, pc->arch.guest_x2apic)));
	ok &= vmwrite_checked(EPT_POINTER,
			      pool_virt_to_phys(&hv.pool, cell->tables.root) |
				      EPTP_MEMTYPE_WB | EPTP_WALK_LENGTH_4);
	ok &= vmwrite_checked(VIRTUAL_PROCESSOR_ID, cell->tlb_tag);
	return ok;
}

void vcpu_load_cell(struct per_cpu *pc)
{
	write_cell_controls(pc);
}

void vcpu_load_msr_bitmap(struct per_cpu *pc)
{
	vmwrite(MSR_BITMAP, hv_virt_to_phys(arch_cell_msr_bitmap(
				    pc->cell->arch, pc->arch.guest_x2apic)));
}

static bool setup_controls(struct per_cpu *pc)
{
	bool ok = true;

	vmx_cpu(pc)->proc_ctls = vmx_ctls.proc;
	ok &= vmwrite_checked(PIN_BASED_VM_EXEC_CONTROL, vmx_ctls.pin);
	ok &= vmwrite_checked(CPU_BASED_VM_EXEC_CONTROL, vmx_ctls.proc);
	ok &= vmwrite_checked(VM_EXIT_CONTROLS, vmx_ctls.exit);
	ok &= vmwrite_checked(VM_ENTRY_CONTROLS, vmx_ctls.entry);
	ok &= vmwrite_checked(EXCEPTION_BITMAP, EXCEPTION_BITMAP_VALUE);
	ok &= vmwrite_checked(PAGE_FAULT_ERROR_CODE_MASK, 0);
	ok &= vmwrite_checked(PAGE_FAULT_ERROR_CODE_MATCH, 0);
	ok &= vmwrite_checked(CR3_TARGET_COUNT, 0);
	ok &= vmwrite_checked(VM_EXIT_MSR_STORE_COUNT, 0);
	ok &= vmwrite_checked(VM_EXIT_MSR_LOAD_COUNT, 0);
	ok &= vmwrite_checked(VM_ENTRY_MSR_LOAD_COUNT, 0);
	ok &= vmwrite_checked(VM_ENTRY_INTR_INFO_FIELD, 0);
	return ok & write_cell_controls(pc);
}

int vendor_cpu_init(struct per_cpu *pc)
{
	struct vmx_cpu *a = vmx_cpu(pc);
	u64 cr0 = read_cr0(), cr4 = read_cr4();

	if (cr4 & X86_CR4_VMXE) {
		hv_set_error(pc, -WARDEN_EBUSY, WARDEN_RULE_VMX_BUSY,
			     WARDEN_ITEM_CPU, pc->cpu_id, 0, 0);
		return -WARDEN_EBUSY;
	}
	a->vmxon_region = page_alloc(&hv.pool, 1);
	a->vmcs = page_alloc(&hv.pool, 1);
	if (!a->vmxon_region || !a->vmcs)
		return hv_no_memory(pc, 2);
	*(u32 *)a->vmxon_region = vmx_ctls.revision;
	*(u32 *)a->vmcs = vmx_ctls.revision;

	/* CR0/CR4 must respect the VMX fixed bits in VMX operation
	 * (SDM 24.8); Linux's values do, apart from CR4.VMXE. */
	write_cr0((cr0 | vmx_ctls.cr0_fixed0) & vmx_ctls.cr0_fixed1);
	write_cr4(((cr4 | X86_CR4_VMXE) | vmx_ctls.cr4_fixed0) &
		  vmx_ctls.cr4_fixed1);
	if (vmxon(hv_virt_to_phys(a->vmxon_region))) {
		write_cr4(cr4);
		return setup_failed(pc, 1, "VMXON");
	}
	a->vmx_on = true;
	if (vmclear(hv_virt_to_phys(a->vmcs)) ||
	    vmptrld(hv_virt_to_phys(a->vmcs))) {
		vendor_cpu_undo(pc);
		return setup_failed(pc, 2, "VMCLEAR/VMPTRLD");
	}
	__atomic_store_n(&a->vmcs_loaded, true, __ATOMIC_SEQ_CST);
	if (!setup_controls(pc) || !setup_host_state(pc) ||
	    !setup_guest_state(pc)) {
		printk("VMWRITE error %llu\n",
		       (unsigned long long)vmread(VM_INSTRUCTION_ERROR));
		vendor_cpu_undo(pc);
		return setup_failed(pc, 3, "VMCS setup");
	}
	return 0;
}

void vendor_cpu_undo(struct per_cpu *pc)
{
	struct vmx_cpu *a = vmx_cpu(pc);

	/* first tell hv_nmi there is no VMCS to write to any more */
	if (__atomic_exchange_n(&a->vmcs_loaded, false, __ATOMIC_SEQ_CST))
		vmclear(hv_virt_to_phys(a->vmcs));
	if (a->vmx_on) {
		vmxoff();
		write_cr4(read_cr4() & ~X86_CR4_VMXE);
	}
	a->vmx_on = false;
}

static void read_seg(enum vmcs_field sel, struct warden_vmx_segment *s)
{
	s->selector = (u16)vmread(sel);
	s->limit = (u32)vmread(GUEST_ES_LIMIT + (sel - GUEST_ES_SELECTOR));
	s->ar = (u32)vmread(GUEST_ES_AR_BYTES + (sel - GUEST_ES_SELECTOR));
	s->base = vmread(GUEST_ES_BASE + (sel - GUEST_ES_SELECTOR));
}

void vmx_read_guest_state(struct warden_vmx_guest_state *s)
{
	u32 entry = (u32)vmread(VM_ENTRY_CONTROLS);
	u32 proc2 = (u32)vmread(SECONDARY_VM_EXEC_CONTROL);
	unsigned int i;

	s->cr0 = vmread(GUEST_CR0);
	s->cr3 = vmread(GUEST_CR3);
	s->cr4 = vmread(GUEST_CR4);
	s->dr7 = vmread(GUEST_DR7);
	s->debugctl = vmread(GUEST_IA32_DEBUGCTL);
	s->sysenter_esp = vmread(GUEST_SYSENTER_ESP);
	s->sysenter_eip = vmread(GUEST_SYSENTER_EIP);
	s->pat = vmread(GUEST_IA32_PAT);
	s->efer = vmread(GUEST_IA32_EFER);
	/* the selector fields of ES..TR follow each other (SDM B.1.2) */
	for (i = 0; i < WARDEN_VMX_SEG_COUNT; i++)
		read_seg(GUEST_ES_SELECTOR + 2 * i, &s->seg[i]);
	s->gdtr_base = vmread(GUEST_GDTR_BASE);
	s->gdtr_limit = (u32)vmread(GUEST_GDTR_LIMIT);
	s->idtr_base = vmread(GUEST_IDTR_BASE);
	s->idtr_limit = (u32)vmread(GUEST_IDTR_LIMIT);
	s->rip = vmread(GUEST_RIP);
	s->rflags = vmread(GUEST_RFLAGS);
	s->activity = (u32)vmread(GUEST_ACTIVITY_STATE);
	s->interruptibility = (u32)vmread(GUEST_INTERRUPTIBILITY_INFO);
	s->pending_dbg = vmread(GUEST_PENDING_DBG_EXCEPTIONS);
	s->link_pointer = vmread(VMCS_LINK_POINTER);
	for (i = 0; i < 4; i++)
		s->pdpte[i] = vmread(GUEST_PDPTR0 + 2 * i);
	s->ia32e_guest = entry & ENTRY_IA32E_MODE_GUEST;
	s->load_debug = entry & ENTRY_LOAD_DEBUG_CONTROLS;
	s->load_pat = entry & ENTRY_LOAD_PAT;
	s->load_efer = entry & ENTRY_LOAD_EFER;
	s->unrestricted = proc2 & PROC2_UNRESTRICTED_GUEST;
	s->ept = proc2 & PROC2_ENABLE_EPT;
	s->virtual_nmis = vmread(PIN_BASED_VM_EXEC_CONTROL) & PIN_VIRTUAL_NMIS;
	s->entry_intr_info = (u32)vmread(VM_ENTRY_INTR_INFO_FIELD);
}

/*
 * Before Linux runs as a guest, show that the event exit works on this
 * CPU: an NMI to itself reaches the hypervisor and arms the timer, and the
 * first VM entry must then exit with reason 52 before Linux's first
 * instruction (vmx_exit.c reports the outcome).  An emulator or CPU whose
 * timer does not fire at 0 would otherwise delay events silently.
 */
static void event_exit_check_start(struct per_cpu *pc)
{
	u64 end =
		read_tsc() +
		(u64)(hv.header->tsc_khz ? hv.header->tsc_khz : 1000000) * 100;

	vmx_cpu(pc)->event_exit_check = EVENT_EXIT_CHECK_PENDING;
	__atomic_store_n(&pc->arch.event_nmi, true, __ATOMIC_SEQ_CST);
	apic_send(pc, pc->apic_id, APIC_DM_NMI << 8 | APIC_ICR_ASSERT);
	while (__atomic_load_n(&pc->arch.event_nmi, __ATOMIC_SEQ_CST) &&
	       read_tsc() < end)
		cpu_relax();
	if (__atomic_exchange_n(&pc->arch.event_nmi, false, __ATOMIC_SEQ_CST))
		vmx_cpu(pc)->event_exit_check = EVENT_EXIT_CHECK_NO_NMI;
}

int vendor_cpu_activate(struct per_cpu *pc)
{
	struct guest_regs regs = { 0 }; /* RAX = 0: "entered" */
	u64 error;

	invept_all();
	invvpid_all();
	event_exit_check_start(pc);
	vmx_launch(&regs);
	error = vmread(VM_INSTRUCTION_ERROR);
	printk("FATAL: CPU %u: VMLAUNCH failed, VM-instruction error %llu\n",
	       pc->cpu_id, (unsigned long long)error);
	hv_set_error(pc, -WARDEN_EIO, WARDEN_RULE_CPU_SETUP_FAILED,
		     WARDEN_ITEM_CPU, pc->cpu_id, 4, error);
	vendor_cpu_undo(pc);
	return -WARDEN_EIO;
}

static void read_segment(enum vmcs_field sel, struct warden_segment *s)
{
	s->selector = (u16)vmread(sel);
	s->limit = (u32)vmread(GUEST_ES_LIMIT + (sel - GUEST_ES_SELECTOR));
	s->access_rights =
		(u32)vmread(GUEST_ES_AR_BYTES + (sel - GUEST_ES_SELECTOR));
	s->base = vmread(GUEST_ES_BASE + (sel - GUEST_ES_SELECTOR));
}

/*
 * Leave VMX operation and continue Linux where the guest was (disable), or
 * where the driver entered (failed enable; regs == NULL).  The order:
 * VMCLEAR writes the VMCS back (SDM Vol. 3C, 25.11.3), INVEPT/INVVPID drop
 * the guest's cached translations, which VMXOFF would leave behind, then
 * VMXOFF and CR4.VMXE off (SDM 24.7).
 */
void vendor_cpu_leave(struct per_cpu *pc, long result, struct guest_regs *regs)
{
	struct warden_linux_state *l = &pc->entry->linux_state;
	u64 cr0_mask, cr4_mask;
	unsigned int i;

	if (regs) {
		u64 *r = (u64 *)regs;

		cr0_mask = vmread(CR0_GUEST_HOST_MASK);
		cr4_mask = vmread(CR4_GUEST_HOST_MASK);
		l->cr0 = (vmread(GUEST_CR0) & ~cr0_mask) |
			 (vmread(CR0_READ_SHADOW) & cr0_mask);
		l->cr4 = (vmread(GUEST_CR4) & ~cr4_mask) |
			 (vmread(CR4_READ_SHADOW) & cr4_mask);
		l->cr3 = vmread(GUEST_CR3);
		l->efer = vmread(GUEST_IA32_EFER);
		l->pat = vmread(GUEST_IA32_PAT);
		l->gdtr_base = vmread(GUEST_GDTR_BASE);
		l->gdtr_limit = (u16)vmread(GUEST_GDTR_LIMIT);
		l->idtr_base = vmread(GUEST_IDTR_BASE);
		l->idtr_limit = (u16)vmread(GUEST_IDTR_LIMIT);
		read_segment(GUEST_CS_SELECTOR, &l->cs);
		read_segment(GUEST_SS_SELECTOR, &l->ss);
		read_segment(GUEST_DS_SELECTOR, &l->ds);
		read_segment(GUEST_ES_SELECTOR, &l->es);
		read_segment(GUEST_FS_SELECTOR, &l->fs);
		read_segment(GUEST_GS_SELECTOR, &l->gs);
		read_segment(GUEST_TR_SELECTOR, &l->tr);
		l->rsp = vmread(GUEST_RSP);
		l->rip = vmread(GUEST_RIP) + vmread(VM_EXIT_INSTRUCTION_LEN);
		l->rflags = vmread(GUEST_RFLAGS);
		for (i = 0; i < 16; i++)
			l->regs[i] = r[i];
	}
	l->regs[0] = (u64)result;

	if (vmx_cpu(pc)->vmx_on) {
		/* first tell hv_nmi there is no VMCS to write to any more */
		__atomic_store_n(&vmx_cpu(pc)->vmcs_loaded, false,
				 __ATOMIC_SEQ_CST);
		vmclear(hv_virt_to_phys(vmx_cpu(pc)->vmcs));
		invept_all();
		invvpid_all();
		vmxoff();
		vmx_cpu(pc)->vmx_on = false;
	}
	write_cr4(read_cr4() & ~X86_CR4_VMXE);
	x86_back_to_linux(pc, l, result, regs != NULL);
}

/* The exit path's rare reports (vmx_exit.c), here to be compiled for
 * size: vmx_exit.c is on every exit's path. */

/*
 * A failed entry (SDM Vol. 3C, 27.8).  With reason 33 VMX names no field:
 * the guest-state area, the controls and the CPU's limits are kept for
 * root (vmx_cpu_entry_word), whose "warden status" runs the checks of
 * 27.3.1 on them and names the first rule broken (common/
 * vmx_guest_check.c: the checker is not in the image).
 */
const char *vmx_entry_failure(struct per_cpu *pc, u32 reason)
{
	struct warden_vmx_entry_failure *f = &vmx_cpu(pc)->entry_failure;

	if (reason == EXIT_REASON_MSR_LOAD_FAIL)
		return "MSR loading failed (SDM Vol. 3C)";
	if (reason != EXIT_REASON_INVALID_STATE)
		return "machine-check event during entry (SDM Vol. 3C)";
	/* a reader sees 0 or a whole record (a CPU fails again only in a
	 * later cell) */
	__atomic_store_n(&f->exit_reason, 0, __ATOMIC_RELEASE);
	vmx_read_guest_state(&f->state);
	f->limits = vmx_entry_limits;
	f->cell_id = pc->cell->id;
	__atomic_store_n(&f->exit_reason, reason, __ATOMIC_RELEASE);
	return "invalid guest state (\"warden status\" names the rule, SDM "
	       "Vol. 3C)";
}

long vendor_cpu_entry_word(struct per_cpu *pc, unsigned int word)
{
	const u32 *w = (const u32 *)&vmx_cpu(pc)->entry_failure;

	if (!__atomic_load_n(&vmx_cpu(pc)->entry_failure.exit_reason,
			     __ATOMIC_ACQUIRE))
		return 0;
	return w[word];
}

/* The first exit after enable's check of the event exit (vmx.c). */
void vmx_event_exit_checked(struct per_cpu *pc, u32 reason)
{
	u8 check = vmx_cpu(pc)->event_exit_check;

	vmx_cpu(pc)->event_exit_check = EVENT_EXIT_CHECK_NONE;
	if (check == EVENT_EXIT_CHECK_NO_NMI)
		printk("WARNING: CPU %u: its NMI to itself did not arrive; "
		       "the event exit is unchecked\n",
		       pc->cpu_id);
	else if (reason == EXIT_REASON_PREEMPTION_TIMER)
		printk("CPU %u: event exit works: an NMI in the hypervisor "
		       "made the next entry exit at once\n",
		       pc->cpu_id);
	else
		printk("WARNING: CPU %u: the zero VMX-preemption timer did "
		       "not exit at once (first exit: reason %u); a request "
		       "may wait for the guest's next exit\n",
		       pc->cpu_id, reason);
}

/*
 * VMRESUME itself failed (VMfailValid: a control field of ours is wrong,
 * SDM Vol. 3C, 27.2).  On a cell CPU the hypervisor cannot know what else
 * is wrong on it: the CPU is lost.  On a root CPU it stops, with the dump.
 */
void vmx_resume_failed(struct guest_regs *regs)
{
	struct per_cpu *pc = this_cpu();

	printk("FATAL: CPU %u: VMRESUME failed, VM-instruction error %llu\n",
	       pc->cpu_id, (unsigned long long)vmread(VM_INSTRUCTION_ERROR));
	printk("CPU %u: state at the failed entry: RIP 0x%llx, RSP 0x%llx\n"
	       "  RAX 0x%llx RBX 0x%llx RCX 0x%llx RDX 0x%llx RSI 0x%llx "
	       "RDI 0x%llx\n",
	       pc->cpu_id, (unsigned long long)vmread(GUEST_RIP),
	       (unsigned long long)vmread(GUEST_RSP),
	       (unsigned long long)regs->rax, (unsigned long long)regs->rbx,
	       (unsigned long long)regs->rcx, (unsigned long long)regs->rdx,
	       (unsigned long long)regs->rsi, (unsigned long long)regs->rdi);
	if (pc->cell != &hv.root) {
		cell_cpu_lost_here(pc, 0, vmread(GUEST_RIP));
		arch_cpu_halt_lost(pc);
	}
	for (;;)
		asm volatile("cli; hlt");
}
