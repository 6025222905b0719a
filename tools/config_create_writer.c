// SPDX-License-Identifier: GPL-2.0
/*
 * "warden config create": the YAML writer (config_create_parts.h).  The
 * system part, root's memory, ports and pins, the PCI functions and a
 * commented-out links example, every value with its source as a comment.
 */
#include <stdbool.h>
#include <string.h>

#include <warden/config.h>

#include "config_create_parts.h"
#include "config_values.h"

static void comments(FILE *f, const char *indent, const char *notes)
{
	const char *p = notes, *eol;

	while (p && *p) {
		eol = strchr(p, '\n');
		if (!eol)
			eol = p + strlen(p);
		fprintf(f, "%s# %.*s\n", indent, (int)(eol - p), p);
		p = *eol ? eol + 1 : eol;
	}
}

static void write_ioapics(FILE *f, const struct platform *p)
{
	unsigned int i;

	if (!p->madt_cpus) {
		fprintf(f, "  # no ACPI MADT: the IOAPICs are unknown, and "
			   "without them no pin\n"
			   "  # can be given to a cell\n"
			   "  ioapics: []\n");
		return;
	}
	fprintf(f, "  # ACPI MADT; pins: 24 is what IOAPICs have, and "
		   "'warden enable'\n"
		   "  # checks it against each IOAPIC's version register; "
		   "source_id: its\n"
		   "  # requester id from the ACPI DMAR's IOAPIC scope (none "
		   "without one)\n"
		   "  ioapics:\n");
	for (i = 0; i < p->madt.n_ioapics; i++) {
		fprintf(f,
			"    - {address: 0x%x, id: %u, gsi_base: %u, pins: %u",
			p->madt.ioapic[i].address, p->madt.ioapic[i].id,
			p->madt.ioapic[i].gsi_base, p->ioapic_pins[i]);
		if (i < ACPI_MAX_IOAPICS &&
		    p->ioapic_source_id[i] != WARDEN_NO_SOURCE_ID)
			fprintf(f, ", source_id: \"%02x:%02x.%u\"",
				p->ioapic_source_id[i] >> 8,
				(p->ioapic_source_id[i] >> 3) & 0x1f,
				p->ioapic_source_id[i] & 7);
		fprintf(f, "}%s\n",
			p->ioapic_pins[i] > CC_IOAPIC_PINS ? " # more than 24: "
							     "Linux handles "
							     "its pin "
							     "(/proc/"
							     "interrupts)"
							   : "");
	}
}

/* The IOMMU units (ACPI DMAR), each with its PCI scope. */
static void write_iommus(FILE *f, const struct platform *p)
{
	const struct warden_iommu_unit *u;
	const struct warden_iommu_scope *s;
	unsigned int i, k;

	if (!p->n_iommus)
		return;
	fprintf(f, "  # the IOMMU units (ACPI DMAR DRHDs): include_pci_all, "
		   "or the functions\n"
		   "  # and bridges' buses of their device scope\n");
	comments(f, "  ", p->iommu_notes);
	fprintf(f, "  iommus:\n");
	for (i = 0; i < p->n_iommus; i++) {
		u = &p->iommus[i];
		fprintf(f, "    - {base: 0x%llx, segment: %u",
			(unsigned long long)u->base, u->segment);
		if (u->flags & WARDEN_IOMMU_INCLUDE_PCI_ALL)
			fprintf(f, ", include_pci_all: true");
		else
			fprintf(f, ", scope: [");
		for (k = 0; !u->flags && k < u->num_scopes; k++) {
			s = &u->scopes[k];
			if (s->type == WARDEN_IOMMU_SCOPE_BUSES)
				fprintf(f, "%s\"%02x-%02x\"", k ? ", " : "",
					s->bdf >> 8, s->end_bus);
			else
				fprintf(f, "%s\"%02x:%02x.%u\"", k ? ", " : "",
					s->bdf >> 8, (s->bdf >> 3) & 0x1f,
					s->bdf & 7);
		}
		fprintf(f, "%s}\n", u->flags ? "" : "]");
	}
}

static void write_pins(FILE *f, const struct platform *plat,
		       const struct pins *pins)
{
	size_t i;

	if (!pins->read || !plat->madt_cpus) {
		fprintf(f,
			"  # %s: root's pins are unknown\n"
			"  irq_pins: []\n",
			pins->read ? "no ACPI MADT"
				   : "/proc/interrupts cannot be read");
		return;
	}
	fprintf(f, "  # IOAPIC pins Linux has handlers on "
		   "(/proc/interrupts): no cell may\n"
		   "  # take them; remove a device's pin to give it to a "
		   "cell\n");
	fprintf(f, "  irq_pins:%s\n", pins->n ? "" : " []");
	for (i = 0; i < pins->n; i++)
		fprintf(f, "    - %u # %s\n", pins->p[i].gsi, pins->p[i].what);
}

static void write_bar_size(FILE *f, uint64_t size)
{
	char buf[32];

	if (size < 1024)
		fprintf(f, "%llu", (unsigned long long)size);
	else {
		cv_format_size(size, buf, sizeof(buf));
		fprintf(f, "%s", buf);
	}
}

