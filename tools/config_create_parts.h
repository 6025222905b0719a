/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The parts of "warden config create", private to its files: the
 * generator's state and what each source adds to it.
 *
 *   config_create.c         config_create(), the shared helpers
 *   config_create_memory.c  root's memory regions from /proc/iomem
 *   config_create_acpi.c    device memory and platform values from ACPI
 *   config_create_pins.c    IOAPIC pins from /proc/interrupts
 *   config_create_pci.c     PCI functions from /sys/bus/pci/devices
 *   config_create_writer.c  the YAML config
 */
#ifndef WARDEN_TOOLS_CONFIG_CREATE_PARTS_H
#define WARDEN_TOOLS_CONFIG_CREATE_PARTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <warden/config.h>

#include "acpi.h"
#include "config_create.h"

#define PAGE 0x1000ull
#define MIB 0x100000ull

struct res_list;

/* A line of /proc/iomem or /proc/ioports. */
/* RAM is merged with adjacent RAM, LEGACY (the first MiB) is not. */
enum cls { RAM, LEGACY, DEVICE, POOL };

/* A root memory region being built: [start, end). */
struct ival {
	uint64_t start, end;
	enum cls cls;
	char *notes; /* comment lines, '\n'-separated */
};

/* The generator's state: root's memory regions and the warnings. */
struct gen {
	const struct cc_options *o;
	FILE *warn;
	char *err;
	size_t errlen;
	struct ival *iv;
	size_t n_iv;
	char *warnings; /* for the config's head */
};

/* What the ACPI tables say, each value with its source (why). */
struct platform {
	uint16_t pm_timer;
	char pm_timer_why[160];
	uint64_t mmconfig_base;
	uint8_t mmconfig_end_bus;
	char mmconfig_why[160];
	uint64_t iommu_base;
	char iommu_why[160];
	char iommu_units[512]; /* the DMAR's units in words, "" without one */
	uint64_t hpet_base;
	char hpet_why[160];
	unsigned int madt_cpus; /* 0: no MADT */
	struct acpi_madt madt;	/* its IOAPICs, when madt_cpus */
	/* pins written for each IOAPIC (cc_fit_ioapic_pins) */
	unsigned int ioapic_pins[ACPI_MAX_IOAPICS];
	/* the DMAR (have_dmar) and what cc_iommu_units made of it: the
	 * units, the source ids (WARDEN_NO_SOURCE_ID: no scope), and what
	 * could not be listed ('\n'-separated) */
	bool have_dmar;
	struct acpi_dmar dmar;
	struct warden_iommu_unit iommus[ACPI_DMAR_MAX_UNITS];
	unsigned int n_iommus;
	uint16_t ioapic_source_id[ACPI_MAX_IOAPICS]; /* by MADT order */
	uint16_t hpet_source_id;
	char iommu_notes[512];
};

/* An IOAPIC input Linux has a handler on. */
struct pin {
	uint32_t gsi;
	char what[160]; /* the comment: IRQ, chip line, devices */
};

/* A PCI function of /sys/bus/pci/devices. */
struct pci_fn {
	char name[32]; /* 0000:00:03.0 */
	unsigned int domain, bus, dev, fn;
	unsigned int vendor, device, class;
	char driver[64];
	uint8_t int_pin;
	uint32_t gsi; /* WARDEN_NO_GSI: none */
	char gsi_why[128];
	bool msi, msix, caps_read;
	int alias;	    /* the other requester id of its DMA, or -1 */
	char alias_why[96]; /* which bridge makes it */
	struct {
		uint64_t address, size;
		uint32_t flags; /* WARDEN_PCI_BAR_* */
		bool unset;	/* Linux did not assign it */
	} bar[WARDEN_PCI_BARS];
};

/* What /proc/interrupts says of a Linux IRQ. */
enum irq_chip { IRQ_UNLISTED, IRQ_IOAPIC, IRQ_OTHER };

struct intr {
	unsigned int irq;
	enum irq_chip chip;
	uint32_t gsi;
};

/* /proc/interrupts: root's pins and every IRQ line. */
struct pins {
	struct pin *p;
	size_t n;
	struct intr *irqs;
	size_t n_irqs;
	bool read; /* /proc/interrupts was readable */
};

/* config_create.c */
void *cc_xrealloc(void *p, size_t size);
/* Appends a line to a '\n'-separated list. */
void cc_note(char **notes, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Reads root + path (at most 1 MiB), NUL-terminated; NULL and errno. */
char *cc_slurp(const struct gen *g, const char *path, size_t *len);

/* config_create_memory.c */
struct ival *cc_add(struct gen *g, uint64_t start, uint64_t end, enum cls cls);
/* Removes [start, end) from every interval, splitting where needed. */
void cc_cut(struct gen *g, uint64_t start, uint64_t end);
/* Sorts, drops empty intervals, clips overlaps, merges adjacent RAM. */
void cc_tidy(struct gen *g);
/* Device memory from ACPI: added where no interval covers it yet. */
void cc_device(struct gen *g, uint64_t addr, uint64_t size, const char *what);
/* The intervals of /proc/iomem's top-level lines, the first MiB apart. */
void cc_memory_from_iomem(struct gen *g, const struct res_list *io);

/* config_create_acpi.c: device memory into g, platform values into p. */
void cc_from_acpi(struct gen *g, const struct res_list *io,
		  const struct res_list *ports, struct platform *p);

/* config_create_iommu.c: p->iommus and the source ids from p->dmar. */
void cc_iommu_units(const struct gen *g, struct platform *p);
/* The IOAPIC with MADT id gets source id sid. */
void cc_ioapic_source(struct platform *p, uint8_t id, uint16_t sid);
/* Appends a line to p->iommu_notes. */
void cc_note_iommu(struct platform *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* config_create_pins.c */
/* Root's pins (sorted by GSI) and Linux's IRQs from /proc/interrupts. */
void cc_read_pins(const struct gen *g, const struct platform *plat,
		  struct pins *out);
/* p->ioapic_pins: 24 per IOAPIC, more where Linux handles a higher pin. */
void cc_fit_ioapic_pins(struct platform *p, const struct pins *pins);

/* config_create_pci.c: the functions, sorted by name, into *out. */
size_t cc_read_pci(const struct gen *g, const struct platform *plat,
		   const struct pins *pins, struct pci_fn **out);

/* config_create_writer.c */
void cc_write_config(FILE *f, struct gen *g, const char *cpus,
		     const char *memmap_text, uint64_t rs, uint64_t rsize,
		     const struct platform *p, const char *com2,
		     const struct pins *pins, const struct pci_fn *pci,
		     size_t n_pci, bool pci_read);

#endif /* WARDEN_TOOLS_CONFIG_CREATE_PARTS_H */
