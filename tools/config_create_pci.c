// SPDX-License-Identifier: GPL-2.0
/*
 * "warden config create": the PCI functions of /sys/bus/pci/devices
 * (config_create_parts.h): ids, class and driver, the interrupt pin and
 * the MSI and MSI-X capabilities from config space, the BARs from
 * resource, the GSI of the INTx as Linux routes it, and the requester id
 * a bridge above it puts on its DMA (dma_alias).
 */
#include <dirent.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <warden/config.h>

#include "config_create_parts.h"

/* Is gsi an input of an IOAPIC of the MADT (24 pins each, as written)? */
static bool gsi_in_ioapic(const struct platform *p, uint64_t gsi)
{
	unsigned int i;

	for (i = 0; i < p->madt.n_ioapics; i++)
		if (gsi >= p->madt.ioapic[i].gsi_base &&
		    gsi < (uint64_t)p->madt.ioapic[i].gsi_base +
				    p->ioapic_pins[i])
			return true;
	return false;
}

/* A number in a small /sys file ("0x8086\n", "11\n"); -1: unreadable. */
static long long sys_number(const struct gen *g, const char *dir,
			    const char *file, int base)
{
	char path[128], *text, *endp;
	long long v;

	snprintf(path, sizeof(path), "%.63s/%.32s", dir, file);
	text = cc_slurp(g, path, NULL);
	if (!text)
		return -1;
	v = strtoll(text, &endp, base);
	if (endp == text)
		v = -1;
	free(text);
	return v;
}

/* Linux's resource flags (include/linux/ioport.h of the kernel). */
#define IORESOURCE_IO 0x100ull
#define IORESOURCE_MEM 0x200ull
#define IORESOURCE_PREFETCH 0x2000ull
#define IORESOURCE_MEM_64 0x100000ull
#define IORESOURCE_DISABLED 0x10000000ull
#define IORESOURCE_UNSET 0x20000000ull

/* PCI configuration space (PCI Local Bus 3.0, 6.1, 6.7). */
#define PCI_STATUS 0x06
#define PCI_STATUS_CAP_LIST 0x10
#define PCI_CAP_PTR 0x34
#define PCI_INTERRUPT_PIN 0x3d
#define PCI_CAP_MSI 0x05
#define PCI_CAP_MSIX 0x11

static void read_config_space(const struct gen *g, const char *dir,
			      struct pci_fn *f)
{
	char path[128];
	const uint8_t *cfg;
	unsigned int ptr, hops;
	size_t len = 0;
	char *text;

	snprintf(path, sizeof(path), "%.63s/config", dir);
	text = cc_slurp(g, path, &len);
	if (!text)
		return;
	cfg = (const uint8_t *)text;
	if (len > PCI_INTERRUPT_PIN)
		f->int_pin = cfg[PCI_INTERRUPT_PIN];
	/* the capability list: a chain of (id, next) from 0x34; without
	 * root, Linux shows only the first 64 bytes */
	if (len > PCI_CAP_PTR && !(cfg[PCI_STATUS] & PCI_STATUS_CAP_LIST))
		f->caps_read = true;
	else if (len > 0x40) {
		f->caps_read = true;
		ptr = cfg[PCI_CAP_PTR] & 0xfc;
		for (hops = 0; ptr >= 0x40 && ptr + 1 < len && hops < 48;
		     hops++) {
			if (cfg[ptr] == PCI_CAP_MSI)
				f->msi = true;
			if (cfg[ptr] == PCI_CAP_MSIX)
				f->msix = true;
			ptr = cfg[ptr + 1] & 0xfc;
		}
		if (ptr >= len)
			f->caps_read = false;
	}
	free(text);
}

static void read_resources(const struct gen *g, const char *dir,
			   struct pci_fn *f)
{
	unsigned long long start, end, flags;
	const char *p, *eol;
	char path[128], *text;
	unsigned int b;

	snprintf(path, sizeof(path), "%.63s/resource", dir);
	text = cc_slurp(g, path, NULL);
	if (!text)
		return;
	/* one line per resource; the first six are the BARs */
	for (p = text, b = 0; *p && b < WARDEN_PCI_BARS; b++) {
		eol = strchr(p, '\n');
		if (sscanf(p, "%llx %llx %llx", &start, &end, &flags) == 3 &&
		    (flags & (IORESOURCE_IO | IORESOURCE_MEM)) &&
		    (start || end) && end >= start) {
			f->bar[b].unset = flags & (IORESOURCE_UNSET |
						   IORESOURCE_DISABLED);
			f->bar[b].address = start;
			f->bar[b].size = end - start + 1;
			f->bar[b].flags = flags & IORESOURCE_IO
						  ? WARDEN_PCI_BAR_IO
					  : flags & IORESOURCE_MEM_64
						  ? WARDEN_PCI_BAR_MEM64
						  : 0;
			if ((flags & IORESOURCE_MEM) &&
			    (flags & IORESOURCE_PREFETCH))
				f->bar[b].flags |= WARDEN_PCI_BAR_PREFETCH;
		}
		if (!eol)
			break;
		p = eol + 1;
	}
	free(text);
}

