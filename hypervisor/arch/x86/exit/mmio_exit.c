// SPDX-License-Identifier: GPL-2.0
/*
 * Emulated MMIO: a second-level fault, or an access to the trapped xAPIC
 * page, in a region of the cell's MMIO registry (hv/mmio.h) is decoded
 * once (guest_decode_mmio: the instruction at CS:RIP), performed by the
 * region's handler with (address, size, direction, value), and the guest
 * resumes after the instruction.  A fault outside every region is today's
 * policy: a cell that touches memory it does not own is failed; root's
 * access is refused with #GP and named on the console.
 */
#include <asm/apic.h>
#include <asm/exit.h>
#include <asm/guest.h>
#include <asm/insn.h>
#include <hv/unit.h>
#include <asm/mmio_insn.h>
#include <asm/vendor.h>
#include <asm/x86_cpu.h>
#include <hv/cell.h>
#include <hv/mmio.h>
#include <hv/printk.h>

static bool in_cell(struct per_cpu *pc)
{
	return pc->cell != &hv.root;
}

static __cold enum exit_action refuse(struct per_cpu *pc, u64 gpa,
				      const char *why)
{
	cell_printk(pc->cell,
		    "CPU %u: %s MMIO access to 0x%llx at RIP 0x%llx refused: "
		    "%s (#GP injected)",
		    pc->cpu_id, in_cell(pc) ? "cell" : "root",
		    (unsigned long long)gpa, (unsigned long long)vcpu_rip(),
		    why);
	return EXIT_INJECT_GP;
}

/* The access at gpa that exited (write: the exit's direction), to a
 * region of the cell's registry: decode, dispatch, apply. */
static enum exit_action emulate(struct per_cpu *pc, struct guest_regs *regs,
				u64 gpa, bool write)
{
	u64 *gpr = (u64 *)regs;
	struct mmio_insn insn;
	int err;

	err = guest_decode_mmio(pc, &insn);
	if (!err && insn.write != write)
		err = INSN_UNSUPPORTED;
	if (err)
		return refuse(pc, gpa, insn_error_name(err));
	/* struct guest_regs has no RSP: the decoder's register file does */
	if (insn.reg == 4 && !insn.reg_high8)
		gpr[4] = vcpu_rsp();
	switch (mmio_insn_perform(&pc->cell->mmio, pc, &insn, gpa, gpr)) {
	case MMIO_HANDLED:
		break;
	case MMIO_CELL_FAILED:
		return EXIT_CELL_FAILED;
	case MMIO_NO_REGION:
		return refuse(pc, gpa, "crosses the end of a device region");
	default:
		return refuse(pc, gpa, "the device refused it");
	}
	if (!insn.write && insn.reg == 4 && !insn.reg_high8)
		vcpu_set_rsp(gpr[4]);
	vcpu_advance_rip(insn.length);
	return EXIT_RESUME;
}

enum exit_action x86_handle_mmio(struct per_cpu *pc, struct guest_regs *regs,
				 const struct x86_exit *e)
{
	const char *how = e->mmio.write	  ? "write"
			  : e->mmio.fetch ? "fetch"
					  : "read";
	const char *why;

	if (!e->mmio.fetch && mmio_lookup(&pc->cell->mmio, e->mmio.gpa, 1))
		return emulate(pc, regs, e->mmio.gpa, e->mmio.write);
	if (in_cell(pc)) {
		why = units_fault_reason(pc->cell, e->mmio.gpa, e->mmio.write);
		cell_fail(pc,
			  why		  ? why
			  : e->mmio.write ? "write outside its memory"
			  : e->mmio.fetch ? "fetch outside its memory"
					  : "read outside its memory",
			  e->mmio.gpa, vcpu_rip());
		return EXIT_CELL_FAILED;
	}
	/* root: the hypervisor's memory, a cell's, a link's it is not a
	 * peer of, are never touched */
	why = units_fault_reason(pc->cell, e->mmio.gpa, e->mmio.write);
	cell_printk(pc->cell,
		    "CPU %u: root %s of 0x%llx at RIP 0x%llx refused%s%s (#GP "
		    "injected)",
		    pc->cpu_id, how, (unsigned long long)e->mmio.gpa,
		    (unsigned long long)vcpu_rip(), why ? ": " : "",
		    why ? why : "");
	return EXIT_INJECT_GP;
}

/* The trapped xAPIC page (the vendor tells the offset): the page is a
 * region of the registry like any other. */
enum exit_action x86_handle_xapic(struct per_cpu *pc, struct guest_regs *regs,
				  const struct x86_exit *e)
{
	u64 gpa = apic_xapic_page(pc->cell) + e->xapic.offset;

	if (!e->xapic.linear)
		return refuse(pc, gpa, "not a data access of an instruction");
	return emulate(pc, regs, gpa, e->xapic.write);
}
