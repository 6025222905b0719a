// SPDX-License-Identifier: GPL-2.0
/* Device interrupt destinations (contracts in asm/irq_dest.h). */
#include <asm/apic_dest.h>
#include <asm/irq_dest.h>
#include <asm/pci.h>
#include <asm/iommu.h>
#include <asm/percpu.h>
#include <hv/cell.h>
#include <hv/hypervisor.h>

#define ICR_DEST_LOGICAL (1u << 11)

const char *irq_root_dest_refused(bool x2apic, u32 low, u32 dest)
{
	struct apic_target t;
	unsigned int cpu;

	if (x2apic && (low & ICR_DEST_LOGICAL))
		return "logical destination on an x2APIC machine";
	for (cpu = 0; cpu < hv.num_cpus; cpu++) {
		if (cpu_in_set(&hv.root.cpus, cpu))
			continue;
		t.apic_id = per_cpu(cpu)->apic_id;
		t.ldr = 0;
		t.dfr = 0xffffffff;
		if (apic_is_destination(false, low, dest, &t, false))
			return "destination includes a CPU root gave to a cell";
	}
	return NULL;
}

/* The cell that has cpu now, or joining if it is one of its. */
static const char *cpu_owner(unsigned int cpu, const struct cell *joining)
{
	unsigned int i;

	if (joining && cpu_in_set(&joining->cpus, cpu))
		return joining->config->name;
	for (i = 0; i < HV_MAX_CELLS; i++)
		if (hv.cells[i] && hv.cells[i] != &hv.root &&
		    cpu_in_set(&hv.cells[i]->cpus, cpu))
			return hv.cells[i]->config->name;
	return "no cell";
}

const char *irq_root_remapped_refused(bool x2apic, u32 low, u32 dest,
				      const struct cell *joining, u32 *apic_id,
				      const char **owner)
{
	bool logical = low & ICR_DEST_LOGICAL, named = false;
	struct apic_target t;
	unsigned int cpu;
	u32 id;

	t.dfr = 0xffffffff;
	for (cpu = 0; cpu < hv.num_cpus; cpu++) {
		id = per_cpu(cpu)->apic_id;
		/* an x2APIC's logical id follows from its APIC ID (cluster
		 * 31:16, one bit of 15:0); a cell CPU's xAPIC LDR is 0
		 * (apic_cell_reset), as in irq_root_dest_refused; a remapped
		 * entry has no shorthand, so a physical destination is the
		 * APIC ID or the broadcast */
		t.apic_id = id;
		t.ldr = x2apic ? (id >> 4) << 16 | 1u << (id & 0xf) : 0;
		if (!apic_is_destination(x2apic, low, dest, &t, false))
			continue;
		named = true;
		if (cpu_in_set(&hv.root.cpus, cpu) &&
		    !(joining && cpu_in_set(&joining->cpus, cpu)))
			continue;
		*apic_id = id;
		*owner = cpu_owner(cpu, joining);
		return "destination belongs to a cell";
	}
	if (!named && !logical) {
		*apic_id = dest;
		*owner = NULL;
		return "destination names no CPU";
	}
	return NULL;
}

const char *irq_root_remappable_refused(void)
{
	return iommu_remaps_interrupts() ? NULL
					 : "remappable format, but no IOMMU "
					   "remaps interrupts";
}

const char *irq_root_msi_refused(bool x2apic, u32 addr_lo, u32 addr_hi,
				 u32 data)
{
	if (addr_hi || (addr_lo & MSI_ADDR_BASE_MASK) != MSI_ADDR_BASE)
		return "MSI address outside the local APICs' window";
	if (addr_lo & MSI_ADDR_REMAPPABLE)
		return irq_root_remappable_refused();
	return irq_root_dest_refused(x2apic, msi_as_icr(addr_lo, data),
				     msi_dest(addr_lo));
}

const char *irq_cell_dest(const struct cell *cell, u32 low, u32 dest,
			  u32 *apic_id)
{
	const char *why = apic_cell_device_dest_refused(low, dest);
	unsigned int cpu;

	if (why)
		return why;
	for (cpu = 0; cpu < hv.num_cpus; cpu++) {
		if (per_cpu(cpu)->apic_id != dest)
			continue;
		if (!cpu_in_set(&cell->cpus, cpu))
			return "destination is a CPU outside the cell";
		*apic_id = dest;
		return NULL;
	}
	return "destination names none of the cell's CPUs";
}