/* The GSI of the function's INTx: /sys's irq when an IOAPIC input. */
static void intx_gsi(const struct pci_fn *fn, long long irq,
		     const struct platform *plat, const struct pins *pins,
		     struct pci_fn *f)
{
	size_t i;

	(void)fn;
	f->gsi = WARDEN_NO_GSI;
	if (!f->int_pin) {
		snprintf(f->gsi_why, sizeof(f->gsi_why), "no INTx pin");
		return;
	}
	if (irq <= 0) {
		snprintf(f->gsi_why, sizeof(f->gsi_why),
			 "irq %lld: Linux routed no INTx", irq);
		return;
	}
	for (i = 0; i < pins->n_irqs; i++)
		if (pins->irqs[i].irq == irq)
			break;
	/* with MSI on, Linux shows the MSI's IRQ there, not the INTx */
	if (i < pins->n_irqs && pins->irqs[i].chip != IRQ_IOAPIC) {
		snprintf(f->gsi_why, sizeof(f->gsi_why),
			 "irq %lld is not an IO-APIC line in /proc/interrupts "
			 "(MSI): the INTx route is unknown",
			 irq);
		return;
	}
	if (i < pins->n_irqs) {
		f->gsi = pins->irqs[i].gsi;
		snprintf(f->gsi_why, sizeof(f->gsi_why),
			 "irq %lld, an IO-APIC line in /proc/interrupts", irq);
		return;
	}
	if (!gsi_in_ioapic(plat, (uint64_t)irq)) {
		snprintf(f->gsi_why, sizeof(f->gsi_why),
			 "irq %lld is not an input of an IOAPIC of the MADT",
			 irq);
		return;
	}
	/* unused IRQs of GSIs are numbered by the GSI */
	f->gsi = (uint32_t)irq;
	snprintf(f->gsi_why, sizeof(f->gsi_why), "irq %lld", irq);
}

/*
 * The function's IRQ as Linux routes it.  Until a driver enables it, its
 * irq file holds the firmware's interrupt line; Linux routes the INTx
 * (ACPI _PRT) when the function is enabled.  So with probe_intx, on the
 * live machine, a function with an INTx pin and no driver is enabled for
 * a moment through its sysfs enable attribute (decoding on, no bus
 * mastering) and disabled again; *probed says so.  Enabling may program
 * an ACPI interrupt link, which Linux does not undo: hence an option.
 */
static long long routed_irq(const struct gen *g, const char *dir,
			    const struct pci_fn *f, bool *probed)
{
	char path[128];
	long long irq;
	FILE *e;

	*probed = false;
	if (!g->o->probe_intx || f->driver[0] || !f->int_pin || g->o->root[0] ||
	    sys_number(g, dir, "enable", 10) != 0)
		return sys_number(g, dir, "irq", 10);
	snprintf(path, sizeof(path), "%.63s/enable", dir);
	e = fopen(path, "w");
	if (!e || fputs("1", e) == EOF || fclose(e)) {
		if (e)
			fclose(e);
		return sys_number(g, dir, "irq", 10);
	}
	irq = sys_number(g, dir, "irq", 10);
	e = fopen(path, "w");
	if (e) {
		fputs("0", e);
		fclose(e);
	}
	*probed = true;
	return irq;
}

#define PCI_CAP_EXP 0x10
#define PCI_SECONDARY_BUS 0x19
#define PCI_EXP_TYPE_PCI_BRIDGE 0x7  /* PCIe-to-PCI/PCI-X bridge */
#define PCI_EXP_TYPE_PCIE_BRIDGE 0x8 /* PCI/PCI-X-to-PCIe bridge */

/* The requester id bridge (its sysfs name) puts on the DMA it forwards
 * upstream, or -1 when it keeps the requester's (PCIe ports).  The rule
 * of Linux's pci_for_each_dma_alias (drivers/pci/search.c), which the
 * VT-d driver maps too: a PCIe-to-PCI bridge makes the requests of its
 * conventional side its secondary bus with device and function 0, a
 * conventional bridge (no PCI Express capability) and a PCI-to-PCIe
 * bridge their own id. */
static int bridge_alias(const struct gen *g, const char *bridge,
			unsigned int bdf, char *why, size_t why_len)
{
	char path[128];
	const uint8_t *cfg;
	unsigned int ptr, hops, type = 0;
	bool pcie = false;
	size_t len = 0;
	char *text;
	int alias = -1;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%.31s/config",
		 bridge);
	text = cc_slurp(g, path, &len);
	if (!text)
		return -1;
	cfg = (const uint8_t *)text;
	ptr = len > 0x40 && (cfg[PCI_STATUS] & PCI_STATUS_CAP_LIST)
		      ? cfg[PCI_CAP_PTR] & 0xfc
		      : 0;
	for (hops = 0; ptr >= 0x40 && ptr + 3 < len && hops < 48; hops++) {
		if (cfg[ptr] == PCI_CAP_EXP) {
			pcie = true;
			type = (cfg[ptr + 2] >> 4) & 0xf;
			break;
		}
		ptr = cfg[ptr + 1] & 0xfc;
	}
	if (len <= 0x40) {
		/* unprivileged: the capabilities are not shown */
		snprintf(why, why_len,
			 "unknown: bridge %s's capabilities not readable "
			 "(run as root)",
			 bridge);
	} else if (pcie && type == PCI_EXP_TYPE_PCI_BRIDGE &&
		   len > PCI_SECONDARY_BUS) {
		alias = cfg[PCI_SECONDARY_BUS] << 8;
		snprintf(why, why_len, "behind the PCIe-to-PCI bridge %s",
			 bridge);
	} else if (!pcie || type == PCI_EXP_TYPE_PCIE_BRIDGE) {
		alias = (int)bdf;
		snprintf(why, why_len, "behind the %s bridge %s",
			 pcie ? "PCI-to-PCIe" : "conventional PCI", bridge);
	}
	free(text);
	return alias;
}

