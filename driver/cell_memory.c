// SPDX-License-Identifier: GPL-2.0
/*
 * Memory Linux uses is not a cell's (cell create).
 *
 * The hypervisor checks a cell's memory against the system config: inside
 * root's regions, clear of the hypervisor, other cells and what it traps.
 * It cannot know which of root's memory Linux is using right now: a config
 * that gives a cell part of Linux's System RAM (say the config was written
 * for another memmap=), ACPI tables Linux still reads, or a range a driver
 * claimed, passes the hypervisor and then takes the memory from under
 * Linux, which crashes root.  Only Linux knows, from its resource tree
 * (/proc/iomem).  So create refuses a region that overlaps:
 *   - System RAM,
 *   - ACPI Tables and ACPI Non-volatile Storage,
 *   - any busy resource (a driver's request_mem_region), unless it lies
 *     inside a BAR of one of the cell's own PCI functions: cell create
 *     unbinds their drivers, and --check runs while they are bound.
 * memmap= reservations are "Reserved" and not busy (arch/x86/kernel/
 * e820.c: do_mark_busy), so the pool cells come from passes.
 */
#include <linux/ioport.h>
#include <linux/kernel.h>

#include <warden/cell.h>
#include <warden/config.h>

#include "warden-driver.h"

/* The first resource of a walk, clipped to the walk's range. */
struct found {
	bool any;
	u64 start, end;
	unsigned long flags;
	const struct warden_cell_desc *desc; /* skip its BARs; NULL: none */
};

static bool in_own_bar(const struct warden_cell_desc *desc, u64 start, u64 end)
{
	const struct warden_pci_device *d = warden_cell_pci_devices(desc);
	const struct warden_pci_bar *b;
	unsigned int i, n;

	for (i = 0; i < desc->num_pci_devices; i++)
		for (n = 0; n < WARDEN_PCI_BARS; n++) {
			b = &d[i].bars[n];
			if (b->size && !(b->flags & WARDEN_PCI_BAR_IO) &&
			    start >= b->address &&
			    end <= b->address + b->size - 1)
				return true;
		}
	return false;
}

static int first(struct resource *res, void *arg)
{
	struct found *f = arg;

	if (f->desc && in_own_bar(f->desc, res->start, res->end))
		return 0;
	f->any = true;
	f->start = res->start;
	f->end = res->end;
	f->flags = res->flags;
	return 1; /* stop */
}

/* What Linux uses of [start, start + size) among resources with flags
 * and desc, in f; false: nothing. */
static bool uses(u64 start, u64 size, unsigned long flags, unsigned long desc,
		 const struct warden_cell_desc *cell, struct found *f)
{
	*f = (struct found){ .desc = cell };
	walk_iomem_res_desc(desc, flags, start, start + size - 1, f, first);
	return f->any;
}

int wd_cell_check_linux_memory(struct warden_error *err,
			       const struct warden_cell_desc *desc)
{
	const struct warden_mem_region *r = warden_cell_mem_regions(desc);
	struct wd_reason why = { .rule = WARDEN_RULE_MEM_LINUX_USES,
				 .item_kind = WARDEN_ITEM_MEMORY_REGION,
				 .cpu = WARDEN_NO_CPU };
	struct found f;
	unsigned int i;

	for (i = 0; i < desc->num_memory_regions; i++) {
		if ((r[i].flags & WARDEN_MEM_COMM_REGION) || !r[i].size)
			continue;
		if (uses(r[i].phys_start, r[i].size, IORESOURCE_SYSTEM_RAM,
			 IORES_DESC_NONE, NULL, &f))
			why.text = "System RAM";
		else if (uses(r[i].phys_start, r[i].size, IORESOURCE_MEM,
			      IORES_DESC_ACPI_TABLES, NULL, &f))
			why.text = "ACPI Tables";
		else if (uses(r[i].phys_start, r[i].size, IORESOURCE_MEM,
			      IORES_DESC_ACPI_NV_STORAGE, NULL, &f))
			why.text = "ACPI Non-volatile Storage";
		else if (uses(r[i].phys_start, r[i].size,
			      IORESOURCE_MEM | IORESOURCE_BUSY, IORES_DESC_NONE,
			      desc, &f))
			why.text = "a driver's (busy)";
		else
			continue;
		why.item_index = i;
		why.values[0] = r[i].phys_start;
		why.values[1] = r[i].size;
		why.values[2] = f.start;
		why.values[3] = f.end;
		return wd_error(err, -EBUSY, &why,
				"cell create: memory region %u 0x%llx+0x%llx "
				"overlaps 0x%llx-0x%llx, %s in /proc/iomem: "
				"Linux uses it",
				i, r[i].phys_start, r[i].size, f.start, f.end,
				why.text);
	}
	return 0;
}
