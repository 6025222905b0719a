// SPDX-License-Identifier: GPL-2.0
/*
 * "warden cell linux CELLCONFIG KERNEL [--initrd FILE] [--cmdline ...]":
 * Debian's stock kernel (its /boot/vmlinuz as shipped, or an ELF vmlinux)
 * in a new cell, with no firmware and no patch (docs/linux-cell.md).  The
 * kernel's loadable segments go to their physical addresses, the
 * initramfs to the top of the RAM below 4 GiB, the first MiB is written
 * whole (tables, start info, command line, the boot stub at the reset
 * address, zeros elsewhere: linux_boot.c); all of it is checked against
 * the cell's loadable memory before the cell is created.  Then the cell is
 * created, loaded and started; its boot CPU enters the kernel's PVH entry
 * through the stub, the kernel starts the others by INIT/SIPI.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <warden/config.h>
#include <warden/ioctl.h>

#include "bzimage.h"
#include "config_yaml.h"
#include "elf_image.h"
#include "link_sysfs.h"
#include "linux_boot.h"
#include "linux_irqs.h"
#include "load_check.h"
#include "warden.h"

#define WHAT "cell linux"
/* Xen's ELF note of the 32-bit PVH entry (xen/include/public/elfnote.h) */
#define XEN_ELFNOTE_PHYS32_ENTRY 18
#define MAX_PIECES (2 + ELF_MAX_SEGMENTS)
#define TSC_KHZ_SYSFS "/sys/class/misc/warden/tsc_khz"

static const char linux_usage[] =
	"Usage: warden cell linux <cell config> <kernel> [--initrd <file>] "
	"[--cmdline <string>]\n\n"
	"Creates the cell, loads a stock Linux kernel into it and starts it: "
	"<kernel> is a\n"
	"bzImage as distributions ship it (/boot/vmlinuz-*, XZ-compressed) "
	"or an ELF\n"
	"vmlinux with a PVH entry. Warden generates ACPI tables and a memory "
	"map from\n"
	"the cell config and a command line (console on the cell's UART, "
	"the TSC rate);\n"
	"--cmdline adds to it. The cell config needs the flags linux and "
	"legacy_quiet,\n"
	"loadable RAM from 0 covering the kernel (16 MiB and up) and a "
	"reset address in\n"
	"0xf2000-0xfffa0 (docs/linux-cell.md). Without RAM at 16 MiB "
	"the bzImage is\n"
	"booted relocated (32-bit boot protocol) in the largest RAM region "
	"above 1 MiB.\n"
	"A cell it created is destroyed again if loading or starting "
	"fails.\n\n"
	"Exit status: 0 started, 1 the cell config is invalid, 2 error (a "
	"file, a refusal).\n";

struct linux_load {
	const char *config, *kernel, *initrd, *extra;
	struct cell_memory mem;
	struct lt_platform plat;
	struct lb_boot boot;
	uint32_t console_port, flags, num_pci;
	/* the cell's PCI view: its functions and its link functions (the
	 * links root's driver lists with this cell as a peer), the highest
	 * bus of either */
	unsigned int num_fns, last_bus;
	unsigned int n;
	struct load_piece pieces[MAX_PIECES];
	struct warden_image images[MAX_PIECES];
	void *data[MAX_PIECES];
	char cmdline[LB_CMDLINE_SIZE + 256];
	/* the 32-bit boot protocol (the kernel relocated, not at its PVH
	 * address): its setup header, the memory it needs from its load
	 * address (init_size), its longest command line */
	bool boot32;
	uint8_t setup_header[LB_BP_E820_TABLE - LB_BP_SETUP_HEADER];
	uint32_t init_size, cmdline_size;
};

static void add(struct linux_load *l, void *data, uint64_t size,
		uint64_t address, const char *what)
{
	l->data[l->n] = data;
	l->images[l->n].source_ptr = (uintptr_t)data;
	l->images[l->n].size = size;
	l->images[l->n].guest_address = address;
	snprintf(l->pieces[l->n].what, sizeof(l->pieces[l->n].what), "%s",
		 what);
	l->pieces[l->n].address = address;
	l->pieces[l->n].size = size;
	l->n++;
}

/* The APIC ID of Linux's CPU cpu from /proc/cpuinfo: -1 if not listed
 * (offline). */
