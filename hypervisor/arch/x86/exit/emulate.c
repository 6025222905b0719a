// SPDX-License-Identifier: GPL-2.0
/*
 * The instructions the hypervisor carries out for a guest: CPUID (with
 * the features the guest must not see masked), MOV to CR0/CR4 that
 * touched a bit the vendor keeps, and XSETBV.  Every value is checked
 * against the architectural rules (cpu_rules.c) before it reaches the
 * hardware, and refused with the exception the hardware would raise.
 */
#include <asm/access_log.h>
#include <asm/cpu_rules.h>
#include <asm/exit.h>
#include <asm/percpu.h>
#include <asm/processor.h>
#include <asm/vendor.h>
#include <asm/x86_cpu.h>
#include <hv/arch.h>
#include <hv/cell.h>
#include <hv/printk.h>
#include <warden/config.h>
#include <x86/cpuid.h>

struct guest_limits guest_limits;

__cold enum exit_action refuse_guest_value(struct per_cpu *pc, const char *what,
					   u64 value, int rule)
{
	u8 vector = cpu_rule_vector(rule);

	cell_printk(pc->cell,
		    "Cell %u, CPU %u: %s 0x%llx at RIP 0x%llx refused: %s; "
		    "%s injected",
		    pc->cell->id, pc->cpu_id, what, (unsigned long long)value,
		    (unsigned long long)vcpu_rip(), cpu_rule_name(rule),
		    vector == UD_VECTOR ? "#UD" : "#GP");
	return vector == UD_VECTOR ? EXIT_INJECT_UD : EXIT_INJECT_GP;
}

/* What CPUID answers any guest: the CPU's values, with what the
 * hypervisor keeps for itself taken out and the bits that follow the
 * guest's own CR4 set from it; leaf 0x40000000 names the hypervisor. */
static inline void cpuid_view(u32 leaf, u32 sub, u32 *a, u32 *b, u32 *c, u32 *d)
{
	struct cpu_view v;

	if (leaf == 0x40000000) {
		/* "WardenWarden" identifies the hypervisor */
		*a = 0x40000000;
		*b = 0x64726157; /* "Ward" */
		*c = 0x61576e65; /* "enWa" */
		*d = 0x6e656472; /* "rden" */
		return;
	}
	cpuid(leaf, sub, a, b, c, d);
	switch (leaf) {
	case 1:
		vcpu_view(&v);
		*c &= ~CPUID1_ECX_VMX; /* no VMX for guests */
		/* OSXSAVE follows the guest's CR4 */
		*c &= ~CPUID1_ECX_OSXSAVE;
		if (v.cr4 & X86_CR4_OSXSAVE)
			*c |= CPUID1_ECX_OSXSAVE;
		break;
	case 7:
		if (sub)
			break;
		vcpu_view(&v);
		*c &= ~CPUID7_ECX_OSPKE; /* follows the guest's CR4 */
		if (v.cr4 & X86_CR4_PKE)
			*c |= CPUID7_ECX_OSPKE;
		break;
	case 0x80000001:
		/* no SVM for guests (AMD; reserved on Intel) */
		*c &= ~CPUID80000001_ECX_SVM;
		break;
	case 0x8000000a:
		/* SVM's own leaf: nothing to offer */
		*a = *b = *c = *d = 0;
		break;
	}
}

/* A cell's CPUID: a Linux cell's hypervisor leaves are cpuid_linux's, and
 * every leaf goes into the access log.  Apart from root's path, which is
 * the commonest exit of all and pays for none of it. */
static __attribute__((noinline)) void cpuid_in_cell(struct per_cpu *pc,
						    u32 leaf, u32 sub, u32 *a,
						    u32 *b, u32 *c, u32 *d)
{
	bool is_linux = pc->cell->config->flags & WARDEN_CELL_LINUX;

	if (is_linux && leaf >= 0x40000000 && leaf < 0x40010000)
		*a = *b = *c = *d = 0; /* cpuid_linux answers */
	else
		cpuid_view(leaf, sub, a, b, c, d);
	if (is_linux) {
		cpuid_linux(leaf, sub, a, b, c, d);
		access_log_record(pc, ACCESS_CPUID, leaf, sub, ACCESS_CHANGED);
	} else {
		access_log_record(pc, ACCESS_CPUID, leaf, sub, ACCESS_DONE);
	}
}

enum exit_action x86_handle_cpuid(struct per_cpu *pc, struct guest_regs *regs,
				  const struct x86_exit *e)
{
	u32 leaf = (u32)regs->rax, sub = (u32)regs->rcx;
	u32 a, b, c, d;

	(void)e;
	if (pc->cell == &hv.root)
		cpuid_view(leaf, sub, &a, &b, &c, &d);
	else
		cpuid_in_cell(pc, leaf, sub, &a, &b, &c, &d);
	regs->rax = a;
	regs->rbx = b;
	regs->rcx = c;
	regs->rdx = d;
	return EXIT_SKIP;
}

