// SPDX-License-Identifier: GPL-2.0
/*
 * "warden config create" (tools/config_create*.c, tools/acpi.c):
 *
 *  - on the files recorded in the Bochs test machine (2 CPUs, 1 GiB,
 *    memmap=64M$0x30000000; tests/unit/fixtures/bochs-2cpu/: /proc/iomem,
 *    /proc/ioports, /proc/cmdline, cpu/possible and the ACPI tables APIC,
 *    HPET, FACP as Linux exported them) the config compiles, validates,
 *    has the expected regions, and the demo cells fit into it;
 *  - on a made-up machine (written to a temporary folder): MCFG, an
 *    x2APIC MADT with two I/O APICs, a DMAR with two IOMMUs, RAM above
 *    4 GiB, no HPET table, a UART on COM2 (a warning), an escaped
 *    memmap=; the links example, uncommented, is valid;
 *  - refusals: no memmap=, /proc/iomem without addresses, missing files;
 *  - the ACPI parsers on damaged tables.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "acpi.h"
#include "cmocka_wrap.h"
#include "config_create.h"
#include "config_create_parts.h"
#include "config_report.h"
#include "config_yaml.h"
#include <config_check.h>

#define BOCHS WARDEN_FIXTURES "/bochs-2cpu"
/* The same machine with /proc/interrupts and /sys/bus/pci/devices: the
 * PIIX functions, a VGA, an e1000 on GSI 11, a virtio-net with MSI-X on
 * GSI 10 and an AHCI controller that Linux drives by MSI. */
#define BOCHS_PCI WARDEN_FIXTURES "/bochs-pci"
/* Recorded in the qemu-svm test machine (q35, interrupt remapping: the
 * IR-IO-APIC lines), no driver bound: the files config create reads. */
#define QEMU_Q35 WARDEN_FIXTURES "/qemu-q35"

/* Runs config create; returns its result, the text in *out. */
static int create(const char *root, uint64_t hv_size, char **out, char *err,
		  size_t errlen, char **warnings)
{
	struct cc_options o = { .root = root, .hv_size = hv_size };
	size_t len = 0, wlen = 0;
	FILE *f, *w;
	int ret;

	*out = NULL;
	*warnings = NULL;
	f = open_memstream(out, &len);
	w = open_memstream(warnings, &wlen);
	assert_non_null(f);
	assert_non_null(w);
	ret = config_create(f, &o, w, err, errlen);
	fclose(f);
	fclose(w);
	if (getenv("VERBOSE"))
		fprintf(stderr, "%s%s%s\n", *out, *warnings, ret ? err : "");
	return ret;
}

static void compile_valid(struct cy_config *c, const char *text)
{
	unsigned int i;

	if (cy_compile(c, "created.yaml", text, strlen(text))) {
		for (i = 0; i < c->n_diags && i < CY_MAX_DIAGS; i++)
			print_message("created.yaml:%u: %s\n", c->diags[i].line,
				      c->diags[i].msg);
		fail_msg("the created config does not compile:\n%s", text);
	}
	if (config_validate(stdout, "", c, NULL, NULL, 0))
		fail_msg("the created config is invalid:\n%s", text);
}

static const struct warden_system_desc *sys_of(const struct cy_config *c)
{
	return (const struct warden_system_desc
			*)(c->blob + sizeof(struct warden_config_header));
}

static const struct warden_mem_region *regions(const struct cy_config *c)
{
	return warden_cell_mem_regions(&sys_of(c)->root_cell);
}

static void expect_region(const struct cy_config *c, unsigned int i,
			  uint64_t phys, uint64_t size, bool io)
{
	const struct warden_mem_region *r = &regions(c)[i];

	assert_true(i < sys_of(c)->root_cell.num_memory_regions);
	if (r->phys_start != phys || r->size != size ||
	    r->guest_start != phys || !!(r->flags & WARDEN_MEM_IO) != io)
		fail_msg("region %u: 0x%llx+0x%llx flags 0x%x, expected "
			 "0x%llx+0x%llx%s",
			 i, (unsigned long long)r->phys_start,
			 (unsigned long long)r->size, r->flags,
			 (unsigned long long)phys, (unsigned long long)size,
			 io ? " io" : "");
	assert_int_equal(r->mem_type,
			 io ? WARDEN_MEMTYPE_UC : WARDEN_MEMTYPE_WB);
}

static void load_cell(struct cy_config *c, const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/cells/%s", WARDEN_CONFIGS, name);
	assert_int_equal(cy_load_file(c, path), 0);
}

static void bochs_fixture(void **state)
{
	struct cy_config c, tiny, apic, smp;
	const struct cy_config *others[1];
	const struct warden_system_desc *s;
	const struct warden_pio_range *pio;
	char *text, *warnings, err[256];

	(void)state;
	assert_int_equal(create(BOCHS, CC_HV_SIZE_DEFAULT, &text, err,
				sizeof(err), &warnings),
			 0);
	assert_string_equal(warnings, "");
	compile_valid(&c, text);
	s = sys_of(&c);
	assert_true(s->hv_mem_start == 0x30000000 && s->hv_mem_size == 6 << 20);
	assert_int_equal(s->debug_console.type, WARDEN_CONSOLE_UART_PIO);
	assert_int_equal(s->debug_console.address, 0x2f8);
	assert_int_equal(s->platform.pm_timer_port, 0xb008);
	assert_true(s->platform.mmconfig_base == 0);
	assert_true(s->platform.iommu_base == 0);
	assert_non_null(strstr(text, "iommu_base: 0x0 # no Intel IOMMU (ACPI "
				     "DMAR: no such table)"));
	assert_non_null(strstr(text, "\n#links:\n"));
	assert_true(s->root_cell.cpus.bits[0] == 3);
	assert_string_equal(s->root_cell.name, "Linux");
	assert_int_equal(s->root_cell.num_memory_regions, 11);
	expect_region(&c, 0, 0, 0xa0000, false);
	expect_region(&c, 1, 0xa0000, 0x20000, true);
	expect_region(&c, 2, 0xc0000, 0x40000, false);
	expect_region(&c, 3, 0x100000, 0x2ff00000, false);
	expect_region(&c, 4, 0x30600000, 0x3a00000, false); /* cells */
	expect_region(&c, 5, 0x34000000, 0xc000000, false); /* + ACPI */
	expect_region(&c, 6, 0xc0000000, 0x3ec00000, true); /* PCI */
	expect_region(&c, 7, 0xfec00000, 0x1000, true);	    /* IOAPIC */
	expect_region(&c, 8, 0xfed00000, 0x1000, true);	    /* HPET */
	expect_region(&c, 9, 0xfee00000, 0x1000, true);	    /* LAPIC */
	expect_region(&c, 10, 0xfffc0000, 0x40000, true);   /* flash */
	pio = warden_cell_pio_ranges(&s->root_cell);
	assert_int_equal(s->root_cell.num_pio_ranges, 2);
	assert_true(pio[0].base == 0 && pio[0].length == 0x2f8);
	assert_true(pio[1].base == 0x300 && pio[1].length == 0xfd00);
	/* every value says where it came from */
	assert_non_null(strstr(text, "# /proc/cmdline: memmap=64M$0x30000000"));
	assert_non_null(strstr(text, "# /proc/iomem: 34000000-3ffeffff : "
				     "System RAM"));
	assert_non_null(strstr(text, "(ACPI MADT)"));
	assert_non_null(strstr(text, "the HPET at 0xfed00000 (ACPI HPET)"));
	assert_non_null(strstr(text, "ACPI FADT PM_TMR_BLK, /proc/ioports: "
				     "b008-b00b : ACPI PM_TMR"));
	assert_non_null(strstr(text, "# /sys/devices/system/cpu/possible "
				     "(ACPI MADT: 2 enabled CPUs)"));

	/* the demo cells on CPU 1 fit; smp-demo needs CPUs 2-3 */
	load_cell(&tiny, "tiny-demo.yaml");
	load_cell(&apic, "apic-demo.yaml");
	load_cell(&smp, "smp-demo.yaml");
	assert_int_equal(config_validate(stdout, "", &tiny, &c, NULL, 0), 0);
	assert_int_equal(config_validate(stdout, "", &apic, &c, NULL, 0), 0);
	others[0] = &tiny;
	assert_int_equal(config_validate(NULL, "", &smp, &c, others, 1), 2);
	cy_free(&tiny);
	cy_free(&apic);
	cy_free(&smp);
	cy_free(&c);
	free(text);
	free(warnings);
}

