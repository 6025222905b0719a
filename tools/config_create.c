// SPDX-License-Identifier: GPL-2.0
/*
 * "warden config create" (see config_create.h): config_create() reads the
 * CPUs, the memmap= reservation, /proc/iomem and /proc/ioports, then has
 * each source's file add its part (config_create_parts.h) and the writer
 * print the config; and the generator's shared helpers (memory, failures,
 * notes, warnings, reading a file under the root prefix).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <warden/config.h>

#include "config_create.h"
#include "config_create_parts.h"
#include "config_values.h"
#include "iomem.h"
#include "memmap.h"

#define MAX_FILE (1u << 20)

void *cc_xrealloc(void *p, size_t size)
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
void cc_note(char **notes, const char *fmt, ...)
{
	size_t old = *notes ? strlen(*notes) : 0;
	char line[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	*notes = cc_xrealloc(*notes, old + strlen(line) + 2);
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
	cc_note(&g->warnings, "WARNING: %s", line);
}

/* Reads root + path (at most MAX_FILE bytes), NUL-terminated. */
char *cc_slurp(const struct gen *g, const char *path, size_t *len)
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
	buf = cc_xrealloc(NULL, MAX_FILE + 1);
	while (got < MAX_FILE && (n = read(fd, buf + got, MAX_FILE - got)) > 0)
		got += (size_t)n;
	close(fd);
	buf[got] = '\0';
	if (len)
		*len = got;
	return buf;
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

/*
 * memmap= reservations after the first (the hypervisor's): more cell
 * memory, e.g. room for a Linux cell or gigabyte cells above 4 GiB
 * (docs/config.md).  Each is cut from root and listed as cell memory;
 * one that is not page-aligned or not reserved in /proc/iomem is left
 * to root with a warning.
 */
/* CC_HV_SIZE_DEFAULT, and the per-CPU data of every CPU beyond
 * CC_HV_SIZE_CPUS (config_create.h). */
uint64_t cc_default_hv_size(const struct warden_cpu_set *cpus)
{
	unsigned int cpu, n = 0;
	uint64_t extra;

	for (cpu = 0; cpu < WARDEN_MAX_CPUS; cpu++)
		n += warden_cpu_in_set(cpus, cpu) ? 1 : 0;
	if (n <= CC_HV_SIZE_CPUS)
		return CC_HV_SIZE_DEFAULT;
	extra = (uint64_t)(n - CC_HV_SIZE_CPUS) * WARDEN_HV_PERCPU_SIZE;
	return CC_HV_SIZE_DEFAULT + ((extra + MIB - 1) & ~(MIB - 1));
}

/* Does a top-level "Reserved" range of /proc/iomem hold [start, start +
 * size)?  (What memmap=SIZE$ADDR leaves there.) */
static bool reserved_in_iomem(const struct res_list *io, uint64_t start,
			      uint64_t size)
{
	size_t k;

	for (k = 0; k < io->n; k++)
		if (!io->r[k].depth && io->r[k].start <= start &&
		    io->r[k].end >= start + size - 1 &&
		    !strcmp(io->r[k].name, "Reserved"))
			return true;
	return false;
}

#define CC_MAX_RESERVATIONS 8
static void more_reservations(struct gen *g, const char *cmdline,
			      const struct res_list *io)
{
	struct memmap mm[CC_MAX_RESERVATIONS];
	size_t n = memmap_find_all(cmdline, mm, CC_MAX_RESERVATIONS), i;
	struct ival *v;

	for (i = 1; i < n; i++) {
		if ((mm[i].start | mm[i].size) & (PAGE - 1) || !mm[i].size) {
			warning(g, "%s is not page-aligned: left to root",
				mm[i].text);
			continue;
		}
		if (!reserved_in_iomem(io, mm[i].start, mm[i].size)) {
			warning(g,
				"%s is not a reserved range in /proc/iomem: "
				"left to root",
				mm[i].text);
			continue;
		}
		cc_cut(g, mm[i].start, mm[i].start + mm[i].size);
		v = cc_add(g, mm[i].start, mm[i].start + mm[i].size, POOL);
		cc_note(&v->notes, "/proc/cmdline: %s, more cell memory",
			mm[i].text);
	}
}

int config_create(FILE *out, const struct cc_options *o, FILE *warn, char *err,
		  size_t errlen)
{
	struct cc_options opts = *o;
	struct gen g = {
		.o = &opts, .warn = warn, .err = err, .errlen = errlen
	};
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
	uint64_t rs, rsize, hv;
	const char *why;
	struct ival *v;
	bool addresses = false;
	size_t i;
	int ret = -1;

	memset(&plat, 0, sizeof(plat));
	memset(&set, 0, sizeof(set));
	possible = cc_slurp(&g, "/sys/devices/system/cpu/possible", NULL);
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
	if (!opts.hv_size)
		opts.hv_size = cc_default_hv_size(&set);
	hv = opts.hv_size;

	cmdline = cc_slurp(&g, "/proc/cmdline", NULL);
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

	iomem = cc_slurp(&g, "/proc/iomem", NULL);
	if (!iomem) {
		fail(&g, "cannot read %s/proc/iomem: %s", o->root,
		     strerror(errno));
		goto out;
	}
	iomem_parse(iomem, &io);
	for (i = 0; i < io.n; i++)
		if (io.r[i].start || io.r[i].end)
			addresses = true;
	if (!addresses) {
		fail(&g, "%s/proc/iomem shows no addresses: run as root",
		     o->root);
		goto out;
	}
	if (!reserved_in_iomem(&io, rs, rsize))
		warning(&g,
			"%s is not a reserved range in /proc/iomem: is Linux "
			"using that memory?",
			memmap_text);
	ioports = cc_slurp(&g, "/proc/ioports", NULL);
	if (ioports)
		iomem_parse(ioports, &ports);
	else
		warning(&g, "cannot read /proc/ioports: %s", strerror(errno));
	check_com2(&g, &ports, com2, sizeof(com2));

	cc_memory_from_iomem(&g, &io);
	cc_cut(&g, rs, rs + rsize);
	if (rsize > hv) {
		v = cc_add(&g, rs + hv, rs + rsize, POOL);
		cc_note(&v->notes,
			"/proc/cmdline: %s, after the hypervisor's part",
			memmap_text);
	}
	more_reservations(&g, cmdline, &io);
	cc_from_acpi(&g, &io, &ports, &plat);
	cc_tidy(&g);
	cc_read_pins(&g, &plat, &pins);
	cc_fit_ioapic_pins(&plat, &pins);
	snprintf(pci_dir, sizeof(pci_dir), "%s/sys/bus/pci/devices", o->root);
	pci_read = !access(pci_dir, R_OK | X_OK);
	n_pci = cc_read_pci(&g, &plat, &pins, &pci);
	cc_write_config(out, &g, cpus, memmap_text, rs, rsize, &plat, com2,
			&pins, pci, n_pci, pci_read);
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