static void write_pci(FILE *f, const struct pci_fn *list, size_t n,
		      bool sys_read)
{
	static const char pins[] = "-ABCD";
	const struct pci_fn *d;
	unsigned int b;
	bool bars;
	size_t i;

	if (!sys_read) {
		fprintf(f, "  # /sys/bus/pci/devices cannot be read: no PCI "
			   "functions\n"
			   "  pci_devices: []\n");
		return;
	}
	fprintf(f, "  # every PCI function of the machine "
		   "(/sys/bus/pci/devices); a cell\n"
		   "  # config that takes one repeats its entry\n");
	fprintf(f, "  pci_devices:%s\n", n ? "" : " []");
	for (i = 0; i < n; i++) {
		d = &list[i];
		fprintf(f, "    # %s: class 0x%06x, %s%s%s\n", d->name,
			d->class, d->driver[0] ? "driver " : "no driver",
			d->driver,
			d->caps_read ? ""
				     : ", capabilities not readable (MSI, "
				       "MSI-X unknown: "
				       "run as root)");
		if (d->domain)
			fprintf(f, "    - bdf: %04x:%02x:%02x.%u\n", d->domain,
				d->bus, d->dev, d->fn);
		else
			fprintf(f, "    - bdf: %02x:%02x.%u\n", d->bus, d->dev,
				d->fn);
		fprintf(f, "      ids: %04x:%04x\n", d->vendor & 0xffff,
			d->device & 0xffff);
		if (d->int_pin <= 4)
			fprintf(f, "      int_pin: %s\n",
				d->int_pin ? (char[]){ pins[d->int_pin], 0 }
					   : "none");
		else
			fprintf(f, "      int_pin: %u # not A-D\n", d->int_pin);
		if (d->gsi == WARDEN_NO_GSI)
			fprintf(f, "      gsi: none # %s\n", d->gsi_why);
		else
			fprintf(f, "      gsi: %u # %s\n", d->gsi, d->gsi_why);
		fprintf(f, "      msi: %s\n      msix: %s\n",
			d->msi ? "true" : "false", d->msix ? "true" : "false");
		if (d->alias >= 0)
			fprintf(f,
				"      dma_alias: \"%02x:%02x.%x\" # its DMA's "
				"requester id %s\n",
				d->alias >> 8, (d->alias >> 3) & 0x1f,
				d->alias & 7, d->alias_why);
		else if (d->alias_why[0])
			fprintf(f, "      # dma_alias %s\n", d->alias_why);
		bars = false;
		for (b = 0; b < WARDEN_PCI_BARS; b++) {
			if (!d->bar[b].size)
				continue;
			if (d->bar[b].unset) {
				fprintf(f,
					"      # BAR %u: not assigned by "
					"Linux, left out\n",
					b);
				continue;
			}
			if (!bars)
				fprintf(f, "      bars:\n");
			bars = true;
			fprintf(f,
				"        - {bar: %u, address: 0x%llx, size: ",
				b, (unsigned long long)d->bar[b].address);
			write_bar_size(f, d->bar[b].size);
			fprintf(f, ", type: %s%s}\n",
				d->bar[b].flags & WARDEN_PCI_BAR_IO	 ? "io"
				: d->bar[b].flags & WARDEN_PCI_BAR_MEM64 ? "mem"
									   "64"
									 : "mem"
									   "32",
				d->bar[b].flags & WARDEN_PCI_BAR_PREFETCH
					? ", prefetch: true"
					: "");
		}
		if (!bars)
			fprintf(f, "      bars: []\n");
	}
}

/*
 * A commented-out links: block.  The machine says nothing about links
 * (they are the user's design), so none is written; the example takes
 * its memory from the top of the cell part of the reservation
 * [pool, end), which a link must lie in (docs/config.md).
 */
static void write_links_example(FILE *f, uint64_t pool, uint64_t end)
{
	const uint64_t size = MIB;
	uint64_t phys = (end - size) & ~(size - 1);

	fprintf(f,
		"# Links (none written: they are yours to design, "
		"docs/config.md): shared\n"
		"# memory between root and cells, or between cells, with "
		"doorbell interrupts.\n"
		"# A link's memory is a power of 2 of at least 64K, aligned "
		"to its size, taken\n"
		"# from the cell part of the memmap= reservation (0x%llx-"
		"0x%llx; no cell's\n"
		"# memory may overlap it). Each peer (2 to 4) is the root "
		"cell or a cell, by\n"
		"# name, and sees the link as a virtual PCI function at bdf "
		"(unused in its\n"
		"# PCI tree): registers at regs (a free 4K page below 4G; "
		"root's in one of its\n"
		"# io regions, clear of every BAR), the memory at shmem "
		"(root: where it is).\n"
		"#links:\n"
		"#  - name: echo\n"
		"#    memory: {phys: 0x%llx, size: 1M}\n"
		"#    access: directional # each peer writes its own part; "
		"or read-write\n"
		"#    peers:\n"
		"#      - {cell: Linux, bdf: 00:10.0, regs: 0xc0100000, "
		"vectors: 3}\n"
		"#      - {cell: my-cell, bdf: 00:01.0, regs: 0x80000000, "
		"shmem: 0x80100000, vectors: 3}\n",
		(unsigned long long)pool, (unsigned long long)end - 1,
		(unsigned long long)(phys >= pool ? phys : pool));
}

