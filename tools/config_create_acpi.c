// SPDX-License-Identifier: GPL-2.0
/*
 * "warden config create": the ACPI tables of /sys/firmware/acpi/tables
 * (config_create_parts.h).  The MADT's local APIC and IOAPICs, the HPET,
 * MCFG's MMCONFIG and DMAR's IOMMU as device memory and platform values,
 * and the PM timer from the FADT or /proc/ioports; /proc/iomem's names
 * when a table is missing.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "acpi.h"
#include "config_create_parts.h"
#include "dmar_report.h"
#include "iomem.h"

#define LAPIC_DEFAULT 0xfee00000ull

/* Device memory named in /proc/iomem (fallback without ACPI tables). */
static void device_by_name(struct gen *g, const struct res_list *io,
			   const char *prefix, const char *why)
{
	char what[200];
	size_t i;

	for (i = 0; i < io->n; i++)
		if (!strncmp(io->r[i].name, prefix, strlen(prefix))) {
			snprintf(what, sizeof(what), "%s (/proc/iomem: %s)",
				 why, io->r[i].line);
			cc_device(g, io->r[i].start,
				  io->r[i].end - io->r[i].start + 1, what);
		}
}

/* Reads table name of /sys/firmware/acpi/tables; NULL and *why. */
/* Is the unit at base one with INCLUDE_PCI_ALL? */
static bool dmar_include_all(const struct acpi_dmar *d, uint64_t base)
{
	unsigned int i;

	for (i = 0; i < d->num_units; i++)
		if (d->units[i].base == base && d->units[i].include_all)
			return true;
	return false;
}

static char *table(const struct gen *g, const char *name, size_t *len,
		   const char **why)
{
	char path[128];
	char *t;

	snprintf(path, sizeof(path), "/sys/firmware/acpi/tables/%s", name);
	t = cc_slurp(g, path, len);
	if (!t)
		*why = errno == ENOENT ? "no such table" : strerror(errno);
	return t;
}