static long apic_id_of(unsigned int cpu)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];
	long current = -1, id = -1;
	unsigned int v;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "processor : %u", &v) == 1)
			current = v;
		else if (current == (long)cpu &&
			 sscanf(line, "apicid : %u", &v) == 1) {
			id = v;
			break;
		}
	}
	fclose(f);
	return id;
}

/* The cell's PCI view into l: its own functions and its peers of the
 * links (docs/linux-cell.md "Network"), whose functions the hypervisor
 * emulates at their bdf; the links as root's driver lists them (none if
 * it lists none: then the cell sees none either, Warden is not enabled). */
static void pci_view_of(struct linux_load *l, const struct warden_cell_desc *d)
{
	const struct warden_pci_device *fn = warden_cell_pci_devices(d);
	struct link_state *links = NULL;
	char err[256];
	size_t n = 0, i;
	unsigned int j, bus;

	l->num_fns = d->num_pci_devices;
	l->last_bus = 0;
	for (j = 0; j < d->num_pci_devices; j++)
		if ((unsigned int)(fn[j].bdf >> 8) > l->last_bus)
			l->last_bus = fn[j].bdf >> 8;
	if (link_read_all(LINK_SYSFS, &links, &n, err, sizeof(err)))
		n = 0;
	for (i = 0; i < n; i++)
		for (j = 0; j < links[i].n_peers; j++) {
			if (strncmp(links[i].peers[j].cell, d->name,
				    WARDEN_NAME_LEN))
				continue;
			l->num_fns++;
			if (sscanf(links[i].peers[j].bdf, "%x:", &bus) == 1 &&
			    bus > l->last_bus)
				l->last_bus = bus;
		}
	free(links);
}

/* Root's MADT (/sys/firmware/acpi/tables/APIC) into m: its IOAPICs, at
 * the addresses where the cell reaches them too; -1 and a warning if it
 * cannot be read. */
static int root_madt(struct acpi_madt *m)
{
	static uint8_t t[64 << 10];
	const char *why = NULL;
	size_t len = 0;
	ssize_t got;
	int fd;

	fd = open("/sys/firmware/acpi/tables/APIC", O_RDONLY);
	if (fd < 0) {
		why = strerror(errno);
	} else {
		while ((got = read(fd, t + len, sizeof(t) - len)) > 0)
			len += (size_t)got;
		close(fd);
		if (got < 0)
			why = strerror(errno);
		else if (!acpi_parse_madt(t, len, m, &why))
			return 0;
	}
	fprintf(stderr,
		"warden: " WHAT ": warning: root's MADT "
		"(/sys/firmware/acpi/tables/APIC): %s: the cell's tables "
		"give no interrupt of an IOAPIC pin\n",
		why);
	return -1;
}

/* The cell config's CPUs, UARTs and RAM into the platform. */
static int platform_of(struct linux_load *l, const struct cy_config *c)
{
	const struct warden_cell_desc *d =
		(const void *)(c->blob + sizeof(struct warden_config_header));
	const struct warden_pio_range *pio = warden_cell_pio_ranges(d);
	static const uint16_t uarts[] = { 0x3f8, 0x2f8, 0x3e8, 0x2e8 };
	unsigned int cpu, i, j;
	long id;

	l->flags = d->flags;
	l->num_pci = d->num_pci_devices;
	pci_view_of(l, d);
	l->console_port = d->console.type == WARDEN_CONSOLE_UART_PIO
				  ? (uint32_t)d->console.address
				  : 0;
	for (cpu = 0; cpu < WARDEN_MAX_CPUS; cpu++) {
		if (!warden_cpu_in_set(&d->cpus, cpu))
			continue;
		id = apic_id_of(cpu);
		if (id < 0) {
			fprintf(stderr,
				"warden: " WHAT ": CPU %u of %s is not in "
				"/proc/cpuinfo (offline, or in a cell "
				"already): its APIC ID goes into the cell's "
				"MADT\n",
				cpu, l->config);
			return -1;
		}
		if (l->plat.num_cpus == LT_MAX_CPUS) {
			fprintf(stderr, "warden: " WHAT ": more than %d CPUs\n",
				LT_MAX_CPUS);
			return -1;
		}
		l->plat.apic_ids[l->plat.num_cpus++] = (uint32_t)id;
	}
	/* a legacy UART whose 8 ports the cell owns */
	for (i = 0; i < 4; i++)
		for (j = 0; j < d->num_pio_ranges; j++)
			if (pio[j].base <= uarts[i] &&
			    uarts[i] + 8u <= pio[j].base + pio[j].length) {
				l->plat.uart_ports[l->plat.num_uarts++] =
					uarts[i];
				break;
			}
	/* the interrupts of the pins it owns: a UART's, a function's INTx */
	if (d->num_irq_pins) {
		struct acpi_madt madt;
		unsigned int out;

		out = lt_irqs(&l->plat, warden_cell_irq_pins(d),
			      d->num_irq_pins, warden_cell_pci_devices(d),
			      d->num_pci_devices,
			      root_madt(&madt) ? NULL : &madt);
		if (out)
			fprintf(stderr,
				"warden: " WHAT ": warning: %u interrupt(s) "
				"of the cell's pins left out of its tables "
				"(no IOAPIC in root's MADT holds the pin, or a "
				"function off bus 0): polled UART, no INTx\n",
				out);
	}
	for (i = 0; i < l->mem.num_regions && i < LT_MAX_RAM; i++) {
		l->plat.ram[i].start = l->mem.regions[i].start;
		l->plat.ram[i].size = l->mem.regions[i].size;
	}
	l->plat.num_ram = i;
	return 0;
}