static const struct warden_pci_device *find_dev(const struct cy_config *c,
						uint16_t bdf)
{
	const struct warden_cell_desc *root = &sys_of(c)->root_cell;
	const struct warden_pci_device *d = warden_cell_pci_devices(root);
	unsigned int i;

	for (i = 0; i < root->num_pci_devices; i++)
		if (d[i].bdf == bdf && !d[i].domain)
			return &d[i];
	fail_msg("no PCI device %04x", bdf);
	return NULL;
}

/* A cell that takes the virtio-net function 00:04.0 of bochs-pci. */
static const char virtio_cell[] =
	"cell:\n"
	"  name: net\n"
	"  cpus: 1\n"
	"  reset_address: 0\n"
	"  memory:\n"
	"    - {phys: 0x30600000, guest: 0, size: 1M, flags: [read, write, "
	"execute, loadable]}\n"
	"    - {guest: 0x100000, size: 4K, flags: [read, write, comm_region]}\n"
	"    - {phys: 0xfebf1000, size: 4K, flags: [read, write, io]}\n"
	"    - {phys: 0xfe000000, size: 16K, flags: [read, write, io]}\n"
	"  ports: [0xc000+32]\n"
	"  irq_pins: [%u]\n"
	"  pci_devices:\n"
	"    - bdf: 00:0%u.0\n"
	"      ids: %s\n"
	"      int_pin: A\n"
	"      gsi: %u\n"
	"      msix: true\n"
	"      dma_unisolated: true\n"
	"      bars:\n"
	"        - {bar: 0, address: 0xc000, size: 32, type: io}\n"
	"        - {bar: 1, address: 0xfebf1000, size: 4K, type: mem32}\n"
	"        - {bar: 4, address: 0xfe000000, size: 16K, type: mem64, "
	"prefetch: true}\n";

struct rule_log {
	uint32_t rules[16];
	unsigned int n;
};

static void log_rule(void *ctx, const struct warden_error *e)
{
	struct rule_log *l = ctx;

	if (l->n < 16)
		l->rules[l->n] = e->rule;
	l->n++;
}

static void bochs_pci_fixture(void **state)
{
	static const uint32_t root_pins[] = { 1, 2, 4, 8, 9, 11, 12, 14, 15 };
	const struct warden_system_desc *s;
	const struct warden_cell_desc *root;
	const struct warden_ioapic *io;
	const struct warden_irq_pin *pins;
	const struct warden_pci_device *d;
	struct cy_config c, cell;
	struct rule_log log = { .n = 0 };
	char *text, *warnings, err[256], yaml[2048];
	unsigned int i;

	(void)state;
	assert_int_equal(create(BOCHS_PCI, CC_HV_SIZE_DEFAULT, &text, err,
				sizeof(err), &warnings),
			 0);
	assert_string_equal(warnings, "");
	compile_valid(&c, text);
	s = sys_of(&c);
	root = &s->root_cell;
	/* the IOAPIC of the MADT, 24 pins */
	assert_int_equal(s->platform.num_ioapics, 1);
	io = warden_system_ioapics(s);
	assert_true(io->address == 0xfec00000 && io->gsi_base == 0 &&
		    io->num_pins == 24 && io->id == 2);
	assert_non_null(strstr(text, "checks it against each IOAPIC's version "
				     "register"));
	/* root's pins: IRQ 0 is GSI 2 (the pin), sorted, each commented */
	assert_int_equal(root->num_irq_pins, 9);
	pins = warden_cell_irq_pins(root);
	for (i = 0; i < 9; i++)
		assert_int_equal(pins[i].gsi, root_pins[i]);
	assert_non_null(strstr(text, "    - 2 # IRQ 0: timer\n"));
	assert_non_null(strstr(text, "    - 11 # IRQ 11: eth0\n"));
	/* every function, with its driver and class as a comment */
	assert_int_equal(root->num_pci_devices, 8);
	assert_non_null(strstr(text, "# 0000:00:03.0: class 0x020000, driver "
				     "e1000\n"));
	assert_non_null(strstr(text, "# 0000:00:00.0: class 0x060000, no "
				     "driver\n"));
	d = find_dev(&c, 0x18); /* e1000: INTA on GSI 11, no MSI */
	assert_true(d->vendor_id == 0x8086 && d->device_id == 0x100e);
	assert_true(d->int_pin == 1 && d->gsi == 11 && d->flags == 0);
	assert_true(d->bars[0].address == 0xfebc0000 &&
		    d->bars[0].size == 0x20000 && d->bars[0].flags == 0);
	assert_true(d->bars[1].address == 0xc040 && d->bars[1].size == 64 &&
		    d->bars[1].flags == WARDEN_PCI_BAR_IO);
	d = find_dev(&c, 0x20); /* virtio: MSI-X, a 64-bit prefetchable BAR */
	assert_true(d->flags == WARDEN_PCI_MSIX && d->gsi == 10);
	assert_true(d->bars[4].flags ==
			    (WARDEN_PCI_BAR_MEM64 | WARDEN_PCI_BAR_PREFETCH) &&
		    d->bars[4].size == 0x4000 && d->bars[5].size == 0);
	d = find_dev(&c, 0x28); /* ahci: on MSI, its INTx route unknown */
	assert_true(d->flags == WARDEN_PCI_MSI && d->int_pin == 1 &&
		    d->gsi == WARDEN_NO_GSI);
	assert_non_null(strstr(text, "gsi: none # irq 24 is not an IO-APIC "
				     "line"));
	d = find_dev(&c, 0x0b); /* PIIX ACPI: INTA on GSI 9 */
	assert_true(d->int_pin == 1 && d->gsi == 9);
	d = find_dev(&c, 0x09); /* PIIX IDE: legacy ports, 1-port BARs */
	assert_true(d->int_pin == 0 && d->bars[1].address == 0x3f6 &&
		    d->bars[1].size == 1 && d->bars[4].address == 0xc080);

	/* a cell takes the virtio function and its pin, DMA unisolated */
	snprintf(yaml, sizeof(yaml), virtio_cell, 10, 4, "1af4:1000", 10);
	assert_int_equal(cy_compile(&cell, "net.yaml", yaml, strlen(yaml)), 0);
	assert_int_equal(config_check_cell(cell.blob, cell.size, c.blob, c.size,
					   NULL, NULL, 0, log_rule, &log),
			 0);
	cy_free(&cell);
	/* the e1000's pin is root's (Linux's eth0 handler) */
	snprintf(yaml, sizeof(yaml), virtio_cell, 11, 3, "8086:100e", 11);
	assert_int_equal(cy_compile(&cell, "net.yaml", yaml, strlen(yaml)), 0);
	assert_true(config_check_cell(cell.blob, cell.size, c.blob, c.size,
				      NULL, NULL, 0, log_rule, &log) > 0);
	for (i = 0; i < log.n && i < 16; i++)
		if (log.rules[i] == WARDEN_RULE_PIN_ROOT_NEEDS)
			break;
	assert_true(i < log.n);
	cy_free(&cell);
	cy_free(&c);
	free(text);
	free(warnings);
}