void cc_write_config(FILE *f, struct gen *g, const char *cpus,
		     const char *memmap_text, uint64_t rs, uint64_t rsize,
		     const struct platform *p, const char *com2,
		     const struct pins *pins, const struct pci_fn *pci,
		     size_t n_pci, bool pci_read)
{
	char size[32];
	size_t i;

	fprintf(f, "# Warden system config of this machine, written by "
		   "'warden config create'\n"
		   "# from /proc/iomem, /proc/ioports, /proc/cmdline, "
		   "/sys/devices/system/cpu/possible\n"
		   "# and the ACPI tables in /sys/firmware/acpi/tables. "
		   "Review it, then\n"
		   "# 'warden config check' and 'warden enable' it "
		   "(docs/config.md).\n");
	comments(f, "", g->warnings);
	fprintf(f, "system:\n");
	cv_format_size(g->o->hv_size, size, sizeof(size));
	fprintf(f,
		"  # /proc/cmdline: %s reserves 0x%llx+0x%llx;\n"
		"  # the hypervisor takes its first %s\n"
		"  hypervisor_memory:\n    start: 0x%llx\n    size: %s\n",
		memmap_text, (unsigned long long)rs, (unsigned long long)rsize,
		size, (unsigned long long)rs, size);
	fprintf(f,
		"  # the hypervisor's console: COM2, a 16550 at 0x%x "
		"(%s)\n"
		"  debug_console:\n    type: uart\n    port: 0x%x\n"
		"    baud: %u\n",
		CC_DEBUG_PORT, com2, CC_DEBUG_PORT, CC_DEBUG_BAUD);
	fprintf(f,
		"  platform:\n"
		"    tsc_khz: 0 # 0: the driver fills in Linux's value\n"
		"    apic_khz: 0 # 0: the hypervisor calibrates the APIC "
		"timer\n"
		"    pm_timer_port: 0x%x # %s\n"
		"    mmconfig_base: 0x%llx # %s\n"
		"    mmconfig_end_bus: %u\n"
		"    iommu_base: 0x%llx # %s\n"
		"    hpet_base: 0x%llx # %s\n",
		p->pm_timer, p->pm_timer_why,
		(unsigned long long)p->mmconfig_base, p->mmconfig_why,
		p->mmconfig_end_bus, (unsigned long long)p->iommu_base,
		p->iommu_why, (unsigned long long)p->hpet_base, p->hpet_why);
	if (p->hpet_source_id != WARDEN_NO_SOURCE_ID)
		fprintf(f,
			"    hpet_source_id: \"%02x:%02x.%u\" # ACPI DMAR: the "
			"HPET's scope\n",
			p->hpet_source_id >> 8, (p->hpet_source_id >> 3) & 0x1f,
			p->hpet_source_id & 7);
	if (p->iommu_units[0])
		fprintf(f, "  # the IOMMU (ACPI DMAR): %s\n", p->iommu_units);
	write_ioapics(f, p);
	write_iommus(f, p);
	fprintf(f, "root_cell:\n  name: Linux\n");
	if (p->madt_cpus)
		fprintf(f,
			"  # /sys/devices/system/cpu/possible (ACPI MADT: %u "
			"enabled CPUs)\n",
			p->madt_cpus);
	else
		fprintf(f, "  # /sys/devices/system/cpu/possible\n");
	fprintf(f, "  cpus: %s\n  memory:\n", cpus);
	for (i = 0; i < g->n_iv; i++) {
		const struct ival *v = &g->iv[i];

		cv_format_size(v->end - v->start, size, sizeof(size));
		if (v->cls == POOL && v->start == rs + g->o->hv_size)
			fprintf(f, "    # cell memory: the rest of the "
				   "reservation; cells take theirs from "
				   "here\n");
		else if (v->cls == POOL)
			fprintf(f, "    # cell memory: another reservation; "
				   "cells take theirs from here\n");
		comments(f, "    ", v->notes);
		fprintf(f, "    - phys: 0x%llx\n      size: %s\n",
			(unsigned long long)v->start, size);
		fprintf(f, "      flags: %s\n",
			v->cls == DEVICE ? "[read, write, io]"
					 : "[read, write, execute]");
	}
	fprintf(f,
		"  # every port but COM2 (0x%x-0x%x), the hypervisor's "
		"console;\n"
		"  # /proc/ioports lists the ones Linux drives\n"
		"  ports:\n    - 0x0-0x%x\n    - 0x%x-0xffff\n",
		CC_DEBUG_PORT, CC_DEBUG_PORT + 7, CC_DEBUG_PORT - 1,
		CC_DEBUG_PORT + 8);
	write_pins(f, p, pins);
	write_pci(f, pci, n_pci, pci_read);
	write_links_example(f, rs + g->o->hv_size, rs + rsize);
}