/* Whether a loadable RAM region holds address a. */
static int region_of(const struct linux_load *l, uint64_t a)
{
	unsigned int i;

	for (i = 0; i < l->mem.num_regions; i++)
		if (a >= l->mem.regions[i].start &&
		    a - l->mem.regions[i].start < l->mem.regions[i].size)
			return (int)i;
	return -1;
}

/*
 * The kernel by the 32-bit boot protocol: the bzImage's protected-mode
 * code (the compressed kernel and its decompressor) at the start of the
 * largest RAM region above 1 MiB, aligned to the kernel's alignment; the
 * kernel decompresses itself there (relocatable: it runs where it is
 * loaded, nokaslr) and needs init_size bytes from there.  For a cell
 * whose RAM above the first MiB is at guest = phys (docs/linux-cell.md,
 * "Devices": DMA without an IOMMU), where the PVH entry's fixed address
 * (16 MiB) would be root's.
 */
static int add_kernel32(struct linux_load *l, void *file, size_t size)
{
	struct bzimage_pm pm;
	uint64_t best = 0, at = 0, end = 0, align;
	char why[512];
	unsigned int i;
	void *buf;

	if (bzimage_pm_code(file, size, &pm, why, sizeof(why))) {
		fprintf(stderr,
			"warden: " WHAT ": %s: %s (the cell has no RAM at the "
			"kernel's PVH address 16 MiB, so it boots by the "
			"32-bit boot protocol, relocated)\n",
			l->kernel, why);
		return -1;
	}
	align = pm.kernel_alignment >= 0x200000 ? pm.kernel_alignment
						: 0x200000;
	for (i = 0; i < l->mem.num_regions; i++) {
		uint64_t s = (l->mem.regions[i].start + align - 1) &
			     ~(align - 1);
		uint64_t e = l->mem.regions[i].start + l->mem.regions[i].size;

		if (l->mem.regions[i].start < 0x100000 || s >= e ||
		    e - s <= best)
			continue;
		best = e - s;
		at = s;
		end = e;
	}
	/* below 16 MiB the decompressor would move itself to 16 MiB
	 * (LOAD_PHYSICAL_ADDR); below 4 GiB: a 32-bit entry */
	if (!best || at < 0x1000000 || end > 0x100000000ull ||
	    pm.init_size > best || pm.code_size > pm.init_size) {
		fprintf(stderr,
			"warden: " WHAT ": %s needs %u bytes (init_size) of "
			"RAM from an address aligned to 0x%llx, at or above "
			"16 MiB and below 4 GiB: the cell's largest RAM "
			"region above 1 MiB has 0x%llx from 0x%llx\n",
			l->kernel, pm.init_size, (unsigned long long)align,
			(unsigned long long)best, (unsigned long long)at);
		return -1;
	}
	buf = malloc(pm.code_size);
	if (!buf) {
		fprintf(stderr, "warden: " WHAT ": out of memory\n");
		return -1;
	}
	memcpy(buf, (const uint8_t *)file + pm.code_offset, pm.code_size);
	memcpy(l->setup_header, (const uint8_t *)file + LB_BP_SETUP_HEADER,
	       pm.header_len);
	l->boot.setup_header = l->setup_header;
	l->boot.setup_header_len = pm.header_len;
	l->boot.kernel32 = (uint32_t)at;
	l->init_size = pm.init_size;
	l->cmdline_size = pm.cmdline_size;
	add(l, buf, pm.code_size, at,
	    "the kernel (its protected-mode code, 32-bit boot protocol)");
	return 0;
}

