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