/*
 * PAE paging outside IA-32e mode: the CPU takes the four PDPTEs from the
 * guest state at the next entry (SDM Vol. 3C, 27.3.2.4), so a MOV to
 * CR0/CR4 that the hypervisor carries out must load them, as the
 * instruction would (SDM Vol. 3, 4.4.1), and refuse reserved bits with
 * #GP.  EXIT_RESUME when loaded or not needed, else the action.
 */
static __cold enum exit_action
load_pdptes(struct per_cpu *pc, const struct cpu_view *old, u64 cr0, u64 cr4)
{
	u64 pdpte[4], base = old->cr3 & 0xffffffe0ull;
	unsigned int i;

	if (!(cr0 & CR0_PG) || !(cr4 & CR4_PAE) || (old->efer & EFER_LME_BIT))
		return EXIT_RESUME;
	if (arch_guest_copy(pc, base, pdpte, sizeof(pdpte), false)) {
		if (pc->cell == &hv.root) {
			cell_printk(pc->cell,
				    "CPU %u: root's PDPTEs at 0x%llx are not "
				    "its memory; #GP injected",
				    pc->cpu_id, (unsigned long long)base);
			return EXIT_INJECT_GP;
		}
		cell_fail(pc, "PDPTE load outside its memory", base,
			  vcpu_rip());
		return EXIT_CELL_FAILED;
	}
	for (i = 0; i < 4; i++)
		if ((pdpte[i] & 1) &&
		    ((pdpte[i] & 0x1e6) ||
		     (guest_limits.phys_bits < 64 &&
		      (pdpte[i] >> guest_limits.phys_bits)))) {
			cell_printk(pc->cell,
				    "Cell %u, CPU %u: PDPTE %u 0x%llx has "
				    "reserved bits (SDM Vol. 3, 4.4.1); #GP "
				    "injected",
				    pc->cell->id, pc->cpu_id, i,
				    (unsigned long long)pdpte[i]);
			return EXIT_INJECT_GP;
		}
	vcpu_set_pdptes(pdpte);
	return EXIT_RESUME;
}

/*
 * MOV to CR0/CR4 that touched a bit the vendor keeps: the whole value is
 * checked against the architectural rules (cpu_rules.c) and refused with
 * the exception the hardware gives; a valid one is what the guest reads
 * back.  Emulating the write, we also do what the CPU does when paging is
 * switched with EFER.LME set: IA-32e mode starts or ends and EFER.LMA
 * follows (SDM Vol. 3, 10.8.5); Linux's real-mode trampoline sets PG and
 * NE in one write.
 */
__cold enum exit_action x86_handle_cr(struct per_cpu *pc,
				      struct guest_regs *regs,
				      const struct x86_exit *e)
{
	struct cpu_view v;
	enum exit_action act;
	u64 value, efer;
	int rule;

	if (e->cr.cr != 0 && e->cr.cr != 4) {
		cell_printk(pc->cell,
			    "CPU %u: unexpected CR access (qualification "
			    "0x%llx) at RIP 0x%llx, #UD injected",
			    pc->cpu_id, (unsigned long long)e->qualification,
			    (unsigned long long)vcpu_rip());
		return EXIT_INJECT_UD;
	}
	value = e->cr.gpr == 4 ? vcpu_rsp() : ((u64 *)regs)[e->cr.gpr];
	vcpu_view(&v);
	if (e->cr.cr == 0) {
		rule = cr0_check(&v, &value, guest_limits.cr0_allowed);
		if (rule)
			return refuse_guest_value(pc, "MOV to CR0", value,
						  rule);
		act = load_pdptes(pc, &v, value, v.cr4);
		if (act != EXIT_RESUME)
			return act;
		efer = efer_after_cr0(&v, value);
		if (efer != v.efer)
			vcpu_set_efer(efer);
		vcpu_set_cr0(value);
	} else {
		rule = cr4_check(&v, value, guest_limits.cr4_allowed);
		if (rule)
			return refuse_guest_value(pc, "MOV to CR4", value,
						  rule);
		act = load_pdptes(pc, &v, v.cr0, value);
		if (act != EXIT_RESUME)
			return act;
		vcpu_set_cr4(value);
	}
	return EXIT_SKIP;
}

/*
 * XSETBV: the value is checked against every rule of SDM Vol. 1, 13.3
 * (cpu_rules.c) before the hypervisor executes the instruction itself;
 * the exception table catches what the checks might miss.
 */
__cold enum exit_action x86_handle_xsetbv(struct per_cpu *pc,
					  struct guest_regs *regs,
					  const struct x86_exit *e)
{
	u64 value = (regs->rdx << 32) | (u32)regs->rax;
	struct cpu_view v;
	int rule;

	(void)e;
	vcpu_view(&v);
	rule = xcr0_check(&v, (u32)regs->rcx, value,
			  guest_limits.xcr0_supported);
	if (rule)
		return refuse_guest_value(pc, "XSETBV", value, rule);
	if (!xsetbv_safe(0, value)) {
		cell_printk(pc->cell,
			    "Cell %u, CPU %u: XSETBV 0x%llx faulted in the "
			    "hypervisor although it passed the checks; #GP "
			    "injected",
			    pc->cell->id, pc->cpu_id,
			    (unsigned long long)value);
		return EXIT_INJECT_GP;
	}
	return EXIT_SKIP;
}