/* The kernel's segments into the pieces and its PVH entry. */
static int add_kernel(struct linux_load *l)
{
	struct elf_image img;
	char why[512], what[64];
	void *file, *elf, *buf;
	size_t size, elf_size;
	uint64_t entry;
	unsigned int i;

	if (cli_read_file(WHAT, l->kernel, &file, &size))
		return -1;
	if (l->boot32) {
		int ret = add_kernel32(l, file, size);

		free(file);
		return ret;
	}
	if (bzimage_is_bzimage(file, size)) {
		if (bzimage_extract(file, size, &elf, &elf_size, why,
				    sizeof(why))) {
			fprintf(stderr, "warden: " WHAT ": %s: %s\n", l->kernel,
				why);
			free(file);
			return -1;
		}
		free(file);
		file = elf;
		size = elf_size;
	}
	if (elf_parse(file, size, &img, why, sizeof(why))) {
		fprintf(stderr, "warden: " WHAT ": %s: %s\n", l->kernel, why);
		free(file);
		return -1;
	}
	if (elf_note(file, size, "Xen", XEN_ELFNOTE_PHYS32_ENTRY, &entry) ||
	    entry >= 0x100000000ull) {
		fprintf(stderr,
			"warden: " WHAT ": %s: no PVH entry (ELF note Xen "
			"XEN_ELFNOTE_PHYS32_ENTRY below 4 GiB): a kernel "
			"built without CONFIG_PVH\n",
			l->kernel);
		free(file);
		return -1;
	}
	l->boot.pvh_entry = (uint32_t)entry;
	for (i = 0; i < img.num_segments; i++) {
		buf = malloc(img.segments[i].mem_size);
		if (!buf) {
			fprintf(stderr, "warden: " WHAT ": out of memory\n");
			free(file);
			return -1;
		}
		elf_segment_bytes(file, &img.segments[i], buf);
		snprintf(what, sizeof(what), "the kernel's segment %u",
			 img.segments[i].index);
		add(l, buf, img.segments[i].mem_size, img.segments[i].address,
		    what);
	}
	free(file);
	return 0;
}

/* The initramfs at the top of the highest RAM region below 4 GiB. */
static int add_initrd(struct linux_load *l)
{
	uint64_t top = 0, at;
	void *data;
	size_t size;
	unsigned int i;

	if (!l->initrd)
		return 0;
	if (cli_read_file(WHAT, l->initrd, &data, &size))
		return -1;
	for (i = 0; i < l->mem.num_regions; i++) {
		at = l->mem.regions[i].start + l->mem.regions[i].size;
		if (at <= 0x100000000ull && at > top &&
		    l->mem.regions[i].size >= size)
			top = at;
	}
	if (!size || top < size) {
		fprintf(stderr,
			"warden: " WHAT ": %s (%zu bytes) fits in no RAM "
			"region of the cell below 4 GiB\n",
			l->initrd, size);
		free(data);
		return -1;
	}
	at = (top - size) & ~0xfffull;
	if (l->boot32 && at < l->boot.kernel32 + (uint64_t)l->init_size &&
	    at + size > l->boot.kernel32) {
		fprintf(stderr,
			"warden: " WHAT ": %s (%zu bytes) at 0x%llx, the "
			"top of the RAM, overlaps the kernel's 0x%x+0x%x "
			"(init_size): the cell needs more RAM\n",
			l->initrd, size, (unsigned long long)at,
			l->boot.kernel32, l->init_size);
		free(data);
		return -1;
	}
	l->boot.initrd_address = at;
	l->boot.initrd_size = size;
	add(l, data, size, at, "the initramfs");
	return 0;
}