void cc_from_acpi(struct gen *g, const struct res_list *io,
		  const struct res_list *ports, struct platform *p)
{
	struct acpi_mcfg mcfg[ACPI_MAX_MCFG];
	struct acpi_madt madt;
	struct acpi_dmar dmar;
	char what[200];
	const char *why;
	unsigned int i, n;
	uint64_t hpet, base;
	size_t len;
	char *t;

	t = table(g, "APIC", &len, &why);
	if (t && !acpi_parse_madt(t, len, &madt, &why)) {
		p->madt_cpus = madt.cpus;
		p->madt = madt;
		snprintf(what, sizeof(what),
			 "the local APIC at 0x%llx (ACPI MADT)",
			 (unsigned long long)madt.lapic);
		cc_device(g, madt.lapic, PAGE, what);
		for (i = 0; i < madt.n_ioapics; i++) {
			snprintf(what, sizeof(what),
				 "I/O APIC (id %u) at 0x%x, GSIs from %u (ACPI "
				 "MADT)",
				 madt.ioapic[i].id, madt.ioapic[i].address,
				 madt.ioapic[i].gsi_base);
			cc_device(g, madt.ioapic[i].address, PAGE, what);
		}
	} else {
		snprintf(what, sizeof(what),
			 "the local APIC at its default address (ACPI MADT: "
			 "%s)",
			 why);
		cc_device(g, LAPIC_DEFAULT, PAGE, what);
		device_by_name(g, io, "IOAPIC", "an I/O APIC");
	}
	free(t);

	t = table(g, "HPET", &len, &why);
	if (t && !acpi_parse_hpet(t, len, &hpet, &why)) {
		snprintf(what, sizeof(what), "the HPET at 0x%llx (ACPI HPET)",
			 (unsigned long long)hpet);
		cc_device(g, hpet, 0x400, what);
		p->hpet_base = hpet;
		snprintf(p->hpet_why, sizeof(p->hpet_why), "ACPI HPET");
	} else {
		snprintf(p->hpet_why, sizeof(p->hpet_why),
			 "no HPET (ACPI HPET: %s)", t ? why : "no such table");
		device_by_name(g, io, "HPET", "the HPET");
	}
	free(t);

	snprintf(p->mmconfig_why, sizeof(p->mmconfig_why),
		 "no PCI MMCONFIG (ACPI MCFG: no such table)");
	t = table(g, "MCFG", &len, &why);
	if (t && !acpi_parse_mcfg(t, len, mcfg, ACPI_MAX_MCFG, &n, &why)) {
		for (i = 0; i < n; i++) {
			base = mcfg[i].base +
			       ((uint64_t)mcfg[i].start_bus << 20);
			snprintf(what, sizeof(what),
				 "PCI MMCONFIG of segment %u, buses %u-%u "
				 "(ACPI MCFG)",
				 mcfg[i].segment, mcfg[i].start_bus,
				 mcfg[i].end_bus);
			cc_device(g, base,
				  (uint64_t)(mcfg[i].end_bus -
					     mcfg[i].start_bus + 1)
					  << 20,
				  what);
			if (mcfg[i].segment || p->mmconfig_base)
				continue;
			p->mmconfig_base = mcfg[i].base;
			p->mmconfig_end_bus = mcfg[i].end_bus;
			snprintf(p->mmconfig_why, sizeof(p->mmconfig_why),
				 "ACPI MCFG: segment 0, buses %u-%u",
				 mcfg[i].start_bus, mcfg[i].end_bus);
		}
	} else if (t) {
		snprintf(p->mmconfig_why, sizeof(p->mmconfig_why),
			 "no PCI MMCONFIG (ACPI MCFG: %s)", why);
	}
	free(t);

	/* the IOMMU whose interrupt remapping root may use: the one that
	 * covers every device of segment 0 (the hypervisor reads its
	 * remapping table to deliver link doorbells to root) */
	snprintf(p->iommu_why, sizeof(p->iommu_why),
		 "no Intel IOMMU (ACPI DMAR: no such table)");
	t = table(g, "DMAR", &len, &why);
	p->iommu_units[0] = '\0';
	p->have_dmar = false;
	if (t && !acpi_parse_dmar_units(t, len, &dmar, &why)) {
		dmar_describe(&dmar, NULL, NULL, p->iommu_units,
			      sizeof(p->iommu_units));
		p->dmar = dmar;
		p->have_dmar = true;
	}
	if (t && !acpi_parse_dmar(t, len, &p->iommu_base, &why))
		snprintf(p->iommu_why, sizeof(p->iommu_why), "%s",
			 !p->iommu_base ? "no Intel IOMMU for all of segment 0 "
					  "(ACPI DMAR: no DRHD with "
					  "INCLUDE_PCI_ALL, several for "
					  "segment 0)"
			 : dmar_include_all(&dmar, p->iommu_base)
				 ? "ACPI DMAR: the DRHD with INCLUDE_PCI_ALL, "
				   "segment 0"
				 : "ACPI DMAR: the only DRHD of segment 0, its "
				   "device scopes list the devices");
	else if (t)
		snprintf(p->iommu_why, sizeof(p->iommu_why),
			 "no Intel IOMMU (ACPI DMAR: %s)", why);
	free(t);
	cc_iommu_units(g, p);
	/* several units and none for all of segment 0: the config names the
	 * first of segment 0 and lists them all (the hypervisor drives every
	 * unit listed) */
	for (i = 0; !p->iommu_base && i < p->n_iommus; i++)
		if (!p->iommus[i].segment) {
			p->iommu_base = p->iommus[i].base;
			snprintf(p->iommu_why, sizeof(p->iommu_why),
				 "ACPI DMAR: the first of %u units of segment "
				 "0 (all listed)",
				 p->n_iommus);
		}

	p->pm_timer = 0;
	t = table(g, "FACP", &len, &why);
	if (t && !acpi_parse_fadt(t, len, &p->pm_timer, &why) && p->pm_timer)
		snprintf(p->pm_timer_why, sizeof(p->pm_timer_why),
			 "ACPI FADT PM_TMR_BLK");
	free(t);
	for (i = 0; i < ports->n; i++) {
		if (strcmp(ports->r[i].name, "ACPI PM_TMR"))
			continue;
		len = strlen(p->pm_timer_why);
		if (!p->pm_timer) {
			p->pm_timer = (uint16_t)ports->r[i].start;
			len = 0;
		}
		snprintf(p->pm_timer_why + len, sizeof(p->pm_timer_why) - len,
			 "%s/proc/ioports: %s", len ? ", " : "",
			 ports->r[i].line);
		break;
	}
	if (!p->pm_timer)
		snprintf(p->pm_timer_why, sizeof(p->pm_timer_why),
			 "no ACPI PM timer (FADT, /proc/ioports)");
}