/* f's alias: its device path (the sysfs link, e.g.
 * ../../../devices/pci0000:00/0000:00:1e.0/0000:05:00.0) names the
 * bridges above it; the one nearest the root bus whose id goes on the
 * requests is what the IOMMU sees. */
static void dma_alias(const struct gen *g, const char *link, struct pci_fn *f)
{
	unsigned int dom, bus, dev, fn;
	const char *p = link, *slash;
	char name[32], extra;
	int a;

	f->alias = -1;
	f->alias_why[0] = '\0';
	while ((slash = strchr(p, '/'))) {
		snprintf(name, sizeof(name), "%.*s",
			 (int)(slash - p < 31 ? slash - p : 31), p);
		p = slash + 1;
		if (sscanf(name, "%x:%x:%x.%x%c", &dom, &bus, &dev, &fn,
			   &extra) != 4 ||
		    dom != f->domain || bus > 0xff || dev > 0x1f || fn > 7)
			continue;
		a = bridge_alias(g, name, bus << 8 | dev << 3 | fn,
				 f->alias_why, sizeof(f->alias_why));
		if (a >= 0) {
			f->alias = a; /* the first from the root wins */
			return;
		}
	}
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct pci_fn *)a)->name,
		      ((const struct pci_fn *)b)->name);
}

size_t cc_read_pci(const struct gen *g, const struct platform *plat,
		   const struct pins *pins, struct pci_fn **out)
{
	const char *base = "/sys/bus/pci/devices";
	char full[4096], dir[64], link[512];
	struct dirent *de;
	struct pci_fn *f, *list = NULL;
	size_t n = 0;
	ssize_t len;
	DIR *d;

	snprintf(full, sizeof(full), "%s%s", g->o->root, base);
	d = opendir(full);
	*out = NULL;
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		unsigned int dom, bus, dev, fn;
		long long irq;
		bool probed;
		char extra;

		if (sscanf(de->d_name, "%x:%x:%x.%x%c", &dom, &bus, &dev, &fn,
			   &extra) != 4 ||
		    dom > 0xffff || bus > 0xff || dev > 0x1f || fn > 7)
			continue;
		list = cc_xrealloc(list, (n + 1) * sizeof(*list));
		f = &list[n++];
		memset(f, 0, sizeof(*f));
		snprintf(f->name, sizeof(f->name), "%.31s", de->d_name);
		f->domain = dom;
		f->bus = bus;
		f->dev = dev;
		f->fn = fn;
		snprintf(dir, sizeof(dir), "%s/%.31s", base, de->d_name);
		f->vendor = (unsigned int)sys_number(g, dir, "vendor", 16);
		f->device = (unsigned int)sys_number(g, dir, "device", 16);
		f->class = (unsigned int)sys_number(g, dir, "class", 16);
		snprintf(full, sizeof(full), "%s%s/driver", g->o->root, dir);
		len = readlink(full, link, sizeof(link) - 1);
		if (len > 0) {
			link[len] = '\0';
			snprintf(f->driver, sizeof(f->driver), "%.63s",
				 strrchr(link, '/') ? strrchr(link, '/') + 1
						    : link);
		}
		snprintf(full, sizeof(full), "%s%s", g->o->root, dir);
		len = readlink(full, link, sizeof(link) - 1);
		link[len > 0 ? len : 0] = '\0';
		dma_alias(g, link, f);
		read_config_space(g, dir, f);
		read_resources(g, dir, f);
		irq = routed_irq(g, dir, f, &probed);
		intx_gsi(f, irq, plat, pins, f);
		if (probed)
			snprintf(f->gsi_why + strlen(f->gsi_why),
				 sizeof(f->gsi_why) - strlen(f->gsi_why),
				 " (enabled for a moment: no driver)");
		else if (f->int_pin && !f->driver[0] && f->gsi != WARDEN_NO_GSI)
			snprintf(f->gsi_why + strlen(f->gsi_why),
				 sizeof(f->gsi_why) - strlen(f->gsi_why),
				 " (no driver: the firmware's line; "
				 "--probe-intx asks Linux's routing)");
	}
	closedir(d);
	qsort(list, n, sizeof(*list), by_name);
	*out = list;
	return n;
}
