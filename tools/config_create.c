// SPDX-License-Identifier: GPL-2.0
/* "warden config create" (see config_create.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acpi.h"
#include "config_create.h"
#include "config_values.h"

#define PAGE 0x1000ull
#define MIB 0x100000ull
#define MAX_FILE (1u << 20)
#define LAPIC_DEFAULT 0xfee00000ull

/* A line of /proc/iomem or /proc/ioports. */
struct res {
	uint64_t start, end; /* end inclusive, as Linux prints it */
	unsigned int depth;  /* indentation level */
	char name[80];
	char line[128]; /* trimmed, for comments */
};

struct res_list {
	struct res *r;
	size_t n;
};

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

static void parse_resources(const char *text, struct res_list *l)
{
	const char *p = text, *eol, *colon;
	unsigned long long start, end;
	unsigned int spaces;
	struct res *r;
	size_t n;

	l->r = NULL;
	l->n = 0;
	for (; *p; p = *eol ? eol + 1 : eol) {
		eol = strchr(p, '\n');
		if (!eol)
			eol = p + strlen(p);
		for (spaces = 0; p[spaces] == ' '; spaces++)
			;
		colon = strstr(p, " : ");
		if (!colon || colon > eol ||
		    sscanf(p + spaces, "%llx-%llx", &start, &end) != 2 ||
		    end < start)
			continue;
		l->r = xrealloc(l->r, (l->n + 1) * sizeof(*l->r));
		r = &l->r[l->n++];
		r->start = start;
		r->end = end;
		r->depth = spaces / 2;
		n = (size_t)(eol - colon - 3);
		snprintf(r->name, sizeof(r->name), "%.*s", (int)n, colon + 3);
		n = (size_t)(eol - p - spaces);
		snprintf(r->line, sizeof(r->line), "%.*s", (int)n, p + spaces);
	}
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

/* memmap=SIZE$ADDR (or SIZE\$ADDR) on the kernel command line. */
static int memmap(const char *cmdline, uint64_t *start, uint64_t *size,
		  char *text, size_t len)
{
	const char *p = cmdline, *why;
	char tok[128], *dollar, *addr;
	size_t n;

	while (*p) {
		while (*p == ' ' || *p == '\n' || *p == '\t')
			p++;
		n = strcspn(p, " \n\t");
		snprintf(tok, sizeof(tok), "%.*s", (int)n, p);
		p += n;
		if (strncmp(tok, "memmap=", 7))
			continue;
		dollar = strchr(tok, '$');
		if (!dollar)
			continue;
		addr = dollar + 1;
		if (dollar > tok && dollar[-1] == '\\')
			dollar--;
		*dollar = '\0';
		if (cv_parse_u64(tok + 7, size, &why) ||
		    cv_parse_u64(addr, start, &why))
			continue;
		snprintf(text, len, "memmap=%s$%s", tok + 7, addr);
		return 0;
	}
	return -1;
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
	unsigned int madt_cpus; /* 0: no MADT */
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
	} else {
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

static void write_config(FILE *f, struct gen *g, const char *cpus,
			 const char *memmap_text, uint64_t rs, uint64_t rsize,
			 const struct platform *p, const char *com2)
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
		"    mmconfig_end_bus: %u\n",
		p->pm_timer, p->pm_timer_why,
		(unsigned long long)p->mmconfig_base, p->mmconfig_why,
		p->mmconfig_end_bus);
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
	char *iomem = NULL, *ioports = NULL, *cmdline = NULL, *possible;
	char memmap_text[160], cpus[1024], com2[200], *end;
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
	if (!cmdline ||
	    memmap(cmdline, &rs, &rsize, memmap_text, sizeof(memmap_text))) {
		fail(&g,
		     "no memmap=SIZE$ADDR reservation on the kernel command "
		     "line (%s/proc/cmdline); boot Linux with one, e.g. "
		     "memmap=64M$0x30000000, for the hypervisor and cells",
		     o->root);
		goto out;
	}
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
	parse_resources(iomem, &io);
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
		parse_resources(ioports, &ports);
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
	write_config(out, &g, cpus, memmap_text, rs, rsize, &plat, com2);
	ret = 0;
out:
	free(possible);
	free(cmdline);
	free(iomem);
	free(ioports);
	free(io.r);
	free(ports.r);
	free_gen(&g);
	return ret;
}