/* The driver's TSC rate (sysfs): 0 if it cannot be read. */
static unsigned long tsc_khz(void)
{
	FILE *f = fopen(TSC_KHZ_SYSFS, "r");
	unsigned long khz = 0;

	if (f) {
		if (fscanf(f, "%lu", &khz) != 1)
			khz = 0;
		fclose(f);
	}
	return khz;
}

/* The generated command line, then the user's. */
static int make_cmdline(struct linux_load *l)
{
	static const uint16_t uarts[] = { 0x3f8, 0x2f8, 0x3e8, 0x2e8 };
	unsigned long khz = tsc_khz();
	char console[96] = "", pci[64] = " pci=off";
	unsigned int i;
	int n;

	if (!khz) {
		fprintf(stderr, "warden: " WHAT ": no TSC rate "
				"in " TSC_KHZ_SYSFS " (is Warden enabled?): "
				"the kernel needs it as "
				"tsc_early_khz=\n");
		return -1;
	}
	for (i = 0; i < 4; i++)
		if (l->console_port == uarts[i])
			snprintf(console, sizeof(console),
				 "console=ttyS%u,115200 "
				 "earlycon=uart8250,io,0x%x,115200 ",
				 i, uarts[i]);
	/* tsc_early_khz: there is no PIT, HPET or PM timer to measure it
	 * against; tsc=reliable: no clocksource watchdog without one;
	 * reboot=acpi: the FADT's reset register (a hardware-reduced
	 * machine without EFI would otherwise try EFI, then the BIOS in
	 * real mode: linux arch/x86/kernel/reboot.c, reboot_init);
	 * pci=off: the cell has no PCI function (0xcf8 reads as absent).
	 * With functions (its own or its links'): configuration mechanism
	 * #1, the cell's only one (no MCFG); given by name, Linux skips its
	 * sanity check of it, which wants a host bridge or VGA on bus 0 or
	 * a BIOS date (DMI) the cell has none of (measured: "Using
	 * configuration type 1"); lastbus, as with ACPI and no host bridge
	 * in the DSDT Linux scans no bus but those up to it ("Discovered
	 * peer bus 00"; at least 1, 0 scans none) */
	if (l->num_fns)
		snprintf(pci, sizeof(pci), " pci=conf1,lastbus=%u",
			 l->last_bus ? l->last_bus : 1);
	/* nokaslr (32-bit boot protocol): the kernel stays where it was
	 * loaded, its physical address known (randomized it would still
	 * be in the cell's RAM: the decompressor picks from the e820 map) */
	n = snprintf(l->cmdline, sizeof(l->cmdline),
		     "%stsc_early_khz=%lu tsc=reliable reboot=acpi%s%s%s%s",
		     console, khz, pci, l->boot32 ? " nokaslr" : "",
		     l->extra ? " " : "", l->extra ? l->extra : "");
	if (n >= (int)LB_CMDLINE_SIZE ||
	    (l->boot32 && l->cmdline_size && n > (int)l->cmdline_size)) {
		fprintf(stderr,
			"warden: " WHAT ": the kernel command line has %d "
			"characters, at most %u fit\n",
			n,
			l->boot32 && l->cmdline_size &&
					l->cmdline_size < LB_CMDLINE_SIZE - 1
				? l->cmdline_size
				: LB_CMDLINE_SIZE - 1);
		return -1;
	}
	l->boot.cmdline = l->cmdline;
	return 0;
}