/* A cell with the SMBus function 00:1f.3 of qemu-q35 (GSI 10, which the
 * AHCI function 00:1f.2 shares); with_ahci: both functions. */
static void q35_cell(char *buf, size_t len, bool with_ahci)
{
	snprintf(buf, len,
		 "cell:\n"
		 "  name: smbus\n"
		 "  cpus: 1\n"
		 "  memory:\n"
		 "    - {phys: 0x30600000, guest: 0, size: 1M, flags: [read, "
		 "write, execute, loadable]}\n"
		 "    - {guest: 0x100000, size: 4K, flags: [read, write, "
		 "comm_region]}\n"
		 "%s"
		 "  ports: [0x700+64%s]\n"
		 "  irq_pins: [10]\n"
		 "  pci_devices:\n"
		 "    - {bdf: 00:1f.3, ids: 8086:2930, int_pin: A, gsi: 10, "
		 "dma_unisolated: true,\n"
		 "       bars: [{bar: 4, address: 0x700, size: 64, type: "
		 "io}]}\n"
		 "%s",
		 with_ahci ? "    - {phys: 0xfebff000, size: 4K, flags: [read, "
			     "write, io]}\n"
			   : "",
		 with_ahci ? ", 0xc040+32" : "",
		 with_ahci ? "    - {bdf: 00:1f.2, ids: 8086:2922, int_pin: A, "
			     "gsi: 10, msi: true, dma_unisolated: true,\n"
			     "       bars: [{bar: 4, address: 0xc040, size: "
			     "32, type: io},\n"
			     "              {bar: 5, address: 0xfebff000, "
			     "size: 4K, type: mem32}]}\n"
			   : "");
}

static void qemu_q35_fixture(void **state)
{
	static const uint32_t root_pins[] = { 1, 2, 4, 8, 9, 12 };
	const struct warden_system_desc *s;
	const struct warden_pci_device *d;
	struct rule_log log = { .n = 0 };
	struct cy_config c, cell;
	char *text, *warnings, err[256], yaml[2048];
	unsigned int i;

	(void)state;
	assert_int_equal(create(QEMU_Q35, CC_HV_SIZE_DEFAULT, &text, err,
				sizeof(err), &warnings),
			 0);
	compile_valid(&c, text);
	s = sys_of(&c);
	assert_int_equal(s->platform.num_ioapics, 1);
	assert_true(warden_system_ioapics(s)->address == 0xfec00000 &&
		    warden_system_ioapics(s)->num_pins == 24);
	assert_true(s->platform.mmconfig_base == 0xb0000000);
	/* IR-IO-APIC lines; DMAR-MSI is not an IOAPIC input */
	assert_int_equal(s->root_cell.num_irq_pins, 6);
	for (i = 0; i < 6; i++)
		assert_int_equal(warden_cell_irq_pins(&s->root_cell)[i].gsi,
				 root_pins[i]);
	assert_int_equal(s->root_cell.num_pci_devices, 4);
	d = find_dev(&c, 0xfa); /* 00:1f.2 AHCI: MSI, INTA on GSI 10 */
	assert_true(d->vendor_id == 0x8086 && d->device_id == 0x2922 &&
		    d->flags == WARDEN_PCI_MSI && d->int_pin == 1 &&
		    d->gsi == 10);
	assert_true(d->bars[5].address == 0xfebff000 &&
		    d->bars[5].size == 0x1000 && d->bars[4].address == 0xc040 &&
		    d->bars[4].flags == WARDEN_PCI_BAR_IO);
	d = find_dev(&c, 0xfb); /* 00:1f.3 SMBus: the same line */
	assert_true(d->int_pin == 1 && d->gsi == 10 && d->flags == 0);
	assert_non_null(strstr(text, "# 0000:00:1f.3: class 0x0c0500, no "
				     "driver\n"));

	/* the SMBus function alone splits the line with the AHCI one */
	q35_cell(yaml, sizeof(yaml), false);
	assert_int_equal(cy_compile(&cell, "smbus.yaml", yaml, strlen(yaml)),
			 0);
	assert_int_equal(config_check_cell(cell.blob, cell.size, c.blob, c.size,
					   NULL, NULL, 0, log_rule, &log),
			 1);
	assert_int_equal(log.rules[0], WARDEN_RULE_PCI_INTX_SHARED);
	cy_free(&cell);
	/* with both, the cell is valid */
	q35_cell(yaml, sizeof(yaml), true);
	assert_int_equal(cy_compile(&cell, "smbus.yaml", yaml, strlen(yaml)),
			 0);
	assert_int_equal(config_check_cell(cell.blob, cell.size, c.blob, c.size,
					   NULL, NULL, 0, NULL, NULL),
			 0);
	cy_free(&cell);
	cy_free(&c);
	free(text);
	free(warnings);
}

/* ---- a made-up machine in a temporary folder ---- */

static char root[64];

