// SPDX-License-Identifier: GPL-2.0
/*
 * "warden config create" (tools/config_create.c, tools/acpi.c):
 *
 *  - on the files recorded in the Bochs test machine (2 CPUs, 1 GiB,
 *    memmap=64M$0x30000000; tests/unit/fixtures/bochs-2cpu/: /proc/iomem,
 *    /proc/ioports, /proc/cmdline, cpu/possible and the ACPI tables APIC,
 *    HPET, FACP as Linux exported them) the config compiles, validates,
 *    has the expected regions, and the demo cells fit into it;
 *  - on a made-up machine (written to a temporary folder): MCFG, an
 *    x2APIC MADT with two I/O APICs, RAM above 4 GiB, no HPET table, a
 *    UART on COM2 (a warning), an escaped memmap=;
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
#include "config_report.h"
#include "config_yaml.h"
#include <config_check.h>

#define BOCHS WARDEN_FIXTURES "/bochs-2cpu"

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

static void made_up_machine(void **state)
{
	uint8_t t[512];
	struct cy_config c;
	const struct warden_system_desc *s;
	const struct warden_mem_region *r;
	char *text, *warnings, err[256];
	unsigned int i, found = 0;

	(void)state;
	strcpy(root, "/tmp/warden-create-XXXXXX");
	assert_non_null(mkdtemp(root));
	put_text("/sys/devices/system/cpu/possible", "0-3\n");
	put_text("/proc/cmdline", "BOOT_IMAGE=/vmlinuz root=/dev/sda1 "
				  "memmap=128M\\$0x40000000 quiet\n");
	put_text("/proc/iomem", made_up_iomem);
	put_text("/proc/ioports", "0000-0cf7 : PCI Bus 0000:00\n"
				  "  02f8-02ff : serial\n"
				  "  03f8-03ff : serial\n"
				  "0cf8-0cff : PCI conf1\n");
	put("/sys/firmware/acpi/tables/APIC", t, madt(t));
	put("/sys/firmware/acpi/tables/MCFG", t, mcfg(t));
	put("/sys/firmware/acpi/tables/FACP", t, fadt(t));

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
	/* segment 1's MMCONFIG lies in the PCI window: a note there */
	assert_non_null(strstr(text, "PCI MMCONFIG of segment 1, buses 1-15 "
				     "(ACPI MCFG)"));
	assert_non_null(strstr(text, "the HPET (/proc/iomem: fed00000-fed003ff "
				     ": HPET 0)"));
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
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bochs_fixture),
		cmocka_unit_test(made_up_machine),
		cmocka_unit_test(refusals),
		cmocka_unit_test(acpi_damaged),
	};

	return cmocka_run_group_tests_name("config_create", tests, NULL, NULL);
}
