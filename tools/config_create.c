// SPDX-License-Identifier: GPL-2.0
/* "warden config create" (see config_create.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <warden/config.h>

#include "acpi.h"
#include "config_create.h"
#include "config_values.h"
#include "iomem.h"
#include "memmap.h"

#define PAGE 0x1000ull
#define MIB 0x100000ull
#define MAX_FILE (1u << 20)
#define LAPIC_DEFAULT 0xfee00000ull

/* A line of /proc/iomem or /proc/ioports. */
/* RAM is merged with adjacent RAM, LEGACY (the first MiB) is not. */
enum cls { RAM, LEGACY, DEVICE, POOL };

/* A root memory region being built: [start, end). */
struct ival {
	uint64_t start, end;
	enum cls cls;
	char *notes; /* comment lines, '\n'-separated */
};

struct gen {
	const struct cc_options *o;
	FILE *warn;
	char *err;
	size_t errlen;
	struct ival *iv;
	size_t n_iv;
	char *warnings; /* for the config's head */
};

static void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p) {
		perror("warden");
		exit(2);
	}
	return p;
}

static void fail(struct gen *g, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void fail(struct gen *g, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(g->err, g->errlen, fmt, ap);
	va_end(ap);
}

/* Appends a line to a '\n'-separated list. */
static void note(char **notes, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void note(char **notes, const char *fmt, ...)
{
	size_t old = *notes ? strlen(*notes) : 0;
	char line[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	*notes = xrealloc(*notes, old + strlen(line) + 2);
	sprintf(*notes + old, "%s%s", old ? "\n" : "", line);
}

static void warning(struct gen *g, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void warning(struct gen *g, const char *fmt, ...)
{
	char line[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (g->warn)
		fprintf(g->warn, "warden: config create: warning: %s\n", line);
	note(&g->warnings, "WARNING: %s", line);
}

/* Reads root + path (at most MAX_FILE bytes), NUL-terminated. */
static char *slurp(const struct gen *g, const char *path, size_t *len)
{
	char full[4096];
	char *buf = NULL;
	size_t got = 0;
	ssize_t n;
	int fd;

	snprintf(full, sizeof(full), "%s%s", g->o->root, path);
	fd = open(full, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	buf = xrealloc(NULL, MAX_FILE + 1);
	while (got < MAX_FILE && (n = read(fd, buf + got, MAX_FILE - got)) > 0)
		got += (size_t)n;
	close(fd);
	buf[got] = '\0';
	if (len)
		*len = got;
	return buf;
}

static bool is_ram_name(const char *name)
{
	return !strcmp(name, "System RAM") || !strcmp(name, "ACPI Tables") ||
	       !strcmp(name, "ACPI Non-volatile Storage") ||
	       !strcmp(name, "Persistent Memory (legacy)");
}

/*
 * A reserved range is RAM when System RAM lies below and above it, on the
 * same side of 4 GiB (above the last RAM below 4 GiB come the PCI hole
 * and firmware flash).
 */
static bool between_ram(const struct res_list *l, const struct res *r)
{
	const uint64_t four_g = 0x100000000ull;
	bool below = false, above = false, low = r->end < four_g;
	size_t i;

	for (i = 0; i < l->n; i++) {
		if (l->r[i].depth || strcmp(l->r[i].name, "System RAM"))
			continue;
		if (l->r[i].end < r->start)
			below = true;
		if (l->r[i].start > r->end && (!low || l->r[i].end < four_g))
			above = true;
	}
	return below && above;
}

static struct ival *add(struct gen *g, uint64_t start, uint64_t end,
			enum cls cls)
{
	struct ival *v;

	g->iv = xrealloc(g->iv, (g->n_iv + 1) * sizeof(*g->iv));
	v = &g->iv[g->n_iv++];
	v->start = start;
	v->end = end;
	v->cls = cls;
	v->notes = NULL;
	return v;
}

/* Removes [start, end) from every interval, splitting where needed. */
static void cut(struct gen *g, uint64_t start, uint64_t end)
{
	size_t i, n = g->n_iv;
	struct ival *v, *w;

	for (i = 0; i < n; i++) {
		v = &g->iv[i];
		if (v->end <= start || v->start >= end)
			continue;
		if (v->start < start && v->end > end) {
			w = add(g, end, g->iv[i].end, g->iv[i].cls);
			v = &g->iv[i];
			w->notes = v->notes ? strdup(v->notes) : NULL;
			v->end = start;
		} else if (v->start < start) {
			v->end = start;
		} else if (v->end > end) {
			v->start = end;
		} else {
			v->end = v->start; /* dropped when sorted */
		}
	}
}

static int by_start(const void *a, const void *b)
{
	const struct ival *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* Sorts, drops empty intervals, clips overlaps, merges adjacent RAM. */
static void tidy(struct gen *g)
{
	size_t i, out = 0;
	struct ival *prev, *v;

	qsort(g->iv, g->n_iv, sizeof(*g->iv), by_start);
	for (i = 0; i < g->n_iv; i++) {
		v = &g->iv[i];
		prev = out ? &g->iv[out - 1] : NULL;
		if (prev && v->start < prev->end)
			v->start = prev->end < v->end ? prev->end : v->end;
		if (v->start >= v->end) {
			free(v->notes);
			continue;
		}
		if (prev && prev->cls == RAM && v->cls == RAM &&
		    prev->end == v->start) {
			prev->end = v->end;
			if (v->notes)
				note(&prev->notes, "%s", v->notes);
			free(v->notes);
			continue;
		}
		g->iv[out++] = *v;
	}
	g->n_iv = out;
}

/* Device memory from ACPI: added where no interval covers it yet. */
static void device(struct gen *g, uint64_t addr, uint64_t size,
		   const char *what)
{
	uint64_t start = addr & ~(PAGE - 1);
	uint64_t end = (addr + size + PAGE - 1) & ~(PAGE - 1);
	uint64_t pos = start;
	struct ival *v;
	size_t i;
	bool progress = true;

	while (pos < end && progress) {
		progress = false;
		for (i = 0; i < g->n_iv && pos < end; i++) {
			v = &g->iv[i];
			if (v->start <= pos && v->end > pos) {
				note(&v->notes, "%s", what);
				pos = v->end;
				progress = true;
			}
		}
	}
	if (pos >= end)
		return;
	/* the part from pos not covered, up to the next interval */
	for (i = 0; i < g->n_iv; i++)
		if (g->iv[i].start > pos && g->iv[i].start < end)
			end = g->iv[i].start;
	v = add(g, pos, end, DEVICE);
	note(&v->notes, "%s", what);
	if (end < ((addr + size + PAGE - 1) & ~(PAGE - 1)))
		device(g, end, addr + size - end, what);
}

static void legacy(struct gen *g, const struct res_list *io)
{
	size_t first = g->n_iv, i;
	struct ival *v;

	add(g, 0, 0xa0000, LEGACY);
	add(g, 0xa0000, 0xc0000, DEVICE);
	add(g, 0xc0000, MIB, LEGACY);
	v = &g->iv[first];
	note(&v[0].notes, "low RAM below 640 KiB (interrupt vectors, BIOS "
			  "data, EBDA)");
	note(&v[1].notes, "the legacy VGA window: device memory");
	note(&v[2].notes, "option ROMs and the BIOS, which Linux may read");
	for (i = 0; i < io->n; i++) {
		const struct res *r = &io->r[i];

		if (r->start < MIB)
			note(&v[r->start < 0xa0000   ? 0
				: r->start < 0xc0000 ? 1
						     : 2]
				      .notes,
			     "/proc/iomem: %s", r->line);
	}
}

static void memory_from_iomem(struct gen *g, const struct res_list *io)
{
	bool low = false, reserved;
	uint64_t start, end;
	struct ival *v;
	size_t i;

	for (i = 0; i < io->n; i++)
		if (!io->r[i].depth && io->r[i].start < MIB)
			low = true;
	if (low)
		legacy(g, io);
	for (i = 0; i < io->n; i++) {
		const struct res *r = &io->r[i];

		if (r->depth)
			continue;
		start = r->start & ~(PAGE - 1);
		end = (r->end + PAGE) & ~(PAGE - 1);
		if (low && start < MIB) {
			if (end <= MIB)
				continue;
			start = MIB;
		}
		reserved = !strcmp(r->name, "Reserved") ||
			   !strcmp(r->name, "reserved") ||
			   !strncmp(r->name, "Unknown E820", 12);
		v = add(g, start, end,
			is_ram_name(r->name) || (reserved && between_ram(io, r))
				? RAM
				: DEVICE);
		note(&v->notes, "/proc/iomem: %s", r->line);
	}
}

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
			device(g, io->r[i].start,
			       io->r[i].end - io->r[i].start + 1, what);
		}
}

struct platform {
	uint16_t pm_timer;
	char pm_timer_why[160];
	uint64_t mmconfig_base;
	uint8_t mmconfig_end_bus;
	char mmconfig_why[160];
	uint64_t iommu_base;
	char iommu_why[160];
	uint64_t hpet_base;
	char hpet_why[160];
	unsigned int madt_cpus; /* 0: no MADT */
	struct acpi_madt madt;	/* its IOAPICs, when madt_cpus */
	/* pins written for each IOAPIC (fit_ioapic_pins) */
	unsigned int ioapic_pins[ACPI_MAX_IOAPICS];
};

/* Reads table name of /sys/firmware/acpi/tables; NULL and *why. */
static char *table(const struct gen *g, const char *name, size_t *len,
		   const char **why)
{
	char path[128];
	char *t;

	snprintf(path, sizeof(path), "/sys/firmware/acpi/tables/%s", name);
	t = slurp(g, path, len);
	if (!t)
		*why = errno == ENOENT ? "no such table" : strerror(errno);
	return t;
}

static void from_acpi(struct gen *g, const struct res_list *io,
		      const struct res_list *ports, struct platform *p)
{
	struct acpi_mcfg mcfg[ACPI_MAX_MCFG];
	struct acpi_madt madt;
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
		device(g, madt.lapic, PAGE, what);
		for (i = 0; i < madt.n_ioapics; i++) {
			snprintf(what, sizeof(what),
				 "I/O APIC (id %u) at 0x%x, GSIs from %u (ACPI "
				 "MADT)",
				 madt.ioapic[i].id, madt.ioapic[i].address,
				 madt.ioapic[i].gsi_base);
			device(g, madt.ioapic[i].address, PAGE, what);
		}
	} else {
		snprintf(what, sizeof(what),
			 "the local APIC at its default address (ACPI MADT: "
			 "%s)",
			 why);
		device(g, LAPIC_DEFAULT, PAGE, what);
		device_by_name(g, io, "IOAPIC", "an I/O APIC");
	}
	free(t);

	t = table(g, "HPET", &len, &why);
	if (t && !acpi_parse_hpet(t, len, &hpet, &why)) {
		snprintf(what, sizeof(what), "the HPET at 0x%llx (ACPI HPET)",
			 (unsigned long long)hpet);
		device(g, hpet, 0x400, what);
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
			device(g, base,
			       (uint64_t)(mcfg[i].end_bus - mcfg[i].start_bus +
					  1)
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
	if (t && !acpi_parse_dmar(t, len, &p->iommu_base, &why))
		snprintf(p->iommu_why, sizeof(p->iommu_why), "%s",
			 p->iommu_base ? "ACPI DMAR: the DRHD with "
					 "INCLUDE_PCI_ALL, segment 0"
				       : "no Intel IOMMU for all of segment 0 "
					 "(ACPI DMAR: no DRHD with "
					 "INCLUDE_PCI_ALL)");
	else if (t)
		snprintf(p->iommu_why, sizeof(p->iommu_why),
			 "no Intel IOMMU (ACPI DMAR: %s)", why);
	free(t);

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

/* ---- IOAPIC pins (/proc/interrupts) and PCI functions (/sys) ---- */

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

struct pins {
	struct pin *p;
	size_t n;
	struct intr *irqs;
	size_t n_irqs;
	bool read; /* /proc/interrupts was readable */
};

/* The IOAPIC with the lowest GSI base (the one with the ISA IRQs). */
static uint32_t first_gsi_base(const struct platform *p)
{
	uint32_t base = UINT32_MAX;
	unsigned int i;

	for (i = 0; i < p->madt.n_ioapics; i++)
		if (p->madt.ioapic[i].gsi_base < base)
			base = p->madt.ioapic[i].gsi_base;
	return p->madt.n_ioapics ? base : 0;
}

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

/*
 * /proc/interrupts: "  4:  123  0  IO-APIC   4-edge      ttyS0" (or
 * IR-IO-APIC with interrupt remapping).  The number before the trigger is
 * the pin of its IOAPIC; the IOAPIC is not named, so with one IOAPIC (or
 * for the ISA IRQs, which sit on the first) the GSI is that IOAPIC's base
 * plus the pin, and above the ISA IRQs Linux numbers the IRQ of a GSI by
 * the GSI itself.  Kernels before 3.19 print "IO-APIC-edge" without the
 * pin: there the IRQ number stands for the GSI.
 */
static void parse_interrupts(const char *text, const struct platform *plat,
			     struct pins *out)
{
	const char *p = text, *eol, *chip, *t;
	unsigned long irq, pin;
	char *endp, line[512];
	struct intr *in;
	struct pin *pn;
	uint64_t gsi;
	bool old;
	size_t i;

	for (; *p; p = *eol ? eol + 1 : eol) {
		eol = strchr(p, '\n');
		if (!eol)
			eol = p + strlen(p);
		snprintf(line, sizeof(line), "%.*s", (int)(eol - p), p);
		t = line;
		while (*t == ' ')
			t++;
		irq = strtoul(t, &endp, 10);
		if (endp == t || *endp != ':')
			continue; /* the header, NMI:, LOC:, ... */
		out->irqs = xrealloc(out->irqs,
				     (out->n_irqs + 1) * sizeof(*out->irqs));
		in = &out->irqs[out->n_irqs++];
		in->irq = (unsigned int)irq;
		in->chip = IRQ_OTHER;
		chip = strstr(endp, "IO-APIC");
		if (!chip || (chip != endp && chip[-1] != ' ' &&
			      strncmp(chip - 3, "IR-", 3)))
			continue;
		in->chip = IRQ_IOAPIC;
		t = chip + strlen("IO-APIC");
		old = *t == '-';
		if (old) {
			gsi = irq; /* no pin */
		} else {
			while (*t == ' ')
				t++;
			pin = strtoul(t, &endp, 10);
			if (endp == t || *endp != '-')
				continue;
			gsi = plat->madt.n_ioapics > 1 && irq >= 16
				      ? irq
				      : first_gsi_base(plat) + pin;
		}
		if (gsi > UINT32_MAX)
			continue;
		in->gsi = (uint32_t)gsi;
		/* the devices: after the trigger word */
		t = chip;
		while (*t && *t != ' ')
			t++;
		while (*t == ' ')
			t++;
		if (!old && strchr(t, ' ')) {
			t = strchr(t, ' ');
			while (*t == ' ')
				t++;
		}
		for (i = 0; i < out->n; i++)
			if (out->p[i].gsi == gsi)
				break;
		if (i < out->n) {
			pn = &out->p[i];
			snprintf(pn->what + strlen(pn->what),
				 sizeof(pn->what) - strlen(pn->what),
				 "; IRQ %lu: %s", irq, *t ? t : "(no name)");
			continue;
		}
		out->p = xrealloc(out->p, (out->n + 1) * sizeof(*out->p));
		pn = &out->p[out->n++];
		pn->gsi = (uint32_t)gsi;
		snprintf(pn->what, sizeof(pn->what), "IRQ %lu: %s", irq,
			 *t ? t : "(no name)");
	}
}

/*
 * 24 pins per IOAPIC, unless Linux handles a higher GSI below the next
 * IOAPIC's: then the IOAPIC has that pin, and the count covers it (at
 * most 240), so that root's pins stay inside their IOAPIC.
 */
static void fit_ioapic_pins(struct platform *p, const struct pins *pins)
{
	uint64_t base, next, top;
	unsigned int i, j;
	size_t k;

	for (i = 0; i < p->madt.n_ioapics; i++) {
		base = p->madt.ioapic[i].gsi_base;
		next = base + 240;
		for (j = 0; j < p->madt.n_ioapics; j++)
			if (p->madt.ioapic[j].gsi_base > base &&
			    p->madt.ioapic[j].gsi_base < next)
				next = p->madt.ioapic[j].gsi_base;
		top = base + CC_IOAPIC_PINS;
		for (k = 0; k < pins->n; k++)
			if (pins->p[k].gsi >= top && pins->p[k].gsi < next)
				top = (uint64_t)pins->p[k].gsi + 1;
		p->ioapic_pins[i] = (unsigned int)(top - base);
	}
}

static int by_gsi(const void *a, const void *b)
{
	const struct pin *x = a, *y = b;

	return x->gsi < y->gsi ? -1 : x->gsi > y->gsi;
}

static void read_pins(const struct gen *g, const struct platform *plat,
		      struct pins *out)
{
	char *text = slurp(g, "/proc/interrupts", NULL);

	memset(out, 0, sizeof(*out));
	if (!text)
		return;
	out->read = true;
	parse_interrupts(text, plat, out);
	qsort(out->p, out->n, sizeof(*out->p), by_gsi);
	free(text);
}

/* A number in a small /sys file ("0x8086\n", "11\n"); -1: unreadable. */
static long long sys_number(const struct gen *g, const char *dir,
			    const char *file, int base)
{
	char path[128], *text, *endp;
	long long v;

	snprintf(path, sizeof(path), "%.63s/%.32s", dir, file);
	text = slurp(g, path, NULL);
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
	text = slurp(g, path, &len);
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
	text = slurp(g, path, NULL);
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

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct pci_fn *)a)->name,
		      ((const struct pci_fn *)b)->name);
}

static size_t read_pci(const struct gen *g, const struct platform *plat,
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
		list = xrealloc(list, (n + 1) * sizeof(*list));
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
		   "  # checks it against each IOAPIC's version register\n"
		   "  ioapics:\n");
	for (i = 0; i < p->madt.n_ioapics; i++)
		fprintf(f,
			"    - {address: 0x%x, id: %u, gsi_base: %u, pins: "
			"%u}%s\n",
			p->madt.ioapic[i].address, p->madt.ioapic[i].id,
			p->madt.ioapic[i].gsi_base, p->ioapic_pins[i],
			p->ioapic_pins[i] > CC_IOAPIC_PINS ? " # more than 24: "
							     "Linux handles "
							     "its pin "
							     "(/proc/"
							     "interrupts)"
							   : "");
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

static void write_config(FILE *f, struct gen *g, const char *cpus,
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
	write_ioapics(f, p);
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
		if (v->cls == POOL)
			fprintf(f, "    # cell memory: the rest of the "
				   "reservation; cells take theirs from "
				   "here\n");
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

/* Is COM2 free in /proc/ioports?  Writes the reason into why. */
static void check_com2(struct gen *g, const struct res_list *ports, char *why,
		       size_t len)
{
	size_t i;

	snprintf(why, len, "not in /proc/ioports: Linux does not drive it");
	for (i = 0; i < ports->n; i++) {
		const struct res *r = &ports->r[i];

		if (r->start > CC_DEBUG_PORT + 7 || r->end < CC_DEBUG_PORT ||
		    !strncmp(r->name, "PCI Bus", 7))
			continue;
		snprintf(why, len, "/proc/ioports: %s", r->line);
		warning(g,
			"Linux uses ports 0x%x-0x%x (/proc/ioports: %s), "
			"which the hypervisor's console takes; boot Linux "
			"with 8250.nr_uarts=1",
			CC_DEBUG_PORT, CC_DEBUG_PORT + 7, r->line);
		return;
	}
}

static void free_gen(struct gen *g)
{
	size_t i;

	for (i = 0; i < g->n_iv; i++)
		free(g->iv[i].notes);
	free(g->iv);
	free(g->warnings);
}

int config_create(FILE *out, const struct cc_options *o, FILE *warn, char *err,
		  size_t errlen)
{
	struct gen g = { .o = o, .warn = warn, .err = err, .errlen = errlen };
	struct warden_cpu_set set;
	struct res_list io = { 0 }, ports = { 0 };
	struct platform plat;
	struct pins pins = { 0 };
	struct pci_fn *pci = NULL;
	size_t n_pci = 0;
	bool pci_read = false;
	char pci_dir[4200];
	char *iomem = NULL, *ioports = NULL, *cmdline = NULL, *possible;
	struct memmap mm;
	char *memmap_text = mm.text, cpus[1024], com2[200], *end;
	uint64_t rs, rsize, hv = o->hv_size;
	const char *why;
	struct ival *v;
	bool addresses = false, reserved = false;
	size_t i;
	int ret = -1;

	memset(&plat, 0, sizeof(plat));
	memset(&set, 0, sizeof(set));
	possible = slurp(&g, "/sys/devices/system/cpu/possible", NULL);
	if (!possible) {
		fail(&g, "cannot read %s/sys/devices/system/cpu/possible: %s",
		     o->root, strerror(errno));
		goto out;
	}
	for (end = possible + strlen(possible);
	     end > possible && (end[-1] == '\n' || end[-1] == ' ');)
		*--end = '\0';
	if (cv_parse_cpus(possible, &set, &why)) {
		fail(&g, "/sys/devices/system/cpu/possible: '%s' %s", possible,
		     why);
		goto out;
	}
	cv_format_cpus(&set, cpus, sizeof(cpus));

	cmdline = slurp(&g, "/proc/cmdline", NULL);
	if (cmdline && memmap_find(cmdline, &mm) == MEMMAP_MANGLED) {
		fail(&g,
		     "%s on the kernel command line is a reservation GRUB "
		     "mangled (it took '$0' for a variable): write %s in "
		     "/etc/default/grub, run update-grub and reboot",
		     mm.text, mm.fixed);
		goto out;
	}
	if (!cmdline || mm.kind != MEMMAP_FOUND) {
		fail(&g,
		     "no memmap=SIZE$ADDR reservation on the kernel command "
		     "line (%s/proc/cmdline); boot Linux with one, e.g. "
		     "memmap=64M$0x30000000, for the hypervisor and cells",
		     o->root);
		goto out;
	}
	rs = mm.start;
	rsize = mm.size;
	if (hv > rsize || hv < MIB || (hv | rs) & (PAGE - 1)) {
		fail(&g,
		     "%s: the hypervisor's %s must fit in the reservation and "
		     "be page-aligned, at least 1 MiB",
		     memmap_text, hv < MIB ? "size" : "memory");
		goto out;
	}

	iomem = slurp(&g, "/proc/iomem", NULL);
	if (!iomem) {
		fail(&g, "cannot read %s/proc/iomem: %s", o->root,
		     strerror(errno));
		goto out;
	}
	iomem_parse(iomem, &io);
	for (i = 0; i < io.n; i++) {
		if (io.r[i].start || io.r[i].end)
			addresses = true;
		if (!io.r[i].depth && io.r[i].start <= rs &&
		    io.r[i].end >= rs + rsize - 1 &&
		    !strcmp(io.r[i].name, "Reserved"))
			reserved = true;
	}
	if (!addresses) {
		fail(&g, "%s/proc/iomem shows no addresses: run as root",
		     o->root);
		goto out;
	}
	if (!reserved)
		warning(&g,
			"%s is not a reserved range in /proc/iomem: is Linux "
			"using that memory?",
			memmap_text);
	ioports = slurp(&g, "/proc/ioports", NULL);
	if (ioports)
		iomem_parse(ioports, &ports);
	else
		warning(&g, "cannot read /proc/ioports: %s", strerror(errno));
	check_com2(&g, &ports, com2, sizeof(com2));

	memory_from_iomem(&g, &io);
	cut(&g, rs, rs + rsize);
	if (rsize > hv) {
		v = add(&g, rs + hv, rs + rsize, POOL);
		note(&v->notes,
		     "/proc/cmdline: %s, after the hypervisor's part",
		     memmap_text);
	}
	from_acpi(&g, &io, &ports, &plat);
	tidy(&g);
	read_pins(&g, &plat, &pins);
	fit_ioapic_pins(&plat, &pins);
	snprintf(pci_dir, sizeof(pci_dir), "%s/sys/bus/pci/devices", o->root);
	pci_read = !access(pci_dir, R_OK | X_OK);
	n_pci = read_pci(&g, &plat, &pins, &pci);
	write_config(out, &g, cpus, memmap_text, rs, rsize, &plat, com2, &pins,
		     pci, n_pci, pci_read);
	ret = 0;
out:
	free(pins.p);
	free(pins.irqs);
	free(pci);
	free(possible);
	free(cmdline);
	free(iomem);
	free(ioports);
	free(io.r);
	free(ports.r);
	free_gen(&g);
	return ret;
}