static void put(const char *path, const void *data, size_t len)
{
	char full[256], *slash;
	FILE *f;

	snprintf(full, sizeof(full), "%s%s", root, path);
	for (slash = strchr(full + strlen(root) + 1, '/'); slash;
	     slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		assert_true(mkdir(full, 0755) == 0 || errno == EEXIST);
		*slash = '/';
	}
	f = fopen(full, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
}

static void put_text(const char *path, const char *text)
{
	put(path, text, strlen(text));
}

/* A fresh machine under a new root: its possible CPUs and command line. */
static void new_machine(const char *possible, const char *cmdline)
{
	strcpy(root, "/tmp/warden-create-XXXXXX");
	assert_non_null(mkdtemp(root));
	put_text("/sys/devices/system/cpu/possible", possible);
	put_text("/proc/cmdline", cmdline);
}

/* An ACPI table: header with signature and checksum, then body. */
static size_t acpi_table(uint8_t *t, const char *sig, const uint8_t *body,
			 size_t len)
{
	uint8_t sum = 0;
	size_t i, total = 36 + len;

	memset(t, 0, 36);
	memcpy(t, sig, 4);
	t[4] = (uint8_t)total;
	t[5] = (uint8_t)(total >> 8);
	t[8] = 1;
	memcpy(t + 36, body, len);
	for (i = 0; i < total; i++)
		sum = (uint8_t)(sum + t[i]);
	t[9] = (uint8_t)-sum;
	return total;
}

static size_t madt(uint8_t *t)
{
	static const uint8_t body[] = {
		0x00,
		0x00,
		0xe0,
		0xfe,
		1,
		0,
		0,
		0, /* LAPIC, flags */
		/* x2APIC 0..3 (type 9), CPU 3 disabled */
		9,
		16,
		0,
		0,
		0,
		0,
		0,
		0,
		1,
		0,
		0,
		0,
		0,
		0,
		0,
		0, /* */
		9,
		16,
		0,
		0,
		1,
		0,
		0,
		0,
		1,
		0,
		0,
		0,
		1,
		0,
		0,
		0, /* */
		9,
		16,
		0,
		0,
		2,
		0,
		0,
		0,
		1,
		0,
		0,
		0,
		2,
		0,
		0,
		0, /* */
		9,
		16,
		0,
		0,
		3,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		3,
		0,
		0,
		0, /* */
		/* two I/O APICs */
		1,
		12,
		8,
		0,
		0x00,
		0x00,
		0xc0,
		0xfe,
		0,
		0,
		0,
		0, /* */
		1,
		12,
		9,
		0,
		0x00,
		0x10,
		0xc0,
		0xfe,
		24,
		0,
		0,
		0, /* */
		/* an unknown entry type is skipped */
		0x7f,
		3,
		0,
	};

	return acpi_table(t, "APIC", body, sizeof(body));
}

static size_t mcfg(uint8_t *t)
{
	static const uint8_t body[] = {
		0, 0, 0, 0,    0, 0, 0, 0, /* reserved */
		0, 0, 0, 0xb0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0, 0, 0, 0, /* */
		0, 0, 0, 0xe0, 0, 0, 0, 0, 1, 0, 1, 0x0f, 0, 0, 0, 0, /* */
	};

	return acpi_table(t, "MCFG", body, sizeof(body));
}

static size_t fadt(uint8_t *t)
{
	uint8_t body[244 - 36];

	memset(body, 0, sizeof(body));
	body[208 - 36] = 1; /* X_PM_TMR_BLK: I/O space */
	body[212 - 36] = 0x08;
	body[213 - 36] = 0x06;
	return acpi_table(t, "FACP", body, sizeof(body));
}

/* Two DMA remapping units of segment 0, the second for every other
 * device (INCLUDE_PCI_ALL) with the first IOAPIC's scope (id 8, ff:00.0
 * as QEMU writes it); a reserved memory region (RMRR); a third unit for
 * all of segment 1. */
static size_t dmar(uint8_t *t)
{
	static const uint8_t body[] = {
		38, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* width, flags */
		/* DRHD for one device (a device scope of 8 bytes) */
		0, 0, 24, 0, 0, 0, 0, 0, /* type, length, flags, segment */
		0x00, 0x10, 0xd9, 0xfe, 0, 0, 0, 0, /* 0xfed91000 */
		1, 8, 0, 0, 0, 0, 2, 0, /* scope: endpoint 00:02.0 */
		/* DRHD with INCLUDE_PCI_ALL */
		0, 0, 24, 0, 1, 0, 0, 0,	    /* */
		0x00, 0x00, 0xd9, 0xfe, 0, 0, 0, 0, /* 0xfed90000 */
		3, 8, 0, 0, 8, 0xff, 0, 0, /* scope: IOAPIC 8 at ff:00.0 */
		/* RMRR */
		1, 0, 24, 0, 0, 0, 0, 0,      /* */
		0, 0, 0, 0, 0, 0, 0, 0,	      /* */
		0xff, 0x0f, 0, 0, 0, 0, 0, 0, /* */
		/* DRHD with INCLUDE_PCI_ALL, segment 1 */
		0, 0, 16, 0, 1, 0, 1, 0,	    /* */
		0x00, 0x20, 0xd9, 0xfe, 0, 0, 0, 0, /* 0xfed92000 */
	};

	return acpi_table(t, "DMAR", body, sizeof(body));
}

/* The text with its commented-out links: block uncommented. */
static char *uncomment_links(const char *text)
{
	char *out = strdup(text), *p;

	assert_non_null(out);
	p = strstr(out, "\n#links:\n");
	assert_non_null(p);
	/* each line from there on loses its '#' */
	for (; p && p[1] == '#'; p = strchr(p + 1, '\n'))
		memmove(p + 1, p + 2, strlen(p + 2) + 1);
	return out;
}

static const char made_up_iomem[] = "00000000-00000fff : Reserved\n"
				    "00001000-0009fbff : System RAM\n"
				    "0009fc00-0009ffff : Reserved\n"
				    "000a0000-000bffff : PCI Bus 0000:00\n"
				    "000f0000-000fffff : Reserved\n"
				    "  000f0000-000fffff : System ROM\n"
				    "00100000-3fffffff : System RAM\n"
				    "40000000-47ffffff : Reserved\n"
				    "48000000-7ffdffff : System RAM\n"
				    "7ffe0000-7fffffff : Reserved\n"
				    "80000000-afffffff : PCI Bus 0000:00\n"
				    "b0000000-bfffffff : PCI MMCONFIG 0000 "
				    "[bus 00-ff]\n"
				    "  b0000000-bfffffff : Reserved\n"
				    "c0000000-febfffff : PCI Bus 0000:00\n"
				    "  fd000000-fdffffff : 0000:00:01.0\n"
				    "fec00000-fec003ff : IOAPIC 0\n"
				    "fed00000-fed003ff : HPET 0\n"
				    "  fed00000-fed003ff : PNP0103:00\n"
				    "fee00000-fee00fff : Local APIC\n"
				    "feffc000-feffffff : Reserved\n"
				    "fffc0000-ffffffff : Reserved\n"
				    "100000000-17fffffff : System RAM\n"
				    "180000000-1ffffffff : PCI Bus 0000:00\n";

/* A second memmap= reservation (above 4 GiB, reserved in /proc/iomem) is
 * more cell memory, cut from root; a third over System RAM is not
 * reserved and stays root's, with a warning. */
static void more_reservations(void **state)
{
	struct cy_config c;
	const struct warden_system_desc *s;
	const struct warden_mem_region *r;
	char *text, *warnings, err[256];
	unsigned int i, found = 0;

	(void)state;
	new_machine("0-15\n", "memmap=64M$0x30000000 memmap=2G$0x100000000 "
			      "memmap=16M$0x50000000\n");
	put_text("/proc/iomem", "00000000-00000fff : Reserved\n"
				"00001000-0009fbff : System RAM\n"
				"00100000-2fffffff : System RAM\n"
				"30000000-33ffffff : Reserved\n"
				"34000000-7fffffff : System RAM\n"
				"fec00000-fec003ff : IOAPIC 0\n"
				"fee00000-fee00fff : Local APIC\n"
				"100000000-17fffffff : Reserved\n"
				"180000000-1ffffffff : PCI Bus 0000:00\n");
	put_text("/proc/ioports", "0000-0cf7 : PCI Bus 0000:00\n");
	assert_int_equal(create(root, CC_HV_SIZE_DEFAULT, &text, err,
				sizeof(err), &warnings),
			 0);
	assert_non_null(strstr(warnings, "memmap=16M$0x50000000 is not a "
					 "reserved range in /proc/iomem: left "
					 "to root"));
	assert_non_null(strstr(text, "# /proc/cmdline: memmap=2G$0x100000000, "
				     "more cell memory"));
	assert_non_null(strstr(text, "# cell memory: another reservation"));
	compile_valid(&c, text);
	s = sys_of(&c);
	for (i = 0; i < s->root_cell.num_memory_regions; i++) {
		r = &regions(&c)[i];
		if (r->phys_start == 0x100000000ull) {
			assert_true(r->size == 0x80000000ull);
			assert_false(r->flags & WARDEN_MEM_IO);
			found++;
		}
		/* the third stays in root's RAM, as one region */
		if (r->phys_start <= 0x50000000 &&
		    r->phys_start + r->size > 0x50000000) {
			assert_true(r->phys_start == 0x34000000);
			found++;
		}
	}
	assert_int_equal(found, 2);
	free(text);
	free(warnings);
	cy_free(&c);

	/* the hypervisor's default share grows with the CPUs beyond 16 */
	{
		struct warden_cpu_set set;
		unsigned int cpu;

		memset(&set, 0, sizeof(set));
		for (cpu = 0; cpu < 16; cpu++)
			warden_cpu_set_add(&set, cpu);
		assert_true(cc_default_hv_size(&set) == 6ull << 20);
		warden_cpu_set_add(&set, 16);
		assert_true(cc_default_hv_size(&set) == 7ull << 20);
		for (cpu = 17; cpu < 256; cpu++)
			warden_cpu_set_add(&set, cpu);
		assert_true(cc_default_hv_size(&set) == 14ull << 20);
	}
}

static void made_up_machine(void **state)
{
	uint8_t t[512];
	struct cy_config c;
	const struct warden_system_desc *s;
	const struct warden_mem_region *r;
	char *text, *warnings, err[256], *example;
	unsigned int i, found = 0;

	(void)state;
	new_machine("0-3\n", "BOOT_IMAGE=/vmlinuz root=/dev/sda1 "
			     "memmap=128M\\$0x40000000 quiet\n");
	put_text("/proc/iomem", made_up_iomem);
	put_text("/proc/ioports", "0000-0cf7 : PCI Bus 0000:00\n"
				  "  02f8-02ff : serial\n"
				  "  03f8-03ff : serial\n"
				  "0cf8-0cff : PCI conf1\n");
	put("/sys/firmware/acpi/tables/APIC", t, madt(t));
	put("/sys/firmware/acpi/tables/MCFG", t, mcfg(t));
	put("/sys/firmware/acpi/tables/FACP", t, fadt(t));
	put("/sys/firmware/acpi/tables/DMAR", t, dmar(t));
	/* two IOAPICs (GSIs 0-23, 24-47), interrupt remapping, and a line
	 * as kernels before 3.19 wrote it (no pin) */
	put_text("/proc/interrupts", "            CPU0       CPU1\n"
				     "   0:         20          0  IR-IO-APIC  "
				     "  2-edge      timer\n"
				     "   7:          0          0   "
				     "IO-APIC-edge      parport0\n"
				     "  30:          5          0  IR-IO-APIC  "
				     "  6-fasteoi   eth1, "
				     "eth2\n"
				     "  31:          0          0  DMAR-MSI    "
				     "0-edge      dmar0\n"
				     "  50:          0          0  IR-IO-APIC  "
				     " "
				     "26-fasteoi  eth3\n"
				     " NMI:          0          0   "
				     "Non-maskable interrupts\n");

	assert_int_equal(
		create(root, 16 << 20, &text, err, sizeof(err), &warnings), 0);
	assert_non_null(strstr(warnings, "Linux uses ports 0x2f8-0x2ff "
					 "(/proc/ioports: 02f8-02ff : "
					 "serial)"));
	assert_non_null(strstr(text, "# WARNING: Linux uses ports"));
	compile_valid(&c, text);
	s = sys_of(&c);
	assert_true(s->hv_mem_start == 0x40000000 &&
		    s->hv_mem_size == 16 << 20);
	assert_true(s->platform.mmconfig_base == 0xb0000000);
	assert_int_equal(s->platform.mmconfig_end_bus, 0xff);
	assert_int_equal(s->platform.pm_timer_port, 0x608);
	assert_true(s->platform.iommu_base == 0xfed90000);
	assert_non_null(strstr(text, "iommu_base: 0xfed90000 # ACPI DMAR: the "
				     "DRHD with INCLUDE_PCI_ALL, segment 0"));
	/* every unit and what it covers, as a comment */
	assert_non_null(strstr(text, "  # the IOMMU (ACPI DMAR): 39-bit DMA "
				     "addresses, interrupt remapping, 3 units; "
				     "unit 0xfed91000: 00:02.0; unit "
				     "0xfed90000: every function of segment 0 "
				     "no other unit lists, IOAPIC 8 at "
				     "ff:00.0; unit 0xfed92000: every function "
				     "of segment 1 no other unit lists\n"));
	/* the units in the config, and the IOAPIC's source id */
	assert_non_null(strstr(text, "  iommus:\n"
				     "    - {base: 0xfed91000, segment: 0, "
				     "scope: [\"00:02.0\"]}\n"
				     "    - {base: 0xfed90000, segment: 0, "
				     "include_pci_all: true}\n"
				     "    - {base: 0xfed92000, segment: 1, "
				     "include_pci_all: true}\n"));
	assert_int_equal(s->platform.num_iommus, 3);
	assert_int_equal(warden_system_iommus(s)[0].num_scopes, 1);
	assert_int_equal(warden_system_iommus(s)[0].scopes[0].bdf, 0x10);
	assert_int_equal(warden_system_iommus(s)[0].scopes[0].type,
			 WARDEN_IOMMU_SCOPE_FUNCTION);
	assert_int_equal(warden_system_iommus(s)[1].flags,
			 WARDEN_IOMMU_INCLUDE_PCI_ALL);
	assert_int_equal(warden_system_ioapics(s)[0].source_id, 0xff00);
	assert_int_equal(warden_system_ioapics(s)[1].source_id,
			 WARDEN_NO_SOURCE_ID);
	assert_int_equal(s->platform.hpet_source_id, WARDEN_NO_SOURCE_ID);
	assert_true(s->root_cell.cpus.bits[0] == 0xf);
	assert_non_null(strstr(text, "ACPI MADT: 3 enabled CPUs"));
	for (i = 0; i < s->root_cell.num_memory_regions; i++) {
		r = &regions(&c)[i];
		if (r->phys_start == 0x41000000 && r->size == 0x7000000)
			found |= 1; /* the cells' part of the reservation */
		if (r->phys_start == 0xb0000000 && r->size == 0x10000000 &&
		    (r->flags & WARDEN_MEM_IO))
			found |= 2; /* MMCONFIG segment 0 */
		if (r->phys_start == 0xfec01000 && r->size == 0x1000)
			found |= 4; /* the second I/O APIC, from the MADT */
		if (r->phys_start == 0x100000000 && !(r->flags & WARDEN_MEM_IO))
			found |= 8; /* RAM above 4 GiB */
		if (r->phys_start == 0x48000000 && r->size == 0x37fe0000)
			found |= 16; /* RAM up to the reserved range ... */
		if (r->phys_start == 0x7ffe0000 && (r->flags & WARDEN_MEM_IO))
			found |= 32; /* ... which is below the PCI hole */
		if (r->phys_start == 0xfffc0000 && (r->flags & WARDEN_MEM_IO))
			found |= 64; /* the BIOS flash */
		if (r->phys_start <= 0x40000000 &&
		    r->phys_start + r->size > 0x40000000)
			fail_msg("hypervisor memory mapped for root");
	}
	if (found != 127)
		fail_msg("regions missing (found 0x%x):\n%s", found, text);
	/* no link, but an example that is valid once uncommented, its
	 * memory at the top of the reservation */
	assert_int_equal(s->platform.num_links, 0);
	cy_free(&c);
	example = uncomment_links(text);
	compile_valid(&c, example);
	assert_int_equal(sys_of(&c)->platform.num_links, 1);
	assert_non_null(strstr(example, "memory: {phys: 0x47f00000, size: "
					"1M}"));
	free(example);
	s = sys_of(&c);
	/* pins: GSI 2 (pin 2 of the first IOAPIC), 7 (old format: the
	 * IRQ), 30 (above the ISA IRQs: the IRQ is the GSI) */
	assert_int_equal(s->root_cell.num_irq_pins, 4);
	assert_int_equal(warden_cell_irq_pins(&s->root_cell)[3].gsi, 50);
	assert_int_equal(warden_cell_irq_pins(&s->root_cell)[0].gsi, 2);
	assert_int_equal(warden_cell_irq_pins(&s->root_cell)[1].gsi, 7);
	assert_int_equal(warden_cell_irq_pins(&s->root_cell)[2].gsi, 30);
	assert_non_null(strstr(text, "- 30 # IRQ 30: eth1, eth2\n"));
	assert_int_equal(s->platform.num_ioapics, 2);
	assert_int_equal(warden_system_ioapics(s)[1].gsi_base, 24);
	/* GSI 50 is pin 26 of the second IOAPIC: it has at least 27 */
	assert_int_equal(warden_system_ioapics(s)[0].num_pins, 24);
	assert_int_equal(warden_system_ioapics(s)[1].num_pins, 27);
	assert_non_null(strstr(text, "pins: 27} # more than 24"));
	assert_non_null(strstr(text, "/sys/bus/pci/devices cannot be read"));
	cy_free(&c);
	free(text);
	free(warnings);

	/* PCI functions read without root (64 bytes of config space: no
	 * capabilities), in another segment, with an unassigned BAR and an
	 * INTx Linux routed nowhere */
	memset(t, 0, 64);
	t[0x06] = 0x10; /* a capability list, beyond the 64 bytes */
	t[0x3d] = 2;	/* INTB */
	put("/sys/bus/pci/devices/0001:02:1f.7/config", t, 64);
	put_text("/sys/bus/pci/devices/0001:02:1f.7/vendor", "0x15b3\n");
	put_text("/sys/bus/pci/devices/0001:02:1f.7/device", "0x1017\n");
	put_text("/sys/bus/pci/devices/0001:02:1f.7/class", "0x020000\n");
	put_text("/sys/bus/pci/devices/0001:02:1f.7/irq", "0\n");
	put_text("/sys/bus/pci/devices/0001:02:1f.7/resource",
		 "0x0000000000000000 0x0000000001ffffff 0x000000002014220c\n"
		 "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
		 "0x00000000fd000000 0x00000000fd0fffff 0x0000000000040200\n");
	put_text("/sys/bus/pci/devices/not-a-function/vendor", "0x1\n");
	assert_int_equal(
		create(root, 16 << 20, &text, err, sizeof(err), &warnings), 0);
	compile_valid(&c, text);
	s = sys_of(&c);
	assert_int_equal(s->root_cell.num_pci_devices, 1);
	assert_non_null(strstr(text, "    - bdf: 0001:02:1f.7\n"));
	assert_non_null(strstr(text, "capabilities not readable"));
	assert_non_null(strstr(text, "int_pin: B\n"));
	assert_non_null(strstr(text, "gsi: none # irq 0: Linux routed no "
				     "INTx"));
	assert_non_null(strstr(text, "# BAR 0: not assigned by Linux"));
	assert_non_null(strstr(text, "{bar: 2, address: 0xfd000000, size: "
				     "1M, type: mem32}"));
	/* segment 1's MMCONFIG lies in the PCI window: a note there */
	assert_non_null(strstr(text, "PCI MMCONFIG of segment 1, buses 1-15 "
				     "(ACPI MCFG)"));
	assert_non_null(strstr(text, "the HPET (/proc/iomem: fed00000-fed003ff "
				     ": HPET 0)"));
	cy_free(&c);
	free(text);
	free(warnings);
}

/* A function at path (under /sys/devices/pci0000:00/) with sysfs's link
 * from /sys/bus/pci/devices; cfg: len bytes of its config space (64: as
 * a user other than root reads it). */
static void sys_function_len(const char *path, const uint8_t *cfg, size_t len,
			     const char *class)
{
	char dir[160], file[224], link[256], target[224];
	const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;

	snprintf(dir, sizeof(dir), "/sys/devices/pci0000:00/%s", path);
	snprintf(file, sizeof(file), "%s/config", dir);
	put(file, cfg, len);
	snprintf(file, sizeof(file), "%s/vendor", dir);
	put_text(file, "0x8086\n");
	snprintf(file, sizeof(file), "%s/device", dir);
	put_text(file, "0x244e\n");
	snprintf(file, sizeof(file), "%s/class", dir);
	put_text(file, class);
	snprintf(file, sizeof(file), "%s/irq", dir);
	put_text(file, "0\n");
	snprintf(file, sizeof(file), "%s/resource", dir);
	put_text(file, "0x0000000000000000 0x0000000000000000 "
		       "0x0000000000000000\n");
	snprintf(link, sizeof(link), "%s/sys/bus", root);
	assert_true(mkdir(link, 0755) == 0 || errno == EEXIST);
	strcat(link, "/pci");
	assert_true(mkdir(link, 0755) == 0 || errno == EEXIST);
	strcat(link, "/devices");
	assert_true(mkdir(link, 0755) == 0 || errno == EEXIST);
	snprintf(link, sizeof(link), "%s/sys/bus/pci/devices/%s", root, name);
	snprintf(target, sizeof(target), "../../../devices/pci0000:00/%s",
		 path);
	assert_true(symlink(target, link) == 0);
}

static void sys_function(const char *path, const uint8_t *cfg,
			 const char *class)
{
	sys_function_len(path, cfg, 256, class);
}

/* A bridge's config space: a PCI Express capability of port type
 * (-1: none, a conventional bridge) and its secondary bus. */
static void bridge_cfg(uint8_t *cfg, int type, uint8_t secondary)
{
	memset(cfg, 0, 256);
	cfg[0x0e] = 1; /* a PCI-to-PCI bridge's header */
	cfg[0x19] = secondary;
	if (type < 0)
		return;
	cfg[0x06] = 0x10; /* a capability list */
	cfg[0x34] = 0x40;
	cfg[0x40] = 0x10; /* PCI Express, the last */
	cfg[0x42] = (uint8_t)(type << 4);
}

/* Requester-id aliases of functions behind bridges (dma_alias): behind
 * a PCIe-to-PCI bridge (port type 7) the secondary bus with device and
 * function 0, behind a conventional bridge that bridge's id, behind a
 * root port (type 4) none -- what the IOMMU sees of their DMA. */
static void bridge_aliases(void **state)
{
	uint8_t t[512], cfg[256], plain[256] = { 0 };
	const char *bridge = "0x060400\n", *nic = "0x020000\n";
	struct cy_config c;
	char *text, *warnings, err[256];

	(void)state;
	new_machine("0-3\n", "memmap=128M\\$0x40000000\n");
	put_text("/proc/iomem", made_up_iomem);
	put("/sys/firmware/acpi/tables/APIC", t, madt(t));
	put("/sys/firmware/acpi/tables/MCFG", t, mcfg(t));
	put("/sys/firmware/acpi/tables/FACP", t, fadt(t));
	put("/sys/firmware/acpi/tables/DMAR", t, dmar(t));
	bridge_cfg(cfg, 7, 2);
	sys_function("0000:00:1e.0", cfg, bridge);
	sys_function("0000:00:1e.0/0000:02:01.0", plain, nic);
	sys_function("0000:00:1e.0/0000:02:02.0", plain, nic);
	bridge_cfg(cfg, 4, 3);
	sys_function("0000:00:1c.0", cfg, bridge);
	bridge_cfg(cfg, -1, 4);
	sys_function("0000:00:1c.0/0000:03:00.0", cfg, bridge);
	sys_function("0000:00:1c.0/0000:03:00.0/0000:04:05.0", plain, nic);
	/* a bridge whose capabilities cannot be read: said, not guessed */
	bridge_cfg(cfg, 7, 5);
	sys_function_len("0000:00:1d.0", cfg, 64, bridge);
	sys_function("0000:00:1d.0/0000:05:01.0", plain, nic);
	assert_int_equal(
		create(root, 16 << 20, &text, err, sizeof(err), &warnings), 0);
	compile_valid(&c, text);
	assert_int_equal(sys_of(&c)->root_cell.num_pci_devices, 8);
	assert_int_equal(find_dev(&c, 0x508)->flags, 0);
	assert_non_null(strstr(text, "      # dma_alias unknown: bridge "
				     "0000:00:1d.0's capabilities not readable "
				     "(run as root)\n"));
	assert_true(find_dev(&c, 0x208)->flags == WARDEN_PCI_DMA_ALIAS &&
		    find_dev(&c, 0x208)->dma_alias == 0x200);
	assert_true(find_dev(&c, 0x210)->flags == WARDEN_PCI_DMA_ALIAS &&
		    find_dev(&c, 0x210)->dma_alias == 0x200);
	assert_true(find_dev(&c, 0x428)->flags == WARDEN_PCI_DMA_ALIAS &&
		    find_dev(&c, 0x428)->dma_alias == 0x300);
	/* the bridges themselves, and a function behind a root port only */
	assert_int_equal(find_dev(&c, 0xf0)->flags, 0);
	assert_int_equal(find_dev(&c, 0xe0)->flags, 0);
	assert_int_equal(find_dev(&c, 0x300)->flags, 0);
	assert_non_null(strstr(text, "      dma_alias: \"02:00.0\" # its DMA's "
				     "requester id behind the PCIe-to-PCI "
				     "bridge 0000:00:1e.0\n"));
	assert_non_null(strstr(text, "      dma_alias: \"03:00.0\" # its DMA's "
				     "requester id behind the conventional "
				     "PCI bridge 0000:03:00.0\n"));
	cy_free(&c);
	free(text);
	free(warnings);
}

static void refusals(void **state)
{
	char *text, *warnings, err[256];
	char zeros[] = "00000000-00000000 : Reserved\n"
		       "00000000-00000000 : System RAM\n";

	(void)state;
	/* the folder of made_up_machine, changed */
	put_text("/proc/cmdline", "quiet memmap=64M@0x30000000\n");
	assert_int_equal(create(root, CC_HV_SIZE_DEFAULT, &text, err,
				sizeof(err), &warnings),
			 -1);
	assert_non_null(strstr(err, "no memmap=SIZE$ADDR reservation"));
	free(text);
	free(warnings);
	/* GRUB took "$0" for a variable: named, with the escaped form */
	put_text("/proc/cmdline", "quiet memmap=64Mx30000000\n");
	assert_int_equal(create(root, CC_HV_SIZE_DEFAULT, &text, err,
				sizeof(err), &warnings),
			 -1);
	assert_non_null(strstr(err, "memmap=64Mx30000000 on the kernel "
				    "command line is a reservation GRUB "
				    "mangled"));
	assert_non_null(strstr(err, "write memmap=64M\\\\\\$0x30000000 in "
				    "/etc/default/grub"));
	free(text);
	free(warnings);
	put_text("/proc/cmdline", "memmap=64M$0x30000000\n");
	assert_int_equal(create(root, 128 << 20, &text, err, sizeof(err),
				&warnings),
			 -1);
	assert_non_null(strstr(err, "must fit in the reservation"));
	free(text);
	free(warnings);
	put_text("/proc/iomem", zeros);
	assert_int_equal(create(root, CC_HV_SIZE_DEFAULT, &text, err,
				sizeof(err), &warnings),
			 -1);
	assert_non_null(strstr(err, "shows no addresses: run as root"));
	free(text);
	free(warnings);
	assert_int_equal(create("/nonexistent", CC_HV_SIZE_DEFAULT, &text, err,
				sizeof(err), &warnings),
			 -1);
	assert_non_null(strstr(err, "cannot read /nonexistent/sys/devices/"
				    "system/cpu/possible"));
	free(text);
	free(warnings);
	/* without ACPI tables and without a reserved range: fallbacks */
	put_text("/proc/iomem", made_up_iomem);
	put_text("/sys/firmware/acpi/tables/APIC", "APIC");
	assert_int_equal(unlink(strcat(strcpy(err, root), "/sys/firmware/acpi/"
							  "tables/MCFG")),
			 0);
	assert_int_equal(create(root, CC_HV_SIZE_DEFAULT, &text, err,
				sizeof(err), &warnings),
			 0);
	assert_non_null(strstr(warnings, "memmap=64M$0x30000000 is not a "
					 "reserved range in /proc/iomem"));
	assert_non_null(strstr(text, "the local APIC at its default address "
				     "(ACPI MADT: not the expected ACPI "
				     "table)"));
	assert_non_null(strstr(text, "an I/O APIC (/proc/iomem: "
				     "fec00000-fec003ff : IOAPIC 0)"));
	assert_non_null(strstr(text, "no PCI MMCONFIG (ACPI MCFG: no such "
				     "table)"));
	free(text);
	free(warnings);
	snprintf(err, sizeof(err), "rm -rf %s", root);
	assert_int_equal(system(err), 0);
}

static void acpi_damaged(void **state)
{
	uint8_t t[512];
	struct acpi_madt m;
	struct acpi_mcfg e[ACPI_MAX_MCFG];
	const char *why;
	unsigned int n;
	uint64_t base;
	uint16_t port;
	size_t len = madt(t);

	(void)state;
	assert_int_equal(acpi_parse_madt(t, len, &m, &why), 0);
	assert_int_equal(m.cpus, 3);
	assert_int_equal(m.n_ioapics, 2);
	assert_int_equal(m.ioapic[1].gsi_base, 24);
	assert_int_equal(acpi_parse_madt(t, len - 1, &m, &why), -1);
	t[50]++;
	assert_int_equal(acpi_parse_madt(t, len, &m, &why), -1);
	assert_string_equal(why, "the table's checksum is wrong");
	t[50]--;
	t[45] = 0; /* the first entry's length */
	t[9] = (uint8_t)(t[9] + 16);
	assert_int_equal(acpi_parse_madt(t, len, &m, &why), -1);
	assert_string_equal(why, "an entry of the table is damaged");
	assert_int_equal(acpi_parse_hpet(t, len, &base, &why), -1);
	assert_int_equal(acpi_parse_mcfg(t, 10, e, 8, &n, &why), -1);
	len = mcfg(t);
	assert_int_equal(acpi_parse_mcfg(t, len, e, 1, &n, &why), 0);
	assert_int_equal(n, 1);
	len = fadt(t);
	assert_int_equal(acpi_parse_fadt(t, len, &port, &why), 0);
	assert_int_equal(port, 0x608);
	assert_int_equal(acpi_parse_fadt(t, 60, &port, &why), -1);
	len = dmar(t);
	assert_int_equal(acpi_parse_dmar(t, len, &base, &why), 0);
	assert_true(base == 0xfed90000);
	t[36 + 12 + 24 + 4] = 0; /* no INCLUDE_PCI_ALL: no IOMMU */
	t[9] = (uint8_t)(t[9] + 1);
	assert_int_equal(acpi_parse_dmar(t, len, &base, &why), 0);
	assert_true(base == 0);
	/* the first unit moved to segment 1: the second is the only one of
	 * segment 0, and serves all of it (QEMU's q35 with 16 CPUs and 4 GiB
	 * writes its one unit without INCLUDE_PCI_ALL) */
	t[36 + 12 + 6] = 1;
	t[9] = (uint8_t)(t[9] - 1);
	assert_int_equal(acpi_parse_dmar(t, len, &base, &why), 0);
	assert_true(base == 0xfed90000);
	t[36 + 12 + 6] = 0;
	t[9] = (uint8_t)(t[9] + 1);
	t[36 + 12 + 2] = 2; /* the first DRHD's length */
	t[9] = (uint8_t)(t[9] + 22);
	assert_int_equal(acpi_parse_dmar(t, len, &base, &why), -1);
	assert_string_equal(why, "an entry of the table is damaged");
	assert_int_equal(acpi_parse_dmar(t, 40, &base, &why), -1);
}

/* The units as the config gets them (cc_iommu_units): a scoped unit
 * alone in its segment whose scope does not fit becomes include_pci_all;
 * beside another unit its entries past 8 are left out, named; an
 * endpoint behind a bridge is left out; the IOAPIC's and HPET's source
 * ids from their one-hop scopes. */
static void iommu_units_made(void **state)
{
	static struct platform p;
	struct acpi_dmar_unit *u;
	unsigned int k;

	(void)state;
	memset(&p, 0, sizeof(p));
	p.have_dmar = true;
	p.madt_cpus = 1;
	p.madt.n_ioapics = 1;
	p.madt.ioapic[0].id = 2;
	p.dmar.num_units = 1;
	u = &p.dmar.units[0];
	u->base = 0xfed90000;
	for (k = 0; k < 9; k++) {
		u->scopes[k].type = ACPI_DMAR_SCOPE_ENDPOINT;
		u->scopes[k].hops = 1;
		u->scopes[k].source_id = (uint16_t)(k << 3);
	}
	u->scopes[9] = (struct acpi_dmar_scope){ ACPI_DMAR_SCOPE_IOAPIC, 2, 1,
						 0xff00 };
	u->scopes[10] =
		(struct acpi_dmar_scope){ ACPI_DMAR_SCOPE_HPET, 0, 1, 0xff78 };
	u->num_scopes = 11;
	cc_iommu_units(NULL, &p);
	assert_int_equal(p.n_iommus, 1);
	assert_int_equal(p.iommus[0].flags, WARDEN_IOMMU_INCLUDE_PCI_ALL);
	assert_int_equal(p.iommus[0].num_scopes, 0);
	assert_non_null(strstr(p.iommu_notes, "written as include_pci_all"));
	assert_int_equal(p.ioapic_source_id[0], 0xff00);
	assert_int_equal(p.hpet_source_id, 0xff78);

	/* a second unit in the segment: the first keeps 8, the ninth named */
	p.dmar.num_units = 2;
	p.dmar.units[1].base = 0xfed91000;
	p.dmar.units[1].include_all = true;
	u->scopes[8].hops = 2; /* and one behind a bridge */
	cc_iommu_units(NULL, &p);
	assert_int_equal(p.n_iommus, 2);
	assert_int_equal(p.iommus[0].flags, 0);
	assert_int_equal(p.iommus[0].num_scopes, 8);
	assert_int_equal(p.iommus[0].scopes[7].bdf, 7 << 3);
	assert_non_null(strstr(p.iommu_notes, "00:08.0 of unit 0xfed90000 is "
					      "behind a bridge: not listed"));
	assert_int_equal(p.iommus[1].flags, WARDEN_IOMMU_INCLUDE_PCI_ALL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bochs_fixture),
		cmocka_unit_test(bochs_pci_fixture),
		cmocka_unit_test(qemu_q35_fixture),
		cmocka_unit_test(bridge_aliases),
		cmocka_unit_test(made_up_machine),
		cmocka_unit_test(iommu_units_made),
		cmocka_unit_test(refusals),
		cmocka_unit_test(acpi_damaged),
		cmocka_unit_test(more_reservations),
	};

	return cmocka_run_group_tests_name("config_create", tests, NULL, NULL);
}