/* Everything read, laid out and checked; nothing created yet. */
static int plan(struct linux_load *l)
{
	struct cy_config c;
	char why[768];
	uint8_t *low;
	int ret;

	if (cy_load_file(&c, l->config)) {
		cy_free(&c);
		return -2;
	}
	ret = cell_memory_from_config(c.blob, c.size, &l->mem);
	if (ret || c.system) {
		fprintf(stderr, "warden: " WHAT ": %s is not a cell config\n",
			l->config);
		cy_free(&c);
		return -1;
	}
	ret = platform_of(l, &c);
	cy_free(&c);
	if (ret)
		return -1;
	if ((l->flags & (WARDEN_CELL_LINUX | WARDEN_CELL_LEGACY_QUIET)) !=
	    (WARDEN_CELL_LINUX | WARDEN_CELL_LEGACY_QUIET)) {
		fprintf(stderr,
			"warden: " WHAT ": %s lacks the cell flags linux and "
			"legacy_quiet: a stock kernel touches MSRs and "
			"legacy ports such a cell is failed for\n",
			l->config);
		return -1;
	}
	l->boot.reset_address = l->mem.reset_address;
	/* PVH where the cell has RAM at the kernel's fixed address (16 MiB,
	 * Debian's p_paddr); else the 32-bit boot protocol, relocated */
	l->boot32 = region_of(l, 0x1000000) < 0;
	if (add_kernel(l) || add_initrd(l) || make_cmdline(l))
		return -1;
	low = malloc(LB_LOW_SIZE);
	if (!low) {
		fprintf(stderr, "warden: " WHAT ": out of memory\n");
		return -1;
	}
	if (lb_low_memory(&l->plat, &l->boot, low, why, sizeof(why))) {
		fprintf(stderr, "warden: " WHAT ": %s\n", why);
		free(low);
		return -1;
	}
	add(l, low, LB_LOW_SIZE, 0,
	    "the first MiB (tables, start info, command line, boot stub)");
	if (load_check_pieces(&l->mem, l->pieces, l->n, why, sizeof(why))) {
		fprintf(stderr, "warden: " WHAT ": %s\n", why);
		return -1;
	}
	return 0;
}

static int run(struct linux_load *l)
{
	struct warden_cell_load arg;
	struct warden_cell_ref ref;
	uint32_t id = 0;
	int fd, ret;

	ret = plan(l);
	if (ret == -2) {
		/* the config itself: cell create says what is wrong */
		return cell_create_file(l->config, true, &id);
	}
	if (ret)
		return EXIT_ERROR;
	ret = cell_create_file(l->config, false, &id);
	if (ret)
		return ret;
	fd = warden_open_device();
	memset(&arg, 0, sizeof(arg));
	arg.cell_id = id;
	arg.num_images = l->n;
	arg.images_ptr = (uintptr_t)l->images;
	memset(&ref, 0, sizeof(ref));
	ref.cell_id = id;
	if (fd < 0 || warden_ioctl(fd, WARDEN_IOCTL_CELL_LOAD, &arg, WHAT) ||
	    warden_ioctl(fd, WARDEN_IOCTL_CELL_START, &ref, WHAT)) {
		if (fd >= 0)
			close(fd);
		cell_destroy_again(WHAT, id);
		return EXIT_ERROR;
	}
	close(fd);
	if (l->boot32)
		printf("Cell %u: Linux started (32-bit boot protocol, kernel "
		       "at 0x%x, command line \"%s\")\n",
		       id, l->boot.kernel32, l->cmdline);
	else
		printf("Cell %u: Linux started (PVH entry 0x%x, command line "
		       "\"%s\")\n",
		       id, l->boot.pvh_entry, l->cmdline);
	return EXIT_OK;
}

int cell_linux_main(int argc, char **argv)
{
	struct linux_load *l;
	int i, ret;

	if (argc >= 2 && !strcmp(argv[1], "--help")) {
		fputs(linux_usage, stdout);
		return EXIT_OK;
	}
	if (argc < 3) {
		fputs(linux_usage, stderr);
		return EXIT_ERROR;
	}
	l = calloc(1, sizeof(*l));
	if (!l) {
		fprintf(stderr, "warden: " WHAT ": out of memory\n");
		return EXIT_ERROR;
	}
	l->config = argv[1];
	l->kernel = argv[2];
	for (i = 3; i < argc; i++) {
		if (!strcmp(argv[i], "--initrd") && i + 1 < argc) {
			l->initrd = argv[++i];
		} else if (!strcmp(argv[i], "--cmdline") && i + 1 < argc) {
			l->extra = argv[++i];
		} else {
			fprintf(stderr,
				"warden: " WHAT ": unknown argument '%s'\n",
				argv[i]);
			free(l);
			return EXIT_ERROR;
		}
	}
	ret = run(l);
	for (i = 0; i < (int)l->n; i++)
		free(l->data[i]);
	free(l);
	return ret;
}
